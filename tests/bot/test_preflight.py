"""At start, a database file Catnip cannot use stops the bot with one line saying why, never a traceback."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import SeatRecord, SqliteGameStore
from bot.storage.models import DatabaseUnusable
from bot.storage.sqlite import check_database
from tests.bytecode import bytecode_settings

REPO = Path(__file__).resolve().parents[2]


def start_catnip(tmp_path: Path, database: Path) -> subprocess.CompletedProcess:
    """`python -m bot` with a token (so not the offline demo), in a folder without a .env file."""
    env = {
        "PATH": os.environ.get("PATH", ""),
        **bytecode_settings(),
        "PYTHONPATH": str(REPO),
        "DISCORD_TOKEN": "not-a-real-token",
        "DATABASE_PATH": str(database),
    }
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )


def refused(run: subprocess.CompletedProcess, database: Path) -> str:
    """The one stderr line of a start refused for `database`."""
    assert run.returncode != 0
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert "Traceback" not in run.stderr
    assert str(database) in lines[0] or database.name in lines[0]
    return lines[0]


async def real_database(path: Path, games: int = 40) -> None:
    """A Catnip database spanning many pages: lobbies with long option values."""
    store = SqliteGameStore(path, synchronous="NORMAL")
    await store.open()
    try:
        for number in range(games):
            await store.games.create_lobby(
                guild_id=1,
                channel_id=2,
                thread_id=None,
                game="catsdogs",
                options={"note": f"{number}" * 3000},
                host=SeatRecord(seat=0, user_id=10 + number, name=f"Player {number}"),
                now=float(number),
            )
    finally:
        await store.close()


def test_a_file_that_is_not_a_database_is_named_with_what_to_do(tmp_path):
    database = tmp_path / "catnip.sqlite3"
    database.write_bytes(random.Random(1).randbytes(8192))
    line = refused(start_catnip(tmp_path, database), database)
    assert "is not a SQLite database" in line and "DATABASE_PATH" in line


async def test_a_damaged_database_is_named_with_what_to_do(tmp_path):
    database = tmp_path / "catnip.sqlite3"
    await real_database(database)
    check_database(database)  # sound before the damage
    data = bytearray(database.read_bytes())
    pages = len(data) // 4096
    assert pages > 20
    noise = random.Random(2)
    for page in range(pages // 2 - 3, pages // 2 + 3):
        data[page * 4096 : (page + 1) * 4096] = noise.randbytes(4096)
    database.write_bytes(bytes(data))
    line = refused(start_catnip(tmp_path, database), database)
    assert "is damaged" in line and "backup" in line


def test_a_database_locked_by_another_process_is_named_with_what_to_do(tmp_path):
    database = tmp_path / "catnip.sqlite3"
    holder = sqlite3.connect(database, isolation_level=None)
    holder.execute("PRAGMA journal_mode = WAL")
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO t VALUES (1)")
    try:
        line = refused(start_catnip(tmp_path, database), database)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "locked by another process" in line


def test_a_folder_where_the_database_file_should_be_is_named(tmp_path):
    database = tmp_path / "games"
    database.mkdir()
    line = refused(start_catnip(tmp_path, database), database)
    assert "is a folder" in line


def test_a_missing_folder_is_named(tmp_path):
    database = tmp_path / "nowhere" / "catnip.sqlite3"
    line = refused(start_catnip(tmp_path, database), database)
    assert "does not exist" in line


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write anywhere")
def test_a_folder_the_bot_cannot_write_is_named(tmp_path):
    folder = tmp_path / "readonly"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(DatabaseUnusable, match="not writable"):
            check_database(folder / "catnip.sqlite3")
    finally:
        folder.chmod(0o755)


async def test_a_sound_database_in_use_by_the_bot_itself_passes(tmp_path):
    """The check takes no lock a running store would notice, and a new file is fine too."""
    check_database(tmp_path / "new.sqlite3")
    database = tmp_path / "catnip.sqlite3"
    await real_database(database, games=3)
    store = SqliteGameStore(database)
    await store.open()
    try:
        check_database(database)
    finally:
        await store.close()


async def test_a_database_from_a_newer_catnip_is_named(tmp_path):
    database = tmp_path / "catnip.sqlite3"
    await real_database(database, games=1)
    with sqlite3.connect(database) as db:
        db.execute("INSERT INTO schema_migrations (version, applied_at) VALUES (999, 0)")
    with pytest.raises(DatabaseUnusable, match="newer Catnip"):
        check_database(database)
