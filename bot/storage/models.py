"""What the game store promises and hands out: the `GameStore` protocol, its records and its errors.

Errors: `GameNotFound`; `StaleMove` for a move on an out-of-date version, and its kind `NotOwner`
for any write to a game another process now holds; `StoreUnavailable` when the database cannot
be reached or written right now (nothing of the call was applied; retry in a moment).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, get_args, runtime_checkable

from pydantic import BaseModel, ConfigDict, ValidationError

log = logging.getLogger(__name__)

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


@runtime_checkable
class GameStore(Protocol):
    owner: str
    """This instance's role in a fleet (see ownership.py); `token` is its own identity."""
    token: str

    async def open(self) -> None:
        """Connect and bring the schema up to date; calling it again does nothing."""

    async def close(self) -> None:
        """Close the database; calling it again does nothing."""

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock to hold around load → apply → commit of one game (the same lock for the same id)."""

    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        thread_id: int | None,
        game: str,
        options: dict,
        host: SeatRecord,
        now: float,
        seats: Sequence[SeatRecord] | None = None,
    ) -> GameRecord:
        """A new game in the lobby (version 0) with the host seated, or with `seats` (a rematch's)."""

    async def update_lobby(
        self,
        game_id: int,
        *,
        seats: Sequence[SeatRecord] | None = None,
        options: dict | None = None,
        thread_id: int | None = None,
        host_id: int | None = None,
        now: float,
    ) -> GameRecord:
        """The lobby with its seats / options / thread / host replaced; StaleMove once it has started."""

    async def start_game(
        self, game_id: int, *, seed: int, seats: Sequence[SeatRecord], state_json: str, now: float
    ) -> GameRecord:
        """The game started: active, version 1, first snapshot written, its options remembered for its
        game in its channel; StaleMove if it already started."""

    async def get_game(self, game_id: int) -> GameRecord:
        """The game `game_id`; raises GameNotFound."""

    async def load_state_json(self, game_id: int) -> tuple[str | None, int]:
        """The latest snapshot (None if missing or behind the log) and the game's version."""

    async def commit_move(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        action: str,
        events: list[dict],
        state_json: str,
        now: float,
        status: GameStatus | None = None,
        result: FinalResult | None = None,
    ) -> int:
        """Append the move and its snapshot (and, for a move that ends the game, its `result`) in
        one transaction; the new version, or StaleMove."""

    async def moves(self, game_id: int, *, after_seq: int = 0, limit: int | None = None) -> list[MoveRecord]:
        """The logged moves with seq > `after_seq`, oldest first."""

    async def recent_moves(self, game_id: int, limit: int) -> list[MoveRecord]:
        """The newest `limit` moves, oldest first."""

    async def replace_seat(
        self, game_id: int, seat: SeatRecord, *, host_id: int | None = None, now: float
    ) -> GameRecord:
        """The game with seat `seat.seat` given to someone else (e.g. a computer takes over), and
        `host_id` the new host if given."""

    async def set_status(
        self, game_id: int, status: GameStatus, *, now: float, reason: str | None = None
    ) -> GameRecord:
        """The game with its status changed; an ended game loses its deadline. A game closed with a
        `reason` (what its table says) is among `endings_to_show` until its table says so."""

    async def set_table_message(
        self, game_id: int, *, channel_id: int, message_id: int | None, now: float
    ) -> None:
        """Remember where the game's current table message is."""

    async def record_result(
        self, game_id: int, *, scores: Sequence[int], winners: Sequence[int], reason: str, now: float
    ) -> None:
        """Store the final scores and winners per seat (recording again replaces them)."""

    async def active_games(self) -> list[GameRecord]:
        """Every game in the lobby or active, never the ended ones."""

    async def endings_to_show(self) -> list[Ending]:
        """The ended games whose last table no process has shown yet (a bot stopped in between)."""

    async def ending_shown(self, game_id: int) -> None:
        """The game's last table is shown: it is no longer among `endings_to_show`."""

    async def games_in_channel(
        self, channel_id: int, *, statuses: Sequence[GameStatus] = ("lobby", "active")
    ) -> list[GameRecord]:
        """The games whose channel or thread is `channel_id`, with one of `statuses`."""

    async def set_deadline(self, game_id: int, *, decision: str, due: float) -> None:
        """Set (or replace) the game's one pending deadline."""

    async def clear_deadline(self, game_id: int) -> None:
        """Remove the game's deadline, if any."""

    async def save_deadlines(
        self, deadlines: Sequence[Deadline] = (), *, cleared: Iterable[int] = (), lazy: bool = False
    ) -> None:
        """Set `deadlines` and clear those of the `cleared` games in one transaction (ended games skipped).

        Nobody waits on a `lazy` save: the store may hold it a moment to share another write's commit."""

    async def deadlines(self) -> list[Deadline]:
        """The pending deadlines of live games, soonest first."""

    async def save_pings(self, pings: Mapping[int, tuple[int, int]], *, cleared: Iterable[int] = ()) -> None:
        """Note each game's standing turn ping (channel, message) and forget those of the `cleared` games."""

    async def take_pings(self, game_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
        """The turn pings noted for these games, forgotten as they are handed over."""

    async def remember_options(self, channel_id: int, game: str, options: dict) -> None:
        """Remember the options last used for `game` in `channel_id`."""

    async def remembered_options(self, channel_id: int, game: str) -> dict | None:
        """The options last used for `game` in `channel_id`, or None."""

    async def stats(self, guild_id: int, user_id: int) -> list[dict]:
        """Per game the member played in this server: {"game", "played", "won", "best", "by_computer"};
        a game a computer finished in their seat (they were away) is played, not won, not their best."""

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[dict]:
        """The server's best players of `game`: {"user_id", "played", "won"}, most wins first."""

    async def claim_games(
        self, *, shard_ids: Sequence[int], shard_count: int, lease_seconds: float, now: float
    ) -> list[GameRecord]:
        """Take or renew the leases of the live games whose guild is on `shard_ids` and whose lease is
        free, expired or held by the same `owner` role; the games this instance now holds, oldest first.
        From then on, games it creates are leased to it too."""

    async def release_games(self) -> None:
        """Free every lease this instance holds (on a clean shutdown)."""

    async def repair_snapshot(self, game_id: int, *, state_json: str, version: int, seq: int) -> bool:
        """Write a rebuilt snapshot if the game is still at `version` with `seq` moves; whether it was."""


async def load_state(store: GameStore, game: GameRecord, rules: Any) -> Any:
    """The current State of the started game `game` (`rules` is its engine.core.Rules).

    Reads the snapshot; if it is missing, behind the log or does not validate,
    replays the log from the seed, logs a warning and writes the rebuilt snapshot back.
    """
    state_json, version = await store.load_state_json(game.id)
    if state_json is not None:
        try:
            return rules.State.model_validate_json(state_json)
        except ValidationError as error:
            problem = f"does not validate ({error.error_count()} errors)"
    else:
        problem = "is missing or out of date"
    if game.seed is None:
        raise ValueError(f"game {game.id} has not started: there is no state to load")
    moves = await store.moves(game.id)
    log.warning(
        "game=%d guild=%d: snapshot %s; rebuilding it from %d logged moves",
        game.id,
        game.guild_id,
        problem,
        len(moves),
    )
    state = rules.replay(
        len(game.seats),
        game.seed,
        rules.make_options(game.options),
        [(move.seat, move.action) for move in moves],
    )
    seq = moves[-1].seq if moves else 0
    await store.repair_snapshot(game.id, state_json=state.model_dump_json(), version=version, seq=seq)
    return state
