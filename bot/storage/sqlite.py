"""`SqliteGameStore`: the game store on one SQLite file, through aiosqlite.

Every write runs on one connection, on a thread of its own (`BEGIN IMMEDIATE`, one
transaction at a time, in the order asked for); a read-only reader's
single-statement queries see only committed data, so a reader never observes a
half-done move. A third connection applies migrations when the store opens, then closes.

Durability: WAL with `synchronous=FULL`. With NORMAL, WAL never corrupts the
database, but a power cut or OS crash can lose the last commits after they were
reported done — a move the table already showed. FULL syncs the WAL on every
commit, so a move the store has acknowledged survives. The fsync is what limits
commits per second, so moves of different games that wait at the same moment
share one transaction (group commit, see commits.py); `python -m bench.store`
measures the result.

Each transaction is one synchronous function run on the write thread, so it
costs one round trip from the event loop instead of one per statement. On a
busy bot a round trip waits for a turn of the loop, and those turns, not SQLite,
would otherwise set how long a click waits for its move to be stored — and a
transaction spread over many turns would hold SQLite's write lock all along.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
import weakref
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from os import PathLike
from typing import Any, Literal, TypeVar

import aiosqlite

from bot.storage.commits import FinalResult, PendingMove, write_result
from bot.storage.migrations import apply_migrations
from bot.storage.models import (
    ENDED_STATUSES,
    STATUSES,
    Deadline,
    GameNotFound,
    GameRecord,
    GameStatus,
    MoveRecord,
    SeatRecord,
    StaleMove,
)
from bot.storage.write_thread import WriteThread

log = logging.getLogger(__name__)

T = TypeVar("T")
Db = aiosqlite.Connection

_GAME_SELECT = """
SELECT g.id, g.guild_id, g.channel_id, g.thread_id, g.game, g.options, g.seed, g.status, g.version,
       g.host_id, g.table_message_id, g.table_channel_id, g.created_at, g.updated_at,
       (SELECT json_group_array(json_array(s.seat, s.user_id, s.name, s.computer))
          FROM seats AS s WHERE s.game_id = g.id) AS seats
  FROM games AS g
"""
# Must repeat the partial index's condition word for word so SQLite uses `games_live`.
ACTIVE_GAMES_SQL = _GAME_SELECT + " WHERE g.status IN ('lobby', 'active') ORDER BY g.id"
GAME_SQL = _GAME_SELECT + " WHERE g.id = ?"
CHANNEL_GAMES_SQL = (
    _GAME_SELECT
    + " WHERE (g.channel_id = ? OR g.thread_id = ?)"
    + " AND g.status IN (SELECT value FROM json_each(?)) ORDER BY g.id"
)
MOVES_SQL = (
    "SELECT seq, seat, action, events, at FROM moves WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?"
)
RECENT_MOVES_SQL = (
    "SELECT seq, seat, action, events, at FROM "
    "(SELECT * FROM moves WHERE game_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq"
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


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _seats(seats_json: str) -> tuple[SeatRecord, ...]:
    seats = [
        SeatRecord(seat=seat, user_id=user_id, name=name, computer=computer)
        for seat, user_id, name, computer in json.loads(seats_json)
    ]
    return tuple(sorted(seats, key=lambda s: s.seat))


def _game(row: Sequence[Any]) -> GameRecord:
    return GameRecord(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        thread_id=row[3],
        game=row[4],
        options=json.loads(row[5]),
        seed=row[6],
        status=row[7],
        version=row[8],
        host_id=row[9],
        table_message_id=row[10],
        table_channel_id=row[11],
        created_at=row[12],
        updated_at=row[13],
        seats=_seats(row[14]),
    )


def _move(row: Sequence[Any]) -> MoveRecord:
    return MoveRecord(seq=row[0], seat=row[1], action=row[2], events=json.loads(row[3]), at=row[4])


class _Immediate:
    """aiosqlite's statement methods over a plain sqlite3 connection, as coroutines that never wait.

    Each runs its statement at once on the calling thread, so a transaction body written with
    `await db.execute(...)` can be run to its end synchronously by `_finish_now`.
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> None:
        self._db.execute(sql, tuple(params))

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        self._db.executemany(sql, rows)

    async def execute_fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return self._db.execute(sql, tuple(params)).fetchall()


def _finish_now(coroutine: Coroutine[Any, Any, T]) -> T:
    """The result of a coroutine that never suspends (one that only awaits `_Immediate`)."""
    try:
        coroutine.send(None)
    except StopIteration as finished:
        return finished.value
    coroutine.close()
    raise RuntimeError("a transaction body waited for something other than the database")


def _check_status(status: str) -> None:
    if status not in STATUSES:
        raise ValueError(f"{status!r} is not a game status ({', '.join(STATUSES)})")


class SqliteGameStore:
    """The `GameStore` on the SQLite database at `path` (created if missing)."""

    def __init__(self, path: str | PathLike[str], *, synchronous: Literal["FULL", "NORMAL"] = "FULL") -> None:
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self.path = str(path)
        self.synchronous = synchronous
        self._reader: Db | None = None
        self._game_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._write_thread: WriteThread | None = None

    # ------------------------------------------------------------------ connection

    async def open(self) -> None:
        """Connect (WAL, foreign keys, durable commits) and apply pending migrations; idempotent."""
        if self._write_thread is not None:
            return
        writer = await aiosqlite.connect(self.path, isolation_level=None, timeout=10.0)
        reader = None
        try:
            (mode,) = (await writer.execute_fetchall("PRAGMA journal_mode = WAL"))[0]
            if mode.lower() != "wal":
                log.warning("database %s is not in WAL mode (journal_mode=%s)", self.path, mode)
            await writer.execute(f"PRAGMA synchronous = {self.synchronous}")
            await writer.execute("PRAGMA foreign_keys = ON")
            applied = await apply_migrations(writer)
            if applied:
                log.info("database %s: applied migrations %s", self.path, applied)
            reader = await aiosqlite.connect(self.path, isolation_level=None, timeout=10.0)
            await reader.execute("PRAGMA query_only = ON")
            write_thread = WriteThread(self._connect_for_writes)
            await write_thread.start()
        except BaseException:
            if reader is not None:
                await reader.close()
            raise
        finally:
            await writer.close()  # it only applies the migrations
        self._reader, self._write_thread = reader, write_thread

    def _connect_for_writes(self) -> sqlite3.Connection:
        """The connection every transaction runs on, opened on (and only ever used from) the write thread."""
        db = sqlite3.connect(self.path, isolation_level=None, timeout=10.0)
        db.execute(f"PRAGMA synchronous = {self.synchronous}")
        db.execute("PRAGMA foreign_keys = ON")
        return db

    async def close(self) -> None:
        """Finish the queued writes and close every connection; idempotent."""
        reader, write_thread = self._reader, self._write_thread
        self._reader = self._write_thread = None
        if write_thread is not None:
            with contextlib.suppress(sqlite3.Error):
                await write_thread.run(lambda db: db.execute("PRAGMA optimize"))
            await write_thread.stop()
        if reader is not None:
            await reader.close()

    def lock(self, game_id: int) -> asyncio.Lock:
        """The per-game lock, created on first use; the same object while anyone holds on to it."""
        lock = self._game_locks.get(game_id)
        if lock is None:
            lock = self._game_locks[game_id] = asyncio.Lock()
        return lock

    # ------------------------------------------------------------------ plumbing

    async def _read(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        """Rows of one read-only statement, which sees only committed data."""
        if self._reader is None:
            raise RuntimeError("the game store is not open")
        return list(await self._reader.execute_fetchall(sql, tuple(params)))

    async def _transaction(self, body: Callable[[Db], Awaitable[T]]) -> T:
        """Run `body` in one write transaction: committed if it returns, rolled back if it raises.

        The body is written against aiosqlite's interface but runs on the write thread in one
        round trip (see `_Immediate`): a transaction spread over several event-loop turns held
        SQLite's write lock for ~100 ms under load, and every move waiting to commit behind it.
        Like every write, it runs to its end even if the caller is cancelled meanwhile.
        """
        return await self._sync_transaction(lambda db: _finish_now(body(_Immediate(db))))

    async def _sync_transaction(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run the synchronous `body` in one write transaction on the write thread (one round trip).

        Committed if `body` returns, rolled back if it raises, and run to its end even if the
        caller is cancelled meanwhile.
        """
        if self._write_thread is None:
            raise RuntimeError("the game store is not open")
        return await self._write_thread.run(body)

    @staticmethod
    async def _rows(db: Db, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return list(await db.execute_fetchall(sql, tuple(params)))

    async def _status(self, db: Db, game_id: int) -> str:
        rows = await self._rows(db, "SELECT status FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        return rows[0][0]

    async def _game_in(self, db: Db, game_id: int) -> GameRecord:
        rows = await self._rows(db, GAME_SQL, (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        return _game(rows[0])

    async def _replace_seats(self, db: Db, game_id: int, seats: Sequence[SeatRecord]) -> None:
        numbers = [seat.seat for seat in seats]
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"two seats share a number: {numbers}")
        await db.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
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
        if host.user_id is None:
            raise ValueError("a lobby's host must be a member, not a computer player")
        seated = list(seats) if seats is not None else [host]
        if host.user_id not in {seat.user_id for seat in seated}:
            raise ValueError("the host must have a seat")

        async def body(db: Db) -> GameRecord:
            rows = await self._rows(
                db,
                "INSERT INTO games (guild_id, channel_id, thread_id, game, options, seed, status, version, "
                "host_id, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, NULL, 'lobby', 0, ?, ?, ?) RETURNING id",
                (guild_id, channel_id, thread_id, game, _json(options), host.user_id, now, now),
            )
            game_id = rows[0][0]
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

        async def body(db: Db) -> GameRecord:
            if await self._status(db, game_id) != "lobby":
                raise StaleMove("This game is no longer in its lobby.")
            await db.execute(
                "UPDATE games SET options = COALESCE(?, options), thread_id = COALESCE(?, thread_id), "
                "host_id = COALESCE(?, host_id), updated_at = ? WHERE id = ?",
                (None if options is None else _json(options), thread_id, host_id, now, game_id),
            )
            if seats is not None:
                await self._replace_seats(db, game_id, seats)
            return await self._game_in(db, game_id)

        return await self._transaction(body)

    async def start_game(
        self, game_id: int, *, seed: int, seats: Sequence[SeatRecord], state_json: str, now: float
    ) -> GameRecord:
        """The game started: active, version 1, snapshot of seq 0 written, and its options remembered as
        the last used for its game in its channel; StaleMove if already started."""
        if sorted(seat.seat for seat in seats) != list(range(len(seats))):
            raise ValueError(f"seats must be numbered 0..{len(seats) - 1}, got {[s.seat for s in seats]}")

        async def body(db: Db) -> GameRecord:
            if await self._status(db, game_id) != "lobby":
                raise StaleMove("This game has already started.")
            await db.execute(
                "UPDATE games SET status = 'active', version = 1, seed = ?, updated_at = ? WHERE id = ?",
                (seed, now, game_id),
            )
            await self._replace_seats(db, game_id, seats)
            await db.execute(
                "INSERT OR REPLACE INTO snapshots (game_id, seq, version, state) VALUES (?, 0, 1, ?)",
                (game_id, state_json),
            )
            await db.execute(
                "INSERT OR REPLACE INTO remembered_options (channel_id, game, options) "
                "SELECT channel_id, game, options FROM games WHERE id = ?",
                (game_id,),
            )
            return await self._game_in(db, game_id)

        return await self._transaction(body)

    # ------------------------------------------------------------------ playing

    async def get_game(self, game_id: int) -> GameRecord:
        """The game `game_id`; raises GameNotFound."""
        rows = await self._read(GAME_SQL, (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        return _game(rows[0])

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

        Raises StaleMove (and writes nothing) if the game is not at
        `expected_version` or no longer active. Returns the new version. Moves of
        several games waiting at the same moment share one transaction (see commits.py).
        A move that ends the game carries its `result`, stored in the same transaction.
        """
        if status is not None:
            _check_status(status)
        if self._write_thread is None:
            raise RuntimeError("the game store is not open")
        move = PendingMove(
            game_id, expected_version, seat, action, _json(events), state_json, now, status, result
        )
        return await self._write_thread.commit(move)

    async def repair_snapshot(self, game_id: int, *, state_json: str, version: int, seq: int) -> bool:
        """Write a rebuilt snapshot if the game is still at `version` with `seq` moves; whether it was."""

        async def body(db: Db) -> bool:
            rows = await self._rows(
                db,
                "SELECT g.version, COALESCE((SELECT MAX(seq) FROM moves WHERE game_id = g.id), 0) "
                "FROM games AS g WHERE g.id = ?",
                (game_id,),
            )
            if not rows:
                raise GameNotFound(game_id)
            if tuple(rows[0]) != (version, seq):
                return False
            await db.execute(
                "INSERT OR REPLACE INTO snapshots (game_id, seq, version, state) VALUES (?, ?, ?, ?)",
                (game_id, seq, version, state_json),
            )
            return True

        return await self._transaction(body)

    async def moves(self, game_id: int, *, after_seq: int = 0, limit: int | None = None) -> list[MoveRecord]:
        """The logged moves with seq > `after_seq`, oldest first, at most `limit` of them."""
        rows = await self._read(MOVES_SQL, (game_id, after_seq, -1 if limit is None else limit))
        return [_move(row) for row in rows]

    async def recent_moves(self, game_id: int, limit: int) -> list[MoveRecord]:
        """The newest `limit` moves, oldest first."""
        return [_move(row) for row in await self._read(RECENT_MOVES_SQL, (game_id, limit))]

    async def replace_seat(
        self, game_id: int, seat: SeatRecord, *, host_id: int | None = None, now: float
    ) -> GameRecord:
        """The game with seat `seat.seat` given to someone else (e.g. a computer takes over), and
        `host_id` the new host if given."""

        async def body(db: Db) -> GameRecord:
            await self._status(db, game_id)
            rows = await self._rows(
                db,
                "UPDATE seats SET user_id = ?, name = ?, computer = ? "
                "WHERE game_id = ? AND seat = ? RETURNING seat",
                (seat.user_id, seat.name, seat.computer, game_id, seat.seat),
            )
            if not rows:
                raise ValueError(f"game {game_id} has no seat {seat.seat}")
            await db.execute(
                "UPDATE games SET host_id = COALESCE(?, host_id), updated_at = ? WHERE id = ?",
                (host_id, now, game_id),
            )
            return await self._game_in(db, game_id)

        return await self._transaction(body)

    async def set_status(self, game_id: int, status: GameStatus, *, now: float) -> GameRecord:
        """The game with its status changed; an ended game loses its deadline."""
        _check_status(status)

        async def body(db: Db) -> GameRecord:
            await self._status(db, game_id)
            await db.execute(
                "UPDATE games SET status = ?, updated_at = ? WHERE id = ?", (status, now, game_id)
            )
            if status in ENDED_STATUSES:
                await db.execute("DELETE FROM deadlines WHERE game_id = ?", (game_id,))
            return await self._game_in(db, game_id)

        return await self._transaction(body)

    async def set_table_message(
        self, game_id: int, *, channel_id: int, message_id: int | None, now: float
    ) -> None:
        """Remember where the game's current table message is."""

        async def body(db: Db) -> None:
            rows = await self._rows(
                db,
                "UPDATE games SET table_channel_id = ?, table_message_id = ?, updated_at = ? "
                "WHERE id = ? RETURNING id",
                (channel_id, message_id, now, game_id),
            )
            if not rows:
                raise GameNotFound(game_id)

        await self._transaction(body)

    async def record_result(
        self, game_id: int, *, scores: Sequence[int], winners: Sequence[int], reason: str, now: float
    ) -> None:
        """Store each seat's final score and whether it won, with the seat's member at the end.

        A member whose seat a computer took over is not credited with the game.
        Recording again replaces the earlier result. A move that ends a game stores its result
        itself (`commit_move(result=...)`).
        """
        result = FinalResult(tuple(scores), tuple(winners), reason)
        await self._sync_transaction(lambda db: write_result(db, game_id, result, now))

    # ------------------------------------------------------------------ finding games

    async def active_games(self) -> list[GameRecord]:
        """Every game in the lobby or active, oldest first; ended games are never read."""
        return [_game(row) for row in await self._read(ACTIVE_GAMES_SQL)]

    async def games_in_channel(
        self, channel_id: int, *, statuses: Sequence[GameStatus] = ("lobby", "active")
    ) -> list[GameRecord]:
        """The games whose channel or thread is `channel_id`, with one of `statuses`, oldest first."""
        for status in statuses:
            _check_status(status)
        rows = await self._read(CHANNEL_GAMES_SQL, (channel_id, channel_id, _json(list(statuses))))
        return [_game(row) for row in rows]

    # ------------------------------------------------------------------ deadlines

    async def set_deadline(self, game_id: int, *, decision: str, due: float) -> None:
        """Set (or replace) the game's one pending deadline."""

        async def body(db: Db) -> None:
            await self._status(db, game_id)
            await db.execute(
                "INSERT OR REPLACE INTO deadlines (game_id, decision, due) VALUES (?, ?, ?)",
                (game_id, decision, due),
            )

        await self._transaction(body)

    async def clear_deadline(self, game_id: int) -> None:
        """Remove the game's deadline, if any."""

        async def body(db: Db) -> None:
            await db.execute("DELETE FROM deadlines WHERE game_id = ?", (game_id,))

        await self._transaction(body)

    async def save_deadlines(
        self, deadlines: Sequence[Deadline] = (), *, cleared: Iterable[int] = ()
    ) -> None:
        """Set `deadlines` and clear the deadlines of the `cleared` games, all in one transaction.

        Unlike `set_deadline`, a deadline for a game that has ended (or never existed) is
        skipped rather than refused: a batch from many games must not fail for one of them.
        """
        gone = [(game_id,) for game_id in cleared]
        kept = [(d.decision, d.due, d.game_id) for d in deadlines]

        def body(db: sqlite3.Connection) -> None:
            db.executemany("DELETE FROM deadlines WHERE game_id = ?", gone)
            db.executemany(
                "INSERT OR REPLACE INTO deadlines (game_id, decision, due) SELECT id, ?, ? FROM games "
                "WHERE id = ? AND status IN ('lobby', 'active')",
                kept,
            )

        if gone or kept:
            await self._sync_transaction(body)

    async def deadlines(self) -> list[Deadline]:
        """The pending deadlines of live games, soonest first."""
        return [Deadline(game_id=g, decision=d, due=due) for g, d, due in await self._read(DEADLINES_SQL)]

    # ------------------------------------------------------------------ options and statistics

    async def remember_options(self, channel_id: int, game: str, options: dict) -> None:
        """Remember the options last used for `game` in `channel_id`."""

        async def body(db: Db) -> None:
            await db.execute(
                "INSERT OR REPLACE INTO remembered_options (channel_id, game, options) VALUES (?, ?, ?)",
                (channel_id, game, _json(options)),
            )

        await self._transaction(body)

    async def remembered_options(self, channel_id: int, game: str) -> dict | None:
        """The options last used for `game` in `channel_id`, or None."""
        rows = await self._read(
            "SELECT options FROM remembered_options WHERE channel_id = ? AND game = ?", (channel_id, game)
        )
        return json.loads(rows[0][0]) if rows else None

    async def stats(self, guild_id: int, user_id: int) -> list[dict]:
        """Per game the member has results for in this server: {"game", "played", "won", "best"}."""
        rows = await self._read(
            "SELECT g.game, COUNT(*), SUM(r.won), MAX(r.score) "
            "FROM results AS r JOIN games AS g ON g.id = r.game_id "
            "WHERE r.user_id = ? AND g.guild_id = ? GROUP BY g.game ORDER BY g.game",
            (user_id, guild_id),
        )
        return [
            {"game": game, "played": played, "won": won, "best": best} for game, played, won, best in rows
        ]

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[dict]:
        """Members by wins at `game` here (fewer played first on a tie): {"user_id", "played", "won"}."""
        rows = await self._read(
            "SELECT r.user_id, COUNT(*) AS played, SUM(r.won) AS won FROM games AS g "
            "JOIN results AS r ON r.game_id = g.id "
            "WHERE g.guild_id = ? AND g.game = ? AND r.user_id IS NOT NULL "
            "GROUP BY r.user_id ORDER BY won DESC, played ASC, r.user_id ASC LIMIT ?",
            (guild_id, game, limit),
        )
        return [{"user_id": user_id, "played": played, "won": won} for user_id, played, won in rows]
