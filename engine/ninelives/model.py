"""Nine Lives data: options, the phases, the state, the actions and the views."""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import StrEnum
from functools import cache
from typing import Any, ClassVar, Self

from engine.core import Action, Frozen, GameOptions, InvalidInput, Rng
from engine.ninelives._cards import Counts, LifeCard, PowerKey, card_id, life_id
from lang import _


class Phase(StrEnum):
    """What the game waits for: life stacks put in order (NL-1), turns, simultaneous Card Carousel
    picks, wagered lives going back under the stack, the Kittyqueen tie pick (NL-6), or nothing."""

    ORDER = "order"
    PLAY = "play"
    CAROUSEL = "carousel"
    RETURN = "return"
    QUEEN = "queen"
    OVER = "over"


class Step(StrEnum):
    """The decision within a turn: the turn's main choice, then a play's or a power's follow-ups."""

    PLAY = "play"
    PLACE = "place"
    ICON = "icon"
    REORDER = "reorder"
    COPY = "copy"
    GIVE = "give"
    TO = "to"
    FROM = "from"
    TAKE = "take"
    DIR = "dir"
    STACK = "stack"


class WagerRule(StrEnum):
    """What Force Wager or Forbid Wager binds a turn to (NL-8)."""

    NONE = ""
    FORCE = "force"
    FORBID = "forbid"


class Options(GameOptions):
    """Table options: the limited power set is the default (NL-11); the host may name the first queen."""

    limited_powers: bool = True
    first_queen: int | None = None

    SEAT_OPTIONS = frozenset({"first_queen"})


class Placed(Frozen):
    """A cat card on the table with how it counts (after its play's override, NL-9) and why."""

    card: int
    counts: Counts
    note: str = ""


class State(Frozen):
    """The whole game. Piles on `table` hold a card and whatever it covers (top card last).

    `phase` says what the game waits for; in the play phase `step` says which decision of the turn.
    `held` lists what still binds a player whose whole visit was skipped (seat, skips left, wager
    rule): it binds that player's next visit (NL-X5).
    Arrangements (`arranging` the cards still to place, `arranged` those placed, per seat)
    are working copies: the stack or wagered cards they come from stay untouched until done.
    """

    players: int
    rng: Rng
    limited: bool
    cats: tuple[Counts, ...]
    lifecards: tuple[LifeCard, ...]
    deck: tuple[int, ...]
    discard: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...]
    stacks: tuple[tuple[int, ...], ...]
    wagered: tuple[tuple[int, ...], ...]
    table: tuple[tuple[Placed, ...], ...] = ()
    ignored: tuple[int, ...] = ()
    open_hands: tuple[int, ...] = ()
    safe: tuple[int, ...] = ()
    queen: int
    turn: int
    round: int = 1
    phase: Phase = Phase.ORDER
    step: Step = Step.PLAY
    power: LifeCard | None = None
    wagered_now: bool = False
    selected: int | None = None
    must_from: tuple[int, ...] = ()
    wager_rule: WagerRule = WagerRule.NONE
    optional_now: bool = False
    owed: int = 0
    optional: int = 0
    next_skip: int = 0
    next_double: bool = False
    next_wager: WagerRule = WagerRule.NONE
    held: tuple[tuple[int, int, WagerRule], ...] = ()
    arranging: tuple[tuple[int, ...], ...]
    arranged: tuple[tuple[int, ...], ...]
    shuffle_target: int | None = None
    gifts: tuple[tuple[int, ...], ...] = ()
    gift_need: tuple[int, ...] = ()
    direction: int = 1
    tied: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    decided: tuple[tuple[int, str], ...] = ()
    """Each (seat, kind of decision) made so far, in the order first made: what first-time hints read."""

    def lives(self, seat: int) -> int:
        """Life cards in the stack plus those wagered this round (NL-7)."""
        return len(self.stacks[seat]) + len(self.wagered[seat])


class Move(Action):
    """Base of every Nine Lives decision. `verb` is the first word of its encoding ("p" in "p:C07"),
    as stored in move logs and button ids: these encodings never change."""

    verb: ClassVar[str]

    def encode(self) -> str:
        return self.verb

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is type(self) and self.__dict__ == other.__dict__)

    def __hash__(self) -> int:
        return hash((type(self), *self.__dict__.values()))

    @classmethod
    def of(cls, *value: Any) -> Self:
        """The (shared, immutable) action of this kind with `value` as its one field, if any."""
        return _made(cls, value)


@cache
def _made(cls: type[Move], value: tuple) -> Move:
    return cls(**dict(zip(cls.model_fields, value, strict=True)))


class Keep(Move):
    """Keep the remaining cards of an arrangement in their order."""

    verb = "keep"


class Wager(Move):
    """Wager the top life of the stack (NL-3)."""

    verb = "w"


class NewCard(Move):
    """Place the picked card as a new table card."""

    verb = "t"


class GiveUp(Move):
    """Give up the round (NL-5)."""

    verb = "giveup"


class SkipTurn(Move):
    """Skip Turn power: skip this turn."""

    verb = "skip"


class EndTurn(Move):
    """Decline an optional extra turn (Double Turn)."""

    verb = "end"


class CardMove(Move):
    """A decision naming one cat card, written "C07"."""

    card: int

    def encode(self) -> str:
        return f"{self.verb}:{card_id(self.card)}"


class Play(CardMove):
    """Play (or pick for a placement) this hand card."""

    verb = "p"


class Cover(CardMove):
    """Replace: place the picked card on this table card."""

    verb = "cover"


class SwapWith(CardMove):
    """Swap: trade the picked card with this table card."""

    verb = "swap"


class Give(CardMove):
    """Wildcard Paid: the hand card to give away."""

    verb = "give"


class Take(CardMove):
    """Steal: the table card to take."""

    verb = "take"


class Pass(CardMove):
    """Card Carousel: a hand card to pass on."""

    verb = "pass"


class NextLife(Move):
    """The next life card of an arrangement, written "L13"."""

    verb = "n"
    life: int

    def encode(self) -> str:
        return f"n:{life_id(self.life)}"


class CountAs(Move):
    """Single Cat: the icon the picked card counts as."""

    verb = "icon"
    cat: int

    def encode(self) -> str:
        return f"icon:{self.cat}"


class SeatMove(Move):
    """A decision naming one seat."""

    seat: int

    def encode(self) -> str:
        return f"{self.verb}:{self.seat}"


class CopyPower(SeatMove):
    """Copycat: whose top life power to use."""

    verb = "copy"


class GiveTo(SeatMove):
    """Wildcard Paid: who gets the given card."""

    verb = "to"


class ReorderStack(SeatMove):
    """Shuffle Lives: whose life stack to reorder."""

    verb = "stack"


class Crown(SeatMove):
    """Kittyqueen tie pick (NL-6)."""

    verb = "queen"


class StealFrom(Move):
    """Steal: from a player's hand (`seat`) or from the table (None)."""

    verb = "from"
    seat: int | None

    def encode(self) -> str:
        return f"from:{'t' if self.seat is None else self.seat}"


class CarouselDirection(Move):
    """Card Carousel: pass to the left (the next seat) or to the right."""

    verb = "dir"
    left: bool

    def encode(self) -> str:
        return f"dir:{'l' if self.left else 'r'}"


NineLivesAction = (
    Keep
    | Wager
    | NewCard
    | GiveUp
    | SkipTurn
    | EndTurn
    | Play
    | Cover
    | SwapWith
    | Give
    | Take
    | Pass
    | NextLife
    | CountAs
    | CopyPower
    | GiveTo
    | ReorderStack
    | Crown
    | StealFrom
    | CarouselDirection
)

_NUMBER = "[0-9][0-9]"  # not \d, which also matches other scripts' digits ("٣"), and int() reads them
_SEAT = r"[0-5]"
DECODERS: dict[str, tuple[str, Callable[[str], Move]]] = {
    **{
        kind.verb: ("", lambda _arg, kind=kind: kind.of())
        for kind in (Keep, Wager, NewCard, GiveUp, SkipTurn, EndTurn)
    },
    **{
        kind.verb: ("C" + _NUMBER, lambda arg, kind=kind: kind.of(int(arg[1:])))
        for kind in (Play, Cover, SwapWith, Give, Take, Pass)
    },
    NextLife.verb: ("L" + _NUMBER, lambda arg: NextLife.of(int(arg[1:]))),
    CountAs.verb: ("[0-3]", lambda arg: CountAs.of(int(arg))),
    **{
        kind.verb: (_SEAT, lambda arg, kind=kind: kind.of(int(arg)))
        for kind in (CopyPower, GiveTo, ReorderStack, Crown)
    },
    StealFrom.verb: ("t|" + _SEAT, lambda arg: StealFrom.of(None if arg == "t" else int(arg))),
    CarouselDirection.verb: ("l|r", lambda arg: CarouselDirection.of(arg == "l")),
}
"""Per verb: the pattern of its argument ("" for none) and how to build the action from it."""
_PATTERNS = {verb: re.compile(pattern) for verb, (pattern, _decode) in DECODERS.items() if pattern}


@cache
def decode(text: str) -> NineLivesAction:
    """The action written as `text`, or `InvalidInput`."""
    verb, _sep, arg = text.partition(":")
    if verb not in DECODERS:
        raise InvalidInput(_("{move!r} is not a Nine Lives move.", move=text))
    pattern, build = DECODERS[verb]
    if not pattern and (arg or ":" in text):
        raise InvalidInput(
            _("{move!r} is not a Nine Lives move: {verb!r} takes no argument.", move=text, verb=verb)
        )
    if pattern and not _PATTERNS[verb].fullmatch(arg):
        raise InvalidInput(_("{move!r} is not a Nine Lives move: bad argument {arg!r}.", move=text, arg=arg))
    return build(arg)  # type: ignore[return-value]


class CardView(Frozen):
    """A visible cat card: its id and its printed icons per cat (`_cards.icons_text` writes them)."""

    id: str
    icons: Counts


class PlacedView(Frozen):
    """A table card and how it counts now (its override applied)."""

    card: CardView
    counts: Counts
    note: str


class LifeView(Frozen):
    """A visible life card ("" for a power in force that is no card of yours, e.g. a copied one).

    `_cards.life_name`, `_cards.life_text` and `_cards.POWERS` describe it.
    """

    id: str
    power: PowerKey
    a: int = -1
    b: int = -1

    def card(self) -> LifeCard:
        return LifeCard(power=self.power, a=self.a, b=self.b)


class PlayWay(Frozen):
    """One legal way to play a hand card now: as a new table card ("t"), covering ("cover") or
    swapping ("swap") pile `pile`'s top card, counted as one `icon` under Single Cat (-1 otherwise),
    with the counts it meets (`before`), what it adds, the counts after, and the cats it brings to
    exactly nine (a perfect nine, NL-4)."""

    mode: str
    pile: int = -1
    icon: int = -1
    before: Counts
    adds: Counts
    after: Counts
    nines: tuple[int, ...]


class Unplayable(StrEnum):
    """Why a hand card can't be played now."""

    NONE = ""
    MUST_PLAY_RECEIVED = "must_from"  # Draw/Steal and Play: one of the cards just received
    FORBIDDEN = "forbid"  # the Forbid power's cat is on it
    LIMIT = "limit"  # it would take a cat above nine
    NO_WAY = "no_way"


class HandPlay(Frozen):
    """A hand card of the seat: on its turn, whether the engine lets it be played now (under the
    power in force) and how, else whether it would fit the table; why not when it can't.

    `over` lists the cats that would pass the limit with the count each would reach.
    """

    card: str
    ways: tuple[PlayWay, ...] = ()
    why_not: Unplayable = Unplayable.NONE
    forbidden: int = -1
    over: tuple[tuple[int, int], ...] = ()

    @property
    def playable(self) -> bool:
        return bool(self.ways)


class SeatView(Frozen):
    """What everybody sees of one seat."""

    seat: int
    lives: int
    stack_size: int
    top: LifeView | None
    wagered: tuple[LifeView, ...]
    hand_size: int
    open_hand: tuple[CardView, ...] | None
    safe: bool


class View(Frozen):
    """One seat's (or the public table's) view of the game."""

    seat: int | None
    players: int
    to_act: tuple[int, ...]
    prompt: str
    over: bool
    limited: bool
    phase: Phase
    step: Step
    round: int
    queen: int
    turn: int
    seats: tuple[SeatView, ...]
    table: tuple[tuple[PlacedView, ...], ...]
    counts: Counts
    ignored: tuple[int, ...]
    deck_size: int
    discard: tuple[CardView, ...]
    catalog: str
    power: LifeView | None
    wagered_now: bool
    wager_rule: WagerRule
    optional_now: bool
    owed: int
    optional: int
    next_skip: int
    next_double: bool
    next_wager: WagerRule
    held: tuple[tuple[int, int, WagerRule], ...]
    direction: int
    shuffle_target: int | None
    tied: tuple[int, ...]
    losers: tuple[int, ...]
    hand: tuple[CardView, ...] = ()
    plays: tuple[HandPlay, ...] = ()
    """One per hand card, in the same order: whether and how it can be played now."""
    my_stack: tuple[LifeView, ...] = ()
    selected: CardView | None = None
    must_from: tuple[str, ...] = ()
    arranging_for: int | None = None
    arranging: tuple[LifeView, ...] = ()
    arranged: tuple[LifeView, ...] = ()
    gifts: tuple[CardView, ...] = ()
    gift_need: int = 0
