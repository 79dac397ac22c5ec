"""The session layer: lobbies, moves, computer seats and endings, with no Discord in sight.

`GameService` is the only place that decides who may do what, and the one the Discord front and the
timers talk to. It wires the collaborators that each do one job — `RunningGames` (the games in
memory and their listeners), `Lobby`, `Moves`, `ComputerSeats`, `Endings` and `Leases` — and its
entry points say in which order they act: a move is committed and told before computer seats move on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.clock import Clock
from bot.computer_seats import ComputerSeats
from bot.endings import Endings
from bot.errors import GameClosed
from bot.leases import Leases
from bot.live import GameListener, LiveGame
from bot.lobby import Lobby, require_host
from bot.moves import Moves
from bot.presenter import Presenter
from bot.running_games import RunningGames
from bot.sharding import ShardPlan
from bot.storage import GameStore, SeatRecord
from engine import Event


class GameService:
    """Runs every game: lobby changes, moves, computer turns, timers' defaults and endings."""

    def __init__(
        self,
        store: GameStore,
        clock: Clock,
        *,
        computer_delay: float = 0.0,
        pictures: bool = True,
        shards: ShardPlan | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.pictures = pictures
        """Whether new tables show pictures unless their host switches them off (the PICTURES setting)."""
        self.games = RunningGames(store, clock, shards or ShardPlan.everything())
        self.live = self.games.live
        """The games this process runs, by id (`RunningGames.live`)."""
        self.moves = Moves(self.games)
        self.computers = ComputerSeats(self.games, self.moves, delay=computer_delay)
        self.endings = Endings(self.games, self.computers)
        self.lobby = Lobby(self.games, self.endings, pictures=pictures)
        self.leases = Leases(self.games, self.computers, leasing=shards is not None)

    def busy(self) -> bool:
        """Whether work of its own is under way now: a computer seat deciding or moving."""
        return self.computers.busy()

    @property
    def shard_plan(self) -> ShardPlan:
        return self.games.shard_plan

    def run_shards(self, plan: ShardPlan, *, leasing: bool) -> None:
        """Run the games of `plan`'s guilds only (known once the bot knows its shard count); with
        `leasing`, only those whose lease this process holds (a fleet, or a bot that may join one)."""
        self.games.shard_plan = plan
        self.leases.leasing = leasing

    # ----------------------------------------------------------------- who hears of the games

    def keep(self, keeper: GameListener) -> None:
        """Tell `keeper` of every change before any presenter (the timers: a table shows their deadline)."""
        self.games.keepers.append(keeper)

    def show_with(self, presenter: Presenter) -> None:
        """Tell `presenter` of every change, after the keepers, and ask it to warn of running-out timers."""
        self.games.presenters.append(presenter)

    def stop_showing_with(self, presenter: Presenter) -> None:
        self.games.presenters.remove(presenter)

    @property
    def presenters(self) -> Sequence[Presenter]:
        return self.games.presenters

    # ----------------------------------------------------------------- running the games

    async def resume(self) -> list[LiveGame]:
        """Load every lobby and active game (never finished ones) this process runs into memory; with
        leases, only those whose lease it takes."""
        return await self.leases.load_all()

    async def announce_resumed(self, games: Sequence[LiveGame]) -> None:
        """Tell the listeners the resumed `games` are back, then let their computer seats move."""
        await self.games.tell_resumed(games)
        for game in games:
            if game.state is not None:
                self.computers.schedule(game)

    async def renew_leases(self) -> list[LiveGame]:
        """See `Leases.renew`: the games this process took over, to announce like resumed ones."""
        return await self.leases.renew()

    async def show_endings(self) -> None:
        await self.endings.show_unshown()

    async def ending_shown(self, game: LiveGame) -> None:
        await self.endings.shown(game)

    async def get(self, game_id: int) -> LiveGame:
        return await self.games.get(game_id)

    def check_owner(self, guild_id: int | None) -> None:
        self.games.check_owner(guild_id)

    def games_in_channel(self, channel_id: int) -> list[LiveGame]:
        return self.games.in_channel(channel_id)

    async def shutdown(self) -> None:
        """Stop computer players between moves; every committed move is already safe in the store."""
        await self.computers.stop_all()
        await self.leases.release()

    # ----------------------------------------------------------------- what the tables ask

    async def table_posted(self, game: LiveGame, *, channel_id: int, message_id: int) -> None:
        await self.games.table_posted(game, channel_id=channel_id, message_id=message_id)

    async def take_pings(self, games: Sequence[LiveGame]) -> dict[int, tuple[int, int]]:
        return await self.games.take_pings(games)

    async def note_pings(self, standing: Mapping[int, tuple[int, int]], *, cleared: Iterable[int]) -> None:
        await self.games.note_pings(standing, cleared=cleared)

    # ----------------------------------------------------------------- the lobby

    async def open_lobby(self, **table: Any) -> LiveGame:
        """Open a table: the game, its guild, channel and thread, and its host (see `Lobby.open_lobby`)."""
        return await self.lobby.open_lobby(**table)

    async def join(self, game_id: int, user_id: int, name: str) -> LiveGame:
        return await self.lobby.join(game_id, user_id, name)

    async def leave_lobby(self, game_id: int, user_id: int) -> LiveGame:
        return await self.lobby.leave_lobby(game_id, user_id)

    async def shuffle_seats(self, game_id: int, user_id: int, seed: int) -> LiveGame:
        return await self.lobby.shuffle_seats(game_id, user_id, seed)

    async def add_computer(self, game_id: int, user_id: int, level: str) -> LiveGame:
        return await self.lobby.add_computer(game_id, user_id, level)

    async def remove_computer(self, game_id: int, user_id: int) -> LiveGame:
        return await self.lobby.remove_computer(game_id, user_id)

    async def set_option(self, game_id: int, user_id: int, name: str, value: object) -> LiveGame:
        return await self.lobby.set_option(game_id, user_id, name, value)

    async def start(self, game_id: int, user_id: int, seed: int) -> LiveGame:
        """The host starts the game; its computer seats move once everyone has heard of it."""
        game = await self.lobby.start(game_id, user_id, seed)
        self.computers.schedule(game)
        return game

    async def cancel(self, game_id: int, user_id: int, can_manage: bool = False) -> None:
        await self.lobby.cancel(game_id, user_id, can_manage)

    async def rematch(self, game_id: int, user_id: int, seed: int) -> LiveGame:
        """A new game with the same players and options, started at once (see `Lobby.rematch`)."""
        game = await self.lobby.rematch(game_id, user_id, seed)
        self.computers.schedule(game)
        return game

    # ----------------------------------------------------------------- play

    def check_player(self, game: LiveGame, user_id: int) -> int:
        return self.moves.check_player(game, user_id)

    async def play(self, game_id: int, user_id: int, version: int, encoded: str) -> LiveGame:
        """Apply the move `encoded` clicked by `user_id` on a component made at `version`; then the
        computer seats to act move."""
        game = await self.games.get(game_id)
        if game.state is None:
            raise GameClosed("This game hasn't started yet.")
        await self.moves.play(game, user_id, version, encoded)
        self.computers.schedule(game)
        return game

    async def take_back(self, game_id: int, user_id: int, version: int) -> LiveGame:
        """`user_id` takes back their last move, made on a table at `version` (see `Moves.take_back`)."""
        game = await self.games.get(game_id)
        if game.state is None:
            raise GameClosed("This game hasn't started yet.")
        await self.moves.take_back(game, user_id, version)
        self.computers.schedule(game)
        return game

    async def take_over(self, game_id: int, user_id: int) -> LiveGame:
        """`user_id` leaves a running game, and a computer player takes the seat; or leaves a lobby."""
        game = await self.games.get(game_id)
        if game.state is None:
            return await self.lobby.leave_lobby(game_id, user_id)
        await self.moves.take_over(game, user_id)
        self.computers.schedule(game)
        return game

    async def reseat(self, game: LiveGame, replacement: SeatRecord, event: Event, *, pass_host: bool) -> None:
        """See `Moves.reseat`; then the computer seats to act move."""
        await self.moves.reseat(game, replacement, event, pass_host=pass_host)
        self.computers.schedule(game)

    def computer_seats(self, game: LiveGame) -> list[int]:
        return self.computers.to_act(game)

    def schedule_computers(self, game: LiveGame) -> None:
        self.computers.schedule(game)

    async def decide_for(
        self, game: LiveGame, seats: Sequence[int], *, reason: str | None, version: int | None = None
    ) -> None:
        await self.computers.decide_for(game, seats, reason=reason, version=version)

    # ----------------------------------------------------------------- endings

    async def end(self, game_id: int, user_id: int, can_manage: bool) -> None:
        """The host (or Manage Server) ends a game before its finish."""
        game = await self.games.get(game_id)
        require_host(game, user_id, can_manage)
        await self.endings.close(game, "abandoned", "The game was ended before its finish.")

    async def abandon(self, game: LiveGame, reason: str) -> None:
        await self.endings.close(game, "abandoned", reason)
