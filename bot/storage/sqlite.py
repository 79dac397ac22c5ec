"""`SqliteDatabase`: the game store's database on one SQLite file, through aiosqlite and its write thread.

Every write runs on one connection, on a thread of its own (`BEGIN IMMEDIATE`, one transaction at
a time, in the order asked for, see write_thread.py); a read-only reader's single-statement queries
see only committed data, so a reader never observes a half-done move. The migrations run on the
write thread when the store opens.

Durability: WAL with `synchronous=FULL`. With NORMAL, WAL never corrupts the database, but a
power cut or OS crash can lose the last commits after they were reported done — a move the table
already showed. FULL syncs the WAL on every commit, so a move the store has acknowledged survives.
The fsync is what limits commits per second, so moves of different games that wait at the same
moment share one transaction (group commit, see commits.py); `python -m bench.store` measures it.

`check_database` is the start-up check of the file, before the bot connects to Discord: a file
that is not a database, is damaged, or is held by another process would otherwise stop the bot
from deep inside start-up with a traceback. Here each becomes one sentence naming the file, what
is wrong with it and what to do, which start-up prints like a bad setting.

`catnip backup-db <file>` (`backup_main`) copies the database while the bot runs, with SQLite's
online backup (`sqlite3.Connection.backup`), in one step from one read transaction: the copy holds
every game as it stood at one moment, whatever the bot commits meanwhile (readers never block its
writes in WAL mode), and it is a database of its own, ready to start a bot on. It is created
readable by its owner only, like the database, and never replaces a file that exists. A PostgreSQL
database is backed up with PostgreSQL's own `pg_dump` (see the README).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sqlite3
from collections.abc import Awaitable, Callable, Iterator, Sequence
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import aiosqlite

from bot.logs import fatal
from bot.storage.commits import PendingMove
from bot.storage.database import Database
from bot.storage.dialects import SQLITE, Connection
from bot.storage.migrations import apply_migrations, newest_version
from bot.storage.models import DatabaseUnusable, StoreUnavailable
from bot.storage.store import GameStore
from bot.storage.write_thread import SqliteConnection, WriteThread, finish_now, is_outage

if TYPE_CHECKING:
    from bot.config import Settings

log = logging.getLogger(__name__)

T = TypeVar("T")


@contextlib.contextmanager
def outage_as_unavailable() -> Iterator[None]:
    """Turn SQLite's "locked" / "disk I/O error" and kin into StoreUnavailable (nothing was written)."""
    try:
        yield
    except sqlite3.OperationalError as error:
        if is_outage(error):
            raise StoreUnavailable() from error
        raise


class SqliteDatabase(Database):
    """The SQLite database at `path`."""

    dialect = SQLITE

    def __init__(self, path: str | PathLike[str], *, synchronous: Literal["FULL", "NORMAL"] = "FULL") -> None:
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self.path = str(path)
        self.synchronous = synchronous
        self._reader: aiosqlite.Connection | None = None
        self._write_thread: WriteThread | None = None

    async def open(self) -> None:
        """Connect (WAL, foreign keys, durable commits) and apply pending migrations; idempotent."""
        if self._write_thread is not None:
            return
        _create_private(self.path)
        write_thread = WriteThread(self._connect_for_writes)
        await write_thread.start()
        reader = None
        try:
            applied = await write_thread.run(
                lambda db: finish_now(apply_migrations(SqliteConnection(db))), alone=True
            )
            if applied:
                log.info("database %s: applied migrations %s", self.path, applied)
            reader = await aiosqlite.connect(self.path, isolation_level=None, timeout=10.0)
            await reader.execute("PRAGMA query_only = ON")
        except BaseException:
            if reader is not None:
                await reader.close()
            await write_thread.stop()
            raise
        self._reader, self._write_thread = reader, write_thread

    def _connect_for_writes(self) -> sqlite3.Connection:
        """The connection every transaction runs on, opened on (and only ever used from) the write thread."""
        db = sqlite3.connect(self.path, isolation_level=None, timeout=10.0)
        (mode,) = db.execute("PRAGMA journal_mode = WAL").fetchone()
        if mode.lower() != "wal":
            log.warning("database %s is not in WAL mode (journal_mode=%s)", self.path, mode)
        db.execute(f"PRAGMA synchronous = {self.synchronous}")
        db.execute("PRAGMA foreign_keys = ON")
        return db

    async def close(self) -> None:
        """Finish the queued writes and close every connection; idempotent."""
        reader, write_thread = self._reader, self._write_thread
        self._reader = self._write_thread = None
        if write_thread is not None:
            with contextlib.suppress(sqlite3.Error):
                await write_thread.run(lambda db: db.execute("PRAGMA optimize"), alone=True)
            await write_thread.stop()
        if reader is not None:
            await reader.close()

    async def read(self, sql: str, *args: Any) -> list[Any]:
        """Rows of one read-only statement, which sees only committed data."""
        if self._reader is None:
            raise RuntimeError("the game store is not open")
        with outage_as_unavailable():
            return list(await self._reader.execute_fetchall(SQLITE.sql(sql), args))

    async def transaction(self, body: Callable[[Connection], Awaitable[T]], *, lazy: bool = False) -> T:
        """Run `body` in one write transaction on the write thread, in one round trip (see
        `SqliteConnection`); it may share the transaction of other writes waiting with it."""
        return await self.sync_transaction(lambda db: finish_now(body(SqliteConnection(db))), lazy=lazy)

    async def sync_transaction(self, body: Callable[[sqlite3.Connection], T], *, lazy: bool = False) -> T:
        """Run the synchronous `body` in one write transaction on the write thread (one round trip).

        Committed if `body` returns, rolled back if it raises, and run to its end even if the
        caller is cancelled meanwhile. A `lazy` body may wait a moment for other writes to share
        its transaction (see write_thread.py).
        """
        if self._write_thread is None:
            raise RuntimeError("the game store is not open")
        with outage_as_unavailable():
            return await self._write_thread.run(body, lazy=lazy)

    async def commit(self, move: PendingMove) -> int:
        if self._write_thread is None:
            raise RuntimeError("the game store is not open")
        with outage_as_unavailable():
            return await self._write_thread.commit(move)


class SqliteGameStore(GameStore):
    """The `GameStore` on the SQLite database at `path` (created if missing, readable by its owner only).

    `owner` is the role of the process in a fleet (see owner.py); a lone process needs none.
    """

    database: SqliteDatabase

    def __init__(
        self,
        path: str | PathLike[str],
        *,
        synchronous: Literal["FULL", "NORMAL"] = "FULL",
        owner: str | None = None,
    ) -> None:
        super().__init__(SqliteDatabase(path, synchronous=synchronous), owner=owner)


def _create_private(path: str) -> None:
    """Create a missing database file readable and writable by its owner only (mode 0600).

    SQLite gives the journal files it creates beside it the same permissions.
    """
    if path == ":memory:" or path.startswith("file:"):
        return
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


# ------------------------------------------------------------------ the start-up check


SQLITE_HEADER = b"SQLite format 3\x00"

LOCK_WAIT_SECONDS = 3.0
"""How long a write lock held by someone else may last before the file counts as locked.

The bot's own transactions hold it for milliseconds; a lock held this long at start-up belongs
to another program (or another Catnip) working on the same file.
"""

AFTERWARDS = "move it aside (Catnip then starts with an empty database) or restore it from a backup"


def check_database(path: str | PathLike[str], *, lock_wait: float = LOCK_WAIT_SECONDS) -> None:
    """Raise `DatabaseUnusable` if the store could not open `path`; a missing file is fine (it is created).

    Reads the whole file once (`PRAGMA quick_check`), so damage anywhere in it is found now rather
    than in the middle of a game; about a second per few hundred megabytes.
    """
    path = Path(path)
    folder = path.parent
    if path.is_dir():
        raise DatabaseUnusable(
            f"{path} is a folder, not a database file: set DATABASE_PATH to a file, "
            f"for example {path / 'catnip.sqlite3'}."
        )
    if not folder.is_dir():
        raise DatabaseUnusable(
            f"the folder {folder} for the database {path.name} does not exist: create it, "
            "or set DATABASE_PATH to a file in an existing folder."
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise DatabaseUnusable(
            f"the folder {folder} of the database {path.name} is not writable by this user, and SQLite "
            "keeps its journal beside the database: make the folder writable, or set DATABASE_PATH elsewhere."
        )
    if not path.exists():
        return
    if not os.access(path, os.R_OK | os.W_OK):
        raise DatabaseUnusable(
            f"the database {path} cannot be read and written by this user: fix its permissions."
        )
    with path.open("rb") as file:
        header = file.read(len(SQLITE_HEADER))
    if header and header != SQLITE_HEADER:
        raise DatabaseUnusable(
            f"{path} is not a SQLite database: set DATABASE_PATH to Catnip's database, or {AFTERWARDS}."
        )
    _check_contents(path, lock_wait)


def _check_contents(path: Path, lock_wait: float) -> None:
    try:
        db = sqlite3.connect(path, timeout=lock_wait, isolation_level=None)
    except sqlite3.Error as error:
        raise DatabaseUnusable(f"the database {path} cannot be opened ({error}).") from None
    try:
        problems = [row[0] for row in db.execute("PRAGMA quick_check(1)").fetchall()]
        if problems != ["ok"]:
            damage = _one_line(problems[0])
            raise DatabaseUnusable(f"the database {path} is damaged ({damage}): {AFTERWARDS}.")
        _check_schema(db, path)
        db.execute("BEGIN IMMEDIATE")
        db.execute("ROLLBACK")
    except sqlite3.OperationalError as error:
        if "locked" in str(error) or "busy" in str(error):
            raise DatabaseUnusable(
                f"the database {path} is locked by another process (is another Catnip running on it?): "
                "stop that process, or set DATABASE_PATH to another file."
            ) from None
        raise DatabaseUnusable(f"the database {path} cannot be used ({error}): {AFTERWARDS}.") from None
    except sqlite3.DatabaseError as error:
        raise DatabaseUnusable(f"the database {path} is damaged ({error}): {AFTERWARDS}.") from None
    finally:
        with contextlib.suppress(sqlite3.Error):
            db.close()


def _one_line(report: str) -> str:
    """SQLite's first complaint, on one short line (quick_check's report spans lines)."""
    text = " ".join(report.replace("*** in database main ***", "").split())
    return text if len(text) <= 80 else text[:79] + "…"


def _check_schema(db: sqlite3.Connection, path: Path) -> None:
    """Refuse a database written by a newer Catnip, whose tables this one does not know."""
    known = newest_version(SQLITE)
    exists = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'").fetchall()
    if not exists:
        return
    (newest,) = db.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
    if newest is not None and newest > known:
        raise DatabaseUnusable(
            f"the database {path} was written by a newer Catnip (schema {newest}, this one knows {known}): "
            "upgrade Catnip."
        )


# ------------------------------------------------------------------ catnip backup-db


class BackupRefused(Exception):
    """The backup cannot be made; `str(error)` says why and what to do."""


def backup_sqlite(source: Path, target: Path) -> int:
    """Copy the SQLite database `source` into the new file `target`; the number of games it holds."""
    if not source.is_file():
        raise BackupRefused(f"there is no database at {source} (DATABASE_PATH) to back up.")
    if target.exists():
        raise BackupRefused(f"{target} already exists: back up into a new file.")
    if not target.parent.is_dir():
        raise BackupRefused(f"the folder {target.parent} does not exist: create it first.")
    os.close(os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    try:
        # mode=rw: the database is opened as it is, never created where it is missing.
        live = sqlite3.connect(f"{source.resolve().as_uri()}?mode=rw", uri=True)
        with contextlib.closing(live) as db, contextlib.closing(sqlite3.connect(target)) as copy:
            db.backup(copy)
            (games,) = copy.execute("SELECT COUNT(*) FROM games").fetchone()
    except BaseException:
        target.unlink(missing_ok=True)
        raise
    return games


BACKUP = "catnip backup-db"


def backup_main(argv: Sequence[str], settings: Settings) -> int:
    """`catnip backup-db <file>`: the exit status (0 backed up, 2 refused)."""
    parser = argparse.ArgumentParser(
        prog="catnip backup-db",
        description="Copy the SQLite database (DATABASE_PATH) into a new file, also while the bot runs.",
    )
    parser.add_argument("file", type=Path, help="the new file to write the copy to")
    args = parser.parse_args(argv)
    if settings.database_url is not None:
        fatal("DATABASE_URL is set: back up PostgreSQL with pg_dump (README, For operators)", BACKUP)
        return 2
    try:
        games = backup_sqlite(settings.database_path, args.file)
    except BackupRefused as refusal:
        fatal(str(refusal), BACKUP)
        return 2
    except sqlite3.Error as error:
        fatal(f"nothing was backed up: {type(error).__name__}: {error}", BACKUP)
        return 2
    print(f"catnip backup-db: {games} games backed up from {settings.database_path} into {args.file}")
    return 0
