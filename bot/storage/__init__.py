"""The game store: games, seats, the action log, state snapshots, deadlines and results, in SQLite.

The bot talks to storage only through the `GameStore` protocol; `SqliteGameStore` implements it.
"""

from bot.storage.commits import FinalResult
from bot.storage.models import (
    ENDED_STATUSES,
    LIVE_STATUSES,
    STATUSES,
    Deadline,
    GameNotFound,
    GameRecord,
    GameStatus,
    MoveRecord,
    SchemaTooNew,
    SeatRecord,
    StaleMove,
)
from bot.storage.protocol import GameStore
from bot.storage.replay import load_state
from bot.storage.sqlite import SqliteGameStore

__all__ = [
    "ENDED_STATUSES",
    "LIVE_STATUSES",
    "STATUSES",
    "Deadline",
    "FinalResult",
    "GameNotFound",
    "GameRecord",
    "GameStatus",
    "GameStore",
    "MoveRecord",
    "SchemaTooNew",
    "SeatRecord",
    "SqliteGameStore",
    "StaleMove",
    "load_state",
]
