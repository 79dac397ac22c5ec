"""Computer players: they decide from a seat's view and legal actions only, never the hidden state.

Each game provides `engine/<game>/ai.py` with `PLAYERS: dict[str, ComputerPlayer]`
keyed by level, named in its `Game`. A decision is a pure function of (view, legal actions, seed), so
the same seed and view always give the same choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from engine.core import Action, Frozen, Rng, Rules

LEVELS = ("easy", "normal", "hard")


class ComputerPlayer(Protocol):
    level: str

    def choose(self, rules: Rules, view: Frozen, seat: int, legal: Sequence[Action], seed: int) -> Action:
        """One of `legal`, decided from `view` (what `seat` may see) and `seed` alone."""
        ...


class RandomComputer:
    """Uniform over the legal actions: the fallback seat-filler for any game."""

    level = "easy"

    def choose(self, rules: Rules, view: Frozen, seat: int, legal: Sequence[Action], seed: int) -> Action:
        action, _ = Rng.seeded(seed).choice(list(legal))
        return action
