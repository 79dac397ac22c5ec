"""Fixtures shared by the store and session tests."""

from __future__ import annotations

import pytest

from bot.storage import SqliteGameStore


@pytest.fixture
async def store(tmp_path):
    """An open store on a fresh database file, closed after the test."""
    store = SqliteGameStore(tmp_path / "catnip.sqlite3")
    await store.open()
    yield store
    await store.close()
