"""What the game store hands out and takes: its records, its errors, and how rows become records.

Errors: `GameNotFound`; `StaleMove` for a move on an out-of-date version, and its kind `NotOwner`
for any write to a game another process now holds; `StoreUnavailable` when the database cannot
be reached or written right now (nothing of the call was applied; retry in a moment).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict

from lang import N_

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

    def __init__(self, message: str = N_("I can't save right now — try again in a moment.")) -> None:
        super().__init__(message)  # translated where a member is told (`str(error)` is the English)


class DatabaseUnusable(Exception):
    """The database cannot be used; `str(error)` is one line saying why and what to do."""


@dataclass(frozen=True)
class FinalResult:
    """How a game ended, stored with the move that ended it: every seat's score and the winners."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str


# ------------------------------------------------------------------ rows into records and checks


def stats_rows(rows: Sequence[Sequence[Any]]) -> list[dict]:
    return [
        {"game": game, "played": played, "won": won, "best": best, "by_computer": by_computer}
        for game, played, won, best, by_computer in rows
    ]


def leaderboard_rows(rows: Sequence[Sequence[Any]]) -> list[dict]:
    return [{"user_id": user_id, "played": played, "won": won} for user_id, played, won in rows]


def to_json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def seat_records(seats_json: str) -> tuple[SeatRecord, ...]:
    seats = [
        SeatRecord(seat=seat, user_id=user_id, name=name, computer=computer)
        for seat, user_id, name, computer in json.loads(seats_json)
    ]
    return tuple(sorted(seats, key=lambda s: s.seat))


def game_record(row: Sequence[Any]) -> GameRecord:
    return GameRecord(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        thread_id=row[3],
        game=row[4],
        options=json.loads(row[5]),
        seed=row[6],
        status=row[7],
        version=row[8],
        host_id=row[9],
        table_message_id=row[10],
        table_channel_id=row[11],
        created_at=row[12],
        updated_at=row[13],
        seats=seat_records(row[14]),
    )


def move_record(row: Sequence[Any]) -> MoveRecord:
    return MoveRecord(seq=row[0], seat=row[1], action=row[2], events=json.loads(row[3]), at=row[4])


def lobby_seats(host: SeatRecord, seats: Sequence[SeatRecord] | None) -> list[SeatRecord]:
    """The seats of a new lobby: the host alone, or `seats` (a rematch's) with the host among them."""
    if host.user_id is None:
        raise ValueError("a lobby's host must be a member, not a computer player")
    seated = list(seats) if seats is not None else [host]
    if host.user_id not in {seat.user_id for seat in seated}:
        raise ValueError("the host must have a seat")
    return seated


def check_numbered(seats: Sequence[SeatRecord]) -> None:
    """A started game's seats are numbered 0, 1, 2, ..."""
    if sorted(seat.seat for seat in seats) != list(range(len(seats))):
        raise ValueError(f"seats must be numbered 0..{len(seats) - 1}, got {[s.seat for s in seats]}")


def check_distinct(seats: Sequence[SeatRecord]) -> None:
    numbers = [seat.seat for seat in seats]
    if len(set(numbers)) != len(numbers):
        raise ValueError(f"two seats share a number: {numbers}")


def check_status(status: str) -> None:
    if status not in STATUSES:
        raise ValueError(f"{status!r} is not a game status ({', '.join(STATUSES)})")
