"""The game store: games, seats, the action log, state snapshots, deadlines and results.

The bot talks to storage only through `GameStore` (store.py): a database handle and the small
stores over it. `SqliteGameStore` (the default, one file) and `PostgresGameStore` (a server shared
by a fleet of processes) are it on each database, and `store_for_settings` picks one from the
settings. Both run the same operations in their own dialect (dialects.py) over one schema
(migrations.py); only connecting, group commit and the start-up checks are their own.

The PostgreSQL names are imported when first asked for, not with the package: a bot on SQLite (and a
start refused for its SQLite file) never loads asyncpg.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.storage.models import (
    ENDED_STATUSES,
    LIVE_STATUSES,
    STATUSES,
    Deadline,
    Ending,
    FinalResult,
    GameNotFound,
    GameRecord,
    GameStatus,
    MoveRecord,
    NotOwner,
    SchemaTooNew,
    SeatRecord,
    StaleMove,
    StoreUnavailable,
)
from bot.storage.sqlite import SqliteGameStore
from bot.storage.store import GameStore

if TYPE_CHECKING:
    from bot.storage.postgres import PostgresGameStore, is_postgresql_url, without_password

__all__ = [
    "ENDED_STATUSES",
    "LIVE_STATUSES",
    "STATUSES",
    "Deadline",
    "Ending",
    "FinalResult",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "GameStore",
    "MoveRecord",
    "NotOwner",
    "PostgresGameStore",
    "SchemaTooNew",
    "SeatRecord",
    "SqliteGameStore",
    "StaleMove",
    "StoreUnavailable",
    "is_postgresql_url",
    "store_for_settings",
    "without_password",
]


POSTGRES_NAMES = ("PostgresGameStore", "is_postgresql_url", "without_password")


def __getattr__(name: str) -> Any:
    if name in POSTGRES_NAMES:
        from bot.storage import postgres

        return getattr(postgres, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def store_for_settings(settings, *, owner: str | None = None) -> GameStore:
    """The (not yet open) store of `settings`: on `database_url` if set, else on `database_path`."""
    if settings.database_url is not None:
        from bot.storage.postgres import PostgresGameStore

        return PostgresGameStore(settings.database_url.get_secret_value(), owner=owner)
    return SqliteGameStore(settings.database_path, owner=owner)
