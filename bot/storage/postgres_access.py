"""How the PostgreSQL store reaches its server: a connection pool, and outages as StoreUnavailable.

asyncpg's pool replaces a connection that broke (the server restarted, the network dropped) the
next time one is taken, so the store reconnects by itself; meanwhile each call that fails for
that reason raises StoreUnavailable, having written nothing it reports as done. A commit whose
connection breaks while the server commits is the one case the store cannot know the outcome:
it raises StoreUnavailable too, the caller's game stays where it was in memory, and the next
move is checked against the version in the database (StaleMove, then a reload), so nothing is
applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import asyncpg

from bot.storage.models import StoreUnavailable

T = TypeVar("T")

OUTAGES: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
    asyncpg.exceptions.InsufficientResourcesError,
    asyncpg.exceptions.ReadOnlySQLTransactionError,
)
"""What asyncpg raises when the server, not the request, is the problem."""


def is_outage(error: BaseException) -> bool:
    if isinstance(error, OUTAGES):
        return True
    return isinstance(error, asyncpg.InterfaceError) and "connection" in str(error) and "closed" in str(error)


@contextlib.contextmanager
def outage_as_unavailable() -> Iterator[None]:
    try:
        yield
    except Exception as error:
        if is_outage(error):
            raise StoreUnavailable() from error
        raise


class PgAccess:
    """The pool, once the store is open, and how reads and write transactions use it."""

    _pool: asyncpg.Pool | None = None

    def _open_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("the game store is not open")
        return self._pool

    async def _read(self, sql: str, *args: Any) -> list[Any]:
        """Rows of one statement, which sees only committed data."""
        pool = self._open_pool()
        with outage_as_unavailable():
            return list(await pool.fetch(sql, *args))

    async def _transaction(self, body: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        """Run `body(db)` in one transaction: committed if it returns, rolled back if it raises.

        Like every write, it runs to its end even if the caller is cancelled meanwhile.
        """
        pool = self._open_pool()

        async def run() -> T:
            with outage_as_unavailable():
                async with pool.acquire() as db, db.transaction():
                    return await body(db)

        return await asyncio.shield(asyncio.ensure_future(run()))
