"""How the game store's reads and write transactions reach the database (see sqlite.py for why)."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Iterator
from typing import Any, TypeVar

import aiosqlite

from bot.storage.commits import is_outage
from bot.storage.models import StoreUnavailable
from bot.storage.write_thread import WriteThread

T = TypeVar("T")
Db = aiosqlite.Connection


@contextlib.contextmanager
def outage_as_unavailable() -> Iterator[None]:
    """Turn SQLite's "locked" / "disk I/O error" and kin into StoreUnavailable (nothing was written)."""
    try:
        yield
    except sqlite3.OperationalError as error:
        if is_outage(error):
            raise StoreUnavailable() from error
        raise


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


class StoreAccess:
    """The read-only connection and the write thread, once the store is open, and how to use them."""

    path: str
    _reader: Db | None = None
    _write_thread: WriteThread | None = None

    async def _read(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        """Rows of one read-only statement, which sees only committed data."""
        if self._reader is None:
            raise RuntimeError("the game store is not open")
        with outage_as_unavailable():
            return list(await self._reader.execute_fetchall(sql, tuple(params)))

    async def _transaction(self, body: Callable[[Db], Awaitable[T]]) -> T:
        """Run `body` in one write transaction: committed if it returns, rolled back if it raises.

        The body is written against aiosqlite's interface but runs on the write thread in one
        round trip (see `_Immediate`): a transaction spread over several event-loop turns held
        SQLite's write lock for ~100 ms under load, and every move waiting to commit behind it.
        Like every write, it runs to its end even if the caller is cancelled meanwhile.
        """
        return await self._sync_transaction(lambda db: _finish_now(body(_Immediate(db))))

    async def _sync_transaction(self, body: Callable[[sqlite3.Connection], T], *, lazy: bool = False) -> T:
        """Run the synchronous `body` in one write transaction on the write thread (one round trip).

        Committed if `body` returns, rolled back if it raises, and run to its end even if the
        caller is cancelled meanwhile. A `lazy` body may wait a moment for other writes to share
        its transaction (see write_thread.py).
        """
        if self._write_thread is None:
            raise RuntimeError("the game store is not open")
        with outage_as_unavailable():
            return await self._write_thread.run(body, lazy=lazy)
