"""`PostgresDatabase`: the store's database on a PostgreSQL server, through asyncpg, for a fleet.

The same contract as the SQLite store: a move is acknowledged only once committed durably
(`synchronous_commit = on`, whatever the server's default), versions are checked optimistically,
moves of different games waiting at the same moment share a transaction (`Committer`), the action
log is gapless and append-only, and finished games are never read at start-up. Each game's row
carries its lease (coordination.py): a write to a game locks its row (`FOR UPDATE`) and checks who
holds it, so a claim by another process either happened before (the write is refused with
NotOwner) or waits for it.

Reads and other writes take a connection from a small pool. asyncpg's pool replaces a connection
that broke (the server restarted, the network dropped) the next time one is taken, so the store
reconnects by itself; meanwhile each call that fails for that reason raises StoreUnavailable,
having written nothing it reports as done. A commit whose connection breaks while the server
commits is the one case the store cannot know the outcome: it raises StoreUnavailable too, the
caller's game stays where it was in memory, and the next move is checked against the version in
the database (StaleMove, then a reload), so nothing is applied twice.

`check_database_url` is the start-up check of DATABASE_URL: a URL that does not parse, a refused
login or a database written by a newer Catnip each become one line naming DATABASE_URL and what to
do, never showing the password. A server that cannot be reached passes: the bot waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.outages import OutageLog
from bot.storage.commits import MAX_BATCH, PendingMove, write_moves
from bot.storage.database import Database
from bot.storage.dialects import POSTGRES, Connection
from bot.storage.migrations import apply_migrations, newest_version
from bot.storage.models import DatabaseUnusable, StoreUnavailable
from bot.storage.ratings import RatingsChanged
from bot.storage.store import GameStore

log = logging.getLogger(__name__)

T = TypeVar("T")

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a connection before a call answers StoreUnavailable."""

SERVER_SETTINGS = {"synchronous_commit": "on", "application_name": "catnip"}

POSTGRESQL_SCHEMES = ("postgresql", "postgres")


def is_postgresql_url(location: str) -> bool:
    return location.split("://", 1)[0] in POSTGRESQL_SCHEMES and "://" in location


def without_password(location: str) -> str:
    """`location` as it may be shown or logged: a URL's password replaced by ***."""
    if not is_postgresql_url(location):
        return location
    try:
        parts = urlsplit(location)
    except ValueError:
        return f"{location.split('://', 1)[0]}://…"
    if parts.password is None:
        return location
    user, host = parts.netloc.rsplit("@", 1)
    return urlunsplit(parts._replace(netloc=f"{user.split(':', 1)[0]}:***@{host}"))


OUTAGES: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,
    asyncpg.exceptions.InsufficientResourcesError,
    asyncpg.exceptions.ReadOnlySQLTransactionError,
    asyncpg.exceptions.InternalClientError,  # e.g. a pooled connection reset while the server went away
)
"""What asyncpg raises when the server, not the request, is the problem."""


def is_outage(error: BaseException) -> bool:
    if isinstance(error, OUTAGES):
        return True
    return isinstance(error, asyncpg.InterfaceError) and "connection" in str(error) and "closed" in str(error)


@contextlib.contextmanager
def outage_as_unavailable(outage: OutageLog | None = None) -> Iterator[None]:
    """An outage raised as StoreUnavailable; either way `outage` learns whether the server answered."""
    try:
        yield
    except Exception as error:
        if is_outage(error):
            if outage is not None:
                outage.failed(error)
            raise StoreUnavailable() from error
        raise
    if outage is not None:
        outage.answered()


class PgConnection(Connection):
    """The store's statement API over an asyncpg connection."""

    dialect = POSTGRES

    def __init__(self, db: asyncpg.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, *args: Any) -> None:
        await self._db.execute(POSTGRES.sql(sql), *args)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(POSTGRES.sql(sql), rows)

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        return await self._db.fetch(POSTGRES.sql(sql), *args)

    async def fetchrow(self, sql: str, *args: Any) -> Any:
        return await self._db.fetchrow(POSTGRES.sql(sql), *args)

    async def fetchval(self, sql: str, *args: Any) -> Any:
        return await self._db.fetchval(POSTGRES.sql(sql), *args)


class PostgresDatabase(Database):
    """The PostgreSQL database at `url`."""

    dialect = POSTGRES

    def __init__(self, url: str, *, pool_size: int = 8, writers: int = 2) -> None:
        self.url = url
        self.pool_size = pool_size
        self.writers = writers
        self.outage = OutageLog(f"the database (DATABASE_URL {without_password(url)})", log)
        self._pool: asyncpg.Pool | None = None
        self._committer: Committer | None = None

    async def open(self) -> None:
        """Connect and apply pending migrations; idempotent. StoreUnavailable while the server is away."""
        if self._pool is not None:
            return
        pool = await asyncpg.create_pool(
            self.url,
            min_size=0,  # no connection kept open for its own sake: none to restore in an outage
            max_size=self.pool_size,
            timeout=CONNECT_TIMEOUT,
            server_settings=SERVER_SETTINGS,
        )
        try:
            with outage_as_unavailable(self.outage):
                async with pool.acquire() as db, db.transaction():
                    applied = await apply_migrations(PgConnection(db))
        except BaseException:
            await pool.close()
            raise
        if applied:
            log.info("database: applied PostgreSQL migrations %s", applied)
        self._pool = pool
        self._committer = Committer(pool, writers=self.writers, outage=self.outage)

    async def close(self) -> None:
        """Finish the moves being committed and close the pool; idempotent."""
        pool, committer = self._pool, self._committer
        self._pool = self._committer = None
        if committer is not None:
            await committer.drain()
        if pool is not None:
            await pool.close()

    def _open_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("the game store is not open")
        return self._pool

    async def read(self, sql: str, *args: Any) -> list[Any]:
        """Rows of one statement, which sees only committed data."""
        pool = self._open_pool()
        with outage_as_unavailable(self.outage):
            return list(await pool.fetch(POSTGRES.sql(sql), *args))

    async def transaction(self, body: Callable[[Connection], Awaitable[T]], *, lazy: bool = False) -> T:
        """Run `body` in one transaction on a pooled connection, at once even when `lazy` (the server's
        commits do not queue behind one writer here); again if it meets another's change
        (`again_after_conflicts`)."""
        pool = self._open_pool()

        async def run() -> T:
            with outage_as_unavailable(self.outage):
                async with pool.acquire() as db, db.transaction():
                    return await body(PgConnection(db))

        return await asyncio.shield(asyncio.ensure_future(again_after_conflicts(run)))

    async def commit(self, move: PendingMove) -> int:
        if self._committer is None:
            raise RuntimeError("the game store is not open")
        with outage_as_unavailable():
            return await self._committer.commit(move)


class PostgresGameStore(GameStore):
    """The `GameStore` on the PostgreSQL database at `url` (its schema created or brought up to date).

    `owner` is the role of the process in a fleet (see owner.py); a lone process needs none.
    `pool_size` connections at most; `writers` batches of moves written at the same time.
    """

    database: PostgresDatabase

    def __init__(self, url: str, *, owner: str | None = None, pool_size: int = 8, writers: int = 2) -> None:
        super().__init__(PostgresDatabase(url, pool_size=pool_size, writers=writers), owner=owner)


# ------------------------------------------------------------------ group commit


CONFLICT_TRIES = 5
"""How many times a transaction is run while it meets another's change (`again_after_conflicts`)."""


async def again_after_conflicts(run: Callable[[], Awaitable[T]]) -> T:
    """`run()` (one whole transaction), run again when it met another transaction's change: a rating
    changed since the game's end read it (`RatingsChanged`), or PostgreSQL chose it to break a
    deadlock. Everything it did is undone, so it is simply run again.
    """
    for _ in range(CONFLICT_TRIES - 1):
        try:
            return await run()
        except (RatingsChanged, asyncpg.DeadlockDetectedError) as conflict:
            log.info("a transaction that met another's change runs again (%s)", type(conflict).__name__)
    return await run()


async def commit_batch(
    pool: asyncpg.Pool, moves: list[PendingMove], outage: OutageLog | None = None
) -> list[int | Exception]:
    """Commit `moves` in one transaction; if it fails for a reason other than an outage, one by one."""

    async def run() -> list[int | Exception]:
        with outage_as_unavailable(outage):
            async with pool.acquire() as db, db.transaction():
                return await write_moves(PgConnection(db), moves)

    try:
        return await again_after_conflicts(run)
    except StoreUnavailable:
        return [StoreUnavailable() for _ in moves]
    except Exception as error:
        if len(moves) == 1:
            return [error]
        log.exception("a batch of %d moves failed; committing them one at a time", len(moves))
        return [(await commit_batch(pool, [move], outage))[0] for move in moves]


class Committer:
    """Hands each waiting move to the next batch; at most `writers` batches are written at a time.

    The moves that arrive while a batch is being written go into the next batch, each batch on a
    pooled connection of its own. A batch locks its games' rows in id order (`FOR UPDATE`), so
    batches and claims never deadlock and a claim by another process waits for the batch, then
    fences the next one.
    """

    def __init__(self, pool: asyncpg.Pool, *, writers: int = 2, outage: OutageLog | None = None) -> None:
        self._pool = pool
        self._outage = outage
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
                outcomes: list[int | Exception] = await commit_batch(
                    self._pool, [move for move, _ in batch], self._outage
                )
            except Exception as error:  # the pool itself is gone (the store closed under it)
                outcomes = [error for _ in batch]
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if isinstance(outcome, Exception):
                    future.set_exception(outcome)
                else:
                    future.set_result(outcome)


# ------------------------------------------------------------------ the start-up check


def check_database_url(url: str, *, timeout: float = CONNECT_TIMEOUT) -> None:
    """Raise `DatabaseUnusable` (one line, naming DATABASE_URL) unless the store could open `url` or its
    server is only away for now."""
    shown = without_password(url)
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (parsing the port is what may fail)
    except ValueError as error:
        raise DatabaseUnusable(f"DATABASE_URL is not a valid URL ({error}): {shown}") from None
    asyncio.run(_check(url, shown, timeout))


async def _check(url: str, shown: str, timeout: float) -> None:
    password = urlsplit(url).password or ""
    try:
        db = await asyncpg.connect(url, timeout=timeout)
    except (asyncpg.InvalidPasswordError, asyncpg.InvalidAuthorizationSpecificationError):
        raise DatabaseUnusable(
            f"DATABASE_URL: the PostgreSQL server refused the user or password of {shown}: fix them."
        ) from None
    except asyncpg.InvalidCatalogNameError:
        raise DatabaseUnusable(
            f"DATABASE_URL: the database of {shown} does not exist: create it (createdb), or fix the URL."
        ) from None
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as error:
        if is_outage(error):
            return  # a server that is away: the bot waits for it (bot.outages)
        text = str(error).replace(password, "***") if password else str(error)
        reason = " ".join(text.split()) or type(error).__name__
        raise DatabaseUnusable(
            f"DATABASE_URL: cannot connect to the PostgreSQL server of {shown} ({reason}): "
            "start the server or fix the URL."
        ) from None
    try:
        exists = await db.fetch(POSTGRES.sql(POSTGRES.table_columns), "schema_migrations")
        newest = await db.fetchval("SELECT MAX(version) FROM schema_migrations") if exists else None
    finally:
        await db.close()
    known = newest_version(POSTGRES)
    if newest is not None and newest > known:
        raise DatabaseUnusable(
            f"DATABASE_URL: the database {shown} was written by a newer Catnip (schema {newest}, "
            f"this one knows {known}): upgrade Catnip."
        )
