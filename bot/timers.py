"""Decision timers (ruling G-3): persisted deadlines, a public warning, the computer's choice on expiry.

Each running game waiting on a human has one deadline, keyed by the state
version it was set for; a move makes it stale. `tick` is called every second by
the bot (and directly by tests with a manual clock).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

from bot.sessions import GameService, LiveGame
from bot.storage import Deadline

log = logging.getLogger("catnip.timers")


@dataclass(frozen=True)
class TimerSettings:
    turn_seconds: int = 120
    secret_seconds: int = 60
    warning_seconds: int = 30
    abandon_after_seconds: float = 24 * 3600


class TimerPresenter(Protocol):
    async def timer_warning(self, game: LiveGame, seats: list[int], seconds_left: int) -> None: ...


class Timers:
    """Keeps one deadline per game in the store and acts on it when it falls due."""

    def __init__(self, service: GameService, settings: TimerSettings) -> None:
        self.service = service
        self.settings = settings
        self.presenters: list[TimerPresenter] = []
        self._deadlines: dict[int, Deadline] = {}
        self._warned: set[tuple[int, str]] = set()

    async def resume(self) -> None:
        """Re-arm the deadlines saved before a restart."""
        self._deadlines = {d.game_id: d for d in await self.service.store.deadlines()}

    def seconds_for(self, game: LiveGame) -> int:
        secret = len(game.to_act()) > 1
        return self.settings.secret_seconds if secret else self.settings.turn_seconds

    def due(self, game_id: int) -> float | None:
        deadline = self._deadlines.get(game_id)
        return deadline.due if deadline else None

    async def arm(self, game: LiveGame) -> None:
        """Set the deadline for the game's current decision, or clear it if no human must act."""
        decision = f"v{game.record.version}"
        current = self._deadlines.get(game.id)
        humans = [s for s in game.to_act() if not game.record.seats[s].computer]
        if not humans or game.record.status != "active":
            if current is not None:
                self._deadlines.pop(game.id, None)
                await self.service.store.clear_deadline(game.id)
            return
        if current is not None and current.decision == decision:
            return
        due = self.service.clock.now() + self.seconds_for(game)
        self._deadlines[game.id] = Deadline(game_id=game.id, decision=decision, due=due)
        await self.service.store.set_deadline(game.id, decision=decision, due=due)

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
                await self.service.decide_for(game, humans, reason="ran out of time")
                self.service.schedule_computers(game)
            elif left <= self.settings.warning_seconds and (game_id, deadline.decision) not in self._warned:
                self._warned.add((game_id, deadline.decision))
                for presenter in self.presenters:
                    await presenter.timer_warning(game, humans, round(left))
        await self._abandon_idle(now)

    async def _abandon_idle(self, now: float) -> None:
        limit = self.settings.abandon_after_seconds
        for game in list(self.service.live.values()):
            if now - game.last_human_at > limit:
                hours = limit / 3600
                await self.service.abandon(game, f"No one played for {hours:g} hours, so the game was ended.")
