"""Computer players for Cats & Dogs. They decide from the seat's view and legal actions only.

- easy: seeded random, but where the trick's outcome is already certain it prefers the cards
  that do best in it.
- normal: counts what has been played — every card not in its hand, on the table or collected is
  unknown — and plays the card with the best expected result in the current trick.
- hard: ISMCTS over determinised rounds (the unknown cards dealt at random to the other hands, as
  `determinise` does) for 2–5 players; solo: an exact expectimax over the hidden cards that
  maximises the chance to reach 21 ribbons in the remaining rounds.

The iteration count is the limit that keeps a decision deterministic; `HardPlayer(clock=...)` adds
a wall-clock deadline (the engine package has no clock of its own).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from engine.catsdogs._cards import CARDS, TABLE, TARGET, sort_cards
from engine.catsdogs._search import (
    INDEX,
    SOLO_ROUND_GAIN,
    Round,
    ismcts,
    settle,
    solo_values,
    success_utility,
)
from engine.catsdogs.model import SOLO_ROUNDS, Play, RoundRecord, State, View
from engine.core import FastRng, Rng, Rules

_SALT = 0xC47D06


def unknown_cards(view: View) -> list[str]:
    """The cards this seat cannot see: other hands, out of play and (solo) still hidden."""
    seen = set(view.hand) | set(view.table) | set(view.table_pile)
    seen |= {card for _, card in view.trick}
    for pile in view.collected:
        seen |= set(pile)
    return [card for card in CARDS if card not in seen]


def _deal_unknown(view: View, rng: FastRng) -> tuple[list[list[str]], list[str]]:
    """The unknown cards dealt at random: each other seat's hand (by its size), then the rest."""
    cards = unknown_cards(view)
    rng.shuffle(cards)
    hands: list[list[str]] = []
    for seat, size in enumerate(view.hand_sizes):
        if seat == view.seat:
            hands.append(list(view.hand))
        else:
            hands.append(cards[:size])
            cards = cards[size:]
    return hands, cards


def determinise(view: View, seed: int) -> State:
    """A full State the seat cannot tell apart from the true one: `view(determinise(v), seat) == v`."""
    rng = FastRng(seed ^ _SALT)
    hands, rest = _deal_unknown(view, rng)
    hidden, out = (rest[: view.hidden_left], rest[view.hidden_left :]) if view.players == 1 else ([], rest)
    rounds = tuple(
        RoundRecord(number=i + 1, collected=((),) * view.players, table_pile=(), ribbons=ribbons)
        for i, ribbons in enumerate(view.round_ribbons)
    )
    return State(
        players=view.players,
        rng=Rng.seeded(seed),
        round=view.round,
        hands=tuple(sort_cards(hand) for hand in hands),
        out=tuple(out),
        table=view.table,
        hidden=tuple(hidden),
        trick=view.trick,
        trick_no=view.trick_no,
        leader=view.leader,
        round_leader=view.round_leader,
        collected=view.collected,
        table_pile=view.table_pile,
        scores=view.scores,
        rounds=rounds,
        last_trick=view.last_trick,
        last_win=view.last_win,
        tricks_played=max(view.last_win),
        over=view.over,
    )


def _pick(legal: Sequence[Play], card: str) -> Play:
    return next(action for action in legal if action.card == card)


def _trick_plays(view: View) -> list[tuple[int, int]]:
    return [(seat, INDEX[card]) for seat, card in view.trick]


def _net(gains: Sequence[int], seat: int) -> float:
    """My ribbons from a trick minus the average the others got."""
    others = len(gains) - 1
    return gains[seat] - (sum(gains) - gains[seat]) / others if others else gains[seat]


def exact_values(view: View, seat: int) -> dict[str, float] | None:
    """Each card's net ribbons when the trick's outcome is certain (solo: their expectation), else None."""
    plays = _trick_plays(view)
    players = view.players
    if players == 1:
        unknown = [INDEX[card] for card in unknown_cards(view)]
        up = INDEX[view.table[0]]
        values = {}
        for card in view.hand:
            total = 0
            for hidden in unknown:
                gains = [0]
                settle(((0, INDEX[card]), (TABLE, up), (TABLE, hidden)), gains)
                total += gains[0]
            values[card] = total / len(unknown)
        return values
    if len(plays) != players - 1:
        return None
    table = [(TABLE, INDEX[view.table[0]])] if players == 2 else []
    values = {}
    for card in view.hand:
        gains = [0] * players
        settle([*plays, (seat, INDEX[card]), *table], gains)
        values[card] = _net(gains, seat)
    return values


class EasyPlayer:
    """Seeded random; when the trick's result is certain it favours the cards that do best in it."""

    level = "easy"

    def choose(self, rules: Rules, view: View, seat: int, legal: Sequence[Play], seed: int) -> Play:
        rng = FastRng(seed ^ _SALT)
        if len(legal) == 1:
            return legal[0]
        values = exact_values(view, seat)
        if values is None:
            return legal[rng.below(len(legal))]
        best = max(values[action.card] for action in legal)
        weights = [3 if values[action.card] >= best else 1 for action in legal]
        target = rng.below(sum(weights))
        for action, weight in zip(legal, weights, strict=True):
            if target < weight:
                return action
            target -= weight
        return legal[-1]


class NormalPlayer:
    """Counts the cards: the best expected result in the current trick over sampled unknown hands."""

    level = "normal"

    def __init__(self, samples: int = 48) -> None:
        self.samples = samples

    def choose(self, rules: Rules, view: View, seat: int, legal: Sequence[Play], seed: int) -> Play:
        if len(legal) == 1:
            return legal[0]
        values = exact_values(view, seat)
        if values is None:
            values = self._sampled(view, seat, FastRng(seed ^ _SALT))
        # Ties: keep the strong cards for later and the ribbon cards out of danger.
        return max(legal, key=lambda action: (round(values[action.card], 6), -INDEX[action.card] % 9))

    def _sampled(self, view: View, seat: int, rng: FastRng) -> dict[str, float]:
        players = view.players
        plays = _trick_plays(view)
        after = [(seat + i) % players for i in range(1, players - len(plays))]
        unknown = [INDEX[card] for card in unknown_cards(view)]
        table = [(TABLE, INDEX[view.table[0]])] if players == 2 else []
        totals = dict.fromkeys(view.hand, 0.0)
        for _ in range(self.samples):
            rng.shuffle(unknown)
            later = [(other, unknown[i]) for i, other in enumerate(after)]
            for card in view.hand:
                gains = [0] * players
                settle([*plays, (seat, INDEX[card]), *later, *table], gains)
                totals[card] += _net(gains, seat)
        return {card: total / self.samples for card, total in totals.items()}


class HardPlayer:
    """ISMCTS for 2–5 players, exact expectimax for solo; `iterations` bounds each decision."""

    level = "hard"

    def __init__(
        self,
        iterations: int = 2500,
        clock: Callable[[], float] | None = None,
        budget: float = 0.8,
    ) -> None:
        self.iterations = iterations
        self.clock = clock
        self.budget = budget

    def choose(self, rules: Rules, view: View, seat: int, legal: Sequence[Play], seed: int) -> Play:
        if len(legal) == 1:
            return legal[0]
        if view.players == 1:
            return _pick(legal, self._solo(view))
        rng = FastRng(seed ^ _SALT)
        out_of_time = None
        if self.clock is not None:
            clock, deadline = self.clock, self.clock() + self.budget
            out_of_time = lambda: clock() > deadline  # noqa: E731
        mine = [INDEX[card] for card in view.hand]
        plays = _trick_plays(view)
        table = tuple(INDEX[card] for card in view.table)
        unknown = [INDEX[card] for card in unknown_cards(view)]
        sizes = view.hand_sizes

        def sample(rng: FastRng) -> Round:
            rng.shuffle(unknown)
            hands, start = [], 0
            for other, size in enumerate(sizes):
                if other == seat:
                    hands.append(list(mine))
                else:
                    hands.append(unknown[start : start + size])
                    start += size
            return Round(view.players, hands, view.leader, list(plays), table, list(view.ribbons))

        legal_cards = [INDEX[action.card] for action in legal]
        best = ismcts(sample, view.scores, legal_cards, rng, self.iterations, out_of_time)
        return _pick(legal, CARDS[best])

    def _solo(self, view: View) -> str:
        hand = [INDEX[card] for card in view.hand]
        faceup = [INDEX[card] for card in view.table]
        unknown = [INDEX[card] for card in unknown_cards(view)]
        linear = solo_values(hand, faceup, unknown)
        candidates = list(linear)
        rounds_after = SOLO_ROUNDS - view.round
        if rounds_after <= 1:
            # Near the end the chance to reach 21 matters, not the ribbons: an exact expectimax of it
            # (earlier, the expected ribbons are a close and much cheaper stand-in).
            score = view.scores[0] + view.ribbons[0]
            chance = solo_values(hand, faceup, unknown, success_utility(score, rounds_after, SOLO_ROUND_GAIN))
            best = max(chance.values())
            candidates = [card for card, value in chance.items() if value >= best - 1e-9]
        return CARDS[max(candidates, key=lambda card: (linear[card], -card))]


PLAYERS = {"easy": EasyPlayer(), "normal": NormalPlayer(), "hard": HardPlayer(clock=time.perf_counter)}

__all__ = ["PLAYERS", "TARGET", "EasyPlayer", "HardPlayer", "NormalPlayer", "determinise", "unknown_cards"]
