"""Keeps each game's public table message and turn pings in step with the game.

`TablePresenter` is the play cog's `Presenter` (bot/presenter.py): the game service tells it of each
change, and it hands the work to three collaborators: `TableSchedule` decides when each table is
shown, `TableWriter` (cogs/play/_table_writer.py) writes it to Discord, and `TurnPings`
(cogs/play/_pings.py) pings whoever must act. Both send through one `Writer` (cogs/play/_writer.py),
which uses the interaction tokens of the game's recent clicks (`InteractionBook`, cogs/play/_tokens.py)
where it can: their routes are exempt from Discord's global limit.

Updates are coalesced per game and made by background workers, so answering a click never waits
for the table edit, and a burst of moves costs one edit. A few workers show tables at once: when
many games move together, the others wait their turn instead of crowding the event loop, so clicks
— which Discord wants answered within 3 s — are not queued behind table edits. More workers start
when many tables wait, and after a restart, when nobody waits for a click's answer yet. Clicks come
first all the same: while a click has waited more than `CLICKS_FIRST_AFTER` for its answer (by the
bot's one book of the clicks under way, `bot.overload`, which its busy gate counts too), no worker
starts on another table. How many workers and how long a click may wait were measured with
`python -m bench.bot_load` (docs/performance.md, "Why the settings are what they are").
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

import discord

from bot.live import LiveGame
from bot.overload import CLICK_DEADLINE, ClicksInFlight
from bot.sessions import GameService
from bot.timers import Timers
from cogs.play._pictures import CPU_SHARE, TablePictures
from cogs.play._pings import OwnDeletions, TurnPings
from cogs.play._table_writer import TableWriter
from cogs.play._tokens import InteractionBook
from cogs.play._writer import Writer
from engine import Event

if TYPE_CHECKING:
    from bot.metrics import Metrics

log = logging.getLogger("catnip.table")

REFRESH_SLOTS = 20
TABLES_A_SLOT = 10
BACKLOG_SLOTS = 40
CLICKS_FIRST_AFTER = 0.5


class TableSchedule:
    """When each table is shown: the latest state of each waiting table, oldest first, by a few workers
    at a time (more when many wait), none starting while a click waits too long for its answer
    (`clicks`, the bot's book of the clicks under way)."""

    def __init__(self, show: Callable[[LiveGame], Awaitable[None]], clicks: ClicksInFlight) -> None:
        self.show = show
        self.clicks = clicks
        self._waiting: dict[int, LiveGame] = {}
        self._showing: set[int] = set()
        self._workers: set[asyncio.Task] = set()

    def add(self, game: LiveGame) -> None:
        """Show `game` soon; several changes in a row become one showing."""
        self._waiting[game.id] = game
        self._start_workers(min(BACKLOG_SLOTS, max(REFRESH_SLOTS, len(self._waiting) // TABLES_A_SLOT)))

    def read(self, game_id: int) -> None:
        """The table is being read to be shown (`TableWriter.show`): a showing it still waited for is
        served by this one."""
        if game_id not in self._showing:
            return
        self._waiting.pop(game_id, None)

    def add_resumed(self, games: Sequence[LiveGame]) -> None:
        """Show every table again after a restart, with more workers while they catch up.

        Nobody is waiting for a click's answer yet, so showing the tables sooner wins.
        """
        self._waiting.update((game.id, game) for game in games)
        self._start_workers(BACKLOG_SLOTS)

    async def _clicks_first(self) -> None:
        """Wait while a click has waited more than `CLICKS_FIRST_AFTER` for its answer."""
        while self.clicks.waited_longest(within=CLICK_DEADLINE) > CLICKS_FIRST_AFTER:
            await self.clicks.clock.sleep(CLICKS_FIRST_AFTER / 5)

    def _start_workers(self, limit: int) -> None:
        for _ in range(min(limit - len(self._workers), len(self._waiting))):
            worker = asyncio.create_task(self._work())
            self._workers.add(worker)
            worker.add_done_callback(self._workers.discard)

    def pending(self) -> list[asyncio.Task]:
        return [worker for worker in self._workers if not worker.done()]

    async def _work(self) -> None:
        """Show waiting tables, oldest first, until none is left that another worker isn't showing."""
        while True:
            await self._clicks_first()
            game_id = next((g for g in self._waiting if g not in self._showing), None)
            if game_id is None:
                return
            game = self._waiting.pop(game_id)
            self._showing.add(game_id)
            try:
                await self.show(game)
            except Exception:
                log.exception("%s table update failed", game.log_prefix())
            finally:
                self._showing.discard(game_id)


class TablePresenter:
    """Edits the table after each change, reposts it when old or buried, pings whoever must act."""

    def __init__(
        self,
        bot: discord.Client,
        service: GameService,
        timers: Timers,
        *,
        clicks: ClicksInFlight,
        picture_cpu_share: float = CPU_SHARE,
        metrics: Metrics | None = None,
    ) -> None:
        """`clicks`: the bot's book of the clicks under way (`bot.overload`), read to hold the tables back
        while a click waits too long for its answer;
        `picture_cpu_share`: the share of a core drawing pictures may take (the PICTURE_CPU_SHARE setting);
        `metrics` (bot/metrics.py), if given, hears how long tables lag behind their games and of each
        ping posted."""
        self.service = service
        self.metrics = metrics
        self.pictures = TablePictures(service.pictures, clock=service.clock.now, cpu_share=picture_cpu_share)
        self.tokens = InteractionBook(service.clock.now)
        routes = Writer(self.tokens)
        self.deletions = OwnDeletions(bot, routes)
        self.pings = TurnPings(bot, service, routes, self.deletions, metrics=metrics)
        self.writer = TableWriter(bot, service, timers, routes, self.pictures, self.pings, self.deletions)
        self.schedule = TableSchedule(self._show, clicks)
        self._changed_since: dict[int, float] = {}
        """When the oldest change of each game its table does not show yet was made (perf_counter)."""

    # -------------------------------------------------------------- listening to the game service

    async def lobby_changed(self, game: LiveGame) -> None:
        self.refresh(game)

    async def game_changed(self, game: LiveGame, events: Sequence[Event]) -> None:
        if self.metrics is not None:
            self._changed_since.setdefault(game.id, time.perf_counter())
        self.refresh(game)

    async def _show(self, game: LiveGame) -> None:
        """Show `game`'s table; with metrics, how long after the first change it did not show yet."""
        since = self._changed_since.pop(game.id, None)  # a change made while showing is shown next time
        await self.writer.show(game, reading=self.schedule.read)
        if since is not None:
            self.metrics.table_shown(since)

    async def games_resumed(self, games: Sequence[LiveGame]) -> None:
        """Show the tables again, and delete the turn pings the process that ran them last left up.
        What this process remembers of their tables is forgotten: another process may have edited them
        since (a handover, a restart), so the next edit uploads the picture rather than naming an
        attachment the message may no longer hold."""
        for game in games:
            self.pictures.forget(game.id)
        self.schedule.add_resumed(games)
        await self.pings.delete_left(games)

    async def game_closed(self, game: LiveGame, reason: str) -> None:
        await self.writer.show_closed(game, reason)
        self.tokens.forget(game.id)
        self._changed_since.pop(game.id, None)

    async def timer_warning(self, game: LiveGame, seats: list[int], seconds_left: int) -> None:
        await self.pings.warn(game, await self.writer.table_channel(game), seats, seconds_left)

    # -------------------------------------------------------------- what the play cog tells it

    def refresh(self, game: LiveGame) -> None:
        """Schedule a table update; several changes in a row become one edit."""
        self.pictures.prepare(game)
        self.schedule.add(game)

    def message_posted(self, channel_id: int) -> None:
        """Someone posted in `channel_id`: enough such messages bury its table, which is then posted again."""
        self.writer.messages_since_table[channel_id] += 1

    def message_deleted(self, message_id: int) -> None:
        """Someone deleted a message: a live game whose table it was shows its table again. Catnip's own
        deletions (old pings, one a move) are recognised without walking every live game."""
        if not self.deletions.deleted_by_itself(message_id):
            self._show_again(lambda record: record.table_message_id == message_id)

    def thread_deleted(self, thread_id: int) -> None:
        """Someone deleted a thread: a live game whose table it held shows its table again, in its channel."""
        self._show_again(lambda record: thread_id in (record.thread_id, record.table_channel_id))

    def _show_again(self, held_table) -> None:
        for game in list(self.service.live.values()):
            if held_table(game.record):
                self.refresh(game)

    async def note_pings(self) -> None:
        await self.pings.note()

    # -------------------------------------------------------------- done

    def deleted(self, message_id: int) -> bool:
        return self.deletions.gone(message_id)

    def busy(self) -> bool:
        """Whether a table update, a picture or a ping deletion is under way."""
        return bool(self._pending())

    def _pending(self, drawings: bool = True) -> list[asyncio.Future]:
        pictures = [t for t in self.pictures.drawings() if not t.done()] if drawings else []
        return [*self.schedule.pending(), *self.deletions.pending(), *pictures]

    async def settle(self, drawings: bool = True) -> None:
        """Wait until every scheduled table update, picture and ping deletion is done (tests and
        shutdown). A table update waits for its own picture; without `drawings`, the pictures drawn
        ahead for tables not being shown yet are not waited for. At shutdown the pictures are closed
        first (`TablePictures.close`), so no update waits for the drawing budget."""
        while pending := self._pending(drawings):
            await asyncio.gather(*pending, return_exceptions=True)
