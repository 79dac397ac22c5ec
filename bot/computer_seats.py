"""Computer seats: they move in turn at a readable pace, and decide for members whose timer ran out
(the table's default or the computer's choice)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from bot.errors import RunElsewhere, TableMovedOn
from bot.live import LiveGame
from bot.moves import Moves
from bot.running_games import RunningGames
from bot.storage import StoreUnavailable
from engine import Event, Frozen
from engine.core import seat_mark
from lang import _, speaking

log = logging.getLogger("catnip.sessions")

RETRY_AFTER_OUTAGE_SECONDS = 5.0
"""How long a computer seat waits to move again when the database could not save its move."""


class ComputerSeats:
    """Lets the computer decide: one task per game moves its computer seats one at a time."""

    def __init__(self, games: RunningGames, moves: Moves, *, delay: float = 0.0) -> None:
        self.games = games
        self.moves = moves
        self.delay = delay
        """Seconds a computer seat waits before it moves, so people can follow the table."""
        self.tasks: dict[int, asyncio.Task] = {}
        self._pausing: set[int] = set()  # games whose computer seat waits out `delay` before it moves

    def to_act(self, game: LiveGame) -> list[int]:
        """The computer seats to act; none while every member is away, so the game waits for them (G-X9)."""
        if game.nobody_playing():
            return []
        return [s for s in game.to_act() if game.record.seats[s].computer]

    def schedule(self, game: LiveGame) -> None:
        """Let computer seats that are to act move, one at a time, at a readable pace."""
        if not self.to_act(game):
            return
        running = self.tasks.get(game.id)
        if running is not None and not running.done():
            return
        self.tasks[game.id] = asyncio.create_task(self._run(game.id))

    def busy(self) -> bool:
        """Whether a computer seat is deciding or making its move now (waiting out `delay` is not)."""
        return any(not task.done() and game_id not in self._pausing for game_id, task in self.tasks.items())

    def stop(self, game_id: int) -> None:
        """Stop `game_id`'s computer seats between moves (unless it is their own task asking)."""
        task = self.tasks.pop(game_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def stop_all(self) -> None:
        """Stop every computer seat between moves and wait until they have."""
        tasks = [task for task in self.tasks.values() if not task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.tasks.clear()

    async def _run(self, game_id: int) -> None:
        while True:
            game = self.games.live.get(game_id)
            if game is None or game.state is None or not self.to_act(game):
                return
            if self.delay:
                self._pausing.add(game_id)
                try:
                    await self.games.clock.sleep(self.delay)
                finally:
                    self._pausing.discard(game_id)
            try:
                await self.decide_for(game, self.to_act(game)[:1])
            except TableMovedOn:
                continue  # the store held a newer version: the game was read again, decide on that
            except RunElsewhere:
                return  # another process runs the game now: its computer seats move there
            except StoreUnavailable:  # the store tells of the outage; the move is tried again after it
                await self.games.clock.sleep(RETRY_AFTER_OUTAGE_SECONDS)
            except Exception:
                log.exception("game=%d computer move failed", game_id)
                return

    async def decide_for(
        self, game: LiveGame, seats: Sequence[int], *, timed_out: bool = False, version: int | None = None
    ) -> None:
        """Let the computer decide for `seats`: computer seats, or (`timed_out`) humans whose timer ran
        out, which the table is told, in its language.

        With `version`, only if the game is still there: a timer that ran out while a move was being
        made does not decide the next decision (which may be the same seat's) in its place.
        """
        async with self.games.store.lock(game.id):
            if version is not None and game.record.version != version:
                return
            for seat in seats:
                if game.state is None or seat not in game.to_act():
                    continue
                if not timed_out and not game.record.seats[seat].computer:
                    continue  # its member came back meanwhile (G-X8)
                action = game.rules.timeout_action(game.state, seat) if timed_out else None
                by_default = action is not None
                if action is None:
                    level = game.record.seats[seat].computer or "normal"
                    action = await self._choose(game, seat, level)
                told = [Event(kind="timeout", text=_timed_out(game, seat, by_default))] if timed_out else []
                await self.moves.commit(game, seat, action, human=False, told=told)

    async def _choose(self, game: LiveGame, seat: int, level: str) -> Frozen:
        rules, state = game.rules, game.state
        view = rules.view(state, seat)
        legal = rules.legal_actions(state, seat)
        seed = (game.record.seed or 0) * 7919 + game.record.version * 31 + seat
        player = game.game.computer(level)
        if level == "hard":
            return await asyncio.to_thread(player.choose, rules, view, seat, legal, seed)
        return player.choose(rules, view, seat, legal, seed)


def _timed_out(game: LiveGame, seat: int, by_default: bool) -> str:
    """What the table is told when `seat`'s timer ran out, in the game's language."""
    with speaking(game.language):
        if by_default:
            return _("⏰ {player} ran out of time; the table applied the default.", player=seat_mark(seat))
        return _("⏰ {player} ran out of time; the computer chose for them.", player=seat_mark(seat))
