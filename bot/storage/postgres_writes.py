"""The PostgreSQL store's writes: each one transaction, committed whole or not at all, fenced by the lease.

A write to a game first locks its row (`FOR UPDATE`) and checks who holds it, so a claim by
another process either happened before (the write is refused with NotOwner) or waits for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import asyncpg

from bot.storage.commits import FinalResult, PendingMove
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
from bot.storage.postgres_access import PgAccess, outage_as_unavailable
from bot.storage.postgres_commits import SNAPSHOT_UPSERT, Committer, write_result
from bot.storage.postgres_reads import GAME_SQL
from bot.storage.queries import (
    check_distinct,
    check_numbered,
    check_status,
    game_record,
    lobby_seats,
    to_json,
)

Db = asyncpg.Connection

FENCE = "(owner_token IS NULL OR owner_token = $2)"
REMEMBER_OPTIONS = (
    "INSERT INTO remembered_options (channel_id, game, options) VALUES ($1, $2, $3) "
    "ON CONFLICT (channel_id, game) DO UPDATE SET options = excluded.options"
)
DEADLINE_UPSERT = (
    "INSERT INTO deadlines (game_id, decision, due) VALUES ($1, $2, $3) "
    "ON CONFLICT (game_id) DO UPDATE SET decision = excluded.decision, due = excluded.due"
)


class PgWrites(PgAccess, Ownership):
    """Lobbies and starts, moves, seats, statuses, table messages, results, deadlines and options."""

    _committer: Committer | None = None

    async def _status(self, db: Db, game_id: int) -> str:
        """The game's status, its row locked; GameNotFound, or NotOwner if another process holds it."""
        row = await db.fetchrow("SELECT status, owner_token FROM games WHERE id = $1 FOR UPDATE", game_id)
        if row is None:
            raise GameNotFound(game_id)
        self._check_owner(game_id, row[1])
        return row[0]

    @staticmethod
    async def _game_in(db: Db, game_id: int) -> GameRecord:
        row = await db.fetchrow(GAME_SQL, game_id)
        if row is None:
            raise GameNotFound(game_id)
        return game_record(row)

    @staticmethod
    async def _replace_seats(db: Db, game_id: int, seats: Sequence[SeatRecord]) -> None:
        check_distinct(seats)
        await db.execute("DELETE FROM seats WHERE game_id = $1", game_id)
        await db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, computer) VALUES ($1, $2, $3, $4, $5)",
            [(game_id, s.seat, s.user_id, s.name, s.computer) for s in seats],
        )

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
        """A new game in the lobby (version 0) with the host seated, or with `seats` for a rematch."""
        seated = lobby_seats(host, seats)
        owner, token, until = self._new_lease(now)

        async def body(db: Db) -> GameRecord:
            game_id = await db.fetchval(
                "INSERT INTO games (guild_id, channel_id, thread_id, game, options, seed, status, version, "
                "host_id, created_at, updated_at, owner, owner_token, lease_until) "
                "VALUES ($1, $2, $3, $4, $5, NULL, 'lobby', 0, $6, $7, $7, $8, $9, $10) RETURNING id",
                guild_id, channel_id, thread_id, game, to_json(options), host.user_id, float(now),
                owner, token, until,
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

        async def body(db: Db) -> GameRecord:
            if await self._status(db, game_id) != "lobby":
                raise StaleMove("This game is no longer in its lobby.")
            await db.execute(
                "UPDATE games SET options = COALESCE($1, options), thread_id = COALESCE($2, thread_id), "
                "host_id = COALESCE($3, host_id), updated_at = $4 WHERE id = $5",
                None if options is None else to_json(options), thread_id, host_id, float(now), game_id,
            )  # fmt: skip
            if seats is not None:
                await self._replace_seats(db, game_id, seats)
            return await self._game_in(db, game_id)

        return await self._transaction(body)

    async def start_game(
        self, game_id: int, *, seed: int, seats: Sequence[SeatRecord], state_json: str, now: float
    ) -> GameRecord:
        """The game started: active, version 1, snapshot of seq 0 written, options remembered;
        StaleMove if it already started."""
        check_numbered(seats)

        async def body(db: Db) -> GameRecord:
            if await self._status(db, game_id) != "lobby":
                raise StaleMove("This game has already started.")
            channel_id, game, options = await db.fetchrow(
                "UPDATE games SET status = 'active', version = 1, seed = $1, updated_at = $2 WHERE id = $3 "
                "RETURNING channel_id, game, options",
                seed, float(now), game_id,
            )  # fmt: skip
            await self._replace_seats(db, game_id, seats)
            await db.execute(SNAPSHOT_UPSERT, game_id, 0, 1, state_json)
            await db.execute(REMEMBER_OPTIONS, channel_id, game, options)
            return await self._game_in(db, game_id)

        return await self._transaction(body)

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
        """Append the move, write the snapshot and bump the version, atomically and durably (with the
        moves of other games waiting at the same moment); the new version, or StaleMove / NotOwner."""
        if status is not None:
            check_status(status)
        if self._committer is None:
            raise RuntimeError("the game store is not open")
        move = PendingMove(
            game_id, expected_version, seat, action, to_json(events), state_json, now, status, result,
            self.token,
        )  # fmt: skip
        with outage_as_unavailable():
            return await self._committer.commit(move)

    async def repair_snapshot(self, game_id: int, *, state_json: str, version: int, seq: int) -> bool:
        """Write a rebuilt snapshot if the game is still at `version` with `seq` moves; whether it was."""

        async def body(db: Db) -> bool:
            await self._status(db, game_id)
            found = await db.fetchrow(
                "SELECT g.version, COALESCE((SELECT MAX(seq) FROM moves WHERE game_id = g.id), 0) "
                "FROM games AS g WHERE g.id = $1",
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
        """The game with seat `seat.seat` given to someone else, and `host_id` the new host if given."""

        async def body(db: Db) -> GameRecord:
            await self._status(db, game_id)
            changed = await db.fetchval(
                "UPDATE seats SET user_id = $1, name = $2, computer = $3 "
                "WHERE game_id = $4 AND seat = $5 RETURNING seat",
                seat.user_id, seat.name, seat.computer, game_id, seat.seat,
            )  # fmt: skip
            if changed is None:
                raise ValueError(f"game {game_id} has no seat {seat.seat}")
            await db.execute(
                "UPDATE games SET host_id = COALESCE($1, host_id), updated_at = $2 WHERE id = $3",
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

        async def body(db: Db) -> GameRecord:
            await self._status(db, game_id)
            await db.execute(
                "UPDATE games SET status = $1, updated_at = $2 WHERE id = $3", status, float(now), game_id
            )
            if status in ENDED_STATUSES:
                await db.execute("DELETE FROM deadlines WHERE game_id = $1", game_id)
            if status in ENDED_STATUSES and reason is not None:
                await db.execute(
                    "INSERT INTO endings_to_show (game_id, reason) VALUES ($1, $2) "
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

        async def body(db: Db) -> None:
            await self._status(db, game_id)
            await db.execute(
                "UPDATE games SET table_channel_id = $1, table_message_id = $2, updated_at = $3 "
                "WHERE id = $4",
                channel_id, message_id, float(now), game_id,
            )  # fmt: skip

        await self._transaction(body)

    async def record_result(
        self, game_id: int, *, scores: Sequence[int], winners: Sequence[int], reason: str, now: float
    ) -> None:
        """Store each seat's final score and whether it won (recording again replaces them)."""
        result = FinalResult(tuple(scores), tuple(winners), reason)

        async def body(db: Db) -> None:
            await self._status(db, game_id)
            await write_result(db, game_id, result, now)

        await self._transaction(body)

    async def set_deadline(self, game_id: int, *, decision: str, due: float) -> None:
        """Set (or replace) the game's one pending deadline."""

        async def body(db: Db) -> None:
            await self._status(db, game_id)
            await db.execute(DEADLINE_UPSERT, game_id, decision, float(due))

        await self._transaction(body)

    async def ending_shown(self, game_id: int) -> None:
        """The game's final table is shown: no process needs to show it again."""

        async def body(db: Db) -> None:
            await db.execute("DELETE FROM endings_to_show WHERE game_id = $1", game_id)

        await self._transaction(body)

    async def clear_deadline(self, game_id: int) -> None:
        """Remove the game's deadline, if any (and if no other process holds the game)."""

        async def body(db: Db) -> None:
            await db.execute(
                "DELETE FROM deadlines WHERE game_id = $1 "
                f"AND game_id IN (SELECT id FROM games WHERE {FENCE})",
                game_id,
                self.token,
            )

        await self._transaction(body)

    async def save_deadlines(
        self, deadlines: Sequence[Deadline] = (), *, cleared: Iterable[int] = (), lazy: bool = False
    ) -> None:
        """Set `deadlines` and clear those of the `cleared` games in one transaction; a deadline of a game
        that has ended, never existed or that another process holds is skipped, not refused. Saved at
        once even when `lazy`: the server's commits do not queue behind one writer here."""
        gone = list(cleared)
        kept = list({d.game_id: (d.game_id, d.decision, float(d.due)) for d in deadlines}.values())
        if not gone and not kept:
            return

        async def body(db: Db) -> None:
            await db.execute(
                f"DELETE FROM deadlines WHERE game_id = ANY($1::bigint[]) "
                f"AND game_id IN (SELECT id FROM games WHERE {FENCE})",
                gone,
                self.token,
            )
            await db.execute(
                "INSERT INTO deadlines (game_id, decision, due) "
                "SELECT g.id, d.decision, d.due FROM unnest($1::bigint[], $3::text[], $4::float8[]) "
                "AS d (game_id, decision, due) JOIN games AS g ON g.id = d.game_id "
                f"WHERE g.status IN ('lobby', 'active') AND {FENCE.replace('owner_token', 'g.owner_token')} "
                "ON CONFLICT (game_id) DO UPDATE SET decision = excluded.decision, due = excluded.due",
                [k[0] for k in kept],
                self.token,
                [k[1] for k in kept],
                [k[2] for k in kept],
            )

        await self._transaction(body)

    async def save_pings(self, pings: Mapping[int, tuple[int, int]], *, cleared: Iterable[int] = ()) -> None:
        """Note each game's standing turn ping (channel, message) and forget those of the `cleared` games."""
        gone = list(cleared)
        rows = [(game_id, channel, message) for game_id, (channel, message) in pings.items()]

        async def body(db: Db) -> None:
            await db.execute("DELETE FROM pings WHERE game_id = ANY($1::bigint[])", gone)
            await db.executemany(
                "INSERT INTO pings (game_id, channel_id, message_id) VALUES ($1, $2, $3) "
                "ON CONFLICT (game_id) "
                "DO UPDATE SET channel_id = excluded.channel_id, message_id = excluded.message_id",
                rows,
            )

        if gone or rows:
            await self._transaction(body)

    async def take_pings(self, game_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
        """The turn pings noted for these games (channel, message), forgotten as they are handed over."""

        async def body(db: Db) -> dict[int, tuple[int, int]]:
            rows = await db.fetch(
                "DELETE FROM pings WHERE game_id = ANY($1::bigint[]) "
                "RETURNING game_id, channel_id, message_id",
                sorted(set(game_ids)),
            )
            return {row[0]: (row[1], row[2]) for row in rows}

        return await self._transaction(body)

    async def remember_options(self, channel_id: int, game: str, options: dict) -> None:
        """Remember the options last used for `game` in `channel_id`."""

        async def body(db: Db) -> None:
            await db.execute(REMEMBER_OPTIONS, channel_id, game, to_json(options))

        await self._transaction(body)
