"""`catnip backup-db <file>`: what it refuses, each in one line, leaving nothing behind (its backups of a
database in play are tried in tests/e2e/test_backups.py)."""

from __future__ import annotations

import sqlite3

from bot.config import Settings
from bot.storage import SqliteGameStore
from bot.storage.sqlite import backup_main


def settings(path, **more) -> Settings:
    return Settings(_env_file=None, database_path=path, **more)


async def test_a_backup_is_a_private_database_of_its_own_and_never_replaces_a_file(tmp_path, capsys):
    store = SqliteGameStore(tmp_path / "catnip.sqlite3")
    await store.open()
    await store.close()
    target = tmp_path / "backup.sqlite3"
    assert backup_main([str(target)], settings(tmp_path / "catnip.sqlite3")) == 0
    assert "0 games backed up" in capsys.readouterr().out
    assert target.stat().st_mode & 0o777 == 0o600
    with sqlite3.connect(target) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)

    before = target.read_bytes()
    assert backup_main([str(target)], settings(tmp_path / "catnip.sqlite3")) == 2
    assert capsys.readouterr().err == f"catnip backup-db: {target} already exists: back up into a new file.\n"
    assert target.read_bytes() == before


def test_a_missing_database_or_a_postgresql_one_is_refused_in_one_line(tmp_path, capsys):
    target = tmp_path / "backup.sqlite3"
    assert backup_main([str(target)], settings(tmp_path / "missing.sqlite3")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "there is no database at" in err and "DATABASE_PATH" in err
    assert not target.exists() and not (tmp_path / "missing.sqlite3").exists()

    url = "postgresql://catnip:password@localhost/catnip"
    assert backup_main([str(target)], settings(tmp_path / "x.sqlite3", database_url=url)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pg_dump" in err and "password" not in err
    assert not target.exists()
