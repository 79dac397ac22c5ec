"""What the processes of a fleet agree on through the database: which process runs which game
(its lease), and which shard count runs the games (the shard layout).

## Leases

Each store instance has an owner identity (owner.py): its role (e.g. "shards 0-3 of 8", the same
for a process and its restarts) and a `token` of its own (new for every instance). A game's row
holds the role and token of the process running it and until when (`lease_until`).

- `claim_games` takes (or renews) the leases of the live games whose guild falls on the given
  shards and whose lease is free, expired, or held by the same role: a restarted process of a
  shard range takes over its games at once instead of waiting for its dead predecessor's leases
  to run out. It returns the games it now holds.
- `release_games` frees them on a clean shutdown, so their next owner need not wait either.
- Every write to a game is fenced: refused with `NotOwner` (a StaleMove, writing nothing) when
  the game's token is another instance's. A game nobody ever claimed (token NULL) is written
  by anyone, so a single process that never claims behaves exactly as before leases existed.
  The version check stays the fence within a game: a process whose lease ran out but that no
  one has replaced may still write, and whoever claims the game later loads what it wrote.

Games created by an instance that has claimed are leased to it from their start.

## The shards' owners

Each gateway shard (of a shard count) has one owner at a time: the store instance whose token its row
in `shard_owners` holds, with the machine and pid of its process, until `held_until` unless it says so
again (who claims, renews and gives them up: bot/shard_owners.py).

## The shard layout

Which shard count runs the games and since when, and the shards each fleet has connected, as its
processes last said (the handover itself: bot/handover.py).

Times here are the wall clock's (seconds since the epoch), the clock Discord stamps clicks with, not
the games' clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.database import Database
from bot.storage.dialects import Connection
from bot.storage.games import GAMES_BY_IDS_SQL
from bot.storage.models import GameRecord, game_record
from bot.storage.owner import Owner

CLAIM_SQL = """
UPDATE games SET owner = ?, owner_token = ?, lease_until = ?
 WHERE id IN (
     SELECT id FROM games
      WHERE status IN ('lobby', 'active') AND ((guild_id >> 22) % ?) {ids}
        AND (owner_token IS NULL OR owner_token = ? OR owner = ? OR lease_until < ?)
      ORDER BY id{lock})
RETURNING id
"""


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's shard for a guild: `(guild_id >> 22) % shard_count`."""
    return (guild_id >> 22) % shard_count


def check_shard_plan(shard_ids: Sequence[int], shard_count: int) -> list[int]:
    """The shard ids as a sorted list; ValueError unless 0 <= each < shard_count."""
    if shard_count < 1:
        raise ValueError(f"shard_count must be at least 1, not {shard_count}")
    ids = sorted(set(shard_ids))
    if not ids or ids[0] < 0 or ids[-1] >= shard_count:
        raise ValueError(f"shard ids {list(shard_ids)} are not all within 0..{shard_count - 1}")
    return ids


# ------------------------------------------------------------------ the shards' owners


@dataclass(frozen=True)
class ShardHolder:
    """Another store instance holding a shard: its token, machine, pid, and until when (wall clock)."""

    shard_id: int
    token: str
    machine: str
    pid: int
    held_until: float


CLAIM_SHARD_SQL = """
INSERT INTO shard_owners (shard_count, shard_id, owner_token, machine, pid, held_until)
VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (shard_count, shard_id) DO UPDATE SET owner_token = excluded.owner_token,
       machine = excluded.machine, pid = excluded.pid, held_until = excluded.held_until
 WHERE shard_owners.owner_token = excluded.owner_token OR shard_owners.held_until < ?
    OR shard_owners.owner_token {texts}
"""
SHARD_HOLDERS_SQL = """
SELECT shard_id, owner_token, machine, pid, held_until FROM shard_owners
 WHERE shard_count = ? AND shard_id {ids} AND owner_token <> ? ORDER BY shard_id
"""


# ------------------------------------------------------------------ the shard layout


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


class Coordination:
    """The leases and the shard layout of one database, claimed and told as `owner`."""

    def __init__(self, database: Database, owner: Owner) -> None:
        self.database = database
        self.owner = owner

    async def claim_games(
        self, *, shard_ids: Sequence[int], shard_count: int, lease_seconds: float, now: float
    ) -> list[GameRecord]:
        """Take or renew the leases of the live games whose guild is on `shard_ids` and whose lease is
        free, expired or held by the same `owner` role; the games this instance now holds, oldest first.
        From then on, games it creates are leased to it too."""
        shards = check_shard_plan(shard_ids, shard_count)
        self.owner.lease_seconds = lease_seconds
        role, token = self.owner.role, self.owner.token
        params = (
            role, token, float(now + lease_seconds), shard_count, self.database.dialect.array(shards),
            token, role, float(now),
        )  # fmt: skip

        async def body(db: Connection) -> list[GameRecord]:
            ids = [row[0] for row in await db.fetch(CLAIM_SQL, *params)]
            return [game_record(row) for row in await db.fetch(GAMES_BY_IDS_SQL, db.dialect.array(ids))]

        return await self.database.transaction(body)

    async def release_games(self) -> None:
        """Free every lease this instance holds (on a clean shutdown)."""

        async def body(db: Connection) -> None:
            await db.execute(
                "UPDATE games SET owner = NULL, owner_token = NULL, lease_until = NULL WHERE owner_token = ?",
                self.owner.token,
            )

        await self.database.transaction(body)

    async def claim_shards(
        self,
        shard_count: int,
        shard_ids: Sequence[int],
        *,
        machine: str,
        pid: int,
        now: float,
        for_seconds: float,
        gone: Sequence[str] = (),
    ) -> list[ShardHolder]:
        """Take (or keep) the shards `shard_ids` of `shard_count` for `for_seconds` from `now`: each one
        free, this instance's, held no longer, or held by a token in `gone` (an owner known to be dead).
        All of them or none: the holders of those another instance keeps (none: all are this one's)."""
        ids = check_shard_plan(shard_ids, shard_count)

        async def body(db: Connection) -> list[ShardHolder]:
            gone_tokens = db.dialect.array(list(gone))
            until = float(now + for_seconds)
            token = self.owner.token
            rows = [(shard_count, i, token, machine, pid, until, float(now), gone_tokens) for i in ids]
            await db.executemany(CLAIM_SHARD_SQL, rows)
            held = await db.fetch(SHARD_HOLDERS_SQL, shard_count, db.dialect.array(ids), self.owner.token)
            if held:  # none taken: the shards this instance just took go back
                await db.execute(
                    "DELETE FROM shard_owners WHERE shard_count = ? AND shard_id {ids} AND owner_token = ?",
                    shard_count, db.dialect.array(ids), self.owner.token,
                )  # fmt: skip
            return [ShardHolder(row[0], row[1], row[2], row[3], float(row[4])) for row in held]

        return await self.database.transaction(body)

    async def renew_shards(
        self, shard_count: int, shard_ids: Sequence[int], *, now: float, for_seconds: float
    ) -> list[int]:
        """Hold this instance's shards `for_seconds` more from `now`; the shards it no longer holds (another
        instance took them once its hold ran out)."""
        ids = check_shard_plan(shard_ids, shard_count)

        async def body(db: Connection) -> list[int]:
            await db.execute(
                "UPDATE shard_owners SET held_until = ? WHERE shard_count = ? AND shard_id {ids} "
                "AND owner_token = ?",
                float(now + for_seconds), shard_count, db.dialect.array(ids), self.owner.token,
            )  # fmt: skip
            mine = await db.fetch(
                "SELECT shard_id FROM shard_owners WHERE shard_count = ? AND shard_id {ids} "
                "AND owner_token = ?",
                shard_count, db.dialect.array(ids), self.owner.token,
            )  # fmt: skip
            return sorted(set(ids) - {row[0] for row in mine})

        return await self.database.transaction(body)

    async def shard_holders(self, shard_count: int, shard_ids: Sequence[int]) -> list[ShardHolder]:
        """The other instances holding any of the shards `shard_ids` of `shard_count`, as last said."""
        ids = check_shard_plan(shard_ids, shard_count)
        shards = self.database.dialect.array(ids)
        rows = await self.database.read(SHARD_HOLDERS_SQL, shard_count, shards, self.owner.token)
        return [ShardHolder(row[0], row[1], row[2], row[3], float(row[4])) for row in rows]

    async def release_shards(self, shard_count: int, shard_ids: Sequence[int]) -> None:
        """Give up this instance's shards (a clean stop): the next process of them starts at once."""
        ids = check_shard_plan(shard_ids, shard_count)

        async def body(db: Connection) -> None:
            await db.execute(
                "DELETE FROM shard_owners WHERE shard_count = ? AND shard_id {ids} AND owner_token = ?",
                shard_count, db.dialect.array(ids), self.owner.token,
            )  # fmt: skip

        await self.database.transaction(body)

    async def shard_layout(self) -> ShardLayout | None:
        """The layout as it stands; None before any fleet process recorded one."""
        rows = await self.database.read(LAYOUT_SQL)
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

        return await self.database.transaction(body)

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

        return await self.database.transaction(body)

    async def say_disconnected(self, shard_count: int, shard_ids: Sequence[int]) -> None:
        """The shards `shard_ids` of the fleet of `shard_count` shards are connected no more (a process
        stopping, or handing its games over)."""

        async def body(db: Connection) -> None:
            await db.execute(
                "DELETE FROM fleet_shards WHERE shard_count = ? AND shard_id {ids}",
                shard_count,
                db.dialect.array(sorted(shard_ids)),
            )

        await self.database.transaction(body)

    async def held_elsewhere(self, shard_ids: Sequence[int], shard_count: int, now: float) -> int:
        """How many live games of these shards another store instance holds a lease on until `now` or
        later (`now` on the games' clock, as leases are)."""
        shards = self.database.dialect.array(sorted(shard_ids))
        rows = await self.database.read(HELD_ELSEWHERE_SQL, shard_count, shards, self.owner.token, float(now))
        return rows[0][0]
