"""Computer players for Nine Lives: easy (careful random), normal (heuristic), hard (ISMCTS).

They decide from the seat's view and the legal moves only. The same seed and view give the same
move. Hard searches the player's own turn decisions; the iteration count is its limit, and a
clock (the wall clock in `PLAYERS`) adds a deadline that only a slow machine reaches.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from engine.core import Action, Frozen, Rng, Rules
from engine.ninelives import _heuristics as heuristics
from engine.ninelives._search import ismcts
from engine.ninelives.model import GiveUp, Move, Phase, Step, View, Wager

BAD_WHEN_AVOIDABLE = (GiveUp,)


class EasyPlayer:
    """Random among the legal moves, but never gives up while anything else is possible."""

    level = "easy"

    def choose(self, rules: Rules, view: Frozen, seat: int, legal: Sequence[Action], seed: int) -> Action:
        moves = [m for m in legal if not isinstance(m, BAD_WHEN_AVOIDABLE)] or list(legal)
        move, _ = Rng.seeded(seed).choice(moves)
        return move


class NormalPlayer:
    """The strategy heuristic: under nine, perfect nines first, wager when the hand is weak."""

    level = "normal"

    def choose(self, rules: Rules, view: Frozen, seat: int, legal: Sequence[Action], seed: int) -> Action:
        return heuristics.choose(view, list(legal))  # type: ignore[arg-type]


class HardPlayer:
    """ISMCTS over sampled hidden states for its own turn decisions; the heuristic elsewhere.

    A search that looks one round ahead undervalues the cards a wager brings for later rounds, so
    when the heuristic wants to wager, hard wagers (measured: stronger than searching that choice).
    """

    level = "hard"

    def __init__(
        self, iterations: int = 200, clock: Callable[[], float] | None = None, seconds: float = 0.8
    ) -> None:
        self.iterations = iterations
        self.clock = clock
        self.seconds = seconds

    def choose(self, rules: Rules, view: Frozen, seat: int, legal: Sequence[Action], seed: int) -> Action:
        moves: list[Move] = list(legal)  # type: ignore[arg-type]
        if len(moves) == 1:
            return moves[0]
        assert isinstance(view, View)
        if view.phase != Phase.PLAY:
            return heuristics.choose(view, moves)
        if view.step == Step.PLAY and isinstance(moves[0], Wager):
            usual = heuristics.choose(view, moves)
            if isinstance(usual, Wager):
                return usual
        out_of_time = None
        if self.clock is not None:
            clock, deadline = self.clock, self.clock() + self.seconds
            out_of_time = lambda: clock() > deadline  # noqa: E731
        code = ismcts(view, seed, self.iterations, out_of_time)
        for move in moves:
            if move.encode() == code:
                return move
        return heuristics.choose(view, moves)


PLAYERS = {"easy": EasyPlayer(), "normal": NormalPlayer(), "hard": HardPlayer(clock=time.perf_counter)}

__all__ = ["PLAYERS", "EasyPlayer", "HardPlayer", "NormalPlayer"]
