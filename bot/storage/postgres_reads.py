"""The PostgreSQL store's reads: each one statement on a pooled connection, seeing only committed data.

Rows come back in the same shape as the SQLite store's, so queries.py turns them into records.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from bot.storage import queries
from bot.storage.models import Deadline, Ending, GameNotFound, GameRecord, GameStatus, MoveRecord
from bot.storage.postgres_access import PgAccess
from bot.storage.queries import (
    DEADLINES_SQL,
    ENDING_REASONS_SQL,
    LEADERBOARD_SQL,
    STATS_SQL,
    check_status,
    game_record,
    leaderboard_rows,
    move_record,
    numbered,
    stats_rows,
)

log = logging.getLogger(__name__)

GAME_SELECT = """
SELECT g.id, g.guild_id, g.channel_id, g.thread_id, g.game, g.options, g.seed, g.status, g.version,
       g.host_id, g.table_message_id, g.table_channel_id, g.created_at, g.updated_at,
       COALESCE((SELECT json_agg(json_build_array(s.seat, s.user_id, s.name, s.computer))
          FROM seats AS s WHERE s.game_id = g.id), '[]')::text AS seats
  FROM games AS g
"""
GAME_SQL = GAME_SELECT + " WHERE g.id = $1"
GAMES_BY_IDS_SQL = GAME_SELECT + " WHERE g.id = ANY($1::bigint[]) ORDER BY g.id"
ACTIVE_GAMES_SQL = GAME_SELECT + " WHERE g.status IN ('lobby', 'active') ORDER BY g.id"
ENDINGS_TO_SHOW_SQL = GAME_SELECT + " WHERE g.id IN (SELECT game_id FROM endings_to_show) ORDER BY g.id"
CHANNEL_GAMES_SQL = (
    GAME_SELECT
    + " WHERE (g.channel_id = $1 OR g.thread_id = $1) AND g.status = ANY($2::text[]) ORDER BY g.id"
)
MOVES_SQL = (
    "SELECT seq, seat, action, events, at FROM moves WHERE game_id = $1 AND seq > $2 ORDER BY seq LIMIT $3"
)
RECENT_MOVES_SQL = (
    "SELECT seq, seat, action, events, at FROM "
    "(SELECT * FROM moves WHERE game_id = $1 ORDER BY seq DESC LIMIT $2) AS newest ORDER BY seq"
)
SNAPSHOT_SQL = numbered(queries.SNAPSHOT_SQL)


class PgReads(PgAccess):
    """Finding games, their moves and snapshots, deadlines, remembered options and statistics."""

    async def get_game(self, game_id: int) -> GameRecord:
        """The game `game_id`; raises GameNotFound."""
        rows = await self._read(GAME_SQL, game_id)
        if not rows:
            raise GameNotFound(game_id)
        return game_record(rows[0])

    async def load_state_json(self, game_id: int) -> tuple[str | None, int]:
        """The latest snapshot (None if missing or not matching the log's end) and the game's version."""
        rows = await self._read(SNAPSHOT_SQL, game_id)
        if not rows:
            raise GameNotFound(game_id)
        state, seq, version, last_seq = rows[0]
        if state is not None and seq != last_seq:
            log.warning("game=%d snapshot is at move %d but the log at move %d", game_id, seq, last_seq)
            state = None
        return state, version

    async def moves(self, game_id: int, *, after_seq: int = 0, limit: int | None = None) -> list[MoveRecord]:
        """The logged moves with seq > `after_seq`, oldest first, at most `limit` of them."""
        return [move_record(row) for row in await self._read(MOVES_SQL, game_id, after_seq, limit)]

    async def recent_moves(self, game_id: int, limit: int) -> list[MoveRecord]:
        """The newest `limit` moves, oldest first."""
        return [move_record(row) for row in await self._read(RECENT_MOVES_SQL, game_id, limit)]

    async def active_games(self) -> list[GameRecord]:
        """Every game in the lobby or active, oldest first; ended games are never read."""
        return [game_record(row) for row in await self._read(ACTIVE_GAMES_SQL)]

    async def endings_to_show(self) -> list[Ending]:
        """The ended games whose last table no process has shown yet, oldest first."""
        reasons = dict(await self._read(ENDING_REASONS_SQL))
        records = [game_record(row) for row in await self._read(ENDINGS_TO_SHOW_SQL)]
        return [Ending(record=record, reason=reasons.get(record.id)) for record in records]

    async def games_in_channel(
        self, channel_id: int, *, statuses: Sequence[GameStatus] = ("lobby", "active")
    ) -> list[GameRecord]:
        """The games whose channel or thread is `channel_id`, with one of `statuses`, oldest first."""
        for status in statuses:
            check_status(status)
        return [game_record(row) for row in await self._read(CHANNEL_GAMES_SQL, channel_id, list(statuses))]

    async def deadlines(self) -> list[Deadline]:
        """The pending deadlines of live games, soonest first."""
        return [Deadline(game_id=g, decision=d, due=due) for g, d, due in await self._read(DEADLINES_SQL)]

    async def remembered_options(self, channel_id: int, game: str) -> dict | None:
        """The options last used for `game` in `channel_id`, or None."""
        rows = await self._read(
            "SELECT options FROM remembered_options WHERE channel_id = $1 AND game = $2", channel_id, game
        )
        return json.loads(rows[0][0]) if rows else None

    async def stats(self, guild_id: int, user_id: int) -> list[dict]:
        """Per game the member has results for in this server: {"game", "played", "won", "best"}."""
        return stats_rows(await self._read(numbered(STATS_SQL), user_id, guild_id))

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[dict]:
        """Members by wins at `game` here (fewer played first on a tie): {"user_id", "played", "won"}."""
        return leaderboard_rows(await self._read(numbered(LEADERBOARD_SQL), guild_id, game, limit))
