"""What each kind of Mad Cat Sad Cat decision is about, said once: the first time a player meets it."""

from __future__ import annotations

from engine.madcat._dice import FACE_LABELS
from engine.madcat.model import State

HINTS = {
    "roll": "You're the roller: after every roll you must set aside at least one die, or your turn fails.",
    "aside": f"Set aside dice from this roll: only mad or only sad cats, plus wild {FACE_LABELS['w']} — your "
    "first mad or sad die locks you in to that kind for the turn.",
    "decide": "Roll the rest again to aim higher, or stop and take the 🏆 VPs of a hand your set-aside dice "
    "show. A roll with no die to set aside fails and pays you nothing.",
    "mooch": "Bet secretly on the roller's hand: if their set-aside dice can be read as your card, you share "
    "its 🤫 VPs; 💥 Fail pays if their turn fails.",
}


def decision(state: State, seat: int) -> str | None:
    """The roller's roll, set-aside or stop decision, or a moocher's secret pick."""
    if state.phase == "mooch":
        return "mooch" if seat != state.turn else None
    return state.phase if state.phase in HINTS else None
