"""The game store: games, seats, the action log, state snapshots, deadlines and results.

The bot talks to storage only through `GameStore`; `SqliteGameStore` (the default,
one file) and `PostgresGameStore` (a server shared by a fleet of processes) implement it, and
`store_for_settings` picks one from the settings. Both run the same operations (store.py) in their
own dialect (dialects.py) over one schema (migrations.py); only connecting, group commit and the
start-up checks are their own.
"""

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
    load_state,
)
from bot.storage.postgres import PostgresGameStore, is_postgresql_url, without_password
from bot.storage.sqlite import SqliteGameStore
from bot.storage.store import GameStore

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
    "load_state",
    "store_for_settings",
    "without_password",
]


def store_for_settings(settings, *, owner: str | None = None) -> GameStore:
    """The (not yet open) store of `settings`: on `database_url` if set, else on `database_path`."""
    if settings.database_url is not None:
        return PostgresGameStore(settings.database_url.get_secret_value(), owner=owner)
    return SqliteGameStore(settings.database_path, owner=owner)

