"""Exact dice odds for the roller's position: every outcome of every roll is enumerated, never sampled.

A position is the set-aside tray (a sorted tuple of faces) and the locked-in kind
(None until the first mad or sad die). Three tools, from cheap to complete:

- `roll_outcomes(k)`: every distinct result of rolling k dice with its exact probability;
- `next_roll(tray, kind)`: what the next roll can bring (fail, each combination within reach);
- `best_chances(tray, kind)`: for each combination, the chance to read it by the end of the turn
  when playing only for it, and `Policy`: the roller's expected VPs under the best stopping
  policy for given card values, with the chance that each mooch card pays under that policy.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import factorial
from typing import NamedTuple

from engine.madcat._dice import COMBOS, DICE, FACES, KINDS, WILD, kind_of, legal_asides, readings, sort_faces

Tray = tuple[str, ...]
Node = tuple[Tray, "str | None"]


@lru_cache(maxsize=8)
def roll_outcomes(count: int) -> tuple[tuple[Tray, Fraction], ...]:
    """Every distinct roll of `count` dice (as sorted faces) with its exact probability; they sum to 1."""
    results: list[tuple[Tray, Fraction]] = []
    total = 6**count

    def extend(prefix: list[str], start: int, left: int) -> None:
        if left == 0:
            ways = factorial(count)
            for face in FACES:
                ways //= factorial(prefix.count(face))
            results.append((tuple(prefix), Fraction(ways, total)))
            return
        for index in range(start, len(FACES)):
            extend([*prefix, FACES[index]], index, left - 1)

    extend([], 0, count)
    return tuple(results)


def _next_kind(kind: str | None, part: Tray) -> str | None:
    return kind if kind is not None else kind_of(part)


@lru_cache(maxsize=1024)
def transitions(tray: Tray, kind: str | None) -> tuple[tuple[Fraction, tuple[Node, ...]], ...]:
    """For each outcome of rolling the free dice: its probability and the positions each set-aside leads to.

    An empty tuple of positions means the roll fails the turn (MC-2, MC-9).
    """
    result = []
    for rolled, chance in roll_outcomes(DICE - len(tray)):
        nodes = tuple(
            (sort_faces(tray + part), _next_kind(kind, part)) for part in legal_asides(rolled, kind)
        )
        result.append((chance, nodes))
    return tuple(result)


def readable(tray: Tray, kind: str | None) -> tuple[str, ...]:
    """The combinations a tray reads as (MC-5); nothing for an empty tray or five wilds (MC-8)."""
    return readings(tray, kind) if tray else ()


class NextRoll(NamedTuple):
    """Exact odds of the next roll from a position: failing, and reaching each combination at once."""

    fail: Fraction
    combos: dict[str, Fraction]
    """For each combination: the chance that some set-aside from the roll makes the tray read as it."""
    five_wilds: Fraction


@lru_cache(maxsize=1024)
def next_roll(tray: Tray, kind: str | None) -> NextRoll:
    """The exact odds of the next roll from `tray` (fewer than 5 dice set aside)."""
    if len(tray) >= DICE:
        raise ValueError("all five dice are set aside: there is no next roll")
    fail = Fraction(0)
    five = Fraction(0)
    combos = dict.fromkeys(COMBOS, Fraction(0))
    for chance, nodes in transitions(tray, kind):
        if not nodes:
            fail += chance
            continue
        reachable: set[str] = set()
        for node_tray, node_kind in nodes:
            reachable.update(readable(node_tray, node_kind))
            if node_tray.count(WILD) == DICE:
                five += chance
        for combo in reachable:
            combos[combo] += chance
    return NextRoll(fail=fail, combos=combos, five_wilds=five)


@lru_cache(maxsize=4096)
def _chance_to_read(tray: Tray, kind: str | None, combo: str) -> Fraction:
    if combo in readable(tray, kind):
        return Fraction(1)
    if len(tray) == DICE:
        return Fraction(0)
    total = Fraction(0)
    for chance, nodes in transitions(tray, kind):
        if nodes:
            total += chance * max(_chance_to_read(t, k, combo) for t, k in nodes)
    return total


def best_chances(tray: Tray, kind: str | None) -> dict[str, Fraction]:
    """For each combination, the exact chance to read it by the end of the turn when playing only for it."""
    return {combo: _chance_to_read(tray, kind, combo) for combo in COMBOS}


class Values(NamedTuple):
    """What the roller can take this turn: inner card VPs per kind and combination, and the catpot."""

    inner: tuple[tuple[int, int, int, int], tuple[int, int, int, int]]
    """Inner card VPs for mad then sad, in `COMBOS` order."""
    catpot: int


def values_from_cards(cards: tuple[int, ...]) -> Values:
    """The roller's `Values` from the 17 card piles of a state or view."""
    mad = tuple(cards[index * 2 + 1] for index in range(4))
    sad = tuple(cards[8 + index * 2 + 1] for index in range(4))
    return Values(inner=(mad, sad), catpot=cards[16])


class Policy:
    """The roller's best play for given card values, by expectimax over every dice outcome.

    `value(node)` is the expected VPs from a position once its dice are set aside, playing
    on optimally; `chances(node)` the chance, under that same play, that the tray reads as
    each combination at some point (so that mooch card pays) and that the turn fails.
    """

    def __init__(self, values: Values) -> None:
        self.values = values
        self._value: dict[Node, float] = {}
        self._roll: dict[Node, float] = {}
        self._chances: dict[Node, tuple[float, ...]] = {}

    def stop_value(self, node: Node) -> float:
        """The best VPs the roller could take by stopping at `node` (0 if stopping is not possible)."""
        tray, kind = node
        if tray.count(WILD) == DICE:
            return float(self.values.catpot)
        best = 0.0
        for combo in readable(tray, kind):
            index = COMBOS.index(combo)
            for each in (kind,) if kind is not None else KINDS:
                best = max(best, float(self.values.inner[KINDS.index(each)][index]))
        return best

    def roll_value(self, node: Node) -> float:
        """Expected VPs from rolling the free dice at `node` and playing on optimally."""
        cached = self._roll.get(node)
        if cached is not None:
            return cached
        total = 0.0
        for chance, nodes in transitions(*node):
            if nodes:
                total += float(chance) * max(self.value(next_node) for next_node in nodes)
        self._roll[node] = total
        return total

    def stops_here(self, node: Node) -> bool:
        """Whether the best play stops at `node` (it must with five dice set aside)."""
        tray = node[0]
        if len(tray) == DICE:
            return True
        stop = self.stop_value(node)
        return stop > 0 and stop >= self.roll_value(node)

    def value(self, node: Node) -> float:
        """Expected VPs for the roller at `node` (dice just set aside), playing optimally from here."""
        cached = self._value.get(node)
        if cached is not None:
            return cached
        stop = self.stop_value(node)
        result = stop if len(node[0]) == DICE else max(stop, self.roll_value(node))
        self._value[node] = result
        return result

    def best_aside(self, nodes: tuple[Node, ...]) -> Node:
        """The position with the highest value among those a roll allows (first on ties)."""
        return max(nodes, key=self.value)

    def chances(self, node: Node) -> tuple[float, ...]:
        """Under this policy from `node`: chance the tray reads as each combination, then of a fail."""
        cached = self._chances.get(node)
        if cached is not None:
            return cached
        tray, kind = node
        now = readable(tray, kind)
        if self.stops_here(node):
            failed = self.stop_value(node) <= 0 and tray.count(WILD) < DICE
            result = (*(1.0 if combo in now else 0.0 for combo in COMBOS), 1.0 if failed else 0.0)
        else:
            sums = [0.0] * (len(COMBOS) + 1)
            for chance, nodes in transitions(tray, kind):
                weight = float(chance)
                if not nodes:
                    sums[-1] += weight
                    continue
                follow = self.chances(self.best_aside(nodes))
                for index, value in enumerate(follow):
                    sums[index] += weight * value
            result = (*(1.0 if combo in now else sums[i] for i, combo in enumerate(COMBOS)), sums[-1])
        self._chances[node] = result
        return result


@lru_cache(maxsize=256)
def policy_for(values: Values) -> Policy:
    """A shared `Policy` per set of card values (its tables fill in as positions are asked for)."""
    return Policy(values)
