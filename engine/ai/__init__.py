"""Computer players: they decide from a seat's view and legal actions only, never the hidden state.

Each game provides `engine/<game>/ai.py` with `PLAYERS: dict[str, ComputerPlayer]`
keyed by level. A decision is a pure function of (view, legal actions, seed), so
the same seed and view always give the same choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
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


def computer_player(game: str, level: str) -> ComputerPlayer:
    """The computer player of `game` at `level`, or a random player if the game has none yet."""
    if level not in LEVELS:
        raise ValueError(f"Unknown level {level!r}; choose one of {', '.join(LEVELS)}.")
    try:
        module = import_module(f"engine.{game}.ai")
    except ModuleNotFoundError as error:
        if error.name != f"engine.{game}.ai":
            raise
        return RandomComputer()
    return module.PLAYERS[level]
