"""`check_database`: before the bot connects to Discord, make sure its database file can be used.

A file that is not a database, is damaged, or is held by another process would otherwise stop the
bot from deep inside start-up with a traceback. Here each becomes one sentence naming the file, what
is wrong with it and what to do, which start-up prints like a bad setting.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from os import PathLike
from pathlib import Path

from bot.storage.migrations import MIGRATIONS

SQLITE_HEADER = b"SQLite format 3\x00"

LOCK_WAIT_SECONDS = 3.0
"""How long a write lock held by someone else may last before the file counts as locked.

The bot's own transactions hold it for milliseconds; a lock held this long at start-up belongs
to another program (or another Catnip) working on the same file.
"""

AFTERWARDS = "move it aside (Catnip then starts with an empty database) or restore it from a backup"


class DatabaseUnusable(Exception):
    """The database file cannot be used; `str(error)` is one line saying why and what to do."""


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
    known = max(migration.version for migration in MIGRATIONS)
    exists = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'schema_migrations'").fetchall()
    if not exists:
        return
    (newest,) = db.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
    if newest is not None and newest > known:
        raise DatabaseUnusable(
            f"the database {path} was written by a newer Catnip (schema {newest}, this one knows {known}): "
            "upgrade Catnip."
        )
