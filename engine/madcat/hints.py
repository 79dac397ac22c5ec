"""What each kind of Mad Cat Sad Cat decision is about, said once: the first time a player meets it."""

from __future__ import annotations

from engine.madcat.model import State
from lang import N_

HINTS = {
    "roll": N_(
        "You're the roller: after every roll you must set aside at least one die, or your turn fails."
    ),
    "aside": N_(
        "Set aside dice from this roll: only mad or only sad cats, plus wild 🐾 — your first mad or sad die "
        "locks you in to that kind for the turn."
    ),
    "decide": N_(
        "Roll the rest again to aim higher, or stop and take the 🏆 VPs of a hand your set-aside dice show. "
        "A roll with no die to set aside fails and pays you nothing."
    ),
    "mooch": N_(
        "Bet secretly on the roller's hand: if their set-aside dice can be read as your card, you share its "
        "🤫 VPs; 💥 Fail pays if their turn fails."
    ),
}


def decision(state: State, seat: int) -> str | None:
    """The roller's roll, set-aside or stop decision, or a moocher's secret pick."""
    if state.phase == "mooch":
        return "mooch" if seat != state.turn else None
    return state.phase if state.phase in HINTS else None
