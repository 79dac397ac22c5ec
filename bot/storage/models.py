"""What the game store hands out: frozen records of games, seats, moves and deadlines, and its errors."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict

GameStatus = Literal["lobby", "active", "finished", "abandoned", "cancelled"]
STATUSES: tuple[str, ...] = get_args(GameStatus)
LIVE_STATUSES: tuple[str, ...] = ("lobby", "active")
"""Games the bot keeps running; everything else is over and never loaded at start-up."""
ENDED_STATUSES: tuple[str, ...] = ("finished", "abandoned", "cancelled")


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SeatRecord(_Record):
    """One seat at a table: a Discord member, or a computer player when `user_id` is None."""

    seat: int
    user_id: int | None
    name: str
    computer: str | None = None
    """The computer player's level ("easy", "normal", "hard") when the seat is a computer."""


class GameRecord(_Record):
    """A game as stored: where it is played, by whom, its status and state version."""

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    game: str
    options: dict
    seed: int | None
    status: GameStatus
    version: int
    host_id: int
    table_message_id: int | None
    table_channel_id: int | None
    created_at: float
    updated_at: float
    seats: tuple[SeatRecord, ...]

    def seat_of(self, user_id: int) -> int | None:
        """The seat `user_id` holds at this table, or None."""
        return next((seat.seat for seat in self.seats if seat.user_id == user_id), None)


class Ending(_Record):
    """An ended game whose last table is not shown yet, and why it closed (None: it was played to the end)."""

    record: GameRecord
    reason: str | None = None


class MoveRecord(_Record):
    """One entry of a game's append-only action log; `seq` runs 1, 2, 3... without gaps."""

    seq: int
    seat: int
    action: str
    events: list[dict]
    at: float


class Deadline(_Record):
    """The time by which the decision `decision` of a game must be taken."""

    game_id: int
    decision: str
    due: float


class StaleMove(Exception):
    """The move was made on an out-of-date table: someone else moved first, or the game ended."""

    def __init__(self, message: str = "The table has moved on.") -> None:
        super().__init__(message)


class GameNotFound(Exception):
    """No game has that id."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"There is no game {game_id}.")
        self.game_id = game_id


class SchemaTooNew(Exception):
    """The database was written by a newer Catnip than this one."""


class NotOwner(StaleMove):
    """Another process now holds the game's lease (a fleet handed it over): this one must not write it.

    A kind of StaleMove, so every caller that already refuses a stale move refuses this one too and
    nothing is written; a process that sees it should drop the game from memory.
    """

    def __init__(self, game_id: int) -> None:
        super().__init__("This table is now run by another part of the bot — try again in a moment.")
        self.game_id = game_id


class StoreUnavailable(Exception):
    """The database cannot be reached or written right now (locked, restarting, unreachable).

    Nothing of the refused write was applied; the same call may succeed a moment later, and the
    store reconnects by itself.
    """

    def __init__(self, message: str = "I can't save right now — try again in a moment.") -> None:
        super().__init__(message)
