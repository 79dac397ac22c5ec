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

This module opens and closes the store; reads.py and writes.py hold what it reads and writes,
access.py how both reach the database, queries.py the SQL of the reads and how rows become records.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from os import PathLike
from typing import Literal

import aiosqlite

from bot.storage.access import Db
from bot.storage.leases import SqliteLeases
from bot.storage.locks import GameLocks
from bot.storage.migrations import apply_migrations
from bot.storage.reads import GameReads
from bot.storage.write_thread import WriteThread
from bot.storage.writes import GameWrites

log = logging.getLogger(__name__)


class SqliteGameStore(GameWrites, GameReads, SqliteLeases, GameLocks):
    """The `GameStore` on the SQLite database at `path` (created if missing, readable by its owner only).

    `owner` is the role of the process in a fleet (see ownership.py); a lone process needs none.
    """

    def __init__(
        self,
        path: str | PathLike[str],
        *,
        synchronous: Literal["FULL", "NORMAL"] = "FULL",
        owner: str | None = None,
    ) -> None:
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self._init_ownership(owner)
        self.path = str(path)
        self.synchronous = synchronous
        self._reader: Db | None = None
        self._init_locks()
        self._write_thread: WriteThread | None = None

    async def open(self) -> None:
        """Connect (WAL, foreign keys, durable commits) and apply pending migrations; idempotent."""
        if self._write_thread is not None:
            return
        _create_private(self.path)
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
                await write_thread.run(lambda db: db.execute("PRAGMA optimize"), alone=True)
            await write_thread.stop()
        if reader is not None:
            await reader.close()


def _create_private(path: str) -> None:
    """Create a missing database file readable and writable by its owner only (mode 0600).

    SQLite gives the journal files it creates beside it the same permissions.
    """
    if path == ":memory:" or path.startswith("file:"):
        return
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
