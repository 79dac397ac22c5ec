"""A game the bot is running, as the session layer and its listeners see it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bot.storage import GameRecord, MoveRecord, SeatRecord
from bot.storage.ratings import RatingChange
from engine import GAMES, Event, Frozen, Game, Rules
from lang import SOURCE, _

TIMER_OPTION = "turn_timer"
TIMER_CHOICES = (30, 60, 120, 300, 900)
"""Seconds a table's host may choose for every decision; unset means the bot's configured timers."""
PICTURES_OPTION = "pictures"
"""Whether the table shows its picture: on by default (the bot's PICTURES setting); the host may switch it."""
LANGUAGE_OPTION = "language"
"""The language of the table, its pings and its result: the server's when the lobby opened; the host
may choose another (`lang.languages()`)."""

KEPT_EVENTS = 24
"""Events a live game keeps in memory: the table narrates the last 6, a panel the last 4 its seat may
see, the details the last 12; the rest leaves room for the other seats' private events. Events are
most of a game's memory in steady play (docs/performance.md, "Memory in steady play")."""
VIEWS_KEPT = 256
"""Views kept for `LiveGame.view`, across all games: those of the states rendered just now."""
_recent_views: dict[tuple[int, int | None], tuple[Frozen, Frozen]] = {}


UNDOABLE = Event(kind="undoable", text="", visible_to=())
"""Logged with a member's own move that showed nothing hidden (engine/history.py), and shown to nobody:
the log says who may take its last move back, so a restarted bot offers ↩️ Take back again."""


def undoable(move: MoveRecord) -> bool:
    """Whether `move` is one its member may take back while it is the log's last entry."""
    return any(event.get("kind") == UNDOABLE.kind for event in move.events)


@dataclass
class LiveGame:
    """A game the bot is running: its record, rules and (once started) its current state."""

    record: GameRecord
    rules: Rules
    state: Frozen | None = None
    last_human_at: float = 0.0
    events: list[Event] = field(default_factory=list)
    rematch_of: int | None = None
    ending_unshown: bool = False
    """Ended, and its last table not yet shown (the store lists it among `endings_to_show`)."""
    undoable_by: int | None = None
    """The seat that may take back the latest move, its own, which showed nothing hidden (engine/history.py):
    known in memory for the buttons offering it; a take-back is checked against the log."""
    rating_changes: dict[int, RatingChange] = field(default_factory=dict)
    """Finished: what it did to its members' ratings, by seat (none if it rated nobody)."""
    _names: tuple[GameRecord | None, list[str]] = field(
        default=(None, []), init=False, repr=False, compare=False
    )

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def game(self) -> Game:
        """The game this is a table of: its rules, texts, guide, hints and computer players."""
        return GAMES[self.record.game]

    @property
    def names(self) -> list[str]:
        record, names = self._names
        if record is not self.record:
            names = [seat.name for seat in self.record.seats]
            self._names = (self.record, names)
        return names

    def view(self, seat: int | None) -> Frozen:
        """`rules.view(state, seat)`, computed once per state: a table, a panel and their controls ask
        for the same views several times while they are rendered, and a view can cost more than the
        rendering (Nine Lives builds one model per card)."""
        key = (id(self.state), seat)
        kept = _recent_views.get(key)
        if kept is not None and kept[0] is self.state:
            return kept[1]
        view = self.rules.view(self.state, seat)
        if len(_recent_views) >= VIEWS_KEPT:
            del _recent_views[next(iter(_recent_views))]
        _recent_views[key] = (self.state, view)
        return view

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.record.seats:
            if seat.user_id == user_id:
                return seat.seat
        return None

    def to_act(self) -> list[int]:
        return [] if self.state is None else self.rules.to_act(self.state)

    def options(self) -> Frozen:
        """The game's options; one naming a seat that nobody has taken is random (G-X6)."""
        options = dict(self.record.options)
        for name in seat_option_names(self.rules):
            chosen = options.get(name)
            if isinstance(chosen, int) and not 0 <= chosen < len(self.record.seats):
                options[name] = None
        return self.rules.make_options(options)

    def pictures(self, default: bool = True) -> bool:
        """Whether this table shows pictures: the host's choice, else `default` (the bot's setting)."""
        return bool(self.record.options.get(PICTURES_OPTION, default))

    @property
    def language(self) -> str:
        """The language the table speaks (each member's private answers speak their own)."""
        return str(self.record.options.get(LANGUAGE_OPTION, SOURCE))

    def timer_seconds(self) -> int | None:
        """This table's own decision timer, if the host set one (else the bot's default)."""
        return self.record.options.get(TIMER_OPTION)

    def away_seats(self) -> list[int]:
        """The seats a computer plays until their member comes back."""
        return [seat.seat for seat in self.record.seats if is_away(seat)]

    def nobody_playing(self) -> bool:
        """Every seat is a computer's and some member is only away: the game waits for them (G-X9)."""
        seats = self.record.seats
        return all(seat.computer for seat in seats) and any(is_away(seat) for seat in seats)

    def log_prefix(self) -> str:
        return f"game={self.record.id} guild={self.record.guild_id}"

    def advance(self, state: Frozen, events: Sequence[Event], *, version: int, now: float) -> None:
        """Take a committed move in: its state, the record's new version and status, its events kept."""
        finished = self.rules.outcome(state) is not None
        self.state = state
        self.record = self.record.model_copy(
            update={"version": version, "updated_at": now, "status": "finished" if finished else "active"}
        )
        self.events = [*self.events, *events][-KEPT_EVENTS:]
        self.ending_unshown = finished
        self.undoable_by = None


class GameListener(Protocol):
    """Whoever follows the games (timers, whoever shows them to people); told after each committed change."""

    async def lobby_changed(self, game: LiveGame) -> None: ...

    async def game_changed(self, game: LiveGame, events: Sequence[Event]) -> None: ...

    async def game_closed(self, game: LiveGame, reason: str) -> None: ...

    async def games_resumed(self, games: Sequence[LiveGame]) -> None:
        """The games loaded after a restart, told once the bot is connected and can show them."""


def is_away(seat: SeatRecord) -> bool:
    """A member's seat that a computer plays for them until they come back (G-X8): it keeps their id."""
    return seat.user_id is not None and seat.computer is not None


def describe_players(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return _("{names} and {last}", names=", ".join(names[:-1]), last=names[-1])


def seat_option_names(rules: Rules) -> frozenset[str]:
    """The options that name a seat (who starts, the first Kittyqueen …), as the game's Options declare."""
    return rules.Options.SEAT_OPTIONS
