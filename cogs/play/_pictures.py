"""The picture on each table message: drawn off the event loop, only when it changed, uploaded only
when the message does not carry it already, and never holding the table's text back for long.

A table's picture is keyed by the hash of its scene (what the picture shows, from the public view).
Every edit of a table names the attachments the message keeps, as Discord documents for an edit
(`attachments`: the files to keep, by id; any not named are removed): an edit whose picture is the
one the message already has sends no file and names that attachment, by the id Discord returned with
the message when the picture was uploaded; a new picture is uploaded in place of the old; a table
without a picture names none. An edit that kept the picture without naming it would leave the embed
pointing at `attachment://table.png` on its own, which Discord has shown twice, in the embed and
again below it (discord/discord-api-docs#5675). What each message holds is known only in memory:
after a restart a table's first edit uploads its picture again (the bot cannot tell which picture
the message shows without reading it), and the edits after it name that upload. Drawn pictures are
kept in a small cache shared by all tables, so a table reposted with an unchanged picture uploads it
again without drawing it again.

Drawing starts as soon as a game changes (`prepare`), within a budget of CPU time (`CPU_SHARE` of
one core); tables put off by the budget are drawn oldest first, finished games' tables before the
live ones. A refresh waits for a new picture at most `WAIT_SECONDS` (drawing takes a few ms on a calm
bot, so text and picture usually go out in one edit). When drawing falls behind — many tables moving
at once — the text goes out first with the picture the message already shows, and the new picture
follows in a refresh of its own once drawn. Each table has at most one drawing under way: moves made
meanwhile are not drawn one by one, the follow-up draws the table as it is then.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import discord

import pictures
from bot.live import LiveGame

log = logging.getLogger("catnip.table")

CACHED_PICTURES = 256
DRAWING_THREADS = 1
"""One: the font objects are shared (rendering each word once), and FreeType faces are not safe to
render from two threads at once; with the GIL a second thread would gain little anyway."""
WAIT_SECONDS = 0.05
CPU_SHARE = 0.02
"""The share of one core pictures may take by default, averaged over time (~5 new pictures a second):
when many tables move at once, each table's picture is redrawn less often (its text stays current)
rather than slowing the games down. Set with bench.bot_load (docs/benchmarks.md, section 6); the
PICTURE_CPU_SHARE setting changes it."""
BURST_SECONDS = 0.1
"""Drawing time a calm bot may spend at once (a restart showing many tables, a few quick moves)."""
FINAL_PICTURES_WAITING = 64
"""Finished tables that may wait for the budget to draw their last picture. They go before the live
tables (a finished table keeps its picture in the channel; a live one's is soon out of date), and
when more games end than the budget draws, the oldest waiting keep the picture they show: each
waiting table holds its whole game in memory."""

SCENES_KEPT = 1024
"""Tables whose latest scene is kept: a move's scene is read when the game changes (to start drawing)
and again when its table is shown, and reading it (with its key, a hash of all it shows) costs about
as much as the rest of the picture's work on the event loop."""


@dataclass(frozen=True)
class Scene:
    """What a table's picture shows: the game's key, the scene, and the scene's key."""

    game: str
    content: tuple
    key: str


class DrawingBudget:
    """Seconds of drawing the bot may still spend: refilled at `share` of a second each second, up to
    `BURST_SECONDS`. A drawing reserves a guess of its cost when it starts and pays the rest (or gets
    the change back) when it ends, so a burst of tables cannot all start at once."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, share: float = CPU_SHARE) -> None:
        self.clock = clock
        self.share = share
        self.seconds = BURST_SECONDS
        self.guess = 0.005
        self._at = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.seconds = min(BURST_SECONDS, self.seconds + (now - self._at) * self.share)
        self._at = now

    def start(self) -> bool:
        """Reserve a drawing's cost if the budget allows one now."""
        self._refill()
        if self.seconds <= 0:
            return False
        self.seconds -= self.guess
        return True

    def settle(self, spent: float) -> None:
        self._refill()
        self.seconds += self.guess - spent
        self.guess = 0.8 * self.guess + 0.2 * spent

    def wait(self) -> float:
        """Seconds until the budget allows a drawing again."""
        self._refill()
        return max(0.0, -self.seconds / self.share) + 0.001


def timed_draw(game: str, scene: tuple) -> tuple[bytes, float]:
    """Draw a scene in the worker thread; also return the thread's CPU seconds it took."""
    start = time.thread_time()
    png = pictures.draw(game, scene)
    return png, time.thread_time() - start


@dataclass(frozen=True)
class Shown:
    """What a table message shows: its id, its picture's key, and the attachment holding the picture
    as Discord returned it with the message (None if it did not list it: the next edit uploads anew)."""

    message_id: int
    key: str
    attachment: discord.Attachment | None


@dataclass(frozen=True)
class Picture:
    key: str
    png: bytes

    def file(self) -> discord.File:
        """A fresh upload of the picture (a `discord.File` is read once, so each request gets its own)."""
        return discord.File(io.BytesIO(self.png), filename=pictures.FILENAME)


class TablePictures:
    """Draws table pictures in a worker thread and remembers which picture each table message shows.

    `follow_up(game)` is called when a picture a table went out without is ready (the presenter
    refreshes the table)."""

    def __init__(
        self,
        default: bool,
        follow_up: Callable[[LiveGame], None],
        clock: Callable[[], float] = time.monotonic,
        cpu_share: float = CPU_SHARE,
    ) -> None:
        """`clock`: the bot's, on which the drawing budget refills (a test's fast-forward clock too);
        `cpu_share`: the share of one core the drawings may take."""
        self.default = default
        self.follow_up = follow_up
        self.drawn = 0
        self._cache: OrderedDict[str, bytes] = OrderedDict()
        self._scenes: OrderedDict[int, tuple[object, list[str], Scene]] = OrderedDict()  # by game id
        self._shown: dict[int, Shown] = {}  # by game id
        self._drawing: dict[int, tuple[str, asyncio.Future]] = {}  # game id -> its drawing under way
        self._behind: dict[int, LiveGame] = {}  # tables that went out without their newest picture
        self._executor: ThreadPoolExecutor | None = None
        self.budget = DrawingBudget(clock, cpu_share)
        self._deferred: dict[int, LiveGame] = {}  # live tables waiting for the budget to draw their picture
        self._finals: dict[int, LiveGame] = {}  # finished tables waiting for it, drawn first
        self._wake: asyncio.Task | None = None
        self._closed = False

    def wanted(self, game: LiveGame) -> bool:
        return game.state is not None and game.pictures(self.default)

    def scene(self, game: LiveGame) -> Scene | None:
        """What the table's picture shows now (cheap: read it when the table's text is made), or None
        when the table shows no picture."""
        if not self.wanted(game):
            return None
        kept = self._scenes.get(game.id)
        if kept is not None and kept[0] is game.state and kept[1] == game.names:
            return kept[2]
        content = pictures.scene_of(
            game.record.game, game.view(None), game.names, game.rules.outcome(game.state)
        )
        scene = Scene(game.record.game, content, pictures.scene_key(content))
        self._scenes[game.id] = (game.state, list(game.names), scene)
        self._scenes.move_to_end(game.id)
        while len(self._scenes) > SCENES_KEPT:
            self._scenes.popitem(last=False)
        return scene

    def prepare(self, game: LiveGame) -> None:
        """Start drawing the table's new picture as soon as the game changes, so that it is ready by
        the time the table's refresh comes (refreshes wait their turn when many tables move)."""
        if game.id in self._drawing:
            return
        try:
            scene = self.scene(game)
        except Exception:
            log.exception("%s could not read the table's picture", game.log_prefix())
            return
        if scene is not None and scene.key not in self._cache:
            self._start(game, scene)

    def drawings(self) -> list[asyncio.Future]:
        """The drawings under way."""
        wake = [self._wake] if self._wake is not None else []
        return [drawing for _, drawing in self._drawing.values()] + wake

    async def picture(self, game: LiveGame, scene: Scene | None) -> Picture | None:
        """The picture to show with the table's text now: the scene's own if it is drawn within
        `WAIT_SECONDS`, else the one the table shows already (the new one follows)."""
        if scene is None:
            return None
        key = scene.key
        self._behind.pop(game.id, None)  # this refresh takes care of the table's newest picture
        png = self._cached(key)
        if png is not None:
            return Picture(key, png)
        drawn_key, drawing = self._drawing.get(game.id) or (key, self._start(game, scene))
        if drawing is not None:
            with contextlib.suppress(Exception):  # still drawing, or it failed (logged as it ended)
                await asyncio.wait_for(asyncio.shield(drawing), WAIT_SECONDS)
        png = self._cached(key)
        if png is not None:
            return Picture(key, png)
        if drawn_key != key and game.id not in self._drawing:
            self._start(game, scene)  # the drawing waited for was of an earlier move
        if not self._waiting_for_budget(game.id):
            self._behind[game.id] = game
        shown = self._shown.get(game.id)
        old = self._cached(shown.key) if shown is not None else None
        return Picture(shown.key, old) if old is not None else None

    async def draw_now(self, scene: Scene) -> Picture:
        """`scene`'s picture now, drawn in the pictures' thread if not kept (a replay viewer's step:
        one member's click waits for it, so it does not wait for the tables' budget)."""
        png = self._cached(scene.key)
        if png is None:
            loop = asyncio.get_running_loop()
            png, _ = await loop.run_in_executor(self._thread(), timed_draw, scene.game, scene.content)
            self._keep(scene.key, png)
        return Picture(scene.key, png)

    def _thread(self) -> ThreadPoolExecutor:
        """The pictures' one drawing thread."""
        if self._executor is None:
            self._executor = ThreadPoolExecutor(DRAWING_THREADS, thread_name_prefix="catnip-picture")
        return self._executor

    def _keep(self, key: str, png: bytes) -> None:
        self._cache[key] = png
        while len(self._cache) > CACHED_PICTURES:
            self._cache.popitem(last=False)

    def _cached(self, key: str) -> bytes | None:
        png = self._cache.get(key)
        if png is not None:
            self._cache.move_to_end(key)
        return png

    def _start(self, game: LiveGame, scene: Scene) -> asyncio.Future | None:
        """Start drawing `scene` in the worker thread, or put the table off until the budget allows."""
        if self._closed:
            return None
        if not self.budget.start():
            self._put_off(game)
            return None
        self._deferred.pop(game.id, None)
        self._finals.pop(game.id, None)
        drawing = asyncio.get_running_loop().run_in_executor(
            self._thread(), timed_draw, scene.game, scene.content
        )
        self._drawing[game.id] = (scene.key, drawing)
        drawing.add_done_callback(lambda done: self._drawn(game, scene.key, done))
        return drawing

    def _waiting_for_budget(self, game_id: int) -> bool:
        return game_id in self._deferred or game_id in self._finals

    def _put_off(self, game: LiveGame) -> None:
        """Wait for the budget to draw the table's picture; a finished game waits among the finals."""
        if game.record.status == "finished":
            self._deferred.pop(game.id, None)
            self._finals[game.id] = game
            while len(self._finals) > FINAL_PICTURES_WAITING:
                oldest = next(iter(self._finals))
                self.forget(oldest)
        else:
            self._deferred[game.id] = game
        if self._wake is None:
            self._wake = asyncio.create_task(self._wake_deferred())

    async def _wake_deferred(self) -> None:
        """Refresh the tables put off, finished ones first, then oldest first, as the budget allows
        (each draws as it refreshes)."""
        try:
            while self._finals or self._deferred:
                await asyncio.sleep(self.budget.wait())
                waiting = self._finals or self._deferred
                if not waiting:
                    continue
                game = waiting.pop(next(iter(waiting)))
                self.follow_up(game)
        finally:
            self._wake = None

    def _drawn(self, game: LiveGame, key: str, done: asyncio.Future) -> None:
        self._drawing.pop(game.id, None)
        behind = self._behind.pop(game.id, None)
        if done.cancelled():
            self.budget.settle(0.0)
            return
        if done.exception() is not None:
            self.budget.settle(0.0)
            log.error("%s could not draw the table's picture", game.log_prefix(), exc_info=done.exception())
            return
        png, spent = done.result()
        self.budget.settle(spent)
        self.drawn += 1
        self._keep(key, png)
        if behind is not None:
            self.follow_up(behind)

    def edit_kwargs(self, game: LiveGame, message_id: int, picture: Picture | None) -> dict:
        """The attachments an edit of table message `message_id` names to show `picture`: the one the
        message holds when it is that picture, else a new upload; none once the table shows no
        picture (an edit that names none removes any the message had)."""
        if picture is None:
            return {"attachments": []}
        shown = self._shown.get(game.id)
        held = shown.attachment if shown is not None else None
        if held is not None and (shown.message_id, shown.key) == (message_id, picture.key):
            return {"attachments": [held]}
        return {"attachments": [picture.file()]}

    def send_kwargs(self, picture: Picture | None) -> dict:
        return {} if picture is None else {"file": picture.file()}

    def shown(
        self,
        game: LiveGame,
        message_id: int,
        picture: Picture | None,
        attachments: Sequence[discord.Attachment] = (),
    ) -> None:
        """Remember that table message `message_id` now shows `picture` (None: no picture), held by
        the one of `attachments` (the message's, as Discord returned them with the edit or the post)
        named as the picture. A finished game's table showing its last picture is not changed again:
        nothing about it is kept."""
        if picture is None:
            self._shown.pop(game.id, None)
        elif game.record.status == "finished" and not self._still_drawing(game.id):
            self.forget(game.id)
        else:
            held = next((a for a in attachments if a.filename == pictures.FILENAME), None)
            self._shown[game.id] = Shown(message_id, picture.key, held)

    def _still_drawing(self, game_id: int) -> bool:
        return game_id in self._drawing or game_id in self._behind or self._waiting_for_budget(game_id)

    def forget(self, game_id: int) -> None:
        self._shown.pop(game_id, None)
        self._scenes.pop(game_id, None)
        self._behind.pop(game_id, None)
        self._deferred.pop(game_id, None)
        self._finals.pop(game_id, None)

    def close(self) -> None:
        """Draw nothing more: the tables still waiting for the budget keep the picture they show
        (at a thousand tables that wait could be minutes; a restart shows every table anew)."""
        self._closed = True
        self._deferred.clear()
        self._finals.clear()
        if self._wake is not None:
            self._wake.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def show_picture(embed: discord.Embed | None, picture: Picture | None) -> None:
    """Point the table's embed at its attached picture."""
    if embed is not None and picture is not None:
        embed.set_image(url=f"attachment://{pictures.FILENAME}")
