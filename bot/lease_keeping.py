"""How the game service of one process of a fleet keeps the leases of its games (see storage/ownership.py).

With a shard plan the service runs only the games it holds the lease of: `resume` claims them
instead of loading every live game, `renew_leases` keeps them (and takes over those of a process
of the same shards that is gone), and `shutdown` releases them.
"""

from __future__ import annotations

import asyncio

from bot.clock import Clock
from bot.live import LiveGame
from bot.sharding import ShardPlan
from bot.storage import GameRecord, GameStore


class LeaseKeeping:
    store: GameStore
    shard_plan: ShardPlan
    leasing: bool
    live: dict[int, LiveGame]
    _computer_tasks: dict[int, asyncio.Task]
    clock: Clock

    async def _load(self, record: GameRecord) -> LiveGame: ...

    async def renew_leases(self) -> list[LiveGame]:
        """With leases: renew this process's leases (call it well within `lease_seconds`), let go
        of the games another process has taken, and load the ones this process took over (a process
        of its shards that died or left); those newly taken games, to announce like resumed ones."""
        if not self.leasing:
            return []
        records = await self._games_to_run()
        held = {record.id for record in records}
        for game_id in [game_id for game_id in self.live if game_id not in held]:
            self.live.pop(game_id)
            task = self._computer_tasks.pop(game_id, None)
            if task is not None:
                task.cancel()
        return [await self._load(record) for record in records if record.id not in self.live]

    async def _games_to_run(self) -> list[GameRecord]:
        """The lobbies and active games of this process's shards: with leases, those whose lease it holds."""
        if not self.leasing:
            games = await self.store.active_games()
            return [record for record in games if self.shard_plan.owns(record.guild_id)]
        return await self.store.claim_games(
            shard_ids=self.shard_plan.shard_ids,
            shard_count=self.shard_plan.shard_count,
            lease_seconds=self.shard_plan.lease_seconds,
            now=self.clock.now(),
        )
