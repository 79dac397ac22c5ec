"""Group commit on PostgreSQL: the moves waiting to be committed share one durable transaction.

The same contract as the SQLite store's (commits.py): each move is checked on its own (its game
active, at the expected version, not held by another process) and refused alone, having changed
nothing; a caller hears back only once the transaction holding its move is committed, which
with `synchronous_commit = on` means flushed to the server's disk.

`Committer` keeps the moves that arrive while a batch is being written and writes them as the
next batch, from `writers` tasks at most at a time (each on its own pooled connection). A batch
locks its games' rows in id order (`FOR UPDATE`), so batches and claims never deadlock and a
claim by another process waits for the batch, then fences the next one.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque

import asyncpg

from bot.storage.commits import MAX_BATCH, FinalResult, PendingMove, plan_batch
from bot.storage.models import GameNotFound, StoreUnavailable
from bot.storage.postgres_access import is_outage

log = logging.getLogger(__name__)

SNAPSHOT_UPSERT = (
    "INSERT INTO snapshots (game_id, seq, version, state) VALUES ($1, $2, $3, $4) "
    "ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, version = excluded.version, "
    "state = excluded.state"
)

# A batch's rows go in as one array per column: one statement per table whatever the batch's size.
UPDATE_GAMES = """
UPDATE games AS g SET version = u.version, updated_at = u.at, status = u.status
  FROM unnest($1::integer[], $2::float8[], $3::text[], $4::bigint[]) AS u (version, at, status, id)
 WHERE g.id = u.id
"""
INSERT_MOVES = """
INSERT INTO moves (game_id, seq, seat, action, events, at)
SELECT * FROM unnest($1::bigint[], $2::integer[], $3::integer[], $4::text[], $5::text[], $6::float8[])
"""
UPSERT_SNAPSHOTS = """
INSERT INTO snapshots (game_id, seq, version, state)
SELECT * FROM unnest($1::bigint[], $2::integer[], $3::integer[], $4::text[])
ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, version = excluded.version, state = excluded.state
"""

BATCH_GAMES = """
SELECT g.id, g.version, g.status, COALESCE((SELECT MAX(m.seq) FROM moves AS m WHERE m.game_id = g.id), 0),
       g.owner_token
  FROM games AS g WHERE g.id = ANY($1::bigint[]) ORDER BY g.id FOR UPDATE
"""


def columns(rows, width: int) -> list[list]:
    """Rows turned into `width` column lists (for unnest)."""
    rows = list(rows)
    return [[row[i] for row in rows] for i in range(width)]


async def write_result(db: asyncpg.Connection, game_id: int, result: FinalResult, now: float) -> None:
    """Each seat's final score and whether it won, with the seat's member at the end (replacing any)."""
    seats = await db.fetch("SELECT seat, user_id FROM seats WHERE game_id = $1 ORDER BY seat", game_id)
    if not seats and await db.fetchval("SELECT 1 FROM games WHERE id = $1", game_id) is None:
        raise GameNotFound(game_id)
    if len(result.scores) != len(seats):
        raise ValueError(f"game {game_id} has {len(seats)} seats but {len(result.scores)} scores")
    if not set(result.winners) <= {seat for seat, _ in seats}:
        raise ValueError(f"winners {list(result.winners)} are not seats of game {game_id}")
    await db.executemany(
        "INSERT INTO results (game_id, seat, user_id, score, won) VALUES ($1, $2, $3, $4, $5) "
        "ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id, score = excluded.score, "
        "won = excluded.won",
        [
            (game_id, seat, user_id, score, int(seat in result.winners))
            for (seat, user_id), score in zip(seats, result.scores, strict=True)
        ],
    )
    await db.execute(
        "INSERT INTO outcomes (game_id, reason, recorded_at) VALUES ($1, $2, $3) "
        "ON CONFLICT (game_id) DO UPDATE SET reason = excluded.reason, recorded_at = excluded.recorded_at",
        game_id,
        result.reason,
        float(now),
    )


async def _apply_all(db: asyncpg.Connection, moves: list[PendingMove]) -> list[int | Exception]:
    """Write a batch of moves inside the current transaction (checked by `plan_batch`), one statement
    per table."""
    rows = await db.fetch(BATCH_GAMES, sorted({move.game_id for move in moves}))
    plan = plan_batch(moves, rows)
    if plan.updates:
        await db.execute(UPDATE_GAMES, *columns(plan.updates, 4))
        await db.execute(INSERT_MOVES, *columns(plan.logged, 6))
        await db.execute(UPSERT_SNAPSHOTS, *columns(plan.snapshots, 4))
    if plan.ended:
        await db.executemany("DELETE FROM deadlines WHERE game_id = $1", plan.ended)
    for move in plan.results:
        await write_result(db, move.game_id, move.result, move.now)
    if plan.results:
        await db.execute(
            "INSERT INTO endings_to_show (game_id) SELECT unnest($1::bigint[]) ON CONFLICT DO NOTHING",
            [move.game_id for move in plan.results],
        )
    return plan.outcomes


async def commit_batch(pool: asyncpg.Pool, moves: list[PendingMove]) -> list[int | Exception]:
    """Commit `moves` in one transaction; if it fails for a reason other than an outage, one by one."""
    try:
        async with pool.acquire() as db, db.transaction():
            return await _apply_all(db, moves)
    except Exception as error:
        if is_outage(error):
            log.warning("a batch of %d moves could not be saved: %s", len(moves), error)
            return [StoreUnavailable() for _ in moves]
        if len(moves) == 1:
            return [error]
        log.exception("a batch of %d moves failed; committing them one at a time", len(moves))
        return [(await commit_batch(pool, [move]))[0] for move in moves]


class Committer:
    """Hands each waiting move to the next batch; at most `writers` batches are written at a time."""

    def __init__(self, pool: asyncpg.Pool, *, writers: int = 2) -> None:
        self._pool = pool
        self._waiting: deque[tuple[PendingMove, asyncio.Future[int]]] = deque()
        self._writers = writers
        self._running: set[asyncio.Task[None]] = set()

    @property
    def queued(self) -> int:
        return len(self._waiting)

    async def commit(self, move: PendingMove) -> int:
        """The game's new version once `move` is durably committed; StaleMove, NotOwner, GameNotFound
        or StoreUnavailable otherwise. A caller cancelled while its move waits withdraws it; once its
        batch has begun, the move is committed (or not) with the batch regardless."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._waiting.append((move, future))
        if len(self._running) < self._writers:
            self._running.add(asyncio.create_task(self._write()))
        return await future

    async def drain(self) -> None:
        """Wait until every move handed over so far is committed or refused."""
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)

    async def _write(self) -> None:
        try:
            await self._write_batches()
        finally:  # no await since the queue was last found empty: no move is left without a writer
            self._running.discard(asyncio.current_task())  # type: ignore[arg-type]

    async def _write_batches(self) -> None:
        while self._waiting:
            batch: list[tuple[PendingMove, asyncio.Future[int]]] = []
            while self._waiting and len(batch) < MAX_BATCH:
                move, future = self._waiting.popleft()
                if not future.cancelled():
                    batch.append((move, future))
            if not batch:
                continue
            try:
                outcomes: list[int | Exception] = await commit_batch(self._pool, [move for move, _ in batch])
            except Exception as error:  # the pool itself is gone (the store closed under it)
                outcomes = [error for _ in batch]
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if isinstance(outcome, Exception):
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)
