"""DATABASE_URL at start and in settings: a bad one stops the bot with one line naming the setting, and
neither the database password nor the bot token is ever shown; a new SQLite file is its owner's only."""

from __future__ import annotations

import asyncio
import os
import stat
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bench.postgres_server import fresh_schema_url
from bot.config import SettingsError, load_settings
from bot.storage import SqliteGameStore, store_for_settings, without_password
from bot.storage.models import DatabaseUnusable
from bot.storage.postgres import PostgresGameStore, check_database_url
from tests.bytecode import bytecode_settings

REPO = Path(__file__).resolve().parents[2]
PASSWORD = "hunter2-very-secret"


def start_catnip(tmp_path: Path, database_url: str) -> subprocess.CompletedProcess:
    env = {
        "PATH": os.environ.get("PATH", ""),
        **bytecode_settings(),
        "PYTHONPATH": str(REPO),
        "DISCORD_TOKEN": "not-a-real-token",
        "DATABASE_URL": database_url,
    }
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("url", "said"),
    [
        (f"postgresql://catnip:{PASSWORD}@db.example:port/catnip", "not a valid URL"),
        (f"mysql://catnip:{PASSWORD}@db.example/catnip", "must be a postgresql://"),
    ],
    ids=["unparsable", "not-postgresql"],
)
def test_a_bad_database_url_stops_the_start_with_one_line_naming_it(tmp_path, url, said):
    run = start_catnip(tmp_path, url)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert "Traceback" not in run.stderr
    assert lines[-1].startswith("DATABASE_URL") or lines[-1].startswith("catnip: DATABASE_URL"), run.stderr
    assert said in run.stderr
    assert PASSWORD not in run.stderr + run.stdout


def test_secrets_never_show_in_settings_or_their_errors(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", "token-" + PASSWORD)
    monkeypatch.setenv("DATABASE_URL", f"postgresql://catnip:{PASSWORD}@db.example/catnip")
    settings = load_settings(_env_file=None)
    assert PASSWORD not in repr(settings) and PASSWORD not in str(settings.model_dump())
    assert settings.database_url.get_secret_value().endswith("@db.example/catnip")
    assert (
        without_password(settings.database_url.get_secret_value())
        == "postgresql://catnip:***@db.example/catnip"
    )
    assert isinstance(store_for_settings(settings), PostgresGameStore)
    monkeypatch.setenv("DATABASE_URL", f"http://catnip:{PASSWORD}@db.example/catnip")
    with pytest.raises(SettingsError) as error:
        load_settings(_env_file=None)
    assert str(error.value).startswith("DATABASE_URL:") and PASSWORD not in str(error.value)


def test_without_database_url_the_sqlite_file_is_the_store(monkeypatch, tmp_path):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    store = store_for_settings(load_settings(_env_file=None, database_path=tmp_path / "x.sqlite3"))
    assert isinstance(store, SqliteGameStore) and store.database.path == str(tmp_path / "x.sqlite3")


async def test_a_new_sqlite_file_is_readable_by_its_owner_only(tmp_path):
    path = tmp_path / "catnip.sqlite3"
    store = SqliteGameStore(path)
    await store.open()
    try:
        await store.games.remember_options(1, "catsdogs", {})
        for file in (path, path.with_name(path.name + "-wal")):
            assert stat.S_IMODE(file.stat().st_mode) == 0o600, file
    finally:
        await store.close()


async def test_a_reachable_database_passes_and_one_from_a_newer_catnip_is_named(postgres_server):
    url = await fresh_schema_url(postgres_server.get_uri())
    # It runs an event loop of its own, as at start: off this test's loop.
    await asyncio.to_thread(check_database_url, url)  # empty: fine, the store creates the schema
    store = PostgresGameStore(url)
    await store.open()
    await store.close()
    db = await asyncpg.connect(url)
    try:
        await db.execute("INSERT INTO schema_migrations VALUES (99, 0)")
    finally:
        await db.close()
    with pytest.raises(DatabaseUnusable, match="newer Catnip"):
        await asyncio.to_thread(check_database_url, url)
