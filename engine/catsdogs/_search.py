"""Fast search for the Cats & Dogs computer players: a round simulator on small ints, ISMCTS, solo DP.

Cards are ints here: 0–8 are cats 1–9, 9–17 dogs 1–9 (the order of `_cards.CARDS`).
Nothing here sees a State: the players build the root from a view and sample the
hidden cards themselves (`ai.py`).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

from engine.catsdogs._cards import CARDS, RIBBONS, TARGET
from engine.core import FastRng

STR = tuple(i % 9 + 1 for i in range(18))
FAC = tuple(i // 9 for i in range(18))
RIB = tuple(RIBBONS[card] for card in CARDS)
INDEX = {card: i for i, card in enumerate(CARDS)}
TABLE = -1


def settle(plays: Sequence[tuple[int, int]], gains: list[int]) -> int | None:
    """Resolve a trick as CD-2, adding each collector's ribbons to `gains`; the winner (None on a tie)."""
    cats = dogs = 0
    for _, card in plays:
        if card < 9:
            cats += card + 1
        else:
            dogs += card - 8
    if cats == dogs:
        for seat, card in plays:
            if seat >= 0:
                gains[seat] += RIB[card]
        return None
    winning = 0 if cats > dogs else 1
    best_seat, best = TABLE, -1
    for seat, card in plays:
        if FAC[card] == winning and STR[card] > best:
            best_seat, best = seat, STR[card]
    if not cats or not dogs:
        weakest = min(plays, key=lambda play: STR[play[1]])[1]
        for seat, card in plays:
            collector = best_seat if card == weakest else seat
            if collector >= 0:
                gains[collector] += RIB[card]
    else:
        for seat, card in plays:
            collector = seat if FAC[card] == winning else best_seat
            if collector >= 0:
                gains[collector] += RIB[card]
    return best_seat


class Round:
    """The rest of a round (2–5 players) with every hand known: a determinisation, cheap to copy."""

    __slots__ = ("gains", "hands", "leader", "players", "table", "trick")

    def __init__(self, players, hands, leader, trick, table, gains) -> None:
        self.players = players
        self.hands = hands
        self.leader = leader
        self.trick = trick
        self.table = table
        self.gains = gains

    def copy(self) -> Round:
        return Round(
            self.players,
            [list(h) for h in self.hands],
            self.leader,
            list(self.trick),
            self.table,
            list(self.gains),
        )

    def actor(self) -> int:
        return (self.leader + len(self.trick)) % self.players

    def done(self) -> bool:
        return not self.trick and not self.hands[self.leader]

    def play(self, card: int) -> None:
        """The actor plays `card`; a complete trick is settled and the next leader set (CD-3, CD-6)."""
        seat = (self.leader + len(self.trick)) % self.players
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < self.players:
            return
        plays = self.trick
        if self.players == 2:
            plays = [*plays, (TABLE, self.table[0])]
            self.table = self.table[1:]
        winner = settle(plays, self.gains)
        if self.players == 2:
            self.leader = winner if winner is not None and winner >= 0 else plays[1][0]
        else:
            self.leader = winner if winner is not None else plays[-1][0]
        self.trick = []


def round_rewards(gains: Sequence[int], scores: Sequence[int]) -> list[float]:
    """Each seat's reward in [0, 1] at the end of a round: the game's win if it ends, else the ribbon lead."""
    players = len(gains)
    total = sum(gains)
    totals = [s + g for s, g in zip(scores, gains, strict=True)]
    top = max(totals)
    rewards = []
    for seat in range(players):
        lead = gains[seat] - (total - gains[seat]) / (players - 1)
        value = min(1.0, max(0.0, 0.5 + lead / 16))
        if top >= TARGET:
            tied = totals.count(top)
            win = (1.0 / tied) if totals[seat] == top else 0.0
            value = 0.75 * win + 0.25 * value
        rewards.append(value)
    return rewards


class _Node:
    __slots__ = ("actor", "avail", "children", "total", "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.children: dict[int, _Node] = {}


def ismcts(
    sample: Callable[[FastRng], Round],
    scores: Sequence[int],
    legal: Sequence[int],
    rng: FastRng,
    iterations: int,
    out_of_time: Callable[[], bool] | None = None,
    exploration: float = 0.7,
) -> int:
    """Single-observer ISMCTS: the most visited of `legal` after `iterations` determinised playouts."""
    root = _Node(TABLE)
    log = math.log
    sqrt = math.sqrt
    for iteration in range(iterations):
        if out_of_time is not None and iteration % 16 == 15 and out_of_time():
            break
        sim = sample(rng)
        node = root
        path = []
        while not sim.done():
            actor = sim.actor()
            options = sim.hands[actor]
            untried = [card for card in options if card not in node.children]
            for card in options:
                child = node.children.get(card)
                if child is not None:
                    child.avail += 1
            if untried:
                card = untried[rng.next() % len(untried)]
                child = _Node(actor)
                child.avail = 1
                node.children[card] = child
                sim.play(card)
                path.append(child)
                break
            best_value, best_card, best_child = -1.0, options[0], None
            for card in options:
                child = node.children[card]
                value = child.total / child.visits + exploration * sqrt(log(child.avail) / child.visits)
                if value > best_value:
                    best_value, best_card, best_child = value, card, child
            sim.play(best_card)
            path.append(best_child)
            node = best_child
        while not sim.done():
            hand = sim.hands[sim.actor()]
            sim.play(hand[rng.next() % len(hand)])
        rewards = round_rewards(sim.gains, scores)
        for child in path:
            child.visits += 1
            child.total += rewards[child.actor]
    return max(legal, key=lambda card: (root.children[card].visits if card in root.children else -1, -card))


# ---- Solo: an exact expectimax over the hidden cards (each unknown card is equally likely, CD-7) ----


def _solo_gain(card: int, up: int, hidden: int) -> int:
    gains = [0]
    settle(((0, card), (TABLE, up), (TABLE, hidden)), gains)
    return gains[0]


# SOLO_GAIN[card * 324 + up * 18 + hidden]: the solo player's ribbons from one trick.
SOLO_GAIN = tuple(_solo_gain(c, u, h) for c in range(18) for u in range(18) for h in range(18))


def solo_values(
    hand: Sequence[int], faceup: Sequence[int], unknown: Sequence[int], utility: Sequence[float] | None = None
) -> dict[int, float]:
    """For each card of `hand`, the expected utility of playing it now and playing on optimally.

    `faceup[k]` is the face-up card of the k-th remaining trick; the hidden card of each trick is
    uniform over the `unknown` cards not yet turned (CD-7: the deal is uniform). `utility[g]` is the
    value of gaining g more ribbons this round; None means the ribbons themselves (expected ribbons).
    """
    hand_mask = sum(1 << card for card in hand)
    unknown_mask = sum(1 << card for card in unknown)
    if utility is None:
        return _expected_ribbons(len(hand), faceup, hand_mask, unknown_mask)
    return _expected_utility(len(hand), faceup, hand_mask, unknown_mask, tuple(utility))


def _expected_ribbons(
    size: int, faceup: Sequence[int], hand_mask: int, unknown_mask: int
) -> dict[int, float]:
    gain = SOLO_GAIN
    memo: dict[tuple[int, int], float] = {}

    def play_value(card: int, hand_mask: int, unknown_mask: int) -> float:
        base = card * 324 + faceup[size - hand_mask.bit_count()] * 18
        rest = hand_mask & ~(1 << card)
        hidden_cards = _bits(unknown_mask)
        total = 0.0
        for hidden in hidden_cards:
            total += gain[base + hidden] + value(rest, unknown_mask & ~(1 << hidden))
        return total / len(hidden_cards)

    def value(hand_mask: int, unknown_mask: int) -> float:
        if not hand_mask:
            return 0.0
        key = (hand_mask, unknown_mask)
        found = memo.get(key)
        if found is None:
            found = max(play_value(card, hand_mask, unknown_mask) for card in _bits(hand_mask))
            memo[key] = found
        return found

    return {card: play_value(card, hand_mask, unknown_mask) for card in _bits(hand_mask)}


def _expected_utility(
    size: int, faceup: Sequence[int], hand_mask: int, unknown_mask: int, utility: tuple[float, ...]
) -> dict[int, float]:
    """Like `_expected_ribbons` for a utility of the round's ribbons: each memo entry is a vector
    over the ribbons gained so far (0 … cap, where more ribbons add nothing)."""
    gain = SOLO_GAIN
    top = max(utility)
    cap = next(g for g, u in enumerate(utility) if u >= top)
    tops = (top,) * (cap + 1)
    leaf = utility[: cap + 1]
    memo: dict[tuple[int, int], tuple[float, ...]] = {}
    add = operator.add

    def play_vector(card: int, hand_mask: int, unknown_mask: int) -> list[float]:
        base = card * 324 + faceup[size - hand_mask.bit_count()] * 18
        rest = hand_mask & ~(1 << card)
        hidden_cards = _bits(unknown_mask)
        acc = [0.0] * (cap + 1)
        for hidden in hidden_cards:
            won = gain[base + hidden]
            child = vector(rest, unknown_mask & ~(1 << hidden))
            shifted = child[won:] + tops[: min(won, cap + 1)] if won else child
            acc = list(map(add, acc, shifted))
        count = len(hidden_cards)
        return [a / count for a in acc]

    def vector(hand_mask: int, unknown_mask: int) -> tuple[float, ...]:
        if not hand_mask:
            return leaf
        key = (hand_mask, unknown_mask)
        found = memo.get(key)
        if found is None:
            vectors = [play_vector(card, hand_mask, unknown_mask) for card in _bits(hand_mask)]
            found = tuple(vectors[0]) if len(vectors) == 1 else tuple(map(max, *vectors))
            memo[key] = found
        return found

    return {card: play_vector(card, hand_mask, unknown_mask)[0] for card in _bits(hand_mask)}


def _bits(mask: int) -> tuple[int, ...]:
    return _BITS.get(mask) or _bits_slow(mask)


_BITS: dict[int, tuple[int, ...]] = {}


def _bits_slow(mask: int) -> tuple[int, ...]:
    bits = tuple(i for i in range(18) if mask >> i & 1)
    if len(_BITS) < 200_000:
        _BITS[mask] = bits
    return bits


# Ribbons a round brings the solo player playing for the most expected ribbons (gain: probability),
# measured over 4,000 seeded rounds with `solo_values`; used to value ribbons by the chance to reach 21.
SOLO_ROUND_GAIN = {
    0: 0.0018, 1: 0.0053, 2: 0.0133, 3: 0.0375, 4: 0.0648, 5: 0.0883, 6: 0.1208, 7: 0.146, 8: 0.1438,
    9: 0.1353, 10: 0.1015, 11: 0.0705, 12: 0.037, 13: 0.0233, 14: 0.0085, 15: 0.002, 16: 0.0005, 17: 0.0002,
}  # fmt: skip


def success_utility(score: int, rounds_left_after: int, distribution: dict[int, float]) -> list[float]:
    """utility[g]: the chance to reach 21 from `score` + g with `rounds_left_after` more rounds to play."""
    need = [1.0 if score + g >= TARGET else 0.0 for g in range(21)]
    if not distribution:
        return [min(1.0, (score + g) / TARGET) for g in range(21)] if rounds_left_after else need
    chance = [1.0 if total >= TARGET else 0.0 for total in range(TARGET + 1)]  # chance[t]: success from t
    for _ in range(rounds_left_after):
        chance = [
            1.0 if t >= TARGET else sum(p * chance[min(TARGET, t + g)] for g, p in distribution.items())
            for t in range(TARGET + 1)
        ]
    return [chance[min(TARGET, score + g)] for g in range(21)]
