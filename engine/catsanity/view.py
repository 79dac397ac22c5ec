"""The allowlist view of CatSanity: built field by field; the deck is only ever a size.

`KIND` and `is_moon` read the cards a view shows, for whoever draws it.
"""

from __future__ import annotations

from engine.catsanity._scoring import quick_score

__all__ = ["KIND", "KIND_NAMES", "TOKENS_BY_PLAYERS", "View", "build_view", "is_moon", "prompt", "to_act"]
from engine.catsanity._cards import KIND, KIND_NAMES, TOKENS_BY_PLAYERS, is_moon
from engine.catsanity.model import Phase, PossibleChoice, State, View
from engine.core import build
from lang import _


def to_act(state: State) -> tuple[int, ...]:
    """The seat the game waits for, as a tuple (empty once play has ended)."""
    phase = state.phase
    if phase == Phase.AUCTION:
        return (state.auction.waiting[0],)  # type: ignore[union-attr]
    if phase == Phase.RECALL:
        return (state.recall.waiting[0],)  # type: ignore[union-attr]
    if phase == Phase.OVER:
        return ()
    return (state.turn,)


def seat_mark(seat: int) -> str:
    """A seat in a text, named when shown: "{p2}"."""
    return f"{{p{seat}}}"


def prompt(state: State, seat: int | None) -> str:
    """What is being decided now, with {pN} placeholders."""
    turn = seat_mark(state.turn)
    phase = state.phase
    if phase == Phase.TURN:
        return _("{player} adopts a cat from the alley or calls an auction", player=turn)
    if phase == Phase.COPY:
        return _("{player} declares which Sun Cat the Copy Cat mimics", player=turn)
    if phase == Phase.NINJA:
        return _("{player} picks an opponent for the Ninja attack", player=turn)
    if phase == Phase.AUCTION:
        auction = state.auction
        assert auction is not None
        bidder, caller = seat_mark(auction.waiting[0]), seat_mark(auction.caller)
        if auction.high_seat is None:
            return _(
                "{player} bids or passes in {caller}'s auction (no bid yet)", player=bidder, caller=caller
            )
        return _(
            "{player} bids or passes in {caller}'s auction (highest bid {high} by {bidder})",
            player=bidder,
            caller=caller,
            high=auction.high,
            bidder=seat_mark(auction.high_seat),
        )
    if phase == Phase.RECALL:
        recall = state.recall
        assert recall is not None
        chooser = seat_mark(recall.waiting[0])
        if seat == recall.waiting[0] and recall.picked:
            return _("{player} chooses one more cat to return to the deck", player=chooser)
        return _("{player} chooses 2 cats to return to the deck (Recall Cat)", player=chooser)
    return _("Play has ended")


def table_fields(state: State) -> dict:
    """The fields of every seat's view of `state` that do not depend on the seat: the public table's
    view, in the view's field order."""
    recall = state.recall
    copy_as = state.copy_as
    return {
        "seat": None,
        "players": state.players,
        "to_act": to_act(state),
        "prompt": prompt(state, None),
        "over": state.phase == Phase.OVER,
        "turn": state.turn,
        "turns": state.turns,
        "phase": state.phase,
        "deck_size": len(state.deck),
        "alley": state.alley,
        "homes": state.homes,
        "tokens": state.tokens,
        "copy_as": copy_as,
        "scores": tuple(quick_score(home, copy_as) for home in state.homes),
        "auction": state.auction,
        "recall_adopter": recall.adopter if recall else None,
        "recall_waiting": recall.waiting if recall else (),
        "my_recall_pick": (),
        "end_reason": state.end_reason,
        "choices": (),
    }


def build_view(state: State, seat: int | None, choices: tuple[PossibleChoice, ...], table: dict) -> View:
    """Everything `seat` may see: homes, alley, tokens, deck size, the auction, its own Recall pick, and
    the `choices` the rules checked for it.

    `table` is `table_fields(state)`, the part every seat's view shares (it is not changed)."""
    fields = table.copy()
    if seat is not None:
        fields["seat"] = seat
        recall = state.recall
        if recall is not None and recall.waiting and recall.waiting[0] == seat:
            fields["prompt"] = prompt(state, seat)
            fields["my_recall_pick"] = recall.picked
    if choices:
        fields["choices"] = choices
    return build(View, fields)
