"""`PostgresGameStore`: the game store on a PostgreSQL server, through asyncpg, for a fleet of processes.

The same contract as the SQLite store: a move is acknowledged only once committed durably
(`synchronous_commit = on`, whatever the server's default), versions are checked optimistically,
moves of different games waiting at the same moment share a transaction (postgres_commits.py),
the action log is gapless and append-only, and finished games are never read at start-up.

Reads and other writes take a connection from a small pool; the pool replaces broken
connections by itself, so after the server restarts play goes on (see postgres_access.py).
Each game's row carries its lease (ownership.py): every write is fenced by it.

This module opens and closes the store; postgres_reads.py, postgres_writes.py and the claims
below hold what it reads and writes.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import asyncpg

from bot.storage.locks import GameLocks
from bot.storage.models import GameRecord
from bot.storage.ownership import check_shard_plan
from bot.storage.postgres_commits import Committer
from bot.storage.postgres_reads import GAMES_BY_IDS_SQL, PgReads
from bot.storage.postgres_schema import apply_pg_migrations
from bot.storage.postgres_writes import PgWrites
from bot.storage.queries import game_record

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a connection before a call answers StoreUnavailable."""

SERVER_SETTINGS = {"synchronous_commit": "on", "application_name": "catnip"}

CLAIM_SQL = """
UPDATE games SET owner = $1, owner_token = $2, lease_until = $3
 WHERE id IN (
     SELECT id FROM games
      WHERE status IN ('lobby', 'active') AND ((guild_id >> 22) % $4) = ANY($5::bigint[])
        AND (owner_token IS NULL OR owner_token = $2 OR owner = $1 OR lease_until < $6)
      ORDER BY id FOR UPDATE)
RETURNING id
"""


class PostgresGameStore(PgWrites, PgReads, GameLocks):
    """The `GameStore` on the PostgreSQL database at `url` (its schema created or brought up to date).

    `owner` is the role of the process in a fleet (see ownership.py); a lone process needs none.
    `pool_size` connections at most; `writers` batches of moves written at the same time.
    """

    def __init__(self, url: str, *, owner: str | None = None, pool_size: int = 8, writers: int = 2) -> None:
        self._init_ownership(owner)
        self.url = url
        self.pool_size = pool_size
        self.writers = writers
        self._init_locks()

    async def open(self) -> None:
        """Connect and apply pending migrations; idempotent."""
        if self._pool is not None:
            return
        pool = await asyncpg.create_pool(
            self.url,
            min_size=1,
            max_size=self.pool_size,
            timeout=CONNECT_TIMEOUT,
            server_settings=SERVER_SETTINGS,
        )
        try:
            async with pool.acquire() as db:
                applied = await apply_pg_migrations(db)
        except BaseException:
            await pool.close()
            raise
        if applied:
            log.info("database: applied PostgreSQL migrations %s", applied)
        self._pool = pool
        self._committer = Committer(pool, writers=self.writers)

    async def close(self) -> None:
        """Finish the moves being committed and close the pool; idempotent."""
        pool, committer = self._pool, self._committer
        self._pool = self._committer = None
        if committer is not None:
            await committer.drain()
        if pool is not None:
            await pool.close()

    async def claim_games(
        self, *, shard_ids: Sequence[int], shard_count: int, lease_seconds: float, now: float
    ) -> list[GameRecord]:
        """Take or renew the leases of the live games on `shard_ids`; the games now held, oldest first."""
        shards = check_shard_plan(shard_ids, shard_count)
        self.lease_seconds = lease_seconds

        async def body(db: asyncpg.Connection) -> list[GameRecord]:
            rows = await db.fetch(
                CLAIM_SQL, self.owner, self.token, float(now + lease_seconds), shard_count, shards, float(now)
            )
            claimed = await db.fetch(GAMES_BY_IDS_SQL, [row[0] for row in rows])
            return [game_record(row) for row in claimed]

        return await self._transaction(body)

    async def release_games(self) -> None:
        """Free every lease this instance holds (on a clean shutdown)."""

        async def body(db: asyncpg.Connection) -> None:
            await db.execute(
                "UPDATE games SET owner = NULL, owner_token = NULL, lease_until = NULL "
                "WHERE owner_token = $1",
                self.token,
            )

        await self._transaction(body)
