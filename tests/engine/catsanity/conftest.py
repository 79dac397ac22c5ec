"""Shared helpers for the CatSanity tests: literal positions and applying encoded moves."""

from __future__ import annotations

import pytest

from engine.catsanity import RULES
from engine.catsanity.position import position


class Table:
    """A game driven by encoded moves, keeping every event for assertions."""

    def __init__(self, text: str, seed: int = 0) -> None:
        self.state = position(text, seed=seed)
        self.events = []

    def play(self, *moves: str) -> Table:
        """Apply each move for the seat the game waits for."""
        for move in moves:
            (seat,) = RULES.to_act(self.state)
            self.state, events = RULES.apply(self.state, seat, RULES.decode_action(move))
            self.events.extend(events)
        return self

    def texts(self, kind: str | None = None) -> list[str]:
        return [e.text for e in self.events if kind is None or e.kind == kind]

    def legal(self) -> list[str]:
        (seat,) = RULES.to_act(self.state)
        return [a.encode() for a in RULES.legal_actions(self.state, seat)]


@pytest.fixture
def table():
    return Table
