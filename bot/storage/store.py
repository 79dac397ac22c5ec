"""`GameStore`: every operation of the game store, written once for every database.

`GameStore` holds the bodies; a backend (sqlite.py, postgres.py) supplies the `dialect` its
SQL is rendered in and three ways to reach the database: `_read` (one statement that sees only
committed data), `_transaction` (a body run in one transaction, committed if it returns, rolled
back if it raises, run to its end even if the caller is cancelled) and `_commit` (a move handed to
the backend's group commit, see commits.py).

Every write to a game is fenced by its lease (see coordination.py): a write first reads the game's
row — locking it where the database locks rows — and is refused with NotOwner if another process
holds the game.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from bot.storage.commits import SNAPSHOT_UPSERT, PendingMove, write_results
from bot.storage.coordination import GameLocks, Ownership, ShardLayouts, ShardOwners, check_shard_plan
from bot.storage.dialects import Connection, Dialect
from bot.storage.models import (
    ENDED_STATUSES,
    Deadline,
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
    leaderboard_rows,
    lobby_seats,
    move_record,
    stats_rows,
    to_json,
)
from bot.storage.ratings import Ratings

if TYPE_CHECKING:
    from bot.outages import OutageLog
    from bot.storage.models import GameStatus, MoveRecord

log = logging.getLogger(__name__)

T = TypeVar("T")

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
DEADLINES_SQL = (
    "SELECT d.game_id, d.decision, d.due FROM deadlines AS d JOIN games AS g ON g.id = d.game_id "
    "WHERE g.status IN ('lobby', 'active') ORDER BY d.due, d.game_id"
)
SNAPSHOT_SQL = """
SELECT s.state, s.seq, g.version, COALESCE((SELECT MAX(m.seq) FROM moves AS m WHERE m.game_id = g.id), 0)
  FROM games AS g LEFT JOIN snapshots AS s ON s.game_id = g.id
 WHERE g.id = ?
"""
# A result whose seat a computer played for its member at the end (they were away, G-X8) counts as
# played, never as won, and its score is not the member's best.
_BY_COMPUTER = "(CASE WHEN s.computer IS NULL THEN 0 ELSE 1 END)"
STATS_SQL = f"""
SELECT g.game, COUNT(*), SUM(CASE WHEN s.computer IS NULL THEN r.won ELSE 0 END),
       MAX(CASE WHEN s.computer IS NULL THEN r.score END), SUM({_BY_COMPUTER})
  FROM results AS r JOIN games AS g ON g.id = r.game_id
  JOIN seats AS s ON s.game_id = r.game_id AND s.seat = r.seat
 WHERE r.user_id = ? AND g.guild_id = ? GROUP BY g.game ORDER BY g.game
"""
LEADERBOARD_SQL = """
SELECT r.user_id, COUNT(*) AS played, SUM(CASE WHEN s.computer IS NULL THEN r.won ELSE 0 END) AS won
  FROM games AS g JOIN results AS r ON r.game_id = g.id
  JOIN seats AS s ON s.game_id = r.game_id AND s.seat = r.seat
 WHERE g.guild_id = ? AND g.game = ? AND r.user_id IS NOT NULL
 GROUP BY r.user_id ORDER BY won DESC, played ASC, r.user_id ASC LIMIT ?
"""

FENCE = "(owner_token IS NULL OR owner_token = ?)"
"""The games this instance may write: those nobody holds, and its own (the token is the `?`)."""
CLAIM_SQL = """
UPDATE games SET owner = ?, owner_token = ?, lease_until = ?
 WHERE id IN (
     SELECT id FROM games
      WHERE status IN ('lobby', 'active') AND ((guild_id >> 22) % ?) {ids}
        AND (owner_token IS NULL OR owner_token = ? OR owner = ? OR lease_until < ?)
      ORDER BY id{lock})
RETURNING id
"""
REMEMBER_OPTIONS = "ON CONFLICT (channel_id, game) DO UPDATE SET options = excluded.options"


class GameStore(Ownership, GameLocks, Ratings, ShardLayouts, ShardOwners):
    """The only way the bot reads and writes games; times are passed in by the caller.

    `owner` is this instance's role in a fleet and `token` its own identity (see coordination.py);
    `lock(game_id)` the lock to hold around load → apply → commit of one game. What each operation
    raises when it refuses (GameNotFound, StaleMove, NotOwner, StoreUnavailable): see models.py.
    """

    dialect: Dialect
    outage: OutageLog | None = None
    """Where a store whose database can go away (a server) tells of its outages; None: it cannot."""

    async def open(self) -> None:
        """Connect and bring the schema up to date; calling it again does nothing."""
        raise NotImplementedError

    async def close(self) -> None:
        """Finish the writes under way and close the database; calling it again does nothing."""
        raise NotImplementedError

    async def _read(self, sql: str, *args: Any) -> list[Any]:
        raise NotImplementedError

    async def ping(self) -> None:
        """Return once the database answers a trivial query (a health check)."""
        await self._read("SELECT 1")

    async def _transaction(self, body: Callable[[Connection], Awaitable[T]], *, lazy: bool = False) -> T:
        """`body` in one write transaction; a `lazy` one may wait a moment to share another's commit."""
        raise NotImplementedError

    async def _commit(self, move: PendingMove) -> int:
        raise NotImplementedError

    # ------------------------------------------------------------------ helpers inside a transaction

    async def _status(self, db: Connection, game_id: int) -> str:
        """The game's status, its row locked; GameNotFound, or NotOwner if another process holds it."""
        row = await db.fetchrow("SELECT status, owner_token FROM games WHERE id = ?{lock}", game_id)
        if row is None:
            raise GameNotFound(game_id)
        self._check_owner(game_id, row[1])
        return row[0]

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
        lease = self._new_lease(now)

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

        return await self._transaction(body)

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
            if await self._status(db, game_id) != "lobby":
                raise StaleMove("This game is no longer in its lobby.")
            await db.execute(
                "UPDATE games SET options = COALESCE(?, options), thread_id = COALESCE(?, thread_id), "
                "host_id = COALESCE(?, host_id), updated_at = ? WHERE id = ?",
                None if options is None else to_json(options), thread_id, host_id, float(now), game_id,
            )  # fmt: skip
            if seats is not None:
                await self._replace_seats(db, game_id, seats)
            return await self._game_in(db, game_id)

        return await self._transaction(body)

    async def start_game(
        self, game_id: int, *, seed: int, seats: Sequence[SeatRecord], state_json: str, now: float
    ) -> GameRecord:
        """The game started: active, version 1, snapshot of seq 0 written, and its options remembered as
        the last used for its game in its channel; StaleMove if already started."""
        check_numbered(seats)

        async def body(db: Connection) -> GameRecord:
            if await self._status(db, game_id) != "lobby":
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

        return await self._transaction(body)

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
            self.token,
        )  # fmt: skip
        return await self._commit(move)

    async def repair_snapshot(self, game_id: int, *, state_json: str, version: int, seq: int) -> bool:
        """Write a rebuilt snapshot if the game is still at `version` with `seq` moves; whether it was."""

        async def body(db: Connection) -> bool:
            await self._status(db, game_id)
            found = await db.fetchrow(
                "SELECT g.version, COALESCE((SELECT MAX(seq) FROM moves WHERE game_id = g.id), 0) "
                "FROM games AS g WHERE g.id = ?",
                game_id,
            )
            if tuple(found) != (version, seq):
                return False
            await db.execute(SNAPSHOT_UPSERT, game_id, seq, version, state_json)
            return True

        return await self._transaction(body)

    async def replace_seat(
        self, game_id: int, seat: SeatRecord, *, host_id: int | None = None, now: float
    ) -> GameRecord:
        """The game with seat `seat.seat` given to someone else (e.g. a computer takes over), and
        `host_id` the new host if given."""

        async def body(db: Connection) -> GameRecord:
            await self._status(db, game_id)
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

        return await self._transaction(body)

    async def set_status(
        self, game_id: int, status: GameStatus, *, now: float, reason: str | None = None
    ) -> GameRecord:
        """The game with its status changed; an ended game loses its deadline. A game closed with a
        `reason` is among `endings_to_show` until its table says so."""
        check_status(status)

        async def body(db: Connection) -> GameRecord:
            await self._status(db, game_id)
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

        return await self._transaction(body)

    async def set_table_message(
        self, game_id: int, *, channel_id: int, message_id: int | None, now: float
    ) -> None:
        """Remember where the game's current table message is."""

        async def body(db: Connection) -> None:
            await self._status(db, game_id)
            await db.execute(
                "UPDATE games SET table_channel_id = ?, table_message_id = ?, updated_at = ? WHERE id = ?",
                channel_id, message_id, float(now), game_id,
            )  # fmt: skip

        await self._transaction(body)

    async def record_result(
        self, game_id: int, *, scores: Sequence[int], winners: Sequence[int], reason: str, now: float
    ) -> None:
        """Store each seat's final score and whether it won (recording again replaces them) and rate the
        game (once only). A move that ends a game stores its result itself (`commit_move(result=...)`)."""
        result = FinalResult(tuple(scores), tuple(winners), reason)

        async def body(db: Connection) -> None:
            await self._status(db, game_id)
            await write_results(db, [(game_id, result, now)])

        await self._transaction(body)

    async def ending_shown(self, game_id: int) -> None:
        """The game's final table is shown: no process needs to show it again."""

        async def body(db: Connection) -> None:
            await db.execute("DELETE FROM endings_to_show WHERE game_id = ?", game_id)

        await self._transaction(body)

    # ------------------------------------------------------------------ deadlines

    async def set_deadline(self, game_id: int, *, decision: str, due: float) -> None:
        """Set (or replace) the game's one pending deadline."""

        async def body(db: Connection) -> None:
            await self._status(db, game_id)
            await db.execute(
                "INSERT INTO deadlines (game_id, decision, due) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET decision = excluded.decision, due = excluded.due",
                game_id, decision, float(due),
            )  # fmt: skip

        await self._transaction(body)

    async def clear_deadline(self, game_id: int) -> None:
        """Remove the game's deadline, if any (and if no other process holds the game)."""
        await self.save_deadlines(cleared=(game_id,))

    async def save_deadlines(
        self, deadlines: Sequence[Deadline] = (), *, cleared: Iterable[int] = (), lazy: bool = False
    ) -> None:
        """Set `deadlines` and clear the deadlines of the `cleared` games, all in one transaction; a
        `lazy` save may wait a moment for other writes to share it.

        Unlike `set_deadline`, a deadline for a game that has ended (or never existed, or that
        another process now holds) is skipped rather than refused: a batch from many games must
        not fail for one of them.
        """
        gone = sorted(set(cleared))
        latest = {deadline.game_id: deadline for deadline in deadlines}  # one row a game: the last asked
        kept = [(d.decision, float(d.due), d.game_id) for d in latest.values()]
        if not gone and not kept:
            return

        async def body(db: Connection) -> None:
            if gone:
                await db.execute(
                    "DELETE FROM deadlines WHERE game_id {ids} "
                    f"AND game_id IN (SELECT id FROM games WHERE {FENCE})",
                    db.dialect.array(gone),
                    self.token,
                )
            await db.execute_rows(
                "INSERT INTO deadlines (game_id, decision, due) "
                "SELECT g.id, v.column1, v.column2 FROM {rows} JOIN games AS g ON g.id = v.column3 "
                f"WHERE g.status IN ('lobby', 'active') AND {FENCE.replace('owner_token', 'g.owner_token')} "
                "ON CONFLICT (game_id) DO UPDATE SET decision = excluded.decision, due = excluded.due",
                ("text", "time", "id"),
                kept,
                self.token,
            )

        await self._transaction(body, lazy=lazy)

    async def deadlines(self) -> list[Deadline]:
        """The pending deadlines of live games, soonest first."""
        return [Deadline(game_id=g, decision=d, due=due) for g, d, due in await self._read(DEADLINES_SQL)]

    # ------------------------------------------------------------------ turn pings and options

    async def save_pings(self, pings: Mapping[int, tuple[int, int]], *, cleared: Iterable[int] = ()) -> None:
        """Note each game's standing turn ping (channel, message) and forget those of the `cleared` games."""
        gone = sorted(set(cleared))
        rows = [(game_id, channel, message) for game_id, (channel, message) in pings.items()]

        async def body(db: Connection) -> None:
            if gone:
                await db.execute("DELETE FROM pings WHERE game_id {ids}", db.dialect.array(gone))
            await db.executemany(
                "INSERT INTO pings (game_id, channel_id, message_id) VALUES (?, ?, ?) ON CONFLICT (game_id) "
                "DO UPDATE SET channel_id = excluded.channel_id, message_id = excluded.message_id",
                rows,
            )

        if gone or rows:
            await self._transaction(body)

    async def take_pings(self, game_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
        """The turn pings noted for these games (channel, message), forgotten as they are handed over."""
        ids = sorted(set(game_ids))

        async def body(db: Connection) -> dict[int, tuple[int, int]]:
            rows = await db.fetch(
                "DELETE FROM pings WHERE game_id {ids} RETURNING game_id, channel_id, message_id",
                db.dialect.array(ids),
            )
            return {game_id: (channel, message) for game_id, channel, message in rows}

        return await self._transaction(body)

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

        await self._transaction(body)

    async def remembered_options(self, channel_id: int, game: str) -> dict | None:
        """The options last used for `game` in `channel_id`, or None."""
        rows = await self._read(
            "SELECT options FROM remembered_options WHERE channel_id = ? AND game = ?", channel_id, game
        )
        return json.loads(rows[0][0]) if rows else None

    # ------------------------------------------------------------------ reads

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
        rows = await self._read(
            MOVES_SQL, game_id, after_seq, self.dialect.no_limit if limit is None else limit
        )
        return [move_record(row) for row in rows]

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
        rows = await self._read(CHANNEL_GAMES_SQL, channel_id, channel_id, self.dialect.array(statuses))
        return [game_record(row) for row in rows]

    async def stats(self, guild_id: int, user_id: int) -> list[dict]:
        """Per game the member has results for in this server: {"game", "played", "won", "best",
        "by_computer"} — the last, games a computer finished in their seat (played, never won)."""
        return stats_rows(await self._read(STATS_SQL, user_id, guild_id))

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[dict]:
        """Members by wins at `game` here (fewer played first on a tie): {"user_id", "played", "won"}."""
        return leaderboard_rows(await self._read(LEADERBOARD_SQL, guild_id, game, limit))

    # ------------------------------------------------------------------ leases

    async def claim_games(
        self, *, shard_ids: Sequence[int], shard_count: int, lease_seconds: float, now: float
    ) -> list[GameRecord]:
        """Take or renew the leases of the live games whose guild is on `shard_ids` and whose lease is
        free, expired or held by the same `owner` role; the games this instance now holds, oldest first.
        From then on, games it creates are leased to it too."""
        shards = check_shard_plan(shard_ids, shard_count)
        self.lease_seconds = lease_seconds
        params = (
            self.owner, self.token, float(now + lease_seconds), shard_count, self.dialect.array(shards),
            self.token, self.owner, float(now),
        )  # fmt: skip

        async def body(db: Connection) -> list[GameRecord]:
            ids = [row[0] for row in await db.fetch(CLAIM_SQL, *params)]
            return [game_record(row) for row in await db.fetch(GAMES_BY_IDS_SQL, db.dialect.array(ids))]

        return await self._transaction(body)

    async def release_games(self) -> None:
        """Free every lease this instance holds (on a clean shutdown)."""

        async def body(db: Connection) -> None:
            await db.execute(
                "UPDATE games SET owner = NULL, owner_token = NULL, lease_until = NULL WHERE owner_token = ?",
                self.token,
            )

        await self._transaction(body)
