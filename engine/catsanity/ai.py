"""Computer players for CatSanity: easy, normal and hard, deciding from a seat's view only.

- easy: seeded random, but it rarely throws away its last sanity token or bids wildly;
- normal: values each cat by what it adds to the home (sets under way included), weighs it against
  the sanity it costs, and bids in auctions up to what the Sun Cats are worth to it;
- hard: information-set Monte Carlo tree search over sampled decks (`_search.ismcts`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from engine.catsanity._cards import MOON
from engine.catsanity._heuristics import choose_normal
from engine.catsanity._search import ismcts, mix
from engine.catsanity.model import Adopt, CallAuction, PlaceBid
from engine.core import Action, Frozen, Rng, Rules


class EasyPlayer:
    """Random among the legal actions, with plainly bad moves made ten times less likely."""

    level = "easy"

    def choose(self, rules: Rules, view: Frozen, seat: int, legal: Sequence[Action], seed: int) -> Action:
        weights = [self._weight(view, seat, action) for action in legal]
        index, _ = Rng.seeded(seed).weighted(weights)
        return legal[index]

    @staticmethod
    def _weight(view, seat: int, action: Action) -> float:
        tokens = view.tokens[seat]
        if isinstance(action, Adopt) and action.card in MOON and tokens == 1:
            return 0.1  # the last token: insane for the rest of the game
        if isinstance(action, PlaceBid) and (action.amount > 3 or 0 < tokens <= action.amount):
            return 0.1
        if isinstance(action, CallAuction):
            return 0.5
        return 1.0


class NormalPlayer:
    """The heuristic of `_heuristics.choose_normal`: deterministic, with no search."""

    level = "normal"

    def choose(self, rules: Rules, view: Frozen, seat: int, legal: Sequence[Action], seed: int) -> Action:
        return choose_normal(view, seat, legal)


class HardPlayer:
    """ISMCTS over sampled decks: at most `iterations` samples or `moves` simulated moves a decision.

    Both budgets are counts, so decisions are reproducible. They are sized to keep a decision short
    (docs/performance.md, computer players): the search shares the bot's process, so every other table
    waits while it thinks. A `clock` (e.g. `time.perf_counter`, passed in by the
    caller: the engine itself never reads the time) adds a hard limit of `seconds`.
    """

    level = "hard"

    def __init__(
        self,
        iterations: int = 160,
        moves: int | None = 3_000,
        clock: Callable[[], float] | None = None,
        seconds: float = 0.8,
    ) -> None:
        self.iterations = iterations
        self.moves = moves
        self.clock = clock
        self.seconds = seconds

    def choose(self, rules: Rules, view: Frozen, seat: int, legal: Sequence[Action], seed: int) -> Action:
        return ismcts(
            rules,
            view,
            seat,
            list(legal),
            mix(seed),
            self.iterations,
            moves=self.moves,
            clock=self.clock,
            seconds=self.seconds,
        )


PLAYERS = {"easy": EasyPlayer(), "normal": NormalPlayer(), "hard": HardPlayer(clock=time.perf_counter)}
