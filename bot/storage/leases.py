"""The SQLite store's claims and releases of game leases (see ownership.py for what they mean)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from bot.storage.access import StoreAccess
from bot.storage.models import GameRecord
from bot.storage.ownership import Ownership, check_shard_plan
from bot.storage.queries import GAMES_BY_IDS_SQL, game_record

CLAIM_SQL = """
UPDATE games SET owner = ?, owner_token = ?, lease_until = ?
 WHERE status IN ('lobby', 'active')
   AND ((guild_id >> 22) % ?) IN (SELECT value FROM json_each(?))
   AND (owner_token IS NULL OR owner_token = ? OR owner = ? OR lease_until < ?)
RETURNING id
"""


class SqliteLeases(StoreAccess, Ownership):
    async def claim_games(
        self, *, shard_ids: Sequence[int], shard_count: int, lease_seconds: float, now: float
    ) -> list[GameRecord]:
        """Take or renew the leases of the live games on `shard_ids`; the games now held, oldest first."""
        shards = check_shard_plan(shard_ids, shard_count)
        self.lease_seconds = lease_seconds
        params = (
            self.owner, self.token, now + lease_seconds, shard_count, json.dumps(shards),
            self.token, self.owner, now,
        )  # fmt: skip

        def body(db: sqlite3.Connection) -> list[GameRecord]:
            ids = [game_id for (game_id,) in db.execute(CLAIM_SQL, params).fetchall()]
            return [game_record(row) for row in db.execute(GAMES_BY_IDS_SQL, (json.dumps(ids),))]

        return await self._sync_transaction(body)

    async def release_games(self) -> None:
        """Free every lease this instance holds (on a clean shutdown)."""
        token = self.token

        def body(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE games SET owner = NULL, owner_token = NULL, lease_until = NULL WHERE owner_token = ?",
                (token,),
            )

        await self._sync_transaction(body)
