"""`GameStore`: the only way the bot reads and writes games. Times are passed in by the caller.

Errors: `GameNotFound`; `StaleMove` for a move on an out-of-date version, and its kind `NotOwner`
for any write to a game another process now holds; `StoreUnavailable` when the database cannot
be reached or written right now (nothing of the call was applied; retry in a moment).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol, runtime_checkable

from bot.storage.commits import FinalResult
from bot.storage.models import Deadline, Ending, GameRecord, GameStatus, MoveRecord, SeatRecord


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
