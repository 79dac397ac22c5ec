"""CatSanity's state, options, actions and view, all frozen and JSON round-trippable."""

from __future__ import annotations

from enum import StrEnum

from engine.core import Action, Frozen, GameOptions, Rng


class Phase(StrEnum):
    """What the game waits for; the values are what stored states hold."""

    TURN = "turn"
    """Adopt a cat or call an auction."""
    AUCTION = "auction"
    """Bidding for the alley's Sun Cats."""
    COPY = "copy"
    """The Copy Cat's declaration."""
    NINJA = "ninja"
    """Pick the Ninja Cat's target."""
    RECALL = "recall"
    """Opponents return cats to the deck."""
    OVER = "over"
    """Scoring is final."""


class Options(GameOptions):
    """Table options. `first_seat`: who starts (CS-13); `None` draws a seat from the seed."""

    first_seat: int | None = None

    SEAT_OPTIONS = frozenset({"first_seat"})


class Bid(Frozen):
    """One bid in an auction; 0 is a pass."""

    seat: int
    amount: int


class AuctionState(Frozen):
    """An auction under way (CS-4): `waiting` are the seats still to bid, in order, the caller last."""

    caller: int
    waiting: tuple[int, ...]
    high: int = 0
    high_seat: int | None = None
    bids: tuple[Bid, ...] = ()


class RecallState(Frozen):
    """A Recall Cat resolving (CS-8): `waiting` are the opponents still to return cats, in order.

    `picked` holds the first card the current chooser set aside; it is secret until both are chosen.
    """

    adopter: int
    waiting: tuple[int, ...]
    picked: tuple[str, ...] = ()


class State(Frozen):
    players: int
    rng: Rng
    deck: tuple[str, ...]
    """Top of the deck is the last card."""
    alley: tuple[str, ...]
    homes: tuple[tuple[str, ...], ...]
    tokens: tuple[int, ...]
    turn: int
    phase: Phase
    copy_as: str | None = None
    """What the Copy Cat was declared as (CS-6), while it is in a home."""
    auction: AuctionState | None = None
    recall: RecallState | None = None
    turns: int = 0
    """How many turns have begun (for the table's narration)."""
    end_reason: str = ""
    decided: tuple[tuple[int, str], ...] = ()
    """Each (seat, kind of decision) made so far, in the order first made: what first-time hints read."""


# ---- actions ------------------------------------------------------------------------------------------


class Adopt(Action):
    """Adopt one cat from the alley (step 7)."""

    card: str

    def encode(self) -> str:
        return f"adopt:{self.card}"


class CallAuction(Action):
    """Mine! Mine! Mine! — auction every Sun Cat in the alley (step 6)."""

    def encode(self) -> str:
        return "auction"


class PlaceBid(Action):
    """Bid `amount` sanity tokens in the running auction; 0 passes."""

    amount: int

    def encode(self) -> str:
        return f"bid:{self.amount}"


class Declare(Action):
    """Declare the Copy Cat as a Sun kind: house, chorus, fib or twinA … twinH (CS-6)."""

    kind: str

    def encode(self) -> str:
        return f"copy:{self.kind}"


class NinjaTarget(Action):
    """Send the Ninja Cat against an opponent's home (CS-7)."""

    target: int

    def encode(self) -> str:
        return f"ninja:{self.target}"


class ReturnCat(Action):
    """Return one cat of a kind from your own home to the deck (Recall, CS-8)."""

    kind: str

    def encode(self) -> str:
        return f"return:{self.kind}"


CatSanityAction = Adopt | CallAuction | PlaceBid | Declare | NinjaTarget | ReturnCat


# ---- view ---------------------------------------------------------------------------------------------


class PossibleChoice(Frozen):
    """A choice the seat could make now, as an encoded action, and whether the engine's `check` accepts it;
    `why_not` is the engine's refusal when it does not."""

    action: str
    playable: bool
    why_not: str = ""


class View(Frozen):
    """What one seat (or the public table, seat None) sees: everything but the deck order."""

    seat: int | None
    players: int
    to_act: tuple[int, ...]
    prompt: str
    over: bool
    turn: int
    turns: int
    phase: Phase
    deck_size: int
    alley: tuple[str, ...]
    homes: tuple[tuple[str, ...], ...]
    tokens: tuple[int, ...]
    copy_as: str | None
    scores: tuple[int, ...]
    """Each home's score if play ended now."""
    auction: AuctionState | None
    recall_adopter: int | None
    recall_waiting: tuple[int, ...]
    my_recall_pick: tuple[str, ...]
    """The card you set aside for a Recall; only ever filled in the chooser's own view."""
    end_reason: str
    choices: tuple[PossibleChoice, ...] = ()
    """The seat's possible choices while the game waits for it, each checked by the engine; empty for
    the public table and for seats not to act."""
