"""Information-set Monte Carlo tree search for Nine Lives (single observer, with determinisation).

Each iteration samples a full state consistent with the searching seat's view, walks the shared
tree (children keyed by move; a child only counts as available when legal in that sample), adds
one node, then plays the round out with a quick policy and scores how many lives each seat lost.
Every node keeps the reward of the seat that chose the move leading to it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from engine.core import FastRng
from engine.ninelives._cards import LIMIT
from engine.ninelives._counting import effective, raw_counts
from engine.ninelives._determinise import Sampler
from engine.ninelives._heuristics import WAGER_HAND
from engine.ninelives._legal import legal, to_act
from engine.ninelives._resolve import resolve
from engine.ninelives.model import EndTurn, Move, Phase, Play, SkipTurn, State, Step, View, Wager

EXPLORE = 0.35
ROLLOUT_STEPS = 250


class Node:
    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


def _ended(state: State, start_round: int) -> bool:
    return state.round != start_round or state.phase in (Phase.RETURN, Phase.QUEEN, Phase.OVER)


def rewards(state: State, start: tuple[int, ...]) -> list[float]:
    """Per seat, in [0, 1]: lives lost this round against the others' average, plus a little for cards.

    A finished game scores its result instead: 1 for a winner, 0 otherwise.
    """
    n = state.players
    lives = [len(state.stacks[s]) + len(state.wagered[s]) for s in range(n)]
    if state.phase == Phase.OVER:
        best = max(lives)
        return [1.0 if lives[s] == best else 0.0 for s in range(n)]
    lost = [start[s] - lives[s] for s in range(n)]
    total = sum(lost)
    result = []
    for s in range(n):
        others = (total - lost[s]) / (n - 1)
        value = 0.5 + 0.3 * (others - lost[s]) + 0.02 * min(len(state.hands[s]), 5)
        result.append(min(1.0, max(0.0, value)))
    return result


def rollout_move(state: State, seat: int, moves: list[Move], rng: FastRng) -> Move:
    """A quick, sensible policy: perfect nines, else any play, else a wager; never give up early."""
    if state.phase == Phase.PLAY and state.step == Step.PLAY:
        plays = [m for m in moves if isinstance(m, Play)]
        if plays:
            base = raw_counts(state.table)
            for move in plays:
                adds, _ = effective(state.cats[move.card], state.power)
                if any(adds[c] and base[c] + adds[c] == LIMIT and c not in state.ignored for c in range(4)):
                    return move
            wager = isinstance(moves[0], Wager)
            if wager and len(state.stacks[seat]) >= 2 and len(state.hands[seat]) <= WAGER_HAND:
                return moves[0]
            return plays[rng.below(len(plays))]
        for kind in (Wager, SkipTurn, EndTurn):
            for move in moves:
                if isinstance(move, kind):
                    return move
        return moves[-1]
    if state.phase in (Phase.ORDER, Phase.RETURN) or state.step == Step.REORDER:
        return moves[0]
    return moves[rng.below(len(moves))]


def _play_out(state: State, start: tuple[int, ...], start_round: int, rng: FastRng) -> list[float]:
    """Play on with the quick policy until the round that was searched is over; score it."""
    for _ in range(ROLLOUT_STEPS):
        if _ended(state, start_round):
            break
        seat = to_act(state)[0]
        state, _ = resolve(state, seat, rollout_move(state, seat, legal(state, seat), rng))
    return rewards(state, start)


def ismcts(
    view: View,
    seed: int,
    iterations: int,
    out_of_time: Callable[[], bool] | None = None,
    allowed: frozenset[str] | None = None,
) -> str:
    """The encoding of the move most visited at the root after `iterations` samples of the hidden state.

    `allowed` limits the root to those moves (the others are not searched).
    """
    root = Node()
    rng = FastRng(seed)
    sampler = Sampler(view)
    start = tuple(s.lives for s in view.seats)
    start_round = view.round
    for iteration in range(iterations):
        if out_of_time is not None and iteration >= 8 and iteration % 8 == 0 and out_of_time():
            break
        state = sampler.sample(rng.next())
        node = root
        path: list[tuple[Node, int]] = []
        while not _ended(state, start_round):
            seat = to_act(state)[0]
            moves = legal(state, seat)
            if allowed is not None and node is root:
                moves = [m for m in moves if m.encode() in allowed]
            if len(moves) == 1:
                state, _ = resolve(state, seat, moves[0])
                continue
            codes = [m.encode() for m in moves]
            children = node.children
            untried = []
            for i, code in enumerate(codes):
                kid = children.get(code)
                if kid is None:
                    untried.append(i)
                else:
                    kid.available += 1
            if untried:
                index = untried[rng.below(len(untried))]
                child = children[codes[index]] = Node()
                child.available = 1
                state, _ = resolve(state, seat, moves[index])
                path.append((child, seat))
                break
            best, best_value = 0, -1.0
            for i, code in enumerate(codes):
                kid = children[code]
                value = kid.reward / kid.visits + EXPLORE * math.sqrt(math.log(kid.available) / kid.visits)
                if value > best_value:
                    best, best_value = i, value
            node = children[codes[best]]
            state, _ = resolve(state, seat, moves[best])
            path.append((node, seat))
        scores = _play_out(state, start, start_round, rng)
        for visited, seat in path:
            visited.visits += 1
            visited.reward += scores[seat]
    if not root.children:
        return ""
    return max(root.children.items(), key=lambda item: (item[1].visits, item[1].reward, item[0]))[0]
