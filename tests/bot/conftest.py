"""Fixtures shared by the store and session tests: a store on each backend, SQLite and PostgreSQL.

A test that takes `store` runs once per backend. The PostgreSQL server is a real one, started
once per test process (each xdist worker its own, in its own folder) from the `pgserver` wheel;
each test gets a fresh schema of its own on it, so tests never see each other's games.
"""

from __future__ import annotations

import pytest

from bench.postgres_server import fresh_schema_url
from bot.storage import PostgresGameStore, SqliteGameStore

BACKENDS = ("sqlite", "postgres")


def pytest_generate_tests(metafunc):
    """`store` on both backends; a test marked `sqlite_only` (it opens the file itself) on SQLite."""
    if "backend" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("sqlite_only")
        metafunc.parametrize("backend", ["sqlite"] if only else list(BACKENDS))


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


def same_database(store, **options):
    """Another, not yet open store on `store`'s database (as a restarted or second process would open)."""
    if isinstance(store, SqliteGameStore):
        return SqliteGameStore(store.database.path, **options)
    return PostgresGameStore(store.database.url, **options)


@pytest.fixture
def reopen():
    """`same_database`, for tests: `reopen(store, owner=...)`."""
    return same_database


@pytest.fixture
async def pg_store(postgres_server):
    """An open PostgreSQL store on a fresh schema, for what only that backend has to show."""
    store = PostgresGameStore(await fresh_schema_url(postgres_server.get_uri()))
    await store.open()
    yield store
    await store.close()
