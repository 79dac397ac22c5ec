"""How the game service lets computers decide: computer seats in turn at a readable pace, and members
whose timer ran out (the table's default or the computer's choice)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from bot.clock import Clock
from bot.live import LiveGame
from bot.storage import GameStore
from engine import GAMES, Event, Frozen

log = logging.getLogger("catnip.sessions")


class ComputerTurns:
    store: GameStore
    clock: Clock
    computer_delay: float
    live: dict[int, LiveGame]
    _computer_tasks: dict[int, asyncio.Task]

    async def _commit(
        self, game: LiveGame, seat: int, action: Frozen, *, human: bool, told: Sequence[Event] = ()
    ) -> list[Event]: ...

    def computer_seats(self, game: LiveGame) -> list[int]:
        """The computer seats to act; none while every member is away, so the game waits for them (G-X9)."""
        if game.nobody_playing():
            return []
        return [s for s in game.to_act() if game.record.seats[s].computer]

    def schedule_computers(self, game: LiveGame) -> None:
        """Let computer seats that are to act move, one at a time, at a readable pace."""
        if not self.computer_seats(game):
            return
        running = self._computer_tasks.get(game.id)
        if running is not None and not running.done():
            return
        self._computer_tasks[game.id] = asyncio.create_task(self._run_computers(game.id))

    async def _run_computers(self, game_id: int) -> None:
        while True:
            game = self.live.get(game_id)
            if game is None or game.state is None or not self.computer_seats(game):
                return
            if self.computer_delay:
                await self.clock.sleep(self.computer_delay)
            try:
                await self.decide_for(game, self.computer_seats(game)[:1], reason=None)
            except Exception:
                log.exception("game=%d computer move failed", game_id)
                return

    async def decide_for(
        self, game: LiveGame, seats: Sequence[int], *, reason: str | None, version: int | None = None
    ) -> None:
        """Let the computer decide for `seats` (computer seats, or humans whose timer ran out).

        With `version`, only if the game is still there: a timer that ran out while a move was being
        made does not decide the next decision (which may be the same seat's) in its place.
        """
        async with self.store.lock(game.id):
            if version is not None and game.record.version != version:
                return
            for seat in seats:
                if game.state is None or seat not in game.to_act():
                    continue
                if reason is None and not game.record.seats[seat].computer:
                    continue  # its member came back meanwhile (G-X8)
                action = game.rules.timeout_action(game.state, seat) if reason else None
                chooser = "the table applied the default"
                if action is None:
                    level = game.record.seats[seat].computer or "normal"
                    action = await self._choose(game, seat, level)
                    chooser = "the computer chose for them"
                told = [Event(kind="timeout", text=f"⏰ {{p{seat}}} {reason}; {chooser}.")] if reason else []
                await self._commit(game, seat, action, human=False, told=told)

    async def _choose(self, game: LiveGame, seat: int, level: str) -> Frozen:
        rules, state = game.rules, game.state
        view = rules.view(state, seat)
        legal = rules.legal_actions(state, seat)
        seed = (game.record.seed or 0) * 7919 + game.record.version * 31 + seat
        player = GAMES[game.record.game].computer(level)
        if level == "hard":
            return await asyncio.to_thread(player.choose, rules, view, seat, legal, seed)
        return player.choose(rules, view, seat, legal, seed)
