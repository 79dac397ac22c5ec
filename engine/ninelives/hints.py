"""What each kind of Nine Lives decision is about, said once: the first time a player meets it."""

from __future__ import annotations

from engine.ninelives.model import Phase, State, Step
from lang import N_

HINTS = {
    "order": N_(
        "Order your 9 lives: the top one is the first you can wager for its cards and power — and the "
        "first you lose."
    ),
    "turn": N_(
        "Play one card without taking any cat above 9; exactly 9 makes you safe this round. You may "
        "first wager your top life for cards and its power, but you lose it too if you lose the round."
    ),
    "return": N_(
        "You kept your wagered lives: put them back under your stack; their order decides which powers "
        "come up next."
    ),
    "queen": N_("Pick the next Kittyqueen among the tied players: they start the next round."),
    "carousel": N_("Choose the cards you pass on: everyone passes at the same time."),
}
"""Marked here, worded in the player's language where they are shown."""

_KINDS = {Phase.ORDER: "order", Phase.RETURN: "return", Phase.QUEEN: "queen", Phase.CAROUSEL: "carousel"}


def decision(state: State, seat: int) -> str | None:
    """Ordering lives, a turn's main choice, returning wagered lives, the queen pick or the carousel."""
    if state.phase == Phase.PLAY:
        return "turn" if state.step == Step.PLAY else None
    return _KINDS.get(state.phase)
