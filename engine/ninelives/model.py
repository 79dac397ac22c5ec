"""Nine Lives data: options, the state, the one action class and the views."""

from __future__ import annotations

import re
from functools import cache

from engine.core import Action, Frozen, InvalidInput, Rng
from engine.ninelives.cards import Counts, LifeCard


class Options(Frozen):
    """Table options: the limited power set is the default (NL-11); the host may name the first queen."""

    limited_powers: bool = True
    first_queen: int | None = None


class Placed(Frozen):
    """A cat card on the table with how it counts (after its play's override, NL-9) and why."""

    card: int
    counts: Counts
    note: str = ""


class State(Frozen):
    """The whole game. Piles on `table` hold a card and whatever it covers (top card last).

    Phases: "order" (life stacks, NL-1), "play" (turns; `step` says which sub-decision),
    "carousel" (simultaneous picks), "return" (wagered lives back under the stack),
    "queen" (tie pick, NL-6), "over".
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
    phase: str = "order"
    step: str = "play"
    power: LifeCard | None = None
    wagered_now: bool = False
    selected: int | None = None
    must_from: tuple[int, ...] = ()
    wager_rule: str = ""
    optional_now: bool = False
    owed: int = 0
    optional: int = 0
    next_skip: int = 0
    next_double: bool = False
    next_wager: str = ""
    held: tuple[tuple[int, int, str], ...] = ()
    arranging: tuple[tuple[int, ...], ...]
    arranged: tuple[tuple[int, ...], ...]
    shuffle_target: int | None = None
    gifts: tuple[tuple[int, ...], ...] = ()
    gift_need: tuple[int, ...] = ()
    direction: int = 1
    tied: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()

    def lives(self, seat: int) -> int:
        """Life cards in the stack plus those wagered this round (NL-7)."""
        return len(self.stacks[seat]) + len(self.wagered[seat])


_CARD = r"C\d\d"
_LIFE = r"L\d\d"
_SEAT = r"[0-5]"
VERBS: dict[str, str | None] = {
    "keep": None,  # keep the remaining cards of an arrangement in their order
    "n": _LIFE,  # the next life card of an arrangement
    "w": None,  # wager a life
    "p": _CARD,  # play (or pick for a placement) a hand card
    "t": None,  # place the picked card as a new table card
    "cover": _CARD,  # Replace: place it on that table card
    "swap": _CARD,  # Swap: trade it with that table card
    "icon": r"[0-3]",  # Single Cat: the icon it counts as
    "giveup": None,
    "skip": None,  # Skip Turn power
    "end": None,  # decline an optional extra turn (Double Turn)
    "copy": _SEAT,  # Copycat target
    "give": _CARD,  # Wildcard Paid: the card to give
    "to": _SEAT,  # Wildcard Paid: who gets it
    "from": r"t|[0-5]",  # Steal: from the table or a player
    "take": _CARD,  # Steal: which table card
    "dir": r"l|r",  # Card Carousel direction
    "pass": _CARD,  # Card Carousel: a card to pass
    "stack": _SEAT,  # Shuffle Lives: whose stack
    "queen": _SEAT,  # Kittyqueen tie pick
}
_PATTERNS = {verb: re.compile(pattern) for verb, pattern in VERBS.items() if pattern}


class Move(Action):
    """Every Nine Lives decision: a verb and, for most, one argument (a card id, a seat, ...)."""

    verb: str
    arg: str = ""

    def encode(self) -> str:
        return f"{self.verb}:{self.arg}" if self.arg else self.verb

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return isinstance(other, Move) and self.verb == other.verb and self.arg == other.arg

    def __hash__(self) -> int:
        return hash((self.verb, self.arg))

    @property
    def number(self) -> int:
        """The argument's number: card 7 for "C07", seat 2 for "2"."""
        return int(self.arg.lstrip("CL"))


@cache
def mv(verb: str, arg: str = "") -> Move:
    """The (shared, immutable) move `verb:arg`."""
    return Move(verb=verb, arg=arg)


def decode(text: str) -> Move:
    """The move written as `text`, or `InvalidInput`."""
    verb, _, arg = text.partition(":")
    if verb not in VERBS:
        raise InvalidInput(f"{text!r} is not a Nine Lives move.")
    pattern = _PATTERNS.get(verb)
    if pattern is None:
        if arg or ":" in text:
            raise InvalidInput(f"{text!r} is not a Nine Lives move: {verb!r} takes no argument.")
        return mv(verb)
    if not pattern.fullmatch(arg):
        raise InvalidInput(f"{text!r} is not a Nine Lives move: bad argument {arg!r}.")
    return mv(verb, arg)


class CardView(Frozen):
    """A visible cat card: its id and its printed icons per cat (`cards.icons_text` writes them)."""

    id: str
    icons: Counts


class PlacedView(Frozen):
    """A table card and how it counts now (its override applied)."""

    card: CardView
    counts: Counts
    note: str


class LifeView(Frozen):
    """A visible life card ("" for a power in force that is no card of yours, e.g. a copied one).

    `cards.life_name`, `cards.life_text` and `cards.POWERS` describe it.
    """

    id: str
    power: str
    a: int = -1
    b: int = -1

    def card(self) -> LifeCard:
        return LifeCard(power=self.power, a=self.a, b=self.b)


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
    phase: str
    step: str
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
    wager_rule: str
    optional_now: bool
    owed: int
    optional: int
    next_skip: int
    next_double: bool
    next_wager: str
    held: tuple[tuple[int, int, str], ...]
    direction: int
    shuffle_target: int | None
    tied: tuple[int, ...]
    losers: tuple[int, ...]
    hand: tuple[CardView, ...] = ()
    my_stack: tuple[LifeView, ...] = ()
    selected: CardView | None = None
    must_from: tuple[str, ...] = ()
    arranging_for: int | None = None
    arranging: tuple[LifeView, ...] = ()
    arranged: tuple[LifeView, ...] = ()
    gifts: tuple[CardView, ...] = ()
    gift_need: int = 0
