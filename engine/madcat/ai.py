"""Computer players for Mad Cat Sad Cat. They decide from the seat's view and legal actions only.

- easy: seeded random, but never sets aside dice that fail the turn on the spot when something
  else is possible, stops on big trays, and always lays down a real mooch card.
- normal: the exact odds of the *next* roll (`_odds.next_roll`, `_odds.transitions`): it rolls on
  while one more roll is worth more than the best card it could take now, sets aside what gives
  the best one-roll outlook, and mooches the card with the best chance × VPs of paying soon.
- hard: an exact expectimax over every dice outcome (`_odds.Policy`): the best expected VPs of the
  whole turn, for every set-aside and every stop/roll decision. As a moocher it asks the same
  policy how likely each mooch card is to pay (assuming the roller plays it), then weighs the VPs
  it would get after splitting with the other moochers.

The hard player's work is bounded by the game itself: the expectimax visits at most a few hundred
positions, so it needs no iteration count or deadline and stays deterministic (its decision times are
in docs/performance.md). `determinise` samples a full State
consistent with a view (the other seats' unrevealed picks and the dice to come), for tests and
any search that wants one.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from math import comb, exp

from engine.core import Action, Rng, Rules
from engine.madcat._cards import CATPOT, card
from engine.madcat._dice import COMBOS, DICE, WILD, kind_of, sort_faces
from engine.madcat._odds import (
    Node,
    Policy,
    Values,
    next_roll,
    policy_for,
    readable,
    transitions,
    values_from_cards,
)
from engine.madcat.model import MOOCH_CARDS, PICKS, Roll, State, Stop, View

_SALT = 0x3AD_CA7


def _rng(seed: int) -> Rng:
    return Rng.seeded(seed ^ _SALT)


def node_after(view: View, faces: tuple[str, ...]) -> Node:
    """The position after setting aside `faces` on the view's tray."""
    kind = view.kind if view.kind is not None else kind_of(faces)
    return sort_faces(view.aside + faces), kind


def _best(actions: Sequence[Action], score, seed: int) -> Action:
    """The highest-scoring action; exact ties broken by the seed."""
    scored = [(score(action), index) for index, action in enumerate(actions)]
    top = max(value for value, _ in scored)
    tied = [index for value, index in scored if value >= top - 1e-12]
    index, _ = _rng(seed).choice(tied)
    return actions[index]


def _outer(view: View, pick: str) -> int:
    """The VPs a mooch card would split: its outer card of the locked-in kind, or the catpot for Fail."""
    if pick == "fail":
        return view.cards[CATPOT]
    return view.cards[card(view.kind, pick, False)]


def expected_share(vps: int, others: int, chance: float) -> float:
    """E[floor(vps / (1 + X))] where X, the other moochers on the same card, is Binomial(others, chance)."""
    total = 0.0
    for count in range(others + 1):
        weight = comb(others, count) * chance**count * (1 - chance) ** (others - count)
        total += weight * (vps // (1 + count))
    return total


class EasyPlayer:
    """Seeded random, biased away from plainly bad moves."""

    level = "easy"

    def choose(self, rules: Rules, view: View, seat: int, legal: Sequence[Action], seed: int) -> Action:
        if len(legal) == 1:
            return legal[0]
        rng = _rng(seed)
        if view.phase == "mooch":
            cards = [action for action in legal if action.card != "none"]
            action, _ = rng.choice(cards)
            return action
        if view.phase == "aside":
            policy = policy_for(values_from_cards(view.cards))
            alive = [a for a in legal if not _dead_end(policy, node_after(view, a.faces))]
            action, _ = rng.choice(alive or list(legal))
            return action
        stops = [action for action in legal if isinstance(action, Stop)]
        if stops:
            roll_on, rng = rng.below(6)
            if not any(isinstance(action, Roll) for action in legal) or roll_on < len(view.aside):
                return max(stops, key=lambda action: view.cards[card(action.kind, action.combo, True)])
        action, _ = rng.choice([action for action in legal if isinstance(action, Roll)] or list(legal))
        return action


def _dead_end(policy: Policy, node: Node) -> bool:
    """Five dice set aside that take nothing: the turn fails at once."""
    tray = node[0]
    return len(tray) == DICE and tray.count(WILD) < DICE and policy.stop_value(node) <= 0


class NormalPlayer:
    """One exact roll ahead: the next roll's outcomes decide setting aside, stopping and mooching."""

    level = "normal"

    def choose(self, rules: Rules, view: View, seat: int, legal: Sequence[Action], seed: int) -> Action:
        if len(legal) == 1:
            return legal[0]
        policy = policy_for(values_from_cards(view.cards))
        if view.phase == "mooch":
            return _best(legal, lambda action: self._mooch_value(view, action.card), seed)
        if view.phase == "aside":
            return _best(legal, lambda action: self.outlook(policy, node_after(view, action.faces)), seed)
        node = (view.aside, view.kind)
        return _best(legal, lambda action: self._decide_value(policy, view, node, action), seed)

    @staticmethod
    def one_roll(policy: Policy, node: Node) -> float:
        """Expected VPs of rolling once more and then stopping on the best card the roll allows."""
        return _one_roll(policy.values, node)

    def outlook(self, policy: Policy, node: Node) -> float:
        """A position's worth one roll ahead: the better of stopping now and rolling once more."""
        stop = policy.stop_value(node)
        if len(node[0]) == DICE:
            return stop
        return max(stop, self.one_roll(policy, node))

    def _decide_value(self, policy: Policy, view: View, node: Node, action: Action) -> float:
        if isinstance(action, Stop):
            return float(view.cards[card(action.kind, action.combo, True)])
        return self.one_roll(policy, node)

    @staticmethod
    def _mooch_value(view: View, pick: str) -> float:
        if pick == "none":
            return -1.0
        tray = view.aside
        if pick != "fail" and pick in readable(tray, view.kind):
            return float(_outer(view, pick))
        if len(tray) == DICE:
            return 0.0
        odds = next_roll(tray, view.kind)
        chance = odds.fail if pick == "fail" else odds.combos[pick]
        return float(chance) * _outer(view, pick)


@lru_cache(maxsize=4096)
def _one_roll(values: Values, node: Node) -> float:
    policy = policy_for(values)
    total = 0.0
    for chance, nodes in transitions(*node):
        if nodes:
            total += float(chance) * max(policy.stop_value(next_node) for next_node in nodes)
    return total


class HardPlayer:
    """Exact expectimax over all dice outcomes for the roller; the same numbers drive mooching."""

    level = "hard"

    def __init__(self, temperature: float = 1.0) -> None:
        self.temperature = temperature

    def choose(self, rules: Rules, view: View, seat: int, legal: Sequence[Action], seed: int) -> Action:
        if len(legal) == 1:
            return legal[0]
        policy = policy_for(values_from_cards(view.cards))
        if view.phase == "mooch":
            values = self.mooch_values(view, policy)
            return _best(legal, lambda action: values[action.card], seed)
        if view.phase == "aside":
            return _best(legal, lambda action: policy.value(node_after(view, action.faces)), seed)
        node = (view.aside, view.kind)

        def decide(action: Action) -> float:
            if isinstance(action, Stop):
                return float(view.cards[card(action.kind, action.combo, True)])
            return policy.roll_value(node)

        return _best(legal, decide, seed)

    def mooch_values(self, view: View, policy: Policy) -> dict[str, float]:
        """Expected VPs of each mooch pick, if the roller plays `policy` and other moochers pick alike."""
        chances = dict(zip((*COMBOS, "fail"), policy.chances((view.aside, view.kind)), strict=True))
        raw = {pick: chances[pick] * _outer(view, pick) for pick in MOOCH_CARDS}
        # The other moochers see the same numbers: assume each picks a card with a chance that
        # grows with its raw value, then count the VPs left after splitting with them.
        top = max(raw.values())
        weights = {pick: exp((value - top) / self.temperature) for pick, value in raw.items()}
        total = sum(weights.values())
        others = view.players - 2
        values = {
            pick: chances[pick] * expected_share(_outer(view, pick), others, weights[pick] / total)
            for pick in MOOCH_CARDS
        }
        values["none"] = -1.0
        return values


def determinise(view: View, seed: int) -> State:
    """A full State the seat cannot tell from the true one: `view(determinise(v), seat) == v`.

    Other seats' unrevealed picks are drawn at random, the dice to come from a new generator;
    the split of each score into rolling / mooching / catpot VPs (not shown) counts as rolling.
    """
    rng = _rng(seed)
    picks = []
    for seat, picked in enumerate(view.picked):
        if view.revealed[seat] is not None:
            picks.append(view.revealed[seat])
        elif seat == view.seat:
            picks.append(view.my_pick)
        elif picked:
            pick, rng = rng.choice(PICKS)
            picks.append(pick)
        else:
            picks.append(None)
    _, rng = rng.next_u64()
    return State(
        players=view.players,
        rng=rng,
        first=view.first,
        turn=view.turn,
        phase=view.phase,
        supply=view.supply,
        cards=view.cards,
        scores=view.scores,
        earned=tuple((score, 0, 0) for score in view.scores),
        rolled=view.rolled,
        aside=view.aside,
        kind=view.kind,
        picks=tuple(picks),
        paid=tuple(pick is not None for pick in view.revealed),
        turns=view.turns,
    )


PLAYERS = {"easy": EasyPlayer(), "normal": NormalPlayer(), "hard": HardPlayer()}

__all__ = ["PLAYERS", "EasyPlayer", "HardPlayer", "NormalPlayer", "determinise"]
