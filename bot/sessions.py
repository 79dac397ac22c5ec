"""The session layer: lobbies, moves, computer seats and endings, with no Discord in sight.

`GameService` is the only place that decides who may do what. It talks to the
store and the engines and tells its listeners (the timers, the Discord front, a
test recorder) what changed; every accepted move is committed before they hear of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Sequence

from bot.clock import Clock
from bot.computer_turns import ComputerTurns
from bot.errors import GameClosed, NotHost, NotInGame, NotOwned, Refusal, TableMovedOn
from bot.lease_keeping import LeaseKeeping
from bot.live import (
    PICTURES_OPTION,
    TIMER_CHOICES,
    TIMER_OPTION,
    GameListener,
    LiveGame,
    describe_players,
    is_away,
    seat_option_names,
)
from bot.sharding import ShardPlan
from bot.storage import (
    FinalResult,
    GameRecord,
    GameStore,
    NotOwner,
    SeatRecord,
    StaleMove,
    StoreUnavailable,
    load_state,
)
from engine import GAMES, Event, Frozen, Rules
from engine.ai import LEVELS

log = logging.getLogger("catnip.sessions")

RECENT_MOVES = 12
"""Moves whose events a resumed table shows again, so its narration survives a restart."""

COMPUTER_NAMES = ("Whiskers", "Mittens", "Pounce", "Biscuit", "Nimbus", "Saffron")


class GameService(ComputerTurns, LeaseKeeping):
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
        self.computer_delay = computer_delay
        self.pictures = pictures
        """Whether new tables show pictures unless their host switches them off (the PICTURES setting)."""
        # Told of each change in the order they subscribed: the timers come before the tables they show.
        self.listeners: list[GameListener] = []
        self.live: dict[int, LiveGame] = {}
        self._computer_tasks: dict[int, asyncio.Task] = {}
        # The guilds whose games this process runs; `live` never holds a game of another guild.
        self.shard_plan = shards or ShardPlan.everything()
        self.leasing = shards is not None
        """Whether it runs only the games whose lease it holds (a fleet; storage/ownership.py)."""

    # ----------------------------------------------------------------- loading

    async def resume(self) -> list[LiveGame]:
        """Load every lobby and active game (never finished ones) this process owns into memory; with
        leases (`shards`), only those whose lease it takes."""
        games = []
        for record in await self._games_to_run():
            games.append(await self._load(record))
        return games

    async def _load(self, record: GameRecord) -> LiveGame:
        game = self.live[record.id] = await self._read_game(record)
        return game

    async def _read_game(self, record: GameRecord, *, ending: bool = False) -> LiveGame:
        rules = GAMES[record.game].rules
        state, events = None, []
        if record.status in ("active", "finished"):
            state = await load_state(self.store, record, rules)
            for move in await self.store.recent_moves(record.id, RECENT_MOVES):
                events += [Event.model_validate(data) for data in move.events]
        return LiveGame(
            record=record,
            rules=rules,
            state=state,
            last_human_at=record.updated_at,
            events=events,
            ending_unshown=ending,
        )

    async def show_endings(self) -> None:
        """Show the last tables of this process's games that ended while a process was stopping (the
        end saved, its table not shown): a finished game's result and Rematch button, a closed
        game's reason. The listeners hear of them as resumed (so their old pings go), the closed ones
        then as closed."""
        endings = [e for e in await self.store.endings_to_show() if self.shard_plan.owns(e.record.guild_id)]
        games = [await self._read_game(ending.record, ending=True) for ending in endings]
        for listener in self.listeners:
            await listener.games_resumed(games)
        for game, ending in zip(games, endings, strict=True):
            if ending.reason is not None:
                for listener in self.listeners:
                    await listener.game_closed(game, ending.reason)

    async def ending_shown(self, game: LiveGame) -> None:
        """`game`'s last table is up: no process shows it again when it starts."""
        if not game.ending_unshown:
            return
        game.ending_unshown = False
        try:
            await self.store.ending_shown(game.id)
        except StoreUnavailable:
            log.warning("%s last table shown but not noted so; shown again at start", game.log_prefix())

    async def announce_resumed(self, games: Sequence[LiveGame]) -> None:
        """Tell the listeners the resumed `games` are back, then let their computer seats move."""
        for listener in self.listeners:
            await listener.games_resumed(games)
        for game in games:
            if game.state is not None:
                self.schedule_computers(game)

    async def get(self, game_id: int) -> LiveGame:
        """The live game `game_id`, loading it if needed; refuses closed or unknown games."""
        game = self.live.get(game_id)
        if game is None:
            try:
                record = await self.store.get_game(game_id)
            except StoreUnavailable:
                raise
            except Exception as error:
                raise GameClosed("I can't find that game any more.") from error
            if record.status not in ("lobby", "active"):
                raise GameClosed(f"That game is {record.status} — start a new one with /play.")
            self.check_owner(record.guild_id)
            game = await self._load(record)
        return game

    def check_owner(self, guild_id: int | None) -> None:
        """Refuse anything about the games of a guild whose shard another process runs."""
        if not self.shard_plan.owns(guild_id):
            raise NotOwned()

    def games_in_channel(self, channel_id: int) -> list[LiveGame]:
        return [
            game
            for game in self.live.values()
            if channel_id in (game.record.channel_id, game.record.thread_id)
        ]

    # ----------------------------------------------------------------- lobby

    async def open_lobby(
        self,
        *,
        game_key: str,
        guild_id: int,
        channel_id: int,
        thread_id: int | None,
        host_id: int,
        host_name: str,
    ) -> LiveGame:
        if game_key not in GAMES:
            raise Refusal(f"There is no game called {game_key!r}.")
        self.check_owner(guild_id)
        rules = GAMES[game_key].rules
        remembered = await self.store.remembered_options(channel_id, game_key) or {}
        options = _valid_options(rules, remembered)
        options.setdefault(PICTURES_OPTION, self.pictures)
        record = await self.store.create_lobby(
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            game=game_key,
            options=options,
            host=SeatRecord(seat=0, user_id=host_id, name=host_name),
            now=self.clock.now(),
        )
        game = LiveGame(record=record, rules=rules, last_human_at=self.clock.now())
        self.live[record.id] = game
        log.info("%s opened a %s lobby", game.log_prefix(), game_key)
        await self._notify_lobby(game)
        return game

    @contextlib.asynccontextmanager
    async def _lobby_change(self, game_id: int) -> AsyncIterator[LiveGame]:
        """The lobby `game_id`, held by one change at a time until that change is stored.

        Two clicks at the same moment (Join and Start, Join and Leave) each see the lobby as the
        other left it, so neither undoes the other; one that comes after Start or Cancel is
        refused with what happened, also when only the store noticed (`StaleMove`).
        """
        game = await self.get(game_id)
        async with self.store.lock(game.id):
            if game.record.status != "lobby":
                raise GameClosed(_not_in_lobby(game.record.status))
            try:
                yield game
            except StaleMove as error:
                record = await self.store.get_game(game.id)
                raise GameClosed(_not_in_lobby(record.status)) from error

    async def _set_seats(
        self, game: LiveGame, seats: Sequence[SeatRecord], *, host_id: int | None = None
    ) -> None:
        """Seat `seats` (records from the lobby, in their new order, plus any new ones).

        An option naming a taken seat follows its player to their new seat, or goes back to
        random if they left (G-X6). One naming a seat nobody has taken yet (remembered from the
        channel's last table) waits for whoever sits there.
        """
        numbered = [seat.model_copy(update={"seat": index}) for index, seat in enumerate(seats)]
        before = game.record.seats
        options = dict(game.record.options)
        for name in seat_option_names(game.rules):
            chosen = options.get(name)
            if isinstance(chosen, int) and 0 <= chosen < len(before):
                player = before[chosen]
                options[name] = next((index for index, seat in enumerate(seats) if seat is player), None)
        changed = options if options != game.record.options else None
        game.record = await self.store.update_lobby(
            game.id, seats=numbered, options=changed, host_id=host_id, now=self.clock.now()
        )
        await self._notify_lobby(game)

    async def join(self, game_id: int, user_id: int, name: str) -> LiveGame:
        async with self._lobby_change(game_id) as game:
            if game.seat_of(user_id) is not None:
                raise Refusal("You're already seated at this table.")
            if len(game.record.seats) >= game.rules.max_players:
                raise Refusal(f"The table is full ({game.rules.max_players} players).")
            await self._set_seats(game, [*game.record.seats, SeatRecord(seat=0, user_id=user_id, name=name)])
            return game

    async def leave_lobby(self, game_id: int, user_id: int) -> LiveGame:
        async with self._lobby_change(game_id) as game:
            if game.seat_of(user_id) is None:
                raise NotInGame("You're not seated at this table.")
            successor = None
            if user_id == game.record.host_id:
                successor = next_host(game.record.seats, game.seat_of(user_id))
                if successor is None:
                    raise Refusal("You're the host and the only member here: use Cancel to close the table.")
            await self._set_seats(
                game, [s for s in game.record.seats if s.user_id != user_id], host_id=successor
            )
            return game

    def _require_host(self, game: LiveGame, user_id: int, can_manage: bool = False) -> None:
        """Only the host — while seated: a host who left keeps no rights (G-X7) — or Manage Server."""
        is_host = user_id == game.record.host_id and game.seat_of(user_id) is not None
        if not is_host and not can_manage:
            host = next((s.name for s in game.record.seats if s.user_id == game.record.host_id), "the host")
            raise NotHost(f"Only {host} (the host) can do that.")

    async def shuffle_seats(self, game_id: int, user_id: int, seed: int) -> LiveGame:
        """The host deals the seats out again in a new random order (G-1)."""
        async with self._lobby_change(game_id) as game:
            self._require_host(game, user_id)
            seats = list(game.record.seats)
            if len(seats) < 2:
                raise Refusal("There is nobody to change places with yet.")
            order, shuffler = list(seats), random.Random(seed)
            while order == seats:
                shuffler.shuffle(order)
            await self._set_seats(game, order)
            return game

    async def add_computer(self, game_id: int, user_id: int, level: str) -> LiveGame:
        async with self._lobby_change(game_id) as game:
            self._require_host(game, user_id)
            if level not in LEVELS:
                raise Refusal(f"Computer players come in {', '.join(LEVELS)}.")
            if len(game.record.seats) >= game.rules.max_players:
                raise Refusal(f"The table is full ({game.rules.max_players} players).")
            taken = {s.name for s in game.record.seats}
            name = next(f"{n} 🤖" for n in COMPUTER_NAMES if f"{n} 🤖" not in taken)
            seat = SeatRecord(seat=0, user_id=None, name=name, computer=level)
            await self._set_seats(game, [*game.record.seats, seat])
            return game

    async def remove_computer(self, game_id: int, user_id: int) -> LiveGame:
        async with self._lobby_change(game_id) as game:
            self._require_host(game, user_id)
            computers = [s for s in game.record.seats if s.computer]
            if not computers:
                raise Refusal("There is no computer player to remove.")
            last = computers[-1]
            await self._set_seats(game, [s for s in game.record.seats if s is not last])
            return game

    async def set_option(self, game_id: int, user_id: int, name: str, value: object) -> LiveGame:
        async with self._lobby_change(game_id) as game:
            self._require_host(game, user_id)
            options = {**game.record.options, name: value}
            if name == PICTURES_OPTION and not isinstance(value, bool):
                raise Refusal("Pictures are either on or off.")
            if name == TIMER_OPTION:
                if value is not None and value not in TIMER_CHOICES:
                    raise Refusal("Choose one of the offered timers.")
                validated = _valid_options(game.rules, options)
                validated[TIMER_OPTION] = value
            else:
                try:
                    validated = game.rules.make_options(options).model_dump(mode="json")
                except Exception as error:
                    raise Refusal(f"That isn't a valid setting for {name}.") from error
                if TIMER_OPTION in options:
                    validated[TIMER_OPTION] = options[TIMER_OPTION]
            if PICTURES_OPTION in options:
                validated[PICTURES_OPTION] = options[PICTURES_OPTION]
            game.record = await self.store.update_lobby(game.id, options=validated, now=self.clock.now())
            await self._notify_lobby(game)
            return game

    async def start(self, game_id: int, user_id: int, seed: int) -> LiveGame:
        async with self._lobby_change(game_id) as game:
            self._require_host(game, user_id)
            count = len(game.record.seats)
            rules = game.rules
            if not rules.min_players <= count <= rules.max_players:
                raise Refusal(
                    f"{rules.title} needs {rules.min_players}–{rules.max_players} players; {count} seated."
                )
            state = rules.setup(count, seed, game.options())
            game.record = await self.store.start_game(
                game.id,
                seed=seed,
                seats=game.record.seats,
                state_json=state.model_dump_json(),
                now=self.clock.now(),
            )
            # Before the next await: a table shown meanwhile must not find the game started without a state.
            game.state = state
            game.last_human_at = self.clock.now()
            log.info("%s started with %d seats", game.log_prefix(), count)
            await self._notify_game(game, [])
            self.schedule_computers(game)
            return game

    async def cancel(self, game_id: int, user_id: int, can_manage: bool = False) -> None:
        async with self._lobby_change(game_id) as game:
            self._require_host(game, user_id, can_manage)
            await self._close(game, "cancelled", "The host closed the table.")

    # ----------------------------------------------------------------- play

    def check_player(self, game: LiveGame, user_id: int) -> int:
        """The seat of `user_id` in `game`, or a refusal naming the players."""
        seat = game.seat_of(user_id)
        if seat is None:
            raise NotInGame(f"This game is between {describe_players(game.names)}.")
        return seat

    async def play(self, game_id: int, user_id: int, version: int, encoded: str) -> LiveGame:
        """Apply the move `encoded` clicked by `user_id` on a component made at `version`."""
        game = await self.get(game_id)
        if game.state is None:
            raise GameClosed("This game hasn't started yet.")
        seat = self.check_player(game, user_id)
        async with self.store.lock(game.id):
            await self._check_fresh(game, seat, version)
            to_act = game.to_act()
            if seat not in to_act:
                waiting = describe_players([game.names[s] for s in to_act])
                raise Refusal(
                    f"It's not your turn — waiting for {waiting}." if waiting else "Nothing to do now."
                )
            action = game.rules.decode_action(encoded)
            await self._commit(game, seat, action, human=True)
        self.schedule_computers(game)
        return game

    async def _check_fresh(self, game: LiveGame, seat: int, version: int) -> None:
        """Refuse clicks made on an out-of-date table (G-X1).

        A panel shown before other seats' moves still works as long as this
        seat has not moved since: that keeps simultaneous secret choices
        smooth, and in turn-by-turn play a seat's own move is the only thing
        that can happen while it is to act. The engine still checks the move.
        """
        current = game.record.version
        if version == current:
            return
        if version > current or version < 1:
            raise TableMovedOn()
        since = await self.store.moves(game.id, after_seq=version - 1)
        if any(move.seat == seat for move in since):
            raise TableMovedOn()

    async def _commit(
        self, game: LiveGame, seat: int, action: Frozen, *, human: bool, told: Sequence[Event] = ()
    ) -> list[Event]:
        """Apply and store `action`; `told` (a timeout's notice) goes into the log before its events."""
        # A private choice (a hand card, a mooch or recall pick) never goes into the log.
        logged = action.encode() if game.rules.actions_are_public(game.state, seat) else "a private choice"
        state, events = game.rules.apply(game.state, seat, action)
        events = [*told, *events]
        outcome = game.rules.outcome(state)
        now = self.clock.now()
        try:
            version = await self.store.commit_move(
                game.id,
                expected_version=game.record.version,
                seat=seat,
                action=action.encode(),
                events=[event.model_dump(mode="json") for event in events],
                state_json=state.model_dump_json(),
                now=now,
                status="finished" if outcome is not None else None,
                result=None
                if outcome is None
                else FinalResult(outcome.scores, outcome.winners, outcome.reason),
            )
        except NotOwner as error:  # another process took the game over: it is no longer this one's
            self.live.pop(game.id, None)
            raise Refusal(str(error)) from error
        except StaleMove as error:
            game.record = await self.store.get_game(game.id)
            game.state = await load_state(self.store, game.record, game.rules)
            raise TableMovedOn() from error
        game.advance(state, events, version=version, now=now)
        if human:
            game.last_human_at = now
        log.debug("%s seat=%d played %s", game.log_prefix(), seat, logged)
        if outcome is not None:
            log.info("%s finished: winners %s", game.log_prefix(), outcome.winners)
        await self._notify_game(game, events)
        if outcome is not None:
            self.live.pop(game.id, None)
        return events

    async def take_over(self, game_id: int, user_id: int) -> LiveGame:
        """`user_id` leaves a running game; a computer player takes the seat."""
        game = await self.get(game_id)
        if game.state is None:
            return await self.leave_lobby(game_id, user_id)
        seat = self.check_player(game, user_id)
        old = game.record.seats[seat]
        replacement = SeatRecord(seat=seat, user_id=None, name=f"{old.name} 🤖", computer="normal")
        text = f"{old.name} left; a computer player took over the seat."
        await self.reseat(game, replacement, Event(kind="leave", text=text), pass_host=True)
        return game

    async def reseat(self, game: LiveGame, replacement: SeatRecord, event: Event, *, pass_host: bool) -> None:
        """Give seat `replacement.seat` to `replacement` and tell the table `event`; with `pass_host`, a
        host losing the seat hands the host's rights on (G-X7) and the table is told who has them."""
        successor = None
        if pass_host and game.record.seats[replacement.seat].user_id == game.record.host_id:
            successor = next_host(game.record.seats, replacement.seat)
        game.record = await self.store.replace_seat(
            game.id, replacement, host_id=successor, now=self.clock.now()
        )
        if successor is not None:
            event = event.model_copy(
                update={"text": f"{event.text} {{p{game.seat_of(successor)}}} is the host now."}
            )
        game.events = [*game.events, event]
        await self._notify_game(game, [event])
        self.schedule_computers(game)

    async def end(self, game_id: int, user_id: int, can_manage: bool) -> None:
        game = await self.get(game_id)
        self._require_host(game, user_id, can_manage)
        await self._close(game, "abandoned", "The game was ended before its finish.")

    async def abandon(self, game: LiveGame, reason: str) -> None:
        await self._close(game, "abandoned", reason)

    async def _close(self, game: LiveGame, status: str, reason: str) -> None:
        game.record = await self.store.set_status(game.id, status, now=self.clock.now(), reason=reason)
        game.ending_unshown = True
        await self.store.clear_deadline(game.id)
        self.live.pop(game.id, None)
        task = self._computer_tasks.pop(game.id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()
        log.info("%s closed (%s): %s", game.log_prefix(), status, reason)
        for listener in self.listeners:
            await listener.game_closed(game, reason)

    async def rematch(self, game_id: int, user_id: int, seed: int) -> LiveGame:
        """A new game with the same players and options, started at once; the one already running if
        someone called it first (two players, or a double click, make one rematch table)."""
        async with self.store.lock(game_id):
            record = await self.store.get_game(game_id)
            if record.status != "finished":
                raise Refusal("A rematch can start once the game has finished.")
            if not any(seat.user_id == user_id for seat in record.seats):
                raise NotInGame("Only the players of that game can call a rematch.")
            running = next((game for game in self.live.values() if game.rematch_of == game_id), None)
            if running is not None:
                return running
            return await self._rematch(record, user_id, seed)

    async def _rematch(self, record: GameRecord, user_id: int, seed: int) -> LiveGame:
        new = await self.store.create_lobby(
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            thread_id=record.thread_id,
            game=record.game,
            options=record.options,
            host=next(seat for seat in record.seats if seat.user_id == user_id),
            now=self.clock.now(),
            seats=[
                seat.model_copy(update={"computer": None}) if is_away(seat) else seat for seat in record.seats
            ],
        )
        game = LiveGame(
            record=new, rules=GAMES[new.game].rules, last_human_at=self.clock.now(), rematch_of=record.id
        )
        self.live[new.id] = game
        return await self.start(new.id, user_id, seed)

    async def shutdown(self) -> None:
        """Stop computer players between moves; every committed move is already safe in the store."""
        tasks = [task for task in self._computer_tasks.values() if not task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._computer_tasks.clear()
        if self.leasing:
            await self.store.release_games()

    # ----------------------------------------------------------------- notify

    async def _notify_lobby(self, game: LiveGame) -> None:
        for listener in self.listeners:
            await listener.lobby_changed(game)

    async def _notify_game(self, game: LiveGame, events: Sequence[Event]) -> None:
        for listener in self.listeners:
            try:
                await listener.game_changed(game, events)
            except Exception:
                log.exception("%s could not show the change", game.log_prefix())


def next_host(seats: Sequence[SeatRecord], leaving: int | None) -> int | None:
    """The member playing next after seat `leaving` (in seat order, going round; nobody away), who becomes
    host (G-X7)."""
    count = len(seats)
    start = 0 if leaving is None else leaving + 1
    following = sorted(seats, key=lambda seat: (seat.seat - start) % count) if count else []
    return next(
        (s.user_id for s in following if s.user_id is not None and not s.computer and s.seat != leaving), None
    )


def _not_in_lobby(status: str) -> str:
    """Why a lobby click came too late, by what became of the lobby."""
    if status == "active":
        return "This game has already started."
    if status == "cancelled":
        return "This game was cancelled."
    return "This game is over."


def _valid_options(rules: Rules, remembered: dict) -> dict:
    """The remembered options if they still validate, else the game's defaults; plus the table's timer."""
    try:
        options = rules.make_options(remembered).model_dump(mode="json")
    except Exception:
        options = rules.Options().model_dump(mode="json")
    if remembered.get(TIMER_OPTION) in TIMER_CHOICES:
        options[TIMER_OPTION] = remembered[TIMER_OPTION]
    if isinstance(remembered.get(PICTURES_OPTION), bool):
        options[PICTURES_OPTION] = remembered[PICTURES_OPTION]
    return options
