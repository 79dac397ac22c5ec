"""The session layer: lobbies, moves, computer seats and endings, with no Discord in sight.

`GameService` wires the collaborators that each do one job, side by side over `RunningGames` (the
games in memory and their listeners): `Lobby`, `Moves`, `ComputerSeats`, `Endings` and `Leases`. It
keeps only what orders them — a change is committed and told before the computer seats move on,
resumed games are announced before their computers move, a shutdown stops the computers before the
leases go. Whatever one collaborator does alone, callers ask it directly (`service.lobby.join`,
`service.games.get`, `service.endings.abandon`).
"""

from __future__ import annotations

from collections.abc import Sequence

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
from lang import _, speaking


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

    # ----------------------------------------------------------------- running the games

    async def announce_resumed(self, games: Sequence[LiveGame]) -> None:
        """Tell the listeners the resumed `games` are back, then let their computer seats move."""
        await self.games.tell_resumed(games)
        for game in games:
            if game.state is not None:
                self.computers.schedule(game)

    async def shutdown(self) -> None:
        """Stop computer players between moves; every committed move is already safe in the store."""
        await self.computers.stop_all()
        await self.leases.release()

    # ----------------------------------------------------------------- a change, then the computers

    async def start(self, game_id: int, user_id: int, seed: int) -> LiveGame:
        """The host starts the game; its computer seats move once everyone has heard of it."""
        game = await self.lobby.start(game_id, user_id, seed)
        self.computers.schedule(game)
        return game

    async def rematch(self, game_id: int, user_id: int, seed: int) -> LiveGame:
        """A new game with the same players and options, started at once (see `Lobby.rematch`)."""
        game = await self.lobby.rematch(game_id, user_id, seed)
        self.computers.schedule(game)
        return game

    async def play(self, game_id: int, user_id: int, version: int, encoded: str) -> LiveGame:
        """Apply the move `encoded` clicked by `user_id` on a component made at `version`; then the
        computer seats to act move."""
        game = await self._started(game_id)
        await self.moves.play(game, user_id, version, encoded)
        self.computers.schedule(game)
        return game

    async def take_back(self, game_id: int, user_id: int, version: int) -> LiveGame:
        """`user_id` takes back their last move, made on a table at `version` (see `Moves.take_back`)."""
        game = await self._started(game_id)
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

    async def end(self, game_id: int, user_id: int, can_manage: bool) -> None:
        """The host (or Manage Server) ends a game before its finish."""
        game = await self.games.get(game_id)
        require_host(game, user_id, can_manage)
        with speaking(game.language):
            reason = _("The game was ended before its finish.")
        await self.endings.abandon(game, reason)

    async def _started(self, game_id: int) -> LiveGame:
        game = await self.games.get(game_id)
        if game.state is None:
            raise GameClosed(_("This game hasn't started yet."))
        return game
