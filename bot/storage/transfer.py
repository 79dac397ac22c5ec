"""`catnip migrate-db --from <SQLite file or URL> --to <postgresql URL>`: copy a whole database.

Games, seats, the action logs, snapshots, deadlines, results, outcomes, ratings, the last tables still to
show, the standing turn pings and remembered options are copied as they are (ids included), in one
transaction: the target ends up with all of it or, if anything fails, with nothing. The target must
be empty (its schema is created if missing); a target that already holds games is refused, so
running the command twice never copies twice. Leases and the fleet's shard layout are not copied:
the first processes to run on the target take the games. The source is only read (a SQLite file is
opened read-only).

A source last opened by an older Catnip is copied as this Catnip would upgrade it: a table or column
it lacks stays empty, and a table a later migration removed (`Table.until`) is copied as it is, then
moved by that migration's own script, in the same transaction.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import asyncpg

from bot.exit_codes import SETTINGS_REFUSED, TARGET_UNREACHABLE
from bot.logs import fatal
from bot.storage.dialects import POSTGRES, SQLITE
from bot.storage.migrations import CURRENT_TABLES, MIGRATIONS, TABLES, Table
from bot.storage.models import StoreUnavailable
from bot.storage.postgres import PostgresGameStore, is_postgresql_url, without_password

MIGRATE = "catnip migrate-db"

NOT_COPIED = frozenset({"owner", "owner_token", "lease_until"})
"""The leases: the first process to run on the target takes the games."""
TABLES_NOT_COPIED = frozenset({"shard_layout", "fleet_shards", "shard_owners"})
"""The fleet's shard layout and the shards' owners: the first fleet to run on the target records its own."""
COPIED: dict[str, tuple[str, ...]] = {
    table.name: tuple(column.name for column in table.columns if column.name not in NOT_COPIED)
    for table in CURRENT_TABLES
    if table.name not in TABLES_NOT_COPIED
}
"""Every table of a Catnip database (the schema's, parents before children) and the columns copied.
A source made by an older Catnip may lack the newer tables and columns: those have nothing to copy."""
REMOVED = tuple(table for table in TABLES if table.until is not None)
"""The tables a migration removed, which a source made by an older Catnip may still hold."""
TIMES = frozenset(
    column.name for table in TABLES for column in table.columns if column.kind in ("time", "real")
)
CHUNK = 5_000


class TransferRefused(Exception):
    """The copy cannot be made; `str(error)` says why and what to do."""


def _converter(columns: Sequence[str]) -> Callable[[Sequence[Any]], tuple]:
    """Rows as PostgreSQL takes them: SQLite may hand back a time or a rating stored as a whole number."""
    times = [i for i, name in enumerate(columns) if name in TIMES]

    def convert(row: Sequence[Any]) -> tuple:
        values = list(row)
        for i in times:
            if values[i] is not None:
                values[i] = float(values[i])
        return tuple(values)

    return convert


def _sqlite_columns(path: Path, table: str) -> set[str]:
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return {name for (name,) in db.execute(SQLITE.table_columns, (table,))}
    finally:
        db.close()


async def _postgres_columns(url: str, table: str) -> set[str]:
    db = await asyncpg.connect(url)
    try:
        return {row[0] for row in await db.fetch(POSTGRES.sql(POSTGRES.table_columns), table)}
    finally:
        await db.close()


async def _sqlite_rows(path: Path, table: str, columns: Sequence[str]) -> AsyncIterator[list[tuple]]:
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        cursor = db.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY 1")
        while rows := cursor.fetchmany(CHUNK):
            yield rows
    finally:
        db.close()


async def _postgres_rows(url: str, table: str, columns: Sequence[str]) -> AsyncIterator[list[tuple]]:
    db = await asyncpg.connect(url)
    try:
        async with db.transaction(readonly=True, isolation="repeatable_read"):
            chunk: list[tuple] = []
            async for row in db.cursor(f"SELECT {', '.join(columns)} FROM {table} ORDER BY 1"):
                chunk.append(tuple(row))
                if len(chunk) == CHUNK:
                    yield chunk
                    chunk = []
            if chunk:
                yield chunk
    finally:
        await db.close()


def _source_path(source: str) -> Path:
    path = Path(source)
    if not path.is_file():
        raise TransferRefused(f"there is no SQLite database at {source}: give --from a file or a URL.")
    return path


async def _source_columns(source: str, table: str, columns: Sequence[str]) -> tuple[str, ...]:
    """Those of `columns` the source's `table` has: none if it has no such table."""
    if is_postgresql_url(source):
        held = await _postgres_columns(source, table)
    else:
        held = _sqlite_columns(_source_path(source), table)
    return tuple(column for column in columns if column in held)


def _source_rows(source: str, table: str, columns: Sequence[str]) -> AsyncIterator[list[tuple]]:
    if is_postgresql_url(source):
        return _postgres_rows(source, table, columns)
    return _sqlite_rows(_source_path(source), table, columns)


async def _copy_table(db: asyncpg.Connection, source: str, table: str, columns: Sequence[str]) -> int:
    """Copy the source's `table` (those of `columns` it has) into the target; the rows copied."""
    columns = await _source_columns(source, table, columns)
    copied = 0
    if columns:
        convert = _converter(columns)
        async for rows in _source_rows(source, table, columns):
            await db.copy_records_to_table(table, records=[convert(r) for r in rows], columns=columns)
            copied += len(rows)
    return copied


async def _copy_removed_table(db: asyncpg.Connection, source: str, removed: Table) -> int:
    """Copy a table the source still has though a migration removed it, as upgrading the source would
    have moved it: the table made again on the target, filled, then moved on and dropped by the script
    of the migration that removed it. The rows copied."""
    for statement in removed.create(POSTGRES):
        await db.execute(statement)
    copied = await _copy_table(db, source, removed.name, [column.name for column in removed.columns])
    (migration,) = [migration for migration in MIGRATIONS if migration.version == removed.until]
    for statement in POSTGRES.split(migration.sql):
        await db.execute(statement)
    return copied


async def migrate_database(source: str, target: str) -> dict[str, int]:
    """Copy every table of `source` into the empty PostgreSQL database `target`; rows copied per table."""
    if not is_postgresql_url(target):
        raise TransferRefused(f"--to must be a postgresql:// URL, not {without_password(target)}.")
    store = PostgresGameStore(target)
    store.database.outage = None  # not waited for: said at once, naming --to (not DATABASE_URL)
    try:
        await store.open()  # creates the schema, or checks it is not newer than this Catnip
    except StoreUnavailable as error:
        cause = type(error.__cause__ or error).__name__
        raise TargetUnreachable(
            f"--to: the PostgreSQL server of {without_password(target)} cannot be reached ({cause}): "
            "start it, or correct the host and port in --to; nothing was copied"
        ) from None
    await store.close()
    db = await asyncpg.connect(target)
    copied: dict[str, int] = {}
    try:
        async with db.transaction():
            held = await db.fetchval("SELECT COUNT(*) FROM games")
            if held:
                raise TransferRefused(
                    f"the target database {without_password(target)} already holds {held} games: "
                    "migrate-db copies into an empty database only (use a new database, or empty this one)."
                )
            for table, columns in COPIED.items():
                copied[table] = await _copy_table(db, source, table, columns)
            for removed in REMOVED:
                if await _source_columns(source, removed.name, [c.name for c in removed.columns]):
                    copied[removed.name] = await _copy_removed_table(db, source, removed)
            await db.execute(
                "SELECT setval(pg_get_serial_sequence('games', 'id'), GREATEST(MAX(id), 1), "
                "MAX(id) IS NOT NULL) FROM games"
            )
    finally:
        await db.close()
    return copied


class TargetUnreachable(Exception):
    """The PostgreSQL server of `--to` cannot be reached; `str(error)` says so, naming `--to`."""


def migrate_main(argv: Sequence[str]) -> int:
    """`catnip migrate-db`: the exit status (0 copied, 2 refused, 6 `--to` unreachable)."""
    parser = argparse.ArgumentParser(
        prog="catnip migrate-db",
        description="Copy a whole Catnip database (SQLite file or PostgreSQL URL) into an empty "
        "PostgreSQL one.",
    )
    parser.add_argument("--from", dest="source", required=True, help="SQLite file or postgresql:// URL")
    parser.add_argument("--to", dest="target", required=True, help="postgresql:// URL of an empty database")
    args = parser.parse_args(argv)
    try:
        copied = asyncio.run(migrate_database(args.source, args.target))
    except TransferRefused as refusal:
        fatal(str(refusal), MIGRATE)
        return SETTINGS_REFUSED
    except TargetUnreachable as unreachable:
        fatal(str(unreachable), MIGRATE)
        return TARGET_UNREACHABLE
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, sqlite3.Error) as error:
        fatal(f"nothing was copied: {type(error).__name__}: {error}", MIGRATE)
        return SETTINGS_REFUSED
    summary = ", ".join(f"{count} {table}" for table, count in copied.items())
    print(f"catnip migrate-db: copied {summary} into {without_password(args.target)}")
    return 0
