"""The store's write thread: every write transaction, one at a time, in the order asked for.

Callers on the event loop hand it jobs through a thread-safe queue, which wakes the thread at
once, and hear back through one `call_soon_threadsafe` per transaction. A busy event loop
delays every callback it has to run, so the number of loop turns between a move being handed
over and its caller resuming, not SQLite, is what sets a click's commit time under load: this
path takes two (the results are set, then the callers wake), where an executor future
behind a flushing task took five.

The writes waiting when the thread comes round — moves and small transactions — are committed
together, in their order, in one transaction (group commit, see commits.py): each run of moves is
written by `write_moves`, each small transaction in a savepoint of its own, so a body that fails is
rolled back alone and its caller hears why while the rest commits. A transaction asked to run alone
does so, in its place in the queue. A lazy write (nobody waits on it: the turn deadlines saved after each
move) found with no move waits up to `LINGER_SECONDS` for one to share its transaction and its
sync: under load a third of all commits were deadlines committed alone, just after their move's.

On a busy bot a move also waits a moment for company: when the last transaction with moves held
more than one, less than `BUSY_SECONDS` ago, the next gathers the moves handed over within
`GATHER_SECONDS` (as PostgreSQL's `commit_delay` does when other transactions are active). Fewer,
larger transactions mean fewer syncs, and fewer wakes of the event loop, which hears about a whole
batch at once. A move on a quiet bot is committed at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import queue
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.storage.commits import MAX_BATCH, PendingMove, write_moves
from bot.storage.dialects import SQLITE, Connection

log = logging.getLogger(__name__)

T = TypeVar("T")
Db = sqlite3.Connection

LINGER_SECONDS = 0.05
GATHER_SECONDS = 0.010
"""How long a move waits for others to share its commit; measured at 100 saturated games
(docs/performance.md, "The store's group commit")."""
BUSY_SECONDS = 1.0


@dataclass(frozen=True)
class _Job:
    """A transaction body, or one move; either committed in a batch unless `alone`."""

    future: asyncio.Future[Any]
    body: Callable[[Db], Any] | None = None
    move: PendingMove | None = None
    alone: bool = False
    lazy: bool = False

    @property
    def write(self) -> PendingMove | Callable[[Db], Any]:
        return self.move if self.move is not None else self.body  # type: ignore[return-value]


_STOP = object()


class WriteThread:
    """Owns the write connection; opened by `start`, which connects on the thread itself."""

    def __init__(self, connect: Callable[[], Db], name: str = "catnip-store") -> None:
        self._connect = connect
        self._name = name
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopped: asyncio.Future[None] | None = None

    async def start(self) -> None:
        """Start the thread and open its connection; raises what opening the connection raised."""
        loop = self._loop = asyncio.get_running_loop()
        opened: asyncio.Future[None] = loop.create_future()
        self._stopped = loop.create_future()
        self._thread = threading.Thread(target=self._run, args=(opened,), name=self._name, daemon=True)
        self._thread.start()
        await opened

    @property
    def queued(self) -> int:
        """Jobs handed over and not yet taken into a transaction."""
        return self._jobs.qsize()

    async def run(self, body: Callable[[Db], T], *, alone: bool = False, lazy: bool = False) -> T:
        """`body(db)`, committed if it returns, rolled back if it raises: in the transaction of the
        writes waiting with it (in a savepoint of its own), or `alone` in a transaction of its own.
        A `lazy` body may wait up to `LINGER_SECONDS` for other writes to commit with.

        It runs to its end even if the caller is cancelled meanwhile.
        """
        future = self._future()
        self._jobs.put(_Job(future, body=body, alone=alone, lazy=lazy))
        return await asyncio.shield(future)

    async def commit(self, move: PendingMove) -> int:
        """The game's new version once `move` is durably committed; raises StaleMove or GameNotFound.

        A caller cancelled while its move waits in the queue withdraws it; once its batch has
        begun, the move is committed (or not) with the batch regardless.
        """
        future = self._future()
        self._jobs.put(_Job(future, move=move))
        return await future

    async def drain(self) -> None:
        """Wait until every job handed over so far is done."""
        await self.run(lambda db: None)

    async def stop(self) -> None:
        """Finish the queued jobs, close the connection and end the thread."""
        if self._thread is None or self._stopped is None:
            return
        self._jobs.put(_STOP)
        await self._stopped
        self._thread = None

    def _future(self) -> asyncio.Future[Any]:
        if self._thread is None or self._loop is None:
            raise RuntimeError("the game store is not open")
        return self._loop.create_future()

    # ------------------------------------------------------------------ on the thread

    def _run(self, opened: asyncio.Future[None]) -> None:
        try:
            db = self._connect()
        except Exception as error:
            self._settle([(opened, error)])
            return
        self._settle([(opened, None)])
        waiting: deque[Any] = deque()
        busy_until = 0.0
        try:
            while (job := waiting.popleft() if waiting else self._jobs.get()) is not _STOP:
                if job.alone:
                    self._settle([(job.future, self._transaction(db, job.body))])
                    continue
                if job.move is not None and not waiting and time.monotonic() < busy_until:
                    time.sleep(GATHER_SECONDS)
                batch = self._batch_from(job, waiting)
                if moves := sum(job.move is not None for job in batch):
                    busy_until = time.monotonic() + BUSY_SECONDS if moves > 1 else 0.0
                if all(job.lazy for job in batch) and not waiting:
                    batch += self._company(waiting)
                batch = [job for job in batch if not job.future.cancelled()]
                if batch:
                    outcomes = commit_batch(db, [job.write for job in batch])
                    self._settle(list(zip((job.future for job in batch), outcomes, strict=True)))
        finally:
            db.close()
            self._settle([(self._stopped, None)])

    def _batch_from(self, first: _Job, waiting: deque[Any]) -> list[_Job]:
        """`first` and the writes queued right behind it; a job that runs alone stops the batch and
        is kept in `waiting`, to run next."""
        batch = [first]
        while len(batch) < MAX_BATCH and (following := self._next()) is not None:
            if following is _STOP or following.alone:
                waiting.append(following)
                break
            batch.append(following)
        return batch

    def _company(self, waiting: deque[Any]) -> list[_Job]:
        """The first write to come within `LINGER_SECONDS` and those queued behind it, for lazy writes
        to commit with; none if nothing came, or a stop or a write to run alone (kept in `waiting`)."""
        try:
            following = self._jobs.get(timeout=LINGER_SECONDS)
        except queue.Empty:
            return []
        if following is _STOP or following.alone:
            waiting.append(following)
            return []
        return self._batch_from(following, waiting)

    def _next(self) -> Any:
        try:
            return self._jobs.get_nowait()
        except queue.Empty:
            return None

    @staticmethod
    def _transaction(db: Db, body: Callable[[Db], Any]) -> Any:
        try:
            return in_transaction(db, body)
        except Exception as error:
            return error

    def _settle(self, outcomes: list[tuple[asyncio.Future[Any] | None, Any]]) -> None:
        """Hand the outcomes (a result, or an exception to raise) to their futures, on the loop."""
        assert self._loop is not None
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody is waiting any more
            self._loop.call_soon_threadsafe(_set_outcomes, outcomes)


def _set_outcomes(outcomes: list[tuple[asyncio.Future[Any] | None, Any]]) -> None:
    for future, outcome in outcomes:
        if future is None or future.done():
            continue
        if isinstance(outcome, Exception):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)


# ------------------------------------------------------------------ transactions on the thread's connection


class SqliteConnection(Connection):
    """The store's statement API over a plain sqlite3 connection, as coroutines that never wait.

    Each runs its statement at once on the calling thread (the write thread), so a transaction body
    written once for every database, with `await db.execute(...)`, runs to its end synchronously in
    one round trip from the event loop (`finish_now`): a transaction spread over several event-loop
    turns would hold SQLite's write lock all along, and every move waiting to commit behind it.
    """

    dialect = SQLITE

    def __init__(self, db: Db) -> None:
        self._db = db

    async def execute(self, sql: str, *args: Any) -> None:
        self._db.execute(SQLITE.sql(sql), args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self._db.executemany(SQLITE.sql(sql), rows)

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        return self._db.execute(SQLITE.sql(sql), args).fetchall()

    async def fetchrow(self, sql: str, *args: Any) -> Any:
        return self._db.execute(SQLITE.sql(sql), args).fetchone()

    async def fetchval(self, sql: str, *args: Any) -> Any:
        row = self._db.execute(SQLITE.sql(sql), args).fetchone()
        return None if row is None else row[0]


def finish_now(coroutine: Coroutine[Any, Any, T]) -> T:
    """The result of a coroutine that never suspends (one that only awaits `SqliteConnection`)."""
    try:
        coroutine.send(None)
    except StopIteration as finished:
        return finished.value
    coroutine.close()
    raise RuntimeError("a transaction body waited for something other than the database")


Body = Callable[[Db], object]
"""A small write transaction's body, run inside the batch's transaction."""


def commit_batch(db: Db, writes: Sequence[PendingMove | Body]) -> list[object]:
    """Commit `writes` (moves and bodies), in their order, in one transaction; if it fails for a
    reason other than a stale move or a body's own error, one by one.

    The outcome of each move is its game's new version or the exception that refused it, of each
    body what it returned or raised, in the order of `writes`.
    """
    try:
        return in_transaction(db, lambda db: _apply_in_order(db, writes))
    except Exception as error:
        if len(writes) == 1 or is_outage(error):
            return [error for _ in writes]
        # Something other than a stale move failed and took the batch with it:
        # commit the writes one by one so that only the faulty one is refused.
        log.exception("a batch of %d writes failed; committing them one at a time", len(writes))
        return [commit_batch(db, [write])[0] for write in writes]


def _apply_in_order(db: Db, writes: Sequence[PendingMove | Body]) -> list[object]:
    """Each run of consecutive moves with `write_moves`, each body in a savepoint, in order."""
    outcomes: list[object] = []
    for is_move, run in itertools.groupby(writes, key=lambda write: isinstance(write, PendingMove)):
        if is_move:
            outcomes.extend(finish_now(write_moves(SqliteConnection(db), list(run))))  # type: ignore[arg-type]
        else:
            outcomes.extend(_in_savepoint(db, body) for body in run)  # type: ignore[arg-type]
    return outcomes


def _in_savepoint(db: Db, body: Body) -> object:
    """What `body` returned, or the exception it raised after its writes were rolled back."""
    db.execute("SAVEPOINT shared_write")
    try:
        result = body(db)
    except Exception as error:
        db.execute("ROLLBACK TO shared_write")
        db.execute("RELEASE shared_write")
        return error
    db.execute("RELEASE shared_write")
    return result


OUTAGES = ("locked", "busy", "disk i/o", "unable to open", "readonly", "database or disk is full")
"""What SQLite says when the file, not the request, is the problem: worth trying again in a moment."""


def is_outage(error: BaseException) -> bool:
    """The database, not the request, failed: trying the moves one by one would not help."""
    return isinstance(error, sqlite3.OperationalError) and any(w in str(error).lower() for w in OUTAGES)


def in_transaction(db: Db, body: Callable[[Db], T]) -> T:
    """`body(db)` inside BEGIN IMMEDIATE … COMMIT, rolled back if it raises."""
    db.execute("BEGIN IMMEDIATE")
    try:
        result = body(db)
        db.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
    return result
