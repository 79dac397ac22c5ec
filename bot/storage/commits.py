"""Group commit: the moves waiting to be committed, from any number of games, share one durable transaction.

With `synchronous=FULL` every commit waits for an fsync, which is what limits
how many moves per second a single SQLite file takes. While one transaction is
being synced, the moves that arrive queue up and go into the next one together,
so the cost of a sync is shared by every game moving at that moment.

Each move stays atomic and checked on its own: its `UPDATE games ... WHERE
version = expected` either matches (then its log entry and snapshot are written
in the same transaction) or matches nothing and the move is refused as stale,
having changed nothing. A caller hears back only after the transaction holding
its move is committed to disk.

A batch is written by one synchronous function on the store's write thread, with
the same few statements whatever its size: the event loop is involved once per
batch, not once per statement.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.storage.models import ENDED_STATUSES, GameNotFound, StaleMove

log = logging.getLogger(__name__)

Db = sqlite3.Connection
Transaction = Callable[[Callable[[Db], Any]], Awaitable[Any]]
"""Runs a synchronous body in one write transaction, away from the event loop."""

MAX_BATCH = 200
"""At most this many moves in one transaction, so one batch never holds the writer for long."""

SNAPSHOT_UPSERT = (
    "INSERT INTO snapshots (game_id, seq, version, state) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, version = excluded.version, "
    "state = excluded.state"
)


@dataclass(frozen=True)
class PendingMove:
    game_id: int
    expected_version: int
    seat: int
    action: str
    events_json: str
    state_json: str
    now: float
    status: str | None


def _apply_all(db: Db, moves: list[PendingMove]) -> list[int | Exception]:
    """Write a batch of moves inside the current transaction with a fixed number of statements.

    Each move is checked (the game active, at the expected version) one after the other and in
    order, so a later move of the same game sees the earlier one; worked out in Python from one
    read of the games, then written with one `executemany` per table.
    """
    ids = sorted({move.game_id for move in moves})
    rows = db.execute(
        "SELECT g.id, g.version, g.status, COALESCE((SELECT MAX(seq) FROM moves WHERE game_id = g.id), 0) "
        f"FROM games AS g WHERE g.id IN ({', '.join('?' * len(ids))})",
        ids,
    ).fetchall()
    games = {game_id: (version, status, seq) for game_id, version, status, seq in rows}
    outcomes: list[int | Exception] = []
    updates, logged, snapshots, ended = [], [], {}, []
    for move in moves:
        if move.game_id not in games:
            outcomes.append(GameNotFound(move.game_id))
            continue
        version, status, seq = games[move.game_id]
        if status != "active" or version != move.expected_version:
            outcomes.append(StaleMove())
            continue
        version, status, seq = version + 1, move.status or status, seq + 1
        games[move.game_id] = (version, status, seq)
        updates.append((version, move.now, status, move.game_id))
        logged.append((move.game_id, seq, move.seat, move.action, move.events_json, move.now))
        snapshots[move.game_id] = (move.game_id, seq, version, move.state_json)
        if move.status in ENDED_STATUSES:
            ended.append((move.game_id,))
        outcomes.append(version)
    db.executemany("UPDATE games SET version = ?, updated_at = ?, status = ? WHERE id = ?", updates)
    db.executemany(
        "INSERT INTO moves (game_id, seq, seat, action, events, at) VALUES (?, ?, ?, ?, ?, ?)", logged
    )
    db.executemany(SNAPSHOT_UPSERT, list(snapshots.values()))
    db.executemany("DELETE FROM deadlines WHERE game_id = ?", ended)
    return outcomes


class GroupCommit:
    """Queues moves and commits them in batches through `transaction` (the store's write transaction)."""

    def __init__(self, transaction: Transaction) -> None:
        self._transaction = transaction
        self._queue: list[tuple[PendingMove, asyncio.Future[int]]] = []
        self._flusher: asyncio.Task[None] | None = None

    async def commit(self, move: PendingMove) -> int:
        """The game's new version once `move` is durably committed; raises StaleMove or GameNotFound."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._queue.append((move, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush(), name="catnip-group-commit")
        # A caller cancelled while its move waits in the queue withdraws it; once its batch
        # has begun, the move is committed (or not) with the batch regardless.
        return await future

    @property
    def queued(self) -> int:
        """Moves waiting for a batch (not yet taken into a transaction)."""
        return len(self._queue)

    async def drain(self) -> None:
        """Wait until every queued move has been committed or refused."""
        while self._flusher is not None and not self._flusher.done():
            await asyncio.wait({self._flusher})

    async def _flush(self) -> None:
        while self._queue:
            taken, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            batch = [(move, future) for move, future in taken if not future.done()]
            if not batch:
                continue
            try:
                outcomes = await self._commit(batch)
            except Exception as error:
                outcomes = [error] * len(batch)
            except BaseException as error:
                for _, future in batch + self._queue:
                    if not future.done():
                        future.set_exception(error)
                self._queue.clear()
                raise
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if isinstance(outcome, Exception):
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)

    async def _commit(self, batch: list[tuple[PendingMove, asyncio.Future[int]]]) -> list[int | Exception]:
        moves = [move for move, _ in batch]

        try:
            return await self._transaction(lambda db: _apply_all(db, moves))
        except Exception:
            if len(moves) == 1:
                raise
            # Something other than a stale move failed and took the batch with it:
            # commit the moves one by one so that only the faulty one is refused.
            log.exception("a batch of %d moves failed; committing them one at a time", len(moves))
            outcomes: list[int | Exception] = []
            for move in moves:
                try:
                    outcomes.append(await self._transaction(lambda db, move=move: _apply_all(db, [move])[0]))
                except Exception as error:
                    outcomes.append(error)
            return outcomes
