"""Fixtures shared by the store and session tests: a store on each backend, SQLite and PostgreSQL.

A test that takes `store` runs once per backend. The PostgreSQL server is a real one, started
once per test process (each xdist worker its own, in its own folder) from the `pgserver` wheel;
each test gets a fresh schema of its own on it, so tests never see each other's games.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import asyncpg
import pgserver
import pytest
from pgserver._commands import initdb, pg_ctl
from pgserver.utils import ensure_user_exists

from bot.storage import PostgresGameStore, SqliteGameStore

BACKENDS = ("sqlite", "postgres")
_schemas = itertools.count(1)
SERVER_USER = "pgserver"
"""Run as root, pgserver runs the server as this unprivileged user."""
INITDB_ARGS = ["--auth=trust", "--auth-local=trust", "--encoding=utf8", "-U", "postgres", "--no-sync"]


def pytest_generate_tests(metafunc):
    """`store` on both backends; a test marked `sqlite_only` (it opens the file itself) on SQLite."""
    if "backend" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("sqlite_only")
        metafunc.parametrize("backend", ["sqlite"] if only else list(BACKENDS))


def start_postgres() -> tuple[pgserver.PostgresServer, Path]:
    """A new PostgreSQL server in a folder of its own, and that folder.

    Not under pytest's temporary folder: run as root, pgserver runs the server as an unprivileged
    user, who must be able to reach the data folder, and pytest keeps its own folders private.
    """
    folder = Path(tempfile.mkdtemp(prefix="catnip-pg-"))
    folder.chmod(0o755)
    data = folder / "data"
    data.mkdir()
    user = None
    if os.geteuid() == 0:
        user = SERVER_USER
        ensure_user_exists(user)
        shutil.chown(data, user, user)
    # What pgserver would run, without syncing a throw-away data folder to disk (seconds saved).
    initdb(INITDB_ARGS, pgdata=data, user=user)
    return pgserver.get_server(data, cleanup_mode="stop"), folder


def stop_postgres(server: pgserver.PostgresServer, folder: Path) -> None:
    """Stop the server at once (its data is thrown away, no need for a checkpoint) and remove it."""
    with contextlib.suppress(subprocess.CalledProcessError):
        pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=server.pgdata, user=server.system_user)
    server.cleanup_mode = None  # stopped already: pgserver has nothing left to stop
    server.cleanup()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server of this test process, stopped at the end of the session."""
    server, folder = start_postgres()
    yield server
    stop_postgres(server, folder)


async def fresh_schema_url(base_url: str) -> str:
    """The URL of a new, empty schema on the server at `base_url`."""
    name = f"test_{next(_schemas)}"
    db = await asyncpg.connect(base_url)
    try:
        await db.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}")
    finally:
        await db.close()
    return f"{base_url}&search_path={name}"


@pytest.fixture
async def store(backend, tmp_path, request):
    """An open store on a fresh database (a file, or a schema of the test server), closed after the test."""
    if backend == "sqlite":
        store = SqliteGameStore(tmp_path / "catnip.sqlite3")
    else:
        server = request.getfixturevalue("postgres_server")
        store = PostgresGameStore(await fresh_schema_url(server.get_uri()))
    await store.open()
    yield store
    await store.close()
    await asyncio.sleep(0)


def same_database(store, **options):
    """Another, not yet open store on `store`'s database (as a restarted or second process would open)."""
    if isinstance(store, SqliteGameStore):
        return SqliteGameStore(store.path, **options)
    return PostgresGameStore(store.url, **options)


@pytest.fixture
def reopen():
    """`same_database`, for tests: `reopen(store, owner=...)`."""
    return same_database


def stop_server(server: pgserver.PostgresServer) -> None:
    """Stop the PostgreSQL server now, its clients cut off (as a server restart or crash does)."""
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=server.pgdata, user=server.system_user)


def start_server(server: pgserver.PostgresServer) -> None:
    """Start the stopped server again, on the same socket."""
    server.ensure_postgres_running()


@pytest.fixture
async def pg_store(postgres_server):
    """An open PostgreSQL store on a fresh schema, for what only that backend has to show."""
    store = PostgresGameStore(await fresh_schema_url(postgres_server.get_uri()))
    await store.open()
    yield store
    await store.close()
