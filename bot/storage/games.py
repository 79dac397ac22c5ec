"""`Games`: the games, their seats, their action log and snapshots, written once for every database.

Every write to a game is fenced by its lease (see owner.py, coordination.py): a write first reads the
game's row — locking it where the database locks rows — and is refused with NotOwner if another
process holds the game. What each operation raises when it refuses (GameNotFound, StaleMove,
NotOwner, StoreUnavailable): see models.py. Times are passed in by the caller.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from bot.storage.commits import SNAPSHOT_UPSERT, PendingMove, write_results
from bot.storage.database import Database
from bot.storage.dialects import Connection
from bot.storage.models import (
    ENDED_STATUSES,
    Ending,
    FinalResult,
    GameNotFound,
    GameRecord,
    SeatRecord,
    StaleMove,
    check_distinct,
    check_numbered,
    check_status,
    game_record,
    lobby_seats,
    move_record,
    to_json,
)
from bot.storage.owner import Owner
from engine.history import replay

if TYPE_CHECKING:
    from bot.storage.models import GameStatus, MoveRecord

log = logging.getLogger(__name__)

_GAME_SELECT = """
SELECT g.id, g.guild_id, g.channel_id, g.thread_id, g.game, g.options, g.seed, g.status, g.version,
       g.host_id, g.table_message_id, g.table_channel_id, g.created_at, g.updated_at,
       CAST(COALESCE((SELECT {json_agg}({json_array}(s.seat, s.user_id, s.name, s.computer))
          FROM seats AS s WHERE s.game_id = g.id), '[]') AS TEXT) AS seats
  FROM games AS g
"""
# Must repeat the partial index's condition word for word so SQLite uses `games_live`.
ACTIVE_GAMES_SQL = _GAME_SELECT + " WHERE g.status IN ('lobby', 'active') ORDER BY g.id"
GAME_SQL = _GAME_SELECT + " WHERE g.id = ?"
GAMES_BY_IDS_SQL = _GAME_SELECT + " WHERE g.id {ids} ORDER BY g.id"
ENDINGS_TO_SHOW_SQL = _GAME_SELECT + " WHERE g.id IN (SELECT game_id FROM endings_to_show) ORDER BY g.id"
ENDING_REASONS_SQL = "SELECT game_id, reason FROM endings_to_show WHERE reason IS NOT NULL"
CHANNEL_GAMES_SQL = (
    _GAME_SELECT + " WHERE (g.channel_id = ? OR g.thread_id = ?) AND g.status {texts} ORDER BY g.id"
)
MOVES_SQL = (
    "SELECT seq, seat, action, events, at FROM moves WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?"
)
RECENT_MOVES_SQL = (
    "SELECT seq, seat, action, events, at FROM "
    "(SELECT * FROM moves WHERE game_id = ? ORDER BY seq DESC LIMIT ?) AS newest ORDER BY seq"
)
SNAPSHOT_SQL = """
SELECT s.state, s.seq, g.version, COALESCE((SELECT MAX(m.seq) FROM moves AS m WHERE m.game_id = g.id), 0)
  FROM games AS g LEFT JOIN snapshots AS s ON s.game_id = g.id
 WHERE g.id = ?
"""
REMEMBER_OPTIONS = "ON CONFLICT (channel_id, game) DO UPDATE SET options = excluded.options"


class Games:
    """The games of one database, written as `owner`."""

    def __init__(self, database: Database, owner: Owner) -> None:
        self.database = database
        self.owner = owner

    @staticmethod
    async def _game_in(db: Connection, game_id: int) -> GameRecord:
        row = await db.fetchrow(GAME_SQL, game_id)
        if row is None:
            raise GameNotFound(game_id)
        return game_record(row)

    @staticmethod
    async def _replace_seats(db: Connection, game_id: int, seats: Sequence[SeatRecord]) -> None:
        check_distinct(seats)
        await db.execute("DELETE FROM seats WHERE game_id = ?", game_id)
        await db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, computer) VALUES (?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.name, s.computer) for s in seats],
        )

    # ------------------------------------------------------------------ lobby and start

    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        thread_id: int | None,
        game: str,
        options: dict,
        host: SeatRecord,
        now: float,
        seats: Sequence[SeatRecord] | None = None,
    ) -> GameRecord:
        """A new game in the lobby (version 0) with the host seated, or with `seats` (the host's among
        them) for a rematch."""
        seated = lobby_seats(host, seats)
        lease = self.owner.new_lease(now)

        async def body(db: Connection) -> GameRecord:
            game_id = await db.fetchval(
                "INSERT INTO games (guild_id, channel_id, thread_id, game, options, seed, status, version, "
                "host_id, created_at, updated_at, owner, owner_token, lease_until) "
                "VALUES (?, ?, ?, ?, ?, NULL, 'lobby', 0, ?, ?, ?, ?, ?, ?) RETURNING id",
                guild_id, channel_id, thread_id, game, to_json(options), host.user_id, float(now), float(now),
                *lease,
            )  # fmt: skip
            await self._replace_seats(db, game_id, seated)
            return await self._game_in(db, game_id)

        return await self.database.transaction(body)

    async def update_lobby(
        self,
        game_id: int,
        *,
        seats: Sequence[SeatRecord] | None = None,
        options: dict | None = None,
        thread_id: int | None = None,
        host_id: int | None = None,
        now: float,
    ) -> GameRecord:
        """The lobby with its seats / options / thread / host replaced; StaleMove once it has started."""

        async def body(db: Connection) -> GameRecord:
            if await self.owner.status(db, game_id) != "lobby":
                raise StaleMove("This game is no longer in its lobby.")
            await db.execute(
                "UPDATE games SET options = COALESCE(?, options), thread_id = COALESCE(?, thread_id), "
                "host_id = COALESCE(?, host_id), updated_at = ? WHERE id = ?",
                None if options is None else to_json(options), thread_id, host_id, float(now), game_id,
            )  # fmt: skip
            if seats is not None:
                await self._replace_seats(db, game_id, seats)
            return await self._game_in(db, game_id)

        return await self.database.transaction(body)

    async def start_game(
        self, game_id: int, *, seed: int, seats: Sequence[SeatRecord], state_json: str, now: float
    ) -> GameRecord:
        """The game started: active, version 1, snapshot of seq 0 written, and its options remembered as
        the last used for its game in its channel; StaleMove if already started."""
        check_numbered(seats)

        async def body(db: Connection) -> GameRecord:
            if await self.owner.status(db, game_id) != "lobby":
                raise StaleMove("This game has already started.")
            await db.execute(
                "UPDATE games SET status = 'active', version = 1, seed = ?, updated_at = ? WHERE id = ?",
                seed, float(now), game_id,
            )  # fmt: skip
            await self._replace_seats(db, game_id, seats)
            await db.execute(SNAPSHOT_UPSERT, game_id, 0, 1, state_json)
            await db.execute(
                "INSERT INTO remembered_options (channel_id, game, options) "
                f"SELECT channel_id, game, options FROM games WHERE id = ? {REMEMBER_OPTIONS}",
                game_id,
            )
            return await self._game_in(db, game_id)

        return await self.database.transaction(body)

    # ------------------------------------------------------------------ playing

    async def commit_move(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        action: str,
        events: list[dict],
        state_json: str,
        now: float,
        status: GameStatus | None = None,
        result: FinalResult | None = None,
    ) -> int:
        """Append the move, write the snapshot and bump the version, atomically and durably.

        Raises StaleMove (and writes nothing) if the game is not at `expected_version` or no longer
        active. Returns the new version. Moves of several games waiting at the same moment share
        one transaction (see commits.py). A move that ends the game carries its `result`, stored
        in the same transaction.
        """
        if status is not None:
            check_status(status)
        move = PendingMove(
            game_id, expected_version, seat, action, to_json(events), state_json, now, status, result,
            self.owner.token,
        )  # fmt: skip
        return await self.database.commit(move)

    async def repair_snapshot(self, game_id: int, *, state_json: str, version: int, seq: int) -> bool:
        """Write a rebuilt snapshot if the game is still at `version` with `seq` moves; whether it was."""

        async def body(db: Connection) -> bool:
            await self.owner.status(db, game_id)
            found = await db.fetchrow(
                "SELECT g.version, COALESCE((SELECT MAX(seq) FROM moves WHERE game_id = g.id), 0) "
                "FROM games AS g WHERE g.id = ?",
                game_id,
            )
            if tuple(found) != (version, seq):
                return False
            await db.execute(SNAPSHOT_UPSERT, game_id, seq, version, state_json)
            return True

        return await self.database.transaction(body)

    async def replace_seat(
        self, game_id: int, seat: SeatRecord, *, host_id: int | None = None, now: float
    ) -> GameRecord:
        """The game with seat `seat.seat` given to someone else (e.g. a computer takes over), and
        `host_id` the new host if given."""

        async def body(db: Connection) -> GameRecord:
            await self.owner.status(db, game_id)
            changed = await db.fetchval(
                "UPDATE seats SET user_id = ?, name = ?, computer = ? "
                "WHERE game_id = ? AND seat = ? RETURNING seat",
                seat.user_id, seat.name, seat.computer, game_id, seat.seat,
            )  # fmt: skip
            if changed is None:
                raise ValueError(f"game {game_id} has no seat {seat.seat}")
            await db.execute(
                "UPDATE games SET host_id = COALESCE(?, host_id), updated_at = ? WHERE id = ?",
                host_id, float(now), game_id,
            )  # fmt: skip
            return await self._game_in(db, game_id)

        return await self.database.transaction(body)

    async def set_status(
        self, game_id: int, status: GameStatus, *, now: float, reason: str | None = None
    ) -> GameRecord:
        """The game with its status changed; an ended game loses its deadline. A game closed with a
        `reason` is among `endings_to_show` until its table says so."""
        check_status(status)

        async def body(db: Connection) -> GameRecord:
            await self.owner.status(db, game_id)
            await db.execute(
                "UPDATE games SET status = ?, updated_at = ? WHERE id = ?", status, float(now), game_id
            )
            if status in ENDED_STATUSES:
                await db.execute("DELETE FROM deadlines WHERE game_id = ?", game_id)
            if status in ENDED_STATUSES and reason is not None:
                await db.execute(
                    "INSERT INTO endings_to_show (game_id, reason) VALUES (?, ?) "
                    "ON CONFLICT (game_id) DO UPDATE SET reason = excluded.reason",
                    game_id,
                    reason,
                )
            return await self._game_in(db, game_id)

        return await self.database.transaction(body)

    async def set_table_message(
        self, game_id: int, *, channel_id: int, message_id: int | None, now: float
    ) -> None:
        """Remember where the game's current table message is."""

        async def body(db: Connection) -> None:
            await self.owner.status(db, game_id)
            await db.execute(
                "UPDATE games SET table_channel_id = ?, table_message_id = ?, updated_at = ? WHERE id = ?",
                channel_id, message_id, float(now), game_id,
            )  # fmt: skip

        await self.database.transaction(body)

    async def record_result(
        self, game_id: int, *, scores: Sequence[int], winners: Sequence[int], reason: str, now: float
    ) -> None:
        """Store each seat's final score and whether it won (recording again replaces them) and rate the
        game (once only). A move that ends a game stores its result itself (`commit_move(result=...)`)."""
        result = FinalResult(tuple(scores), tuple(winners), reason)

        async def body(db: Connection) -> None:
            await self.owner.status(db, game_id)
            await write_results(db, [(game_id, result, now)])

        await self.database.transaction(body)

    async def ending_shown(self, game_id: int) -> None:
        """The game's final table is shown: no process needs to show it again."""

        async def body(db: Connection) -> None:
            await db.execute("DELETE FROM endings_to_show WHERE game_id = ?", game_id)

        await self.database.transaction(body)

    async def remember_options(self, channel_id: int, game: str, options: dict) -> None:
        """Remember the options last used for `game` in `channel_id`."""

        async def body(db: Connection) -> None:
            await db.execute(
                "INSERT INTO remembered_options (channel_id, game, options) "
                f"VALUES (?, ?, ?) {REMEMBER_OPTIONS}",
                channel_id,
                game,
                to_json(options),
            )

        await self.database.transaction(body)

    async def remembered_options(self, channel_id: int, game: str) -> dict | None:
        """The options last used for `game` in `channel_id`, or None."""
        rows = await self.database.read(
            "SELECT options FROM remembered_options WHERE channel_id = ? AND game = ?", channel_id, game
        )
        return json.loads(rows[0][0]) if rows else None

    # ------------------------------------------------------------------ reads

    async def get_game(self, game_id: int) -> GameRecord:
        """The game `game_id`; raises GameNotFound."""
        rows = await self.database.read(GAME_SQL, game_id)
        if not rows:
            raise GameNotFound(game_id)
        return game_record(rows[0])

    async def load_state_json(self, game_id: int) -> tuple[str | None, int]:
        """The latest snapshot (None if missing or not matching the log's end) and the game's version."""
        rows = await self.database.read(SNAPSHOT_SQL, game_id)
        if not rows:
            raise GameNotFound(game_id)
        state, seq, version, last_seq = rows[0]
        if state is not None and seq != last_seq:
            log.warning("game=%d snapshot is at move %d but the log at move %d", game_id, seq, last_seq)
            state = None
        return state, version

    async def moves(self, game_id: int, *, after_seq: int = 0, limit: int | None = None) -> list[MoveRecord]:
        """The logged moves with seq > `after_seq`, oldest first, at most `limit` of them."""
        rows = await self.database.read(
            MOVES_SQL, game_id, after_seq, self.database.dialect.no_limit if limit is None else limit
        )
        return [move_record(row) for row in rows]

    async def recent_moves(self, game_id: int, limit: int) -> list[MoveRecord]:
        """The newest `limit` moves, oldest first."""
        return [move_record(row) for row in await self.database.read(RECENT_MOVES_SQL, game_id, limit)]

    async def active_games(self) -> list[GameRecord]:
        """Every game in the lobby or active, oldest first; ended games are never read."""
        return [game_record(row) for row in await self.database.read(ACTIVE_GAMES_SQL)]

    async def endings_to_show(self) -> list[Ending]:
        """The ended games whose last table no process has shown yet, oldest first."""
        reasons = dict(await self.database.read(ENDING_REASONS_SQL))
        records = [game_record(row) for row in await self.database.read(ENDINGS_TO_SHOW_SQL)]
        return [Ending(record=record, reason=reasons.get(record.id)) for record in records]

    async def games_in_channel(
        self, channel_id: int, *, statuses: Sequence[GameStatus] = ("lobby", "active")
    ) -> list[GameRecord]:
        """The games whose channel or thread is `channel_id`, with one of `statuses`, oldest first."""
        for status in statuses:
            check_status(status)
        statuses_param = self.database.dialect.array(statuses)
        rows = await self.database.read(CHANNEL_GAMES_SQL, channel_id, channel_id, statuses_param)
        return [game_record(row) for row in rows]

    async def load_state(self, game: GameRecord, rules: Any) -> Any:
        """The current State of the started game `game` (`rules` is its engine.core.Rules).

        Reads the snapshot; if it is missing, behind the log or does not validate,
        replays the log from the seed, logs a warning and writes the rebuilt snapshot back.
        """
        state_json, version = await self.load_state_json(game.id)
        if state_json is not None:
            try:
                return rules.State.model_validate_json(state_json)
            except ValidationError as error:
                problem = f"does not validate ({error.error_count()} errors)"
        else:
            problem = "is missing or out of date"
        if game.seed is None:
            raise ValueError(f"game {game.id} has not started: there is no state to load")
        moves = await self.moves(game.id)
        log.warning(
            "game=%d guild=%d: snapshot %s; rebuilding it from %d logged moves",
            game.id,
            game.guild_id,
            problem,
            len(moves),
        )
        state = replay(
            rules,
            len(game.seats),
            game.seed,
            rules.make_options(game.options),
            [(move.seat, move.action) for move in moves],
        )
        seq = moves[-1].seq if moves else 0
        await self.repair_snapshot(game.id, state_json=state.model_dump_json(), version=version, seq=seq)
        return state
