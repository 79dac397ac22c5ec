"""The allowlist view of Mad Cat Sad Cat: the table is public, built field by field; a seat's view adds
only its own mooch pick, so no other seat's secret pick reaches it before it is revealed (MC-4, MC-6).

`CATPOT`, `card` and `COMBOS` read the view's card piles and readings, for whoever draws it.
"""

from __future__ import annotations

from engine.core import build, evolve
from engine.madcat._cards import CATPOT, card
from engine.madcat._dice import COMBOS, DICE, readings
from engine.madcat.model import State, View
from lang import _, n_

__all__ = ["CATPOT", "COMBOS", "View", "card", "prompt", "seat_view", "table_view", "to_act"]


def to_act(state: State) -> list[int]:
    """The seats the game waits for: the roller, or every moocher yet to pick."""
    phase = state.phase
    if phase == "over":
        return []
    if phase == "mooch":
        return [seat for seat, pick in enumerate(state.picks) if pick is None and seat != state.turn]
    return [state.turn]


def table_view(state: State, language: str = "") -> View:
    """The public table's view of `state`: built field by field from public parts only. `language` is
    the one speaking, which the prompt is worded in: it tells a kept table of one language from
    another's."""
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
        return _("The game is over")
    if phase == "roll":
        return _("{player} rolls the dice", player=roller)
    if phase == "aside":
        return _("{player} sets aside dice from the roll", player=roller)
    if phase == "mooch":
        names = ", ".join(f"{{p{seat}}}" for seat in to_act)
        return n_(
            "{players} picks a mooch card in secret",
            "{players} pick a mooch card in secret",
            len(to_act),
            players=names,
        )
    if len(state.aside) == DICE:
        return _("{player} chooses a combination to stop with", player=roller)
    return _("{player} rolls again or stops", player=roller)
