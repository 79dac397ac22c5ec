"""Decision timers (ruling G-3): persisted deadlines, a public warning, the computer's choice on expiry.

Each running game waiting on a human has one deadline, keyed by the state
version it was set for; a move makes it stale. `tick` is called every second by
the bot (and directly by tests with a manual clock). The timers listen to the
game service: each committed change sets or clears its game's deadline.

A deadline takes effect in memory at once. After a move it reaches the store in
the background (`arm_soon`), in one transaction with every other game's change
of that moment, so answering a click never waits for it. A deadline lost in a
crash before it was saved is harmless: on resume the game's decision no longer
matches the stored one and `arm` sets a fresh deadline for it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from bot.errors import RunElsewhere
from bot.live import LiveGame
from bot.sessions import GameService
from bot.storage import Deadline, StoreUnavailable
from engine import Event
from lang import _, speaking

log = logging.getLogger("catnip.timers")


@dataclass(frozen=True)
class TimerSettings:
    turn_seconds: int = 120
    secret_seconds: int = 60
    warning_seconds: int = 30
    abandon_after_seconds: float = 24 * 3600


class Timers:
    """Keeps one deadline per game in the store and acts on it when it falls due."""

    def __init__(self, service: GameService, settings: TimerSettings) -> None:
        self.service = service
        self.settings = settings
        self._deadlines: dict[int, Deadline] = {}
        self._warned: set[tuple[int, str]] = set()
        self._unsaved: dict[int, Deadline | None] = {}  # game -> deadline to store (None: clear it)
        self._saver: asyncio.Task | None = None

    async def resume(self) -> None:
        """Re-arm the deadlines saved before a restart, of the games this process runs."""
        owned = self.service.live
        self._deadlines = {
            d.game_id: d for d in await self.service.store.timers.deadlines() if d.game_id in owned
        }

    # -------------------------------------------------------------- listening to the game service

    async def lobby_changed(self, game: LiveGame) -> None:
        """A lobby has no deadline."""

    async def game_changed(self, game: LiveGame, events: Sequence[Event]) -> None:
        self.arm_soon(game)

    async def game_closed(self, game: LiveGame, reason: str) -> None:
        await self.arm(game)

    async def games_resumed(self, games: Sequence[LiveGame]) -> None:
        for game in games:
            if game.state is not None:
                self.arm_soon(game)

    # -------------------------------------------------------------- deadlines

    def seconds_for(self, game: LiveGame) -> int:
        if game.timer_seconds():
            return game.timer_seconds()
        secret = len(game.to_act()) > 1
        return self.settings.secret_seconds if secret else self.settings.turn_seconds

    def due(self, game_id: int) -> float | None:
        deadline = self._deadlines.get(game_id)
        return deadline.due if deadline else None

    async def arm(self, game: LiveGame) -> None:
        """Set the deadline for the game's current decision (or clear it) and wait until it is stored."""
        self._decide(game)
        await self.save()

    def arm_soon(self, game: LiveGame) -> None:
        """Set the deadline for the game's current decision (or clear it) now; the store gets it shortly."""
        self._decide(game)
        if self._unsaved and (self._saver is None or self._saver.done()):
            self._saver = asyncio.create_task(self._save_all(lazy=True), name="catnip-deadlines")
            self._saver.add_done_callback(_log_failure)

    async def save(self) -> None:
        """Wait until every deadline set so far is in the store; raises if the store refused them."""
        while self._unsaved or (self._saver is not None and not self._saver.done()):
            if self._saver is None or self._saver.done():
                self._saver = asyncio.create_task(self._save_all(), name="catnip-deadlines")
                self._saver.add_done_callback(_log_failure)
            saver = self._saver
            await asyncio.wait({saver})
            if not saver.cancelled() and saver.exception() is not None:
                raise saver.exception()

    def _decide(self, game: LiveGame) -> None:
        """Set or clear the deadline in memory; note the change for the store."""
        decision = f"v{game.record.version}"
        current = self._deadlines.get(game.id)
        humans = [s for s in game.to_act() if not game.record.seats[s].computer]
        if not humans or game.record.status != "active":
            if current is not None:
                self._deadlines.pop(game.id, None)
                self._unsaved[game.id] = None
            return
        if current is not None and current.decision == decision:
            return
        due = self.service.clock.now() + self.seconds_for(game)
        self._deadlines[game.id] = self._unsaved[game.id] = Deadline(
            game_id=game.id, decision=decision, due=due
        )

    async def _save_all(self, lazy: bool = False) -> None:
        """Store the noted changes, one transaction for all the games that changed meanwhile; `lazy`
        (after a move) lets the store commit them with the next move."""
        while self._unsaved:
            batch, self._unsaved = self._unsaved, {}
            try:
                await self.service.store.timers.save_deadlines(
                    [d for d in batch.values() if d is not None],
                    cleared=[game_id for game_id, d in batch.items() if d is None],
                    lazy=lazy,
                )
            except BaseException:
                self._unsaved = {**batch, **self._unsaved}  # keep them for the next try
                raise

    async def tick(self) -> None:
        now = self.service.clock.now()
        for game_id, deadline in list(self._deadlines.items()):
            game = self.service.live.get(game_id)
            if game is None or f"v{game.record.version}" != deadline.decision:
                self._deadlines.pop(game_id, None)
                continue
            left = deadline.due - now
            humans = [s for s in game.to_act() if not game.record.seats[s].computer]
            if left <= 0:
                self._deadlines.pop(game_id, None)
                log.info("%s timer expired for seats %s", game.log_prefix(), humans)
                try:
                    await self.service.computers.decide_for(
                        game, humans, timed_out=True, version=game.record.version
                    )
                except RunElsewhere:
                    continue  # another process runs the game now: its timer runs there
                self.service.computers.schedule(game)
            elif left <= self.settings.warning_seconds and (game_id, deadline.decision) not in self._warned:
                self._warned.add((game_id, deadline.decision))
                for presenter in self.service.games.presenters:
                    await presenter.timer_warning(game, humans, round(left))
        await self._abandon_idle(now)

    async def _abandon_idle(self, now: float) -> None:
        limit = self.settings.abandon_after_seconds
        for game in list(self.service.live.values()):
            if now - game.last_human_at > limit:
                hours = f"{limit / 3600:g}"
                with speaking(game.language):
                    reason = _("No one played for {hours} hours, so the game was ended.", hours=hours)
                await self.service.endings.abandon(game, reason)


def _log_failure(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        if isinstance(task.exception(), StoreUnavailable):
            return  # the store tells of the outage; the deadlines are stored again with the next change
        log.error("could not store deadlines", exc_info=task.exception())
