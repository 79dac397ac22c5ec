"""The lobby: who sits where, the table's options and computer players, until the host starts the game.

A lobby change holds the lobby until it is stored (`_change`), so two clicks at once never undo each
other, and one that comes after Start or Cancel is refused with what happened.
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import AsyncIterator, Sequence

from bot.endings import Endings
from bot.errors import GameClosed, NotHost, NotInGame, Refusal
from bot.live import (
    LANGUAGE_OPTION,
    PICTURES_OPTION,
    TIMER_CHOICES,
    TIMER_OPTION,
    LiveGame,
    is_away,
    seat_option_names,
)
from bot.moves import next_host
from bot.running_games import RunningGames
from bot.storage import GameRecord, SeatRecord, StaleMove
from engine import GAMES, Rules
from engine.ai import LEVELS
from lang import SOURCE, _, languages, speaking

log = logging.getLogger("catnip.sessions")

COMPUTER_NAMES = ("Whiskers", "Mittens", "Pounce", "Biscuit", "Nimbus", "Saffron")


class Lobby:
    """Opens tables and makes every change to them until their game starts (or the host cancels)."""

    def __init__(self, games: RunningGames, endings: Endings, *, pictures: bool = True) -> None:
        self.games = games
        self.endings = endings
        self.pictures = pictures
        """Whether new tables show pictures unless their host switches them off (the PICTURES setting)."""

    async def open_lobby(
        self,
        *,
        game_key: str,
        guild_id: int,
        channel_id: int,
        thread_id: int | None,
        host_id: int,
        host_name: str,
        language: str = SOURCE,
    ) -> LiveGame:
        """Open a table of `game_key` in `channel_id` (in `thread_id` when one was made for it), hosted
        by `host_id`, with the options last chosen for that game in the channel if they still hold,
        speaking `language` at the table (the server's)."""
        if game_key not in GAMES:
            raise Refusal(_("There is no game called {game}.", game=repr(game_key)))
        self.games.check_owner(guild_id)
        rules = GAMES[game_key].rules
        remembered = await self.games.store.games.remembered_options(channel_id, game_key) or {}
        options = _valid_options(rules, remembered)
        options.setdefault(PICTURES_OPTION, self.pictures)
        options[LANGUAGE_OPTION] = language if language in languages() else SOURCE
        record = await self.games.store.games.create_lobby(
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=thread_id,
            game=game_key,
            options=options,
            host=SeatRecord(seat=0, user_id=host_id, name=host_name),
            now=self.games.clock.now(),
        )
        game = LiveGame(record=record, rules=rules, last_human_at=self.games.clock.now())
        self.games.add_created(game)
        log.info("%s opened a %s lobby", game.log_prefix(), game_key)
        await self.games.tell_lobby(game)
        return game

    @contextlib.asynccontextmanager
    async def _change(self, game_id: int) -> AsyncIterator[LiveGame]:
        """The lobby `game_id`, held by one change at a time until that change is stored.

        Two clicks at the same moment (Join and Start, Join and Leave) each see the lobby as the
        other left it, so neither undoes the other; one that comes after Start or Cancel is
        refused with what happened, also when only the store noticed (`StaleMove`).
        """
        game = await self.games.get(game_id)
        async with self.games.store.lock(game.id):
            if game.record.status != "lobby":
                raise GameClosed(_not_in_lobby(game.record.status))
            try:
                yield game
            except StaleMove as error:
                record = await self.games.store.games.get_game(game.id)
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
        game.record = await self.games.store.games.update_lobby(
            game.id, seats=numbered, options=changed, host_id=host_id, now=self.games.clock.now()
        )
        await self.games.tell_lobby(game)

    async def join(self, game_id: int, user_id: int, name: str) -> LiveGame:
        async with self._change(game_id) as game:
            if game.seat_of(user_id) is not None:
                raise Refusal(_("You're already seated at this table."))
            if len(game.record.seats) >= game.rules.max_players:
                raise Refusal(_("The table is full ({count} players).", count=game.rules.max_players))
            await self._set_seats(game, [*game.record.seats, SeatRecord(seat=0, user_id=user_id, name=name)])
            return game

    async def leave_lobby(self, game_id: int, user_id: int) -> LiveGame:
        async with self._change(game_id) as game:
            if game.seat_of(user_id) is None:
                raise NotInGame(_("You're not seated at this table."))
            successor = None
            if user_id == game.record.host_id:
                successor = next_host(game.record.seats, game.seat_of(user_id))
                if successor is None:
                    raise Refusal(
                        _("You're the host and the only member here: use Cancel to close the table.")
                    )
            await self._set_seats(
                game, [s for s in game.record.seats if s.user_id != user_id], host_id=successor
            )
            return game

    async def shuffle_seats(self, game_id: int, user_id: int, seed: int) -> LiveGame:
        """The host deals the seats out again in a new random order (G-1)."""
        async with self._change(game_id) as game:
            require_host(game, user_id)
            seats = list(game.record.seats)
            if len(seats) < 2:
                raise Refusal(_("There is nobody to change places with yet."))
            order, shuffler = list(seats), random.Random(seed)
            while order == seats:
                shuffler.shuffle(order)
            await self._set_seats(game, order)
            return game

    async def add_computer(self, game_id: int, user_id: int, level: str) -> LiveGame:
        async with self._change(game_id) as game:
            require_host(game, user_id)
            if level not in LEVELS:
                raise Refusal(_("Computer players come in {levels}.", levels=", ".join(LEVELS)))
            if len(game.record.seats) >= game.rules.max_players:
                raise Refusal(_("The table is full ({count} players).", count=game.rules.max_players))
            taken = {s.name for s in game.record.seats}
            name = next(f"{n} 🤖" for n in COMPUTER_NAMES if f"{n} 🤖" not in taken)
            seat = SeatRecord(seat=0, user_id=None, name=name, computer=level)
            await self._set_seats(game, [*game.record.seats, seat])
            return game

    async def remove_computer(self, game_id: int, user_id: int) -> LiveGame:
        async with self._change(game_id) as game:
            require_host(game, user_id)
            computers = [s for s in game.record.seats if s.computer]
            if not computers:
                raise Refusal(_("There is no computer player to remove."))
            last = computers[-1]
            await self._set_seats(game, [s for s in game.record.seats if s is not last])
            return game

    async def set_option(self, game_id: int, user_id: int, name: str, value: object) -> LiveGame:
        async with self._change(game_id) as game:
            require_host(game, user_id)
            options = {**game.record.options, name: value}
            if name == PICTURES_OPTION and not isinstance(value, bool):
                raise Refusal(_("Pictures are either on or off."))
            if name == LANGUAGE_OPTION and value not in languages():
                raise Refusal(_("Choose one of the offered languages."))
            if name == TIMER_OPTION:
                if value is not None and value not in TIMER_CHOICES:
                    raise Refusal(_("Choose one of the offered timers."))
                validated = _valid_options(game.rules, options)
                validated[TIMER_OPTION] = value
            else:
                try:
                    validated = game.rules.make_options(options).model_dump(mode="json")
                except Exception as error:
                    raise Refusal(_("That isn't a valid setting for {name}.", name=name)) from error
                if TIMER_OPTION in options:
                    validated[TIMER_OPTION] = options[TIMER_OPTION]
            for table_option in (PICTURES_OPTION, LANGUAGE_OPTION):
                if table_option in options:
                    validated[table_option] = options[table_option]
            game.record = await self.games.store.games.update_lobby(
                game.id, options=validated, now=self.games.clock.now()
            )
            await self.games.tell_lobby(game)
            return game

    async def start(self, game_id: int, user_id: int, seed: int) -> LiveGame:
        async with self._change(game_id) as game:
            require_host(game, user_id)
            count = len(game.record.seats)
            rules = game.rules
            if not rules.min_players <= count <= rules.max_players:
                raise Refusal(
                    _(
                        "{game} needs {least}–{most} players; {count} seated.",
                        game=rules.title,
                        least=rules.min_players,
                        most=rules.max_players,
                        count=count,
                    )
                )
            state = rules.setup(count, seed, game.options())
            game.record = await self.games.store.games.start_game(
                game.id,
                seed=seed,
                seats=game.record.seats,
                state_json=state.model_dump_json(),
                now=self.games.clock.now(),
            )
            # Before the next await: a table shown meanwhile must not find the game started without a state.
            game.state = state
            game.last_human_at = self.games.clock.now()
            log.info("%s started with %d seats", game.log_prefix(), count)
            await self.games.tell_game(game, [])
            return game

    async def cancel(self, game_id: int, user_id: int, can_manage: bool = False) -> None:
        async with self._change(game_id) as game:
            require_host(game, user_id, can_manage)
            with speaking(game.language):
                reason = _("The host closed the table.")
            await self.endings.close(game, "cancelled", reason)

    async def rematch(self, game_id: int, user_id: int, seed: int) -> LiveGame:
        """A new game with the same players and options, started at once; the one already running if
        someone called it first (two players, or a double click, make one rematch table)."""
        async with self.games.store.lock(game_id):
            record = await self.games.store.games.get_game(game_id)
            if record.status != "finished":
                raise Refusal(_("A rematch can start once the game has finished."))
            if not any(seat.user_id == user_id for seat in record.seats):
                raise NotInGame(_("Only the players of that game can call a rematch."))
            running = next((game for game in self.games.live.values() if game.rematch_of == game_id), None)
            if running is not None:
                return running
            return await self._rematch(record, user_id, seed)

    async def _rematch(self, record: GameRecord, user_id: int, seed: int) -> LiveGame:
        new = await self.games.store.games.create_lobby(
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            thread_id=record.thread_id,
            game=record.game,
            options=record.options,
            host=next(seat for seat in record.seats if seat.user_id == user_id),
            now=self.games.clock.now(),
            seats=[
                seat.model_copy(update={"computer": None}) if is_away(seat) else seat for seat in record.seats
            ],
        )
        now = self.games.clock.now()
        game = LiveGame(record=new, rules=GAMES[new.game].rules, last_human_at=now, rematch_of=record.id)
        self.games.add_created(game)
        return await self.start(new.id, user_id, seed)


def require_host(game: LiveGame, user_id: int, can_manage: bool = False) -> None:
    """Only the host — while seated: a host who left keeps no rights (G-X7) — or Manage Server."""
    is_host = user_id == game.record.host_id and game.seat_of(user_id) is not None
    if not is_host and not can_manage:
        host = next((s.name for s in game.record.seats if s.user_id == game.record.host_id), None)
        if host is None:
            raise NotHost(_("Only the host can do that."))
        raise NotHost(_("Only {host} (the host) can do that.", host=host))


def _not_in_lobby(status: str) -> str:
    """Why a lobby click came too late, by what became of the lobby."""
    if status == "active":
        return _("This game has already started.")
    if status == "cancelled":
        return _("This game was cancelled.")
    return _("This game is over.")


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
