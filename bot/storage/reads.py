"""The game store's reads: each one statement on the read-only connection, which sees only committed data."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence

from bot.storage.access import StoreAccess
from bot.storage.models import Deadline, Ending, GameNotFound, GameRecord, GameStatus, MoveRecord
from bot.storage.queries import (
    ACTIVE_GAMES_SQL,
    CHANNEL_GAMES_SQL,
    DEADLINES_SQL,
    ENDING_REASONS_SQL,
    ENDINGS_TO_SHOW_SQL,
    GAME_SQL,
    LEADERBOARD_SQL,
    MOVES_SQL,
    RECENT_MOVES_SQL,
    SNAPSHOT_SQL,
    STATS_SQL,
    check_status,
    game_record,
    leaderboard_rows,
    move_record,
    stats_rows,
    to_json,
)

log = logging.getLogger(__name__)


class GameReads(StoreAccess):
    """Finding games, their moves and snapshots, deadlines, remembered options and statistics."""

    async def get_game(self, game_id: int) -> GameRecord:
        """The game `game_id`; raises GameNotFound."""
        rows = await self._read(GAME_SQL, (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        return game_record(rows[0])

    async def load_state_json(self, game_id: int) -> tuple[str | None, int]:
        """The latest snapshot (None if missing or not matching the log's end) and the game's version."""
        rows = await self._read(SNAPSHOT_SQL, (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        state, seq, version, last_seq = rows[0]
        if state is not None and seq != last_seq:
            log.warning("game=%d snapshot is at move %d but the log at move %d", game_id, seq, last_seq)
            state = None
        return state, version

    async def moves(self, game_id: int, *, after_seq: int = 0, limit: int | None = None) -> list[MoveRecord]:
        """The logged moves with seq > `after_seq`, oldest first, at most `limit` of them."""
        rows = await self._read(MOVES_SQL, (game_id, after_seq, -1 if limit is None else limit))
        return [move_record(row) for row in rows]

    async def recent_moves(self, game_id: int, limit: int) -> list[MoveRecord]:
        """The newest `limit` moves, oldest first."""
        return [move_record(row) for row in await self._read(RECENT_MOVES_SQL, (game_id, limit))]

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
        rows = await self._read(CHANNEL_GAMES_SQL, (channel_id, channel_id, to_json(list(statuses))))
        return [game_record(row) for row in rows]

    async def deadlines(self) -> list[Deadline]:
        """The pending deadlines of live games, soonest first."""
        return [Deadline(game_id=g, decision=d, due=due) for g, d, due in await self._read(DEADLINES_SQL)]

    async def remembered_options(self, channel_id: int, game: str) -> dict | None:
        """The options last used for `game` in `channel_id`, or None."""
        rows = await self._read(
            "SELECT options FROM remembered_options WHERE channel_id = ? AND game = ?", (channel_id, game)
        )
        return json.loads(rows[0][0]) if rows else None

    async def stats(self, guild_id: int, user_id: int) -> list[dict]:
        """Per game the member has results for in this server: {"game", "played", "won", "best",
        "by_computer"} — the last, games a computer finished in their seat (played, never won)."""
        return stats_rows(await self._read(STATS_SQL, (user_id, guild_id)))

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[dict]:
        """Members by wins at `game` here (fewer played first on a tie): {"user_id", "played", "won"}."""
        return leaderboard_rows(await self._read(LEADERBOARD_SQL, (guild_id, game, limit)))
