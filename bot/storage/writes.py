"""The game store's writes: each one transaction on the write thread, committed whole or not at all."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.storage.access import Db, StoreAccess, outage_as_unavailable
from bot.storage.commits import ROWS_A_STATEMENT, FinalResult, PendingMove, multi_row_values, write_result
from bot.storage.models import (
    ENDED_STATUSES,
    Deadline,
    GameNotFound,
    GameRecord,
    GameStatus,
    SeatRecord,
    StaleMove,
)
from bot.storage.ownership import Ownership
from bot.storage.queries import (
    GAME_SQL,
    check_distinct,
    check_numbered,
    check_status,
    game_record,
    lobby_seats,
    to_json,
)

FENCE = "(owner_token IS NULL OR owner_token = ?)"
"""The games this instance may write: those nobody holds, and its own (the token is the `?`)."""
FENCED_DEADLINE_DELETE = (
    f"DELETE FROM deadlines WHERE game_id = ? AND game_id IN (SELECT id FROM games WHERE {FENCE})"
)


class GameWrites(StoreAccess, Ownership):
    """Lobbies and starts, moves, seats, statuses, table messages, results, deadlines and options.

    Every write to a game is fenced by its lease (see ownership.py).
    """

    @staticmethod
    async def _rows(db: Db, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return list(await db.execute_fetchall(sql, tuple(params)))

    async def _status(self, db: Db, game_id: int) -> str:
        """The game's status; GameNotFound, or NotOwner if another process holds the game."""
        rows = await self._rows(db, "SELECT status, owner_token FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        self._check_owner(game_id, rows[0][1])
        return rows[0][0]

    async def _game_in(self, db: Db, game_id: int) -> GameRecord:
        rows = await self._rows(db, GAME_SQL, (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        return game_record(rows[0])

    async def _replace_seats(self, db: Db, game_id: int, seats: Sequence[SeatRecord]) -> None:
        check_distinct(seats)
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
        seated = lobby_seats(host, seats)

        async def body(db: Db) -> GameRecord:
            rows = await self._rows(
                db,
                "INSERT INTO games (guild_id, channel_id, thread_id, game, options, seed, status, version, "
                "host_id, created_at, updated_at, owner, owner_token, lease_until) "
                "VALUES (?, ?, ?, ?, ?, NULL, 'lobby', 0, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    *(guild_id, channel_id, thread_id, game, to_json(options), host.user_id, now, now),
                    *self._new_lease(now),
                ),
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
                (None if options is None else to_json(options), thread_id, host_id, now, game_id),
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
        check_numbered(seats)

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
            check_status(status)
        if self._write_thread is None:
            raise RuntimeError("the game store is not open")
        move = PendingMove(
            game_id, expected_version, seat, action, to_json(events), state_json, now, status, result,
            self.token,
        )  # fmt: skip
        with outage_as_unavailable():
            return await self._write_thread.commit(move)

    async def repair_snapshot(self, game_id: int, *, state_json: str, version: int, seq: int) -> bool:
        """Write a rebuilt snapshot if the game is still at `version` with `seq` moves; whether it was."""

        async def body(db: Db) -> bool:
            rows = await self._rows(
                db,
                "SELECT g.version, COALESCE((SELECT MAX(seq) FROM moves WHERE game_id = g.id), 0), "
                "g.owner_token FROM games AS g WHERE g.id = ?",
                (game_id,),
            )
            if not rows:
                raise GameNotFound(game_id)
            self._check_owner(game_id, rows[0][2])
            if tuple(rows[0][:2]) != (version, seq):
                return False
            await db.execute(
                "INSERT OR REPLACE INTO snapshots (game_id, seq, version, state) VALUES (?, ?, ?, ?)",
                (game_id, seq, version, state_json),
            )
            return True

        return await self._transaction(body)

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

    async def set_status(
        self, game_id: int, status: GameStatus, *, now: float, reason: str | None = None
    ) -> GameRecord:
        """The game with its status changed; an ended game loses its deadline. A game closed with a
        `reason` is among `endings_to_show` until its table says so."""
        check_status(status)

        async def body(db: Db) -> GameRecord:
            await self._status(db, game_id)
            await db.execute(
                "UPDATE games SET status = ?, updated_at = ? WHERE id = ?", (status, now, game_id)
            )
            if status in ENDED_STATUSES:
                await db.execute("DELETE FROM deadlines WHERE game_id = ?", (game_id,))
            if status in ENDED_STATUSES and reason is not None:
                await db.execute(
                    "INSERT OR REPLACE INTO endings_to_show (game_id, reason) VALUES (?, ?)",
                    (game_id, reason),
                )
            return await self._game_in(db, game_id)

        return await self._transaction(body)

    async def set_table_message(
        self, game_id: int, *, channel_id: int, message_id: int | None, now: float
    ) -> None:
        """Remember where the game's current table message is."""

        async def body(db: Db) -> None:
            await self._status(db, game_id)
            await db.execute(
                "UPDATE games SET table_channel_id = ?, table_message_id = ?, updated_at = ? WHERE id = ?",
                (channel_id, message_id, now, game_id),
            )

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

        def body(db: sqlite3.Connection) -> None:
            row = db.execute("SELECT owner_token FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is not None:
                self._check_owner(game_id, row[0])
            write_result(db, game_id, result, now)

        await self._sync_transaction(body)

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

    async def ending_shown(self, game_id: int) -> None:
        """The game's final table is shown: no process needs to show it again."""

        async def body(db: Db) -> None:
            await db.execute("DELETE FROM endings_to_show WHERE game_id = ?", (game_id,))

        await self._transaction(body)

    async def clear_deadline(self, game_id: int) -> None:
        """Remove the game's deadline, if any."""

        async def body(db: Db) -> None:
            await db.execute(
                FENCED_DEADLINE_DELETE,
                (game_id, self.token),
            )

        await self._transaction(body)

    async def save_deadlines(
        self, deadlines: Sequence[Deadline] = (), *, cleared: Iterable[int] = (), lazy: bool = False
    ) -> None:
        """Set `deadlines` and clear the deadlines of the `cleared` games, all in one transaction; a
        `lazy` save may wait a moment for other writes to share it.

        Unlike `set_deadline`, a deadline for a game that has ended (or never existed, or that
        another process now holds) is skipped rather than refused: a batch from many games must
        not fail for one of them.
        """
        gone = [(game_id, self.token) for game_id in cleared]
        latest = {deadline.game_id: deadline for deadline in deadlines}  # one row a game: the last asked
        kept = [(d.decision, d.due, d.game_id) for d in latest.values()]

        def body(db: sqlite3.Connection) -> None:
            db.executemany(FENCED_DEADLINE_DELETE, gone)
            for start in range(0, len(kept), ROWS_A_STATEMENT):  # see `multi_row_values`
                values, flat = multi_row_values(kept[start : start + ROWS_A_STATEMENT])
                db.execute(
                    "INSERT OR REPLACE INTO deadlines (game_id, decision, due) "
                    f"SELECT g.id, v.column1, v.column2 FROM (VALUES {values}) AS v "
                    "JOIN games AS g ON g.id = v.column3 WHERE g.status IN ('lobby', 'active') "
                    f"AND {FENCE.replace('owner_token', 'g.owner_token')}",
                    [*flat, self.token],
                )

        if gone or kept:
            await self._sync_transaction(body, lazy=lazy)

    # ------------------------------------------------------------------ turn pings

    async def save_pings(self, pings: Mapping[int, tuple[int, int]], *, cleared: Iterable[int] = ()) -> None:
        """Note each game's standing turn ping (channel, message) and forget those of the `cleared` games."""
        gone = [(game_id,) for game_id in cleared]
        rows = [(game_id, channel, message) for game_id, (channel, message) in pings.items()]

        def body(db: sqlite3.Connection) -> None:
            db.executemany("DELETE FROM pings WHERE game_id = ?", gone)
            db.executemany(
                "INSERT OR REPLACE INTO pings (game_id, channel_id, message_id) VALUES (?, ?, ?)", rows
            )

        if gone or rows:
            await self._sync_transaction(body)

    async def take_pings(self, game_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
        """The turn pings noted for these games (channel, message), forgotten as they are handed over."""
        ids = to_json(sorted(set(game_ids)))

        def body(db: sqlite3.Connection) -> dict[int, tuple[int, int]]:
            rows = db.execute(
                "DELETE FROM pings WHERE game_id IN (SELECT value FROM json_each(?)) "
                "RETURNING game_id, channel_id, message_id",
                (ids,),
            ).fetchall()
            return {game_id: (channel, message) for game_id, channel, message in rows}

        return await self._sync_transaction(body)

    # ------------------------------------------------------------------ options

    async def remember_options(self, channel_id: int, game: str, options: dict) -> None:
        """Remember the options last used for `game` in `channel_id`."""

        async def body(db: Db) -> None:
            await db.execute(
                "INSERT OR REPLACE INTO remembered_options (channel_id, game, options) VALUES (?, ?, ?)",
                (channel_id, game, to_json(options)),
            )

        await self._transaction(body)
