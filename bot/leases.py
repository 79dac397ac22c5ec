"""Which games this process runs: every game of its shards, or, in a fleet, those whose lease it holds
(see storage/coordination.py).

With leases, starting claims the games instead of loading every live one, `renew` keeps them (and
takes over those of a process of the same shards that is gone), and `release` lets them go at a stop.
"""

from __future__ import annotations

from bot.computer_seats import ComputerSeats
from bot.live import LiveGame
from bot.running_games import RunningGames
from bot.storage import GameRecord


class Leases:
    """Claims, keeps and releases the games this process runs."""

    def __init__(self, games: RunningGames, computers: ComputerSeats, *, leasing: bool) -> None:
        self.games = games
        self.computers = computers
        self.leasing = leasing

    @property
    def leasing(self) -> bool:
        """Whether it runs only the games whose lease it holds (a fleet)."""
        return self.games.claimed is not None

    @leasing.setter
    def leasing(self, leasing: bool) -> None:
        self.games.claimed = set() if leasing else None

    async def load_all(self) -> list[LiveGame]:
        """Load every lobby and active game (never finished ones) this process runs into memory."""
        records = await self._games_to_run()
        if self.leasing:
            self.games.claimed = {record.id for record in records}
        return [await self.games.load(record) for record in records]

    async def renew(self) -> list[LiveGame]:
        """With leases: renew this process's leases (call it well within `lease_seconds`), let go
        of the games another process has taken, and load the ones this process took over (a process
        of its shards that died or left, or a fleet handing its games over); those newly taken games,
        to announce like resumed ones (one loaded for a click before it was taken is loaded again)."""
        if not self.leasing:
            return []
        records = await self._games_to_run()
        held = {record.id for record in records}
        for game_id in [game_id for game_id in self.games.live if game_id not in held]:
            self.games.live.pop(game_id)
            self.computers.stop(game_id)
        before, self.games.claimed = self.games.claimed or set(), held
        return [
            await self.games.load(record)
            for record in records
            if record.id not in before or record.id not in self.games.live
        ]

    async def release(self) -> None:
        """With leases: let another process take this one's games at once (a clean stop)."""
        if self.leasing:
            await self.games.store.coordination.release_games()

    async def hand_over(self) -> None:
        """With leases: stop running games here and let another process take them at once (a fleet of
        another shard count takes over; bot/handover.py)."""
        await self.computers.stop_all()
        await self.release()
        self.games.live.clear()
        if self.leasing:
            self.games.claimed = set()

    async def _games_to_run(self) -> list[GameRecord]:
        """The lobbies and active games of this process's shards: with leases, those whose lease it holds."""
        plan, store = self.games.shard_plan, self.games.store
        if not self.leasing:
            return [record for record in await store.games.active_games() if plan.owns(record.guild_id)]
        return await store.coordination.claim_games(
            shard_ids=plan.shard_ids,
            shard_count=plan.shard_count,
            lease_seconds=plan.lease_seconds,
            now=self.games.clock.now(),
        )
