"""What each kind of Cats & Dogs decision is about, said once: the first time a player meets it."""

from __future__ import annotations

from engine.catsdogs.model import State
from lang import N_

HINTS = {
    "lead": N_(
        "You lead this trick with any card. The faction (🐱 or 🐶) with the higher total wins it; the low "
        "cards carry the 🎀 ribbons."
    ),
    "follow": N_(
        "Play any card: the faction with the higher total wins, and its strongest card collects the other "
        "faction's cards — with their 🎀 ribbons."
    ),
    "table": N_(
        "Play any card: the table's card plays in this trick too, and whatever the table wins scores for "
        "nobody."
    ),
}


def decision(state: State, seat: int) -> str | None:
    """Leading or following a trick, or (with 1 or 2 players) playing against the table's card."""
    if state.players <= 2:
        return "table"
    return "follow" if state.trick else "lead"
