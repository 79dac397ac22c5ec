"""What each kind of CatSanity decision is about, said once: the first time a player meets it."""

from __future__ import annotations

from engine.catsanity.model import Phase, State
from lang import N_

HINTS = {
    "turn": N_(
        "Adopt one cat into your home, or auction the alley's Sun Cats. Sun Cats are free, a Moon Cat "
        "costs a 🧠 — and with no 🧠 left your turns are skipped."
    ),
    "bid": N_(
        "You're bidding 🧠 sanity tokens for every Sun Cat in the alley: the highest bid takes them all "
        "and pays — tokens never come back."
    ),
    "copy": N_("Name the Sun Cat your Copy Cat becomes: it scores as that cat for the rest of the game."),
    "ninja": N_("Pick whose home your Ninja raids: you take one of their Sun Cats at random."),
    "recall": N_("Send cats from your home back to the deck: choose the ones worth least to you."),
}
"""Marked here, worded in the player's language where they are shown."""

_KINDS = {
    Phase.TURN: "turn",
    Phase.AUCTION: "bid",
    Phase.COPY: "copy",
    Phase.NINJA: "ninja",
    Phase.RECALL: "recall",
}


def decision(state: State, seat: int) -> str | None:
    """The kind of decision the game waits for (the seat to act is the one deciding)."""
    return _KINDS.get(state.phase)
