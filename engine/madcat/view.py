"""The allowlist view of Mad Cat Sad Cat: the table is public, built field by field; a seat's view adds
only its own mooch pick, so no other seat's secret pick reaches it before it is revealed (MC-4, MC-6).

`CATPOT`, `card` and `COMBOS` read the view's card piles and readings, for whoever draws it.
"""

from __future__ import annotations

from engine.core import build, evolve
from engine.madcat._cards import CATPOT, card
from engine.madcat._dice import COMBOS, DICE, readings
from engine.madcat.model import State, View

__all__ = ["CATPOT", "COMBOS", "View", "card", "prompt", "seat_view", "table_view", "to_act"]


def to_act(state: State) -> list[int]:
    """The seats the game waits for: the roller, or every moocher yet to pick."""
    phase = state.phase
    if phase == "over":
        return []
    if phase == "mooch":
        return [seat for seat, pick in enumerate(state.picks) if pick is None and seat != state.turn]
    return [state.turn]


def table_view(state: State) -> View:
    """The public table's view of `state`: built field by field from public parts only."""
    picks = state.picks
    players = state.players
    waiting = to_act(state)
    if True in state.paid:
        revealed = tuple(pick if paid else None for pick, paid in zip(picks, state.paid, strict=True))
    else:
        revealed = (None,) * players
    return build(
        View,
        dict(
            seat=None,
            players=players,
            to_act=tuple(waiting),
            prompt=prompt(state, waiting),
            over=state.phase == "over",
            first=state.first,
            turn=state.turn,
            phase=state.phase,
            supply=state.supply,
            cards=state.cards,
            scores=state.scores,
            rolled=state.rolled,
            aside=state.aside,
            kind=state.kind,
            readings=readings(state.aside, state.kind) if state.aside else (),
            picked=tuple(pick is not None for pick in picks),
            revealed=revealed,
            my_pick=None,
            final_round=state.supply == 0 and state.phase != "over",
            turns=state.turns,
        ),
    )


def seat_view(table: View, state: State, seat: int | None) -> View:
    """`seat`'s view: the public `table` of `state` and the seat's own mooch pick (`None`: the table)."""
    if seat is None:
        return table
    mine = state.picks[seat] if 0 <= seat < state.players else None
    return evolve(table, {"seat": seat, "my_pick": mine})


def prompt(state: State, to_act: list[int]) -> str:
    """What is being decided now, with {pN} placeholders."""
    roller = f"{{p{state.turn}}}"
    phase = state.phase
    if phase == "over":
        return "The game is over"
    if phase == "roll":
        return f"{roller} rolls the dice"
    if phase == "aside":
        return f"{roller} sets aside dice from the roll"
    if phase == "mooch":
        names = ", ".join(f"{{p{seat}}}" for seat in to_act)
        return f"{names} {'picks' if len(to_act) == 1 else 'pick'} a mooch card in secret"
    if len(state.aside) == DICE:
        return f"{roller} chooses a combination to stop with"
    return f"{roller} rolls again or stops"
