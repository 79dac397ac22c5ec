"""The engine contract every game implements, and the pieces all games share.

A game is a `Rules` object: pure functions over frozen pydantic models. The bot
knows nothing else of a game. Randomness lives in the state as an `Rng`, so a
game replays exactly from its seed and its action log (ruling G-2).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

from lang import _


class EngineError(Exception):
    """A move the engine refused. `str(error)` is a sentence a player can read."""


class NotYourTurn(EngineError):
    """The seat is not among those the game is waiting for."""


class GameOver(EngineError):
    """The game has ended; no more moves are accepted."""


class IllegalAction(EngineError):
    """The move breaks a rule in the current position."""


class InvalidInput(EngineError):
    """The move could not be understood at all (malformed encoding, unknown seat)."""


class Frozen(BaseModel):
    """Base of every state, action, view, event and outcome: immutable, strict, JSON round-trippable."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class GameOptions(Frozen):
    """Base of a game's table options, which the host sets in the lobby.

    `SEAT_OPTIONS` names the options that name a seat (who starts, the first queen …): the host
    chooses one of the seated players for them, and `None` leaves it to a seat drawn from the seed.
    """

    SEAT_OPTIONS: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        unknown = cls.SEAT_OPTIONS - set(cls.model_fields)
        if unknown:
            raise TypeError(f"{cls.__qualname__}.SEAT_OPTIONS names no option: {', '.join(sorted(unknown))}")


FrozenT = TypeVar("FrozenT", bound=Frozen)


_SLOTS = BaseModel.__dict__
_set_fields = _SLOTS["__dict__"].__set__
_set_fields_set = _SLOTS["__pydantic_fields_set__"].__set__
_set_extra = _SLOTS["__pydantic_extra__"].__set__
_set_private = _SLOTS["__pydantic_private__"].__set__


def _instance(cls: type[FrozenT], fields: dict[str, Any], fields_set: set[str]) -> FrozenT:
    """A model instance holding `fields`, made without validation: its four slots set through their
    descriptors (the cheapest way past a frozen model's `__setattr__`)."""
    new = object.__new__(cls)
    _set_fields(new, fields)
    _set_fields_set(new, fields_set)
    _set_extra(new, None)
    _set_private(new, None)
    return new


def build(cls: type[FrozenT], fields: dict[str, Any]) -> FrozenT:
    """An instance of `cls` from every one of its fields, without validation (the engine's own data):
    `model_construct`, but cheaper.

    Views are built many times a move (one per seat); `View(**fields)` would check types the engine
    already guarantees. JSON round trips in the conformance tests prove the result is a valid model.
    `fields` becomes the instance's own: the caller hands it over and does not change it afterwards.
    """
    fields_set = _ALL_FIELDS.get(cls)
    if fields_set is None:
        fields_set = _ALL_FIELDS[cls] = set(cls.model_fields)
    return _instance(cls, fields, fields_set)


_ALL_FIELDS: dict[type, set[str]] = {}
"""Per model class, the set of all its fields: what `build` marks as set. Frozen models never change
that set in place (`model_copy` copies it first), so every instance `build` makes shares it."""


KeyT = TypeVar("KeyT")
ValueT = TypeVar("ValueT")


class LastOf(Generic[KeyT, ValueT]):
    """`make(key, *more)` kept for the latest call: the same `key` object (by identity, as frozen
    states and views are never changed) and equal `more` give the value made before.

    The bot and the tests ask for every seat's view of one state in turn, and a panel words each card
    several times from one view: what they all share is made once."""

    __slots__ = ("_last", "_make", "_name")

    def __init__(self, make: Any) -> None:
        self._make = make
        self._last: tuple[Any, tuple, Any] | None = None
        self._name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    def __get__(self, instance: Any, owner: type | None = None) -> LastOf[KeyT, ValueT]:
        """Declared in a class, a keeper of each instance's own: a second instance (the tests view
        resampled states through one) does not make the first forget its latest value."""
        if instance is None:
            return self
        own: LastOf[KeyT, ValueT] = LastOf(self._make)
        instance.__dict__[self._name] = own  # found before this class attribute from now on
        return own

    def __call__(self, key: KeyT, *more: Any) -> ValueT:
        last = self._last
        if last is not None and last[0] is key and last[1] == more:
            return last[2]
        value = self._make(key, *more)
        self._last = (key, more, value)
        return value


def evolve(model: FrozenT, update: dict[str, Any]) -> FrozenT:
    """A copy of a frozen model with some fields replaced: `model_copy(update=...)`, but cheaper (the
    hot path of every move and of the computer players' searches).

    Like `model_copy`, it does not validate: callers only ever put values of the right types in.
    """
    fields = model.__dict__.copy()
    fields.update(update)
    # Frozen models never change their set of fields in place, so a copy can share it when the
    # update sets no field the model had left at its default.
    fields_set = model.__pydantic_fields_set__
    if not fields_set.issuperset(update):
        fields_set = fields_set | update.keys()
    return _instance(model.__class__, fields, fields_set)


_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(state: int) -> int:
    """splitmix64's output for a generator state."""
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def draw_below(state: int, n: int) -> tuple[int, int]:
    """From the splitmix64 generator state `state`: a uniform integer in [0, n), without modulo bias,
    and the next state. `Rng.below` is this on a generator kept as data."""
    if n <= 0:
        raise ValueError("below() needs a positive bound")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state = (state + _GOLDEN) & _MASK64
        value = _mix(state)
        if value < limit:
            return value % n, state


class Rng(Frozen):
    """A splitmix64 generator kept as data: each draw returns the value and the next generator."""

    state: int

    @classmethod
    def seeded(cls, seed: int) -> Rng:
        return cls(state=seed & _MASK64)

    @staticmethod
    def _at(state: int) -> Rng:
        """The generator at `state`, an int already in range: built without validation, as every
        draw of every move makes one."""
        return build(Rng, {"state": state})

    def next_u64(self) -> tuple[int, Rng]:
        state = (self.state + _GOLDEN) & _MASK64
        return _mix(state), Rng._at(state)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in [0, n), without modulo bias."""
        value, state = draw_below(self.state, n)
        return value, Rng._at(state)

    def choice(self, items: Sequence[Any]) -> tuple[Any, Rng]:
        index, rng = self.below(len(items))
        return items[index], rng

    def shuffled(self, items: Sequence[Any]) -> tuple[tuple[Any, ...], Rng]:
        """A Fisher-Yates shuffle of `items` as a new tuple."""
        result = list(items)
        state = self.state
        for i in range(len(result) - 1, 0, -1):
            j, state = draw_below(state, i + 1)
            result[i], result[j] = result[j], result[i]
        return tuple(result), Rng._at(state)

    def weighted(self, weights: Sequence[float]) -> tuple[int, Rng]:
        """An index drawn with probability proportional to `weights`."""
        value, rng = self.next_u64()
        target = value / float(1 << 64) * sum(weights)
        running = 0.0
        for index, weight in enumerate(weights):
            running += weight
            if target < running:
                return index, rng
        return len(weights) - 1, rng


class FastRng:
    """The same splitmix64 sequence as `Rng` on a plain mutable integer, for the many draws of a
    computer player's search. Never part of a state: rules draw only from `Rng`."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK64

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """An integer in [0, n); the modulo bias is below 2**-50 for the small n searches use."""
        return self.next() % n

    def shuffle(self, items: list) -> None:
        """Shuffle `items` in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.next() % (i + 1)
            items[i], items[j] = items[j], items[i]

    def pick(self, items: Sequence[Any]) -> Any:
        return items[self.next() % len(items)]


def seat_mark(seat: int) -> str:
    """Where `seat`'s player name goes in a text ("{p2}"), filled in by `fill_names`: a value of a
    translated text's placeholder (`_("{player} plays.", player=seat_mark(seat))`)."""
    return "{p" + str(seat) + "}"


def fill_names(text: str, names: Sequence[str]) -> str:
    """`text` with each `{p0}`, `{p1}`, ... replaced by that seat's player name."""
    if "{p" not in text:
        return text
    for seat, name in enumerate(names):
        text = text.replace(f"{{p{seat}}}", name)
    return text


class OutOfDate(EngineError):
    """A choice made on a view the game has since moved past; the player should look again."""


class Event(Frozen):
    """Something that happened, for the table's narration.

    `text` may name seats as `{p0}`, `{p1}`, ... which `render` replaces with
    player names. `visible_to` is `None` for a public event, or the seats that
    may see it (a private detail such as the card you drew).
    """

    kind: str
    text: str
    visible_to: tuple[int, ...] | None = None

    def visible(self, seat: int | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    def render(self, names: Sequence[str]) -> str:
        return _named(self.text, tuple(names)) if "{p" in self.text else self.text


@lru_cache(maxsize=1024)
def _named(text: str, names: tuple[str, ...]) -> str:
    """`fill_names`, cached: a table and its panels narrate the same few events again at every move."""
    return fill_names(text, names)


def events_for(events: Sequence[Event], seat: int | None, last: int | None = None) -> list[Event]:
    """The events a seat (or the public, for `None`) may see; with `last`, only the latest `last` of
    them (read from the end: a table shows its last few of a game's events each time it is shown)."""
    if last is None:
        return [event for event in events if event.visible(seat)]
    latest: list[Event] = []
    for event in reversed(events):
        if len(latest) >= last:
            break
        if event.visible(seat):
            latest.append(event)
    latest.reverse()
    return latest


class ScoreLine(Frozen):
    """One line of a seat's score breakdown, e.g. ("3 House Cats", 9)."""

    label: str
    points: int


class Outcome(Frozen):
    """How a finished game ended: scores per seat, winners (ties share), and why."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str
    breakdown: tuple[tuple[ScoreLine, ...], ...] = ()


class Action(Frozen):
    """A decision. Each game's actions encode to a short canonical string for logs and custom_ids."""

    @abstractmethod
    def encode(self) -> str: ...


StateT = TypeVar("StateT", bound=Frozen)
ActionT = TypeVar("ActionT", bound=Action)
ViewT = TypeVar("ViewT", bound=Frozen)

MAX_ENCODED_ACTION = 60


class Rules(ABC, Generic[StateT, ActionT, ViewT]):
    """One game's rules. Subclasses implement the abstract verbs; `apply` is shared.

    `apply` refuses finished games and seats that are not to act, then calls the
    game's single `check` (which raises `IllegalAction` with a reason) and only
    then `resolve`. `legal_actions` must list exactly the actions `check` accepts.
    """

    key: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[GameOptions]]
    State: ClassVar[type[Frozen]]
    View: ClassVar[type[Frozen]]

    @abstractmethod
    def setup(self, players: int, seed: int, options: Frozen | None = None) -> StateT:
        """A new game for `players` seats from `seed`."""

    @abstractmethod
    def to_act(self, state: StateT) -> list[int]:
        """The seats whose decision the game waits for now; empty once over."""

    @abstractmethod
    def legal_actions(self, state: StateT, seat: int) -> list[ActionT]:
        """Every action `seat` may take now, in a fixed order; empty if it is not to act."""

    @abstractmethod
    def check(self, state: StateT, seat: int, action: ActionT) -> None:
        """Raise `IllegalAction` with a readable reason unless `action` is legal for a seat to act."""

    @abstractmethod
    def resolve(self, state: StateT, seat: int, action: ActionT) -> tuple[StateT, list[Event]]:
        """The new state and events after a checked, legal action."""

    @abstractmethod
    def view(self, state: StateT, seat: int | None) -> ViewT:
        """Everything `seat` may see and nothing more; `None` is the public table."""

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None:
        """Scores and winners once the game is over, else `None`."""

    @abstractmethod
    def decode_action(self, text: str) -> ActionT:
        """The action encoded as `text`; raise `InvalidInput` if it is not one."""

    def require_players(self, players: int) -> None:
        """Raise `InvalidInput` unless the game can seat `players`; every `setup` starts with this."""
        if not self.min_players <= players <= self.max_players:
            least, most = self.min_players, self.max_players
            seats = {"game": self.title, "least": least, "most": most, "players": players}
            raise InvalidInput(_("{game} is for {least} to {most} players, not {players}.", **seats))

    @staticmethod
    def chosen_or_drawn_seat(chosen: int | None, players: int, rng: Rng, who: str) -> tuple[int, Rng]:
        """The seat the host chose for `who` (the first player …), or one drawn from `rng` if none was.

        Raises `InvalidInput` for a choice that is not a seat at this table.
        """
        if chosen is None:
            return rng.below(players)
        if not 0 <= chosen < players:
            seats = {"who": _(who), "players": players, "seat": chosen + 1}
            raise InvalidInput(_("{who} must be one of the {players} seats, not seat {seat}.", **seats))
        return chosen, rng

    def apply(self, state: StateT, seat: int, action: ActionT) -> tuple[StateT, list[Event]]:
        """Apply `action` by `seat`: pure, never mutates `state`."""
        if self.outcome(state) is not None:
            raise GameOver(_("This game is already over."))
        if seat not in self.to_act(state):
            raise NotYourTurn(_("It's not your turn to decide anything right now."))
        self.check(state, seat, action)
        new, events = self.resolve(state, seat, action)
        return self._decided(state, new, seat), events

    def decision(self, state: StateT, seat: int) -> str | None:
        """The kind of decision `seat` faces now ("bid", "mooch" …), named so that a player can be told
        what it is about the first time it comes up in a game; None for one that needs no such word."""
        return None

    def first_decision(self, state: StateT, seat: int) -> str | None:
        """The kind of decision `seat` faces now if they have never made one of that kind in this game."""
        kind = self.decision(state, seat)
        if kind is None or (seat, kind) in getattr(state, "decided", ()):
            return None
        return kind

    def _decided(self, before: StateT, after: StateT, seat: int) -> StateT:
        """`after`, remembering every kind of decision made so far, `seat`'s latest one included.

        A game keeps them in its state's `decided` field, (seat, kind) pairs in the order first made;
        a game without that field keeps none."""
        seen = getattr(before, "decided", None)
        if seen is None:
            return after
        kind = self.decision(before, seat)
        if kind is not None and (seat, kind) not in seen:
            seen = (*seen, (seat, kind))
        return after if after.decided == seen else evolve(after, {"decided": seen})  # type: ignore[attr-defined]

    def is_legal(self, state: StateT, seat: int, action: ActionT) -> bool:
        try:
            if self.outcome(state) is not None or seat not in self.to_act(state):
                return False
            self.check(state, seat, action)
        except EngineError:
            return False
        return True

    def encode_action(self, action: ActionT) -> str:
        return action.encode()

    def label(self, state: StateT, seat: int, action: ActionT) -> str:
        """A short button label for `action` (at most 80 characters), e.g. "Play Cat 7"."""
        return action.encode()

    def make_options(self, values: dict[str, Any]) -> Frozen:
        """The game's Options from stored values, leaving out table settings that are not game options."""
        return self.Options(
            **{name: value for name, value in values.items() if name in self.Options.model_fields}
        )

    def timeout_action(self, state: StateT, seat: int) -> ActionT | None:
        """The passive default when `seat`'s timer runs out (ruling G-3), or None to let the
        computer player choose."""
        return None

    def actions_are_public(self, state: StateT, seat: int) -> bool:
        """Whether `seat`'s current choices reveal nothing hidden, so they may sit on the public table."""
        return False

    def hidden(self, state: StateT) -> tuple[tuple[str, Any], ...]:
        """What `state` holds that some seat may not see (the generator, the deck, hands, secret picks),
        each part with the sentence telling a player why a move that changed it stands: a move that
        drew, rolled or showed any of it cannot be taken back (engine/history.py). By default the
        whole state, so that no move of a game that does not say can be."""
        return ((_("That move can't be taken back."), state),)

    def player_count(self, state: StateT) -> int:
        """How many seats the game has."""
        return state.players  # type: ignore[attr-defined]
