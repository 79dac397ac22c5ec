"""The databases `python -m bench.store` measures: new SQLite files, or new databases on a PostgreSQL
server, each opened as the bot opens its store, and filled in bulk for the resume runs."""

from __future__ import annotations

import platform
import sqlite3
from importlib.metadata import version as package_version
from pathlib import Path

import asyncpg

from bot.storage import GameStore, PostgresGameStore, SqliteGameStore


class SqliteBackend:
    """Each database a new file in `workdir`."""

    name = "sqlite"

    def __init__(self, workdir: Path, synchronous: str = "FULL") -> None:
        self.workdir, self.synchronous = workdir, synchronous

    async def fresh(self, name: str) -> str:
        return str(self.workdir / f"{name}.sqlite3")

    def store(self, location: str, owner: str | None = None) -> GameStore:
        return SqliteGameStore(location, synchronous=self.synchronous, owner=owner)

    async def describe(self) -> str:
        return (
            f"SQLite {sqlite3.sqlite_version}, aiosqlite {package_version('aiosqlite')}, "
            f"{platform.python_implementation()}; journal_mode=WAL synchronous={self.synchronous}\n"
            f"databases in {self.workdir} on {filesystem_of(self.workdir.resolve())}"
        )

    async def load(self, location: str, tables: dict[str, tuple[tuple[str, ...], list[tuple]]]) -> None:
        db = sqlite3.connect(location, isolation_level=None)
        db.execute("PRAGMA synchronous = OFF")
        db.execute("BEGIN")
        for table, (columns, rows) in tables.items():
            marks = ", ".join("?" * len(columns))
            db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)
        db.execute("COMMIT")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()


class PostgresBackend:
    """Each database a new one on the server at `url`."""

    name = "postgres"

    def __init__(self, url: str, writers: int = 2) -> None:
        self.url, self.writers = url, writers

    async def fresh(self, name: str) -> str:
        return await fresh_database(self.url, f"catnip_bench_{name}".replace("-", "_"))

    def store(self, location: str, owner: str | None = None) -> GameStore:
        return PostgresGameStore(location, writers=self.writers, owner=owner)

    async def describe(self) -> str:
        return f"{await server_facts(self.url)}, {platform.python_implementation()}; writers={self.writers}"

    async def load(self, location: str, tables: dict[str, tuple[tuple[str, ...], list[tuple]]]) -> None:
        db = await asyncpg.connect(location)
        try:
            for table, (columns, rows) in tables.items():
                await db.copy_records_to_table(table, records=rows, columns=columns)
            await db.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), MAX(id)) FROM games")
            await db.execute("VACUUM ANALYZE")
        finally:
            await db.close()


Backend = SqliteBackend | PostgresBackend


async def fresh_database(server_url: str, name: str) -> str:
    """The URL of a new, empty database `name` on the server (dropped first if it exists)."""
    db = await asyncpg.connect(server_url)
    try:
        await db.execute(f"DROP DATABASE IF EXISTS {name}")
        await db.execute(f"CREATE DATABASE {name}")
    finally:
        await db.close()
    base, _, query = server_url.partition("?")
    return f"{base.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")


async def server_facts(url: str) -> str:
    db = await asyncpg.connect(url)
    try:
        version = await db.fetchval("SHOW server_version")
        settings = [f"{name}={await db.fetchval(f'SHOW {name}')}" for name in ("fsync", "synchronous_commit")]
    finally:
        await db.close()
    return f"PostgreSQL {version} ({', '.join(settings)}), asyncpg {package_version('asyncpg')}"


def filesystem_of(path: Path) -> str:
    best = ("?", "?", "")
    try:
        with open("/proc/mounts") as mounts:
            for line in mounts:
                device, mountpoint, fstype = line.split()[:3]
                if str(path).startswith(mountpoint) and len(mountpoint) >= len(best[2]):
                    best = (device, fstype, mountpoint)
    except OSError:
        pass
    return f"{best[0]} ({best[1]}) mounted on {best[2] or '?'}"
