"""Which store the settings ask for: PostgreSQL when `DATABASE_URL` is set, else the SQLite file."""

from __future__ import annotations

from pathlib import Path

from bot.storage.postgres import PostgresGameStore, is_postgresql_url, without_password
from bot.storage.sqlite import SqliteGameStore
from bot.storage.store import GameStore

__all__ = ["is_postgresql_url", "store_at", "store_for_settings", "without_password"]


def store_for_settings(settings, *, owner: str | None = None) -> GameStore:
    """The (not yet open) store of `settings`: on `database_url` if set, else on `database_path`."""
    if settings.database_url is not None:
        return PostgresGameStore(settings.database_url.get_secret_value(), owner=owner)
    return SqliteGameStore(settings.database_path, owner=owner)


def store_at(location: str) -> GameStore:
    """The (not yet open) store at a postgresql:// URL or a SQLite file path."""
    if is_postgresql_url(location):
        return PostgresGameStore(location)
    return SqliteGameStore(Path(location))
