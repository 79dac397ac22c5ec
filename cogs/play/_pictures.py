"""The picture on each table message: drawn off the event loop, only when it changed, uploaded only
when the message does not carry it already, and always of the state the table's text shows.

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

A table's refresh waits for the picture of the state its text shows (`picture`), so text and picture
travel in one edit and no edit exists only to deliver a picture. Pictures are drawn one at a time in
a process of their own, shared by every bot of the Python process (`pictures.process`: Pillow's work
runs on another core than the event loop), within a budget of CPU time (`CPU_SHARE` of one core,
measured in the drawing process): the tables whose refresh waits go first — those waiting on a member
(or finished, their result to read) before those only computers play — then the tables that changed
and will soon be shown (drawing starts as soon as a game changes, `prepare`). A table is drawn as it
stands when its turn comes, so moves made meanwhile cost one picture. When many tables move at once
the budget, not the games, gives way: their refreshes wait longer (the table lags), each still one
edit with its latest state.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import discord

import pictures
import pictures.process
from bot.live import LiveGame

log = logging.getLogger("catnip.table")

CACHED_PICTURES = 256
IN_FLIGHT = 2
"""Drawings handed to the drawing process at once. It draws one at a time; the second waits in its
pipe, so that it starts as soon as the first ends instead of after the event loop (busy with clicks)
has taken the first one's picture and picked the next table."""
CPU_SHARE = 0.5
"""The share of one core pictures may take by default, averaged over time: enough to draw every move's
picture of a few hundred tables at human pace; past that, their refreshes wait for their pictures (the
tables lag) rather than the pictures taking a core the bot's other work needs (on a small machine the
drawing process shares the cores with the event loop and the store's thread). Set with bench.bot_load
(docs/performance.md); the PICTURE_CPU_SHARE setting changes it."""
BURST_SECONDS = 0.1
"""Drawing time a calm bot may spend at once (a restart showing many tables, a few quick moves)."""

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


class MovedOn:
    """What `TablePictures.picture` returns when the table moved on while its refresh waited: the
    refresh reads the table again (its newest picture is drawn)."""


MOVED_ON = MovedOn()


def members_wait_on(game: LiveGame) -> bool:
    """Whether a member waits to see the table: one must act, or the game is over (its result)."""
    if game.record.status != "active" or game.state is None:
        return True
    seats = game.record.seats
    return any(not seats[s].computer and seats[s].user_id is not None for s in game.to_act())


class TablePictures:
    """Draws table pictures in the drawing process, a table at a time within the drawing budget, and
    remembers which picture each table message shows."""

    def __init__(
        self, default: bool, clock: Callable[[], float] = time.monotonic, cpu_share: float = CPU_SHARE
    ) -> None:
        """`clock`: the bot's, on which the drawing budget refills (a test's fast-forward clock too);
        `cpu_share`: the share of one core the drawings may take."""
        self.default = default
        self.drawn = 0
        self._cache: OrderedDict[str, bytes] = OrderedDict()
        self._scenes: OrderedDict[int, tuple[object, list[str], Scene]] = OrderedDict()  # by game id
        self._shown: dict[int, Shown] = {}  # by game id
        self.budget = DrawingBudget(clock, cpu_share)
        # Tables to draw, by game id, in the order they are drawn: the first dict not empty goes first.
        self._again: dict[int, LiveGame] = {}  # refreshes waiting that waited a drawing already
        self._asked: dict[int, LiveGame] = {}  # refreshes waiting, of tables members wait on
        self._asked_later: dict[int, LiveGame] = {}  # refreshes waiting, of tables only computers play
        self._prepared: dict[int, LiveGame] = {}  # tables changed, whose refresh is still to come
        self._waiters: dict[int, list[tuple[str, asyncio.Future]]] = {}  # game id -> (scene key, refresh)
        self._drawing: set[int] = set()  # the tables being drawn, by game id
        self._drawers: set[asyncio.Task] = set()
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
            game.record.game, game.view(None), game.names, game.rules.outcome(game.state), game.language
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
        if self._closed or self._queued(game.id):
            return
        try:
            scene = self.scene(game)
        except Exception:
            log.exception("%s could not read the table's picture", game.log_prefix())
            return
        if scene is not None and scene.key not in self._cache:
            self._prepared[game.id] = game
            self._draw_soon()

    def drawings(self) -> list[asyncio.Future]:
        """The drawings under way or waiting for the budget."""
        return list(self._drawers)

    async def picture(self, game: LiveGame, scene: Scene | None) -> Picture | MovedOn | None:
        """The picture of `scene` (read with the table's text), drawn if it is not yet: the refresh
        waits for it. `MOVED_ON` when the game moved on meanwhile (read the table again: its newest
        picture is drawn); None when the table shows no picture, or its picture could not be drawn
        (or the bot is stopping): a table shows no picture rather than one of another state."""
        if scene is None:
            return None
        png = self._cached(scene.key)
        if png is not None:
            return Picture(scene.key, png)
        if self._closed:
            return None
        waiting = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(game.id, []).append((scene.key, waiting))
        self._ask(game)
        drawn = await waiting
        if drawn is None or drawn.key == scene.key:
            return drawn
        return MOVED_ON

    async def draw_now(self, scene: Scene) -> Picture:
        """`scene`'s picture now, drawn in the drawing process if not kept (a replay viewer's step:
        one member's click waits for it, so it does not wait for the tables' budget)."""
        png = self._cached(scene.key)
        if png is None:
            png, _ = await asyncio.wrap_future(pictures.process.draw(scene.game, scene.content))
            self._keep(scene.key, png)
        return Picture(scene.key, png)

    def _keep(self, key: str, png: bytes) -> None:
        self._cache[key] = png
        while len(self._cache) > CACHED_PICTURES:
            self._cache.popitem(last=False)

    def _cached(self, key: str) -> bytes | None:
        png = self._cache.get(key)
        if png is not None:
            self._cache.move_to_end(key)
        return png

    # -------------------------------------------------------------- the tables waiting to be drawn

    def _queues(self) -> tuple[dict[int, LiveGame], ...]:
        return (self._again, self._asked, self._asked_later, self._prepared)

    def _queued(self, game_id: int) -> bool:
        return any(game_id in queue for queue in self._queues())

    def _ask(self, game: LiveGame) -> None:
        """A refresh waits for the table's picture: draw it before the tables merely prepared (a
        table being drawn is seen to when its drawing ends)."""
        if any(game.id in queue for queue in self._queues()[:3]):
            return
        self._prepared.pop(game.id, None)
        if game.id not in self._drawing:
            (self._asked if members_wait_on(game) else self._asked_later)[game.id] = game
        self._draw_soon()

    def _draw_soon(self) -> None:
        while len(self._drawers) < min(IN_FLIGHT, len(self._drawing) + self._to_draw()) and not self._closed:
            drawer = asyncio.create_task(self._draw_tables())
            self._drawers.add(drawer)
            drawer.add_done_callback(self._drawers.discard)

    def _to_draw(self) -> int:
        """How many tables wait to be drawn (a table being drawn waits until its drawing ends)."""
        queued = sum(len(queue) for queue in self._queues())
        return queued - sum(1 for game_id in self._drawing if self._queued(game_id))

    def _next(self) -> LiveGame | None:
        for queue in self._queues():
            for game_id in queue:
                if game_id not in self._drawing:
                    return queue.pop(game_id)
        return None

    async def _draw_tables(self) -> None:
        """Draw the tables waiting, as the budget allows (`IN_FLIGHT` of these run at once)."""
        try:
            while not self._closed and self._to_draw():
                if not self.budget.start():
                    await asyncio.sleep(self.budget.wait())
                    continue
                game = self._next()
                spent = 0.0
                self._drawing.add(game.id)
                try:
                    spent = await self._draw(game)
                finally:
                    self._drawing.discard(game.id)
                    self.budget.settle(spent)
        finally:  # at once: a table queued from now on starts another drawer
            self._drawers.discard(asyncio.current_task())

    async def _draw(self, game: LiveGame) -> float:
        """Draw the table as it stands and hand the picture to the refreshes waiting for it; the CPU
        seconds it took."""
        try:
            scene = self.scene(game)
        except Exception:
            log.exception("%s could not read the table's picture", game.log_prefix())
            self._answer(game.id, None)
            return 0.0
        if scene is None:
            self._answer(game.id, None)
            return 0.0
        png, spent = self._cached(scene.key), 0.0
        if png is None:
            try:
                png, spent = await asyncio.wrap_future(pictures.process.draw(scene.game, scene.content))
            except Exception:
                log.exception("%s could not draw the table's picture", game.log_prefix())
                self._answer(game.id, None)
                return 0.0
            self.drawn += 1
            self._keep(scene.key, png)
        self._drawn(game, Picture(scene.key, png))
        return spent

    def _drawn(self, game: LiveGame, picture: Picture) -> None:
        """Hand `picture` to the refreshes waiting for it. If the game moved on while it was drawn, the
        refreshes of its newer state wait for the next drawing, which comes first."""
        try:
            latest = self.scene(game)
        except Exception:
            latest = None
        if latest is None or latest.key == picture.key:
            self._answer(game.id, picture)
            return
        waiting = self._waiters.pop(game.id, [])
        for key, refresh in waiting:
            if key == picture.key and not refresh.done():
                refresh.set_result(picture)
        later = [(key, refresh) for key, refresh in waiting if key != picture.key]
        if later:
            self._waiters[game.id] = later
            for queue in self._queues():
                queue.pop(game.id, None)
            self._again[game.id] = game
            self._draw_soon()

    def _answer(self, game_id: int, picture: Picture | None) -> None:
        """Every refresh waiting for the table's picture gets `picture` (None: it shows none)."""
        for _, refresh in self._waiters.pop(game_id, []):
            if not refresh.done():
                refresh.set_result(picture)

    # -------------------------------------------------------------- what each table message holds

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
        return game_id in self._drawing or game_id in self._waiters or self._queued(game_id)

    def forget(self, game_id: int) -> None:
        """Nothing more is drawn or kept of the table (closed, or finished and shown); a refresh still
        waiting for its picture goes on without one."""
        self._shown.pop(game_id, None)
        self._scenes.pop(game_id, None)
        for queue in self._queues():
            queue.pop(game_id, None)
        self._answer(game_id, None)

    def close(self) -> None:
        """Draw nothing more: a refresh waiting for its picture shows the table's text without one
        (at a thousand tables that wait could be minutes; a restart shows every table, picture and
        all, anew). The drawing process is left running for the process's other bots (a drawing under
        way there ends and is thrown away); it stops when the interpreter exits."""
        self._closed = True
        for queue in self._queues():
            queue.clear()
        for game_id in list(self._waiters):
            self._answer(game_id, None)
        for drawer in self._drawers:
            drawer.cancel()


def show_picture(embed: discord.Embed | None, picture: Picture | None) -> None:
    """Point the table's embed at its attached picture."""
    if embed is not None and picture is not None:
        embed.set_image(url=f"attachment://{pictures.FILENAME}")
