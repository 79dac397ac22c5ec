"""`catnip backup-db <file>`: a copy of the SQLite database, taken while the bot runs.

The copy is made with SQLite's online backup (`sqlite3.Connection.backup`), in one step from one
read transaction: it holds every game as it stood at one moment, whatever the bot commits meanwhile
(readers never block its writes in WAL mode), and it is a database of its own, ready to start a bot
on. It is created readable by its owner only, like the database, and never replaces a file that
exists. A PostgreSQL database is backed up with PostgreSQL's own `pg_dump` (see the README).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.config import Settings


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


def backup_main(argv: Sequence[str], settings: Settings) -> int:
    """`catnip backup-db <file>`: the exit status (0 backed up, 2 refused)."""
    parser = argparse.ArgumentParser(
        prog="catnip backup-db",
        description="Copy the SQLite database (DATABASE_PATH) into a new file, also while the bot runs.",
    )
    parser.add_argument("file", type=Path, help="the new file to write the copy to")
    args = parser.parse_args(argv)
    if settings.database_url is not None:
        print(
            "catnip backup-db: DATABASE_URL is set: back up PostgreSQL with pg_dump (README, For operators)",
            file=sys.stderr,
        )
        return 2
    try:
        games = backup_sqlite(settings.database_path, args.file)
    except BackupRefused as refusal:
        print(f"catnip backup-db: {refusal}", file=sys.stderr)
        return 2
    except sqlite3.Error as error:
        print(f"catnip backup-db: nothing was backed up: {type(error).__name__}: {error}", file=sys.stderr)
        return 2
    print(f"catnip backup-db: {games} games backed up from {settings.database_path} into {args.file}")
    return 0
