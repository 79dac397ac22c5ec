"""Endings: games closed before their finish, and the last table of every ended game shown once."""

from __future__ import annotations

import logging

from bot.computer_seats import ComputerSeats
from bot.live import LiveGame
from bot.running_games import RunningGames
from bot.storage import StoreUnavailable

log = logging.getLogger("catnip.sessions")


class Endings:
    """Closes games (cancelled lobbies, games ended or abandoned) and notes when each ending is shown."""

    def __init__(self, games: RunningGames, computers: ComputerSeats) -> None:
        self.games = games
        self.computers = computers

    async def close(self, game: LiveGame, status: str, reason: str) -> None:
        """Store `game` as `status` ("cancelled", "abandoned") for `reason`, stop it, tell the listeners."""
        store = self.games.store
        game.record = await store.games.set_status(game.id, status, now=self.games.clock.now(), reason=reason)
        game.ending_unshown = True
        await store.timers.clear_deadline(game.id)
        self.games.live.pop(game.id, None)
        self.computers.stop(game.id)
        log.info("%s closed (%s): %s", game.log_prefix(), status, reason)
        await self.games.tell_closed(game, reason)

    async def abandon(self, game: LiveGame, reason: str) -> None:
        """End a running game before its finish for `reason`, which its table then shows."""
        await self.close(game, "abandoned", reason)

    async def show_unshown(self) -> None:
        """Show the last tables of this process's games that ended while a process was stopping (the
        end saved, its table not shown): a finished game's result and Rematch button, a closed
        game's reason. The listeners hear of them as resumed (so their old pings go), the closed ones
        then as closed."""
        plan = self.games.shard_plan
        endings = [e for e in await self.games.store.games.endings_to_show() if plan.owns(e.record.guild_id)]
        games = [await self.games.read(ending.record, ending=True) for ending in endings]
        await self.games.tell_resumed(games)
        for game, ending in zip(games, endings, strict=True):
            if ending.reason is not None:
                await self.games.tell_closed(game, ending.reason)

    async def shown(self, game: LiveGame) -> None:
        """`game`'s last table is up: no process shows it again when it starts."""
        if not game.ending_unshown:
            return
        game.ending_unshown = False
        try:
            await self.games.store.games.ending_shown(game.id)
        except StoreUnavailable:
            log.warning("%s last table shown but not noted so; shown again at start", game.log_prefix())
