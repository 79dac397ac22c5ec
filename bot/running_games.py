"""The games this process runs, in memory, and who hears of their changes.

`RunningGames` loads a game from the store when it is first asked for and keeps it live until it
ends; it tells the listeners of every committed change, in two rounds: first the keepers (timers,
absence), whose state a table shows — its deadline — then the presenters, who show the games to people.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping, Sequence

from bot.clock import Clock
from bot.errors import GameClosed, NotOwned, game_ended
from bot.live import GameListener, LiveGame, undoable
from bot.presenter import Presenter
from bot.sharding import ShardPlan
from bot.storage import GameRecord, GameStore, StoreUnavailable
from engine import GAMES, Event
from lang import _

log = logging.getLogger("catnip.sessions")

RECENT_MOVES = 12
"""Moves whose events a resumed table shows again, so its narration survives a restart."""


class RunningGames:
    """The live games of this process's shards, loaded on demand, and their listeners."""

    def __init__(self, store: GameStore, clock: Clock, shard_plan: ShardPlan) -> None:
        self.store = store
        self.clock = clock
        self.shard_plan = shard_plan
        """The guilds whose games this process runs; `live` never holds a game of another guild."""
        self.live: dict[int, LiveGame] = {}
        self.claimed: set[int] | None = None
        """With leases (a fleet): the games whose lease this process held when it last claimed, and
        those it created since (leased to it from their start); a game loaded for a click without
        its lease is not one of them (bot/leases.py)."""
        self.keepers: list[GameListener] = []
        """Told first of each change: the timers and absence, whose state a table shows."""
        self.presenters: list[Presenter] = []
        """Told of each change once every keeper has been: whatever shows the games to people."""

    def listeners(self) -> Iterator[GameListener]:
        yield from self.keepers
        yield from self.presenters

    # ----------------------------------------------------------------- loading

    async def get(self, game_id: int) -> LiveGame:
        """The live game `game_id`, loading it if needed; refuses closed or unknown games."""
        game = self.live.get(game_id)
        if game is None:
            try:
                record = await self.store.games.get_game(game_id)
            except StoreUnavailable:
                raise
            except Exception as error:
                raise GameClosed(_("I can't find that game any more.")) from error
            if record.status not in ("lobby", "active"):
                raise GameClosed(game_ended(record.status))
            self.check_owner(record.guild_id)
            game = await self.load(record)
        return game

    def add_created(self, game: LiveGame) -> None:
        """A game this process has just created (leased to it, in a fleet) runs here from now on."""
        self.live[game.id] = game
        if self.claimed is not None:
            self.claimed.add(game.id)

    async def load(self, record: GameRecord) -> LiveGame:
        game = self.live[record.id] = await self.read(record)
        return game

    async def read(self, record: GameRecord, *, ending: bool = False) -> LiveGame:
        """The game of `record` as it stands in the store, with the events of its last moves."""
        rules = GAMES[record.game].rules
        state, events, moves = None, [], []
        if record.status in ("active", "finished"):
            state = await self.store.games.load_state(record, rules)
            moves = await self.store.games.recent_moves(record.id, RECENT_MOVES)
            for move in moves:
                events += [Event.model_validate(data) for data in move.events]
        return LiveGame(
            record=record,
            rules=rules,
            state=state,
            last_human_at=record.updated_at,
            events=events,
            ending_unshown=ending,
            undoable_by=moves[-1].seat if moves and undoable(moves[-1]) else None,
            rating_changes=await self.store.results.rating_changes(record.id)
            if record.status == "finished"
            else {},
        )

    def check_owner(self, guild_id: int | None) -> None:
        """Refuse anything about the games of a guild whose shard another process runs."""
        if not self.shard_plan.owns(guild_id):
            raise NotOwned()

    def in_channel(self, channel_id: int) -> list[LiveGame]:
        return [
            game
            for game in self.live.values()
            if channel_id in (game.record.channel_id, game.record.thread_id)
        ]

    # ----------------------------------------------------------------- where a table stands

    async def table_posted(self, game: LiveGame, *, channel_id: int, message_id: int) -> None:
        """`game`'s table is now message `message_id` of `channel_id`."""
        await self.store.games.set_table_message(
            game.id, channel_id=channel_id, message_id=message_id, now=self.clock.now()
        )
        game.record = game.record.model_copy(
            update={"table_message_id": message_id, "table_channel_id": channel_id}
        )

    async def take_pings(self, games: Sequence[LiveGame]) -> dict[int, tuple[int, int]]:
        """The turn pings (channel, message) the last process to run `games` left up, forgotten by the
        store as they are handed over."""
        return await self.store.timers.take_pings(game.id for game in games)

    async def note_pings(self, standing: Mapping[int, tuple[int, int]], *, cleared: Iterable[int]) -> None:
        """Note the turn pings standing by game, and those gone, for the next process to run the games."""
        await self.store.timers.save_pings(standing, cleared=cleared)

    # ----------------------------------------------------------------- telling

    async def tell_lobby(self, game: LiveGame) -> None:
        for listener in self.listeners():
            await listener.lobby_changed(game)

    async def tell_game(self, game: LiveGame, events: Sequence[Event]) -> None:
        for listener in self.listeners():
            try:
                await listener.game_changed(game, events)
            except Exception:
                log.exception("%s could not show the change", game.log_prefix())

    async def tell_closed(self, game: LiveGame, reason: str) -> None:
        for listener in self.listeners():
            await listener.game_closed(game, reason)

    async def tell_resumed(self, games: Sequence[LiveGame]) -> None:
        for listener in self.listeners():
            await listener.games_resumed(games)
