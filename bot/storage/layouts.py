"""The fleet's shard layout in the database: which shard count runs the games and since when, and the
shards each fleet has connected, as its processes last said (the handover itself: bot/handover.py).

Times here are the wall clock's (seconds since the epoch), the clock Discord stamps clicks with, not
the games' clock.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.storage.dialects import Connection, Dialect

T = TypeVar("T")

LAYOUT_SQL = "SELECT shard_count, previous_count, since FROM shard_layout WHERE id = 1"
CONNECTED_SQL = "SELECT COUNT(*) FROM fleet_shards WHERE shard_count = ? AND connected_until > ?"
HAND_OVER_SQL = (
    "UPDATE shard_layout SET previous_count = shard_count, shard_count = ?, since = ? "
    "WHERE id = 1 AND shard_count <> ?"
)
HELD_ELSEWHERE_SQL = """
SELECT COUNT(*) FROM games
 WHERE status IN ('lobby', 'active') AND ((guild_id >> 22) % ?) {ids}
   AND owner_token IS NOT NULL AND owner_token <> ? AND lease_until >= ?
"""


@dataclass(frozen=True)
class ShardLayout:
    """The shard count that runs the games from `since` on, and the one that ran them before."""

    shard_count: int
    previous_count: int | None
    since: float

    def in_charge(self, shard_count: int, at: float) -> bool:
        """Whether the processes of `shard_count` shards answer what was asked at time `at`: those of
        the count in charge from `since` on, those of the count before until then."""
        if shard_count == self.shard_count:
            return at >= self.since
        return shard_count == self.previous_count and at < self.since


def _layout(row: Sequence[Any] | None) -> ShardLayout | None:
    return None if row is None else ShardLayout(row[0], row[1], float(row[2]))


class ShardLayouts:
    """The store's part of a handover (mixed into GameStore, whose `_read` and `_transaction` it uses)."""

    token: str
    dialect: Dialect

    async def _read(self, sql: str, *args: object) -> list:
        raise NotImplementedError

    async def _transaction(self, body: Callable[[Connection], Awaitable[T]], *, lazy: bool = False) -> T:
        raise NotImplementedError

    async def shard_layout(self) -> ShardLayout | None:
        """The layout as it stands; None before any fleet process recorded one."""
        rows = await self._read(LAYOUT_SQL)
        return _layout(rows[0] if rows else None)

    async def join_layout(self, shard_count: int, *, now: float) -> ShardLayout:
        """The layout for a process of `shard_count` shards starting at `now`. The first process of a
        fleet to start on a database records its count as in charge; and when the fleet in charge has
        no shard connected any more (stopped, or gone without a word for a while), a fleet of another
        count takes over at once."""

        async def body(db: Connection) -> ShardLayout:
            await db.execute(
                "INSERT INTO shard_layout (id, shard_count, previous_count, since) VALUES (1, ?, NULL, 0) "
                "ON CONFLICT (id) DO NOTHING",
                shard_count,
            )
            layout = _layout(await db.fetchrow(LAYOUT_SQL))
            if layout.shard_count != shard_count and not await db.fetchval(
                CONNECTED_SQL, layout.shard_count, float(now)
            ):
                await db.execute(HAND_OVER_SQL, shard_count, float(now), shard_count)
            return _layout(await db.fetchrow(LAYOUT_SQL))

        return await self._transaction(body)

    async def say_connected(
        self,
        shard_count: int,
        shard_ids: Sequence[int],
        *,
        now: float,
        for_seconds: float,
        take_over_after: float,
        standing_by: bool,
    ) -> ShardLayout:
        """Say that the shards `shard_ids` of the fleet of `shard_count` shards are connected, for
        `for_seconds` from `now`. A fleet `standing_by` (it does not run the games) takes them over
        once all its shards are connected, `take_over_after` seconds from now (the processes answering
        meanwhile learn of it first); at once if the fleet in charge has no shard connected any more.
        The layout then."""

        async def body(db: Connection) -> ShardLayout:
            await db.executemany(
                "INSERT INTO fleet_shards (shard_count, shard_id, connected_until) VALUES (?, ?, ?) "
                "ON CONFLICT (shard_count, shard_id) "
                "DO UPDATE SET connected_until = excluded.connected_until",
                [(shard_count, shard_id, float(now + for_seconds)) for shard_id in shard_ids],
            )
            layout = _layout(await db.fetchrow(LAYOUT_SQL))
            if layout is None or layout.shard_count == shard_count or not standing_by:
                return layout
            if not await db.fetchval(CONNECTED_SQL, layout.shard_count, float(now)):
                await db.execute(HAND_OVER_SQL, shard_count, float(now), shard_count)
            elif await db.fetchval(CONNECTED_SQL, shard_count, float(now)) >= shard_count:
                await db.execute(HAND_OVER_SQL, shard_count, float(now + take_over_after), shard_count)
            return _layout(await db.fetchrow(LAYOUT_SQL))

        return await self._transaction(body)

    async def say_disconnected(self, shard_count: int, shard_ids: Sequence[int]) -> None:
        """The shards `shard_ids` of the fleet of `shard_count` shards are connected no more (a process
        stopping, or handing its games over)."""

        async def body(db: Connection) -> None:
            await db.execute(
                "DELETE FROM fleet_shards WHERE shard_count = ? AND shard_id {ids}",
                shard_count,
                db.dialect.array(sorted(shard_ids)),
            )

        await self._transaction(body)

    async def held_elsewhere(self, shard_ids: Sequence[int], shard_count: int, now: float) -> int:
        """How many live games of these shards another store instance holds a lease on until `now` or
        later (`now` on the games' clock, as leases are)."""
        shards = self.dialect.array(sorted(shard_ids))
        rows = await self._read(HELD_ELSEWHERE_SQL, shard_count, shards, self.token, float(now))
        return rows[0][0]
