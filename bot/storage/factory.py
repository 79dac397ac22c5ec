"""Which store the settings ask for: PostgreSQL when `DATABASE_URL` is set, else the SQLite file."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from bot.storage.postgres import PostgresGameStore
from bot.storage.protocol import GameStore
from bot.storage.sqlite import SqliteGameStore

POSTGRESQL_SCHEMES = ("postgresql", "postgres")


def is_postgresql_url(location: str) -> bool:
    return location.split("://", 1)[0] in POSTGRESQL_SCHEMES and "://" in location


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


def without_password(location: str) -> str:
    """`location` as it may be shown or logged: a URL's password replaced by ***."""
    if not is_postgresql_url(location):
        return location
    try:
        parts = urlsplit(location)
    except ValueError:
        return f"{location.split('://', 1)[0]}://…"
    if parts.password is None:
        return location
    user, host = parts.netloc.rsplit("@", 1)
    return urlunsplit(parts._replace(netloc=f"{user.split(':', 1)[0]}:***@{host}"))
