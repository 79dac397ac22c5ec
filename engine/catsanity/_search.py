"""Information-set Monte Carlo tree search for CatSanity, with determinisation.

The only hidden information is the order of the deck (and the generator that will shuffle it
later). `determinize` samples a full state consistent with a seat's view: the cards seen nowhere
are dealt into the deck in a random order. Each iteration of `ismcts` samples such a state, walks
one shared tree of decisions (single-observer ISMCTS: children keyed by the encoded action, UCB
over the actions available in this sample), expands one node, plays out the rest of the game with
a cheap heuristic and backs the result up.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from engine.catsanity._cards import ALL_CARDS
from engine.catsanity._flow import MUTE
from engine.catsanity._heuristics import quick_choice
from engine.catsanity._scoring import quick_score
from engine.catsanity.model import CatSanityAction, RecallState, State, View
from engine.catsanity.view import to_act
from engine.core import Rng, Rules

_MASK = (1 << 64) - 1
EXPLORATION = 0.7
MIN_ITERATIONS = 8


def mix(value: int) -> int:
    """A splitmix64 step as a plain function: a well-spread 64-bit number from any integer."""
    z = (value + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def determinize(view: View, seed: int) -> State:
    """A full state consistent with `view`: the unseen cards shuffled into the deck from `seed`."""
    placed = set(view.alley)
    for home in view.homes:
        placed.update(home)
    unseen = [card for card in ALL_CARDS if card not in placed]
    order = sorted(unseen, key=lambda card: mix(seed ^ _CARD_SALT[card]))
    recall = None
    if view.recall_adopter is not None:
        recall = RecallState(
            adopter=view.recall_adopter, waiting=view.recall_waiting, picked=view.my_recall_pick
        )
    return State(
        players=view.players,
        rng=Rng.seeded(mix(seed + 1)),
        deck=tuple(order[: view.deck_size]),
        alley=view.alley,
        homes=view.homes,
        tokens=view.tokens,
        turn=view.turn,
        phase=view.phase,
        copy_as=view.copy_as,
        auction=view.auction,
        recall=recall,
        turns=view.turns,
        end_reason=view.end_reason,
    )


_CARD_SALT = {card: mix(index * 0x1000193) for index, card in enumerate(ALL_CARDS)}


def rewards(state: State) -> list[float]:
    """Each seat's result of a finished game: a share of the win, plus a little for the margin."""
    scores = [quick_score(home, state.copy_as) for home in state.homes]
    best = max(scores)
    winners = scores.count(best)
    result = []
    for seat, score in enumerate(scores):
        rival = max(s for other, s in enumerate(scores) if other != seat)
        margin = min(1.0, max(0.0, 0.5 + (score - rival) / 40.0))
        result.append((0.8 / winners if score == best else 0.0) + 0.2 * margin)
    return result


class _Node:
    __slots__ = ("actor", "avail", "children", "reward", "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor
        self.visits = 0
        self.avail = 0
        self.reward = 0.0
        self.children: dict[str, _Node] = {}


def _playout(rules: Rules, state: State, draw: int) -> tuple[State, int]:
    """The end of the game played with the cheap heuristic, and how many moves that took."""
    moves = 0
    while state.phase != "over":
        seat = to_act(state)[0]
        draw = mix(draw)
        action = quick_choice(state, seat, rules.legal_actions(state, seat), draw)
        state = rules.advance(state, seat, action, MUTE)
        moves += 1
    return state, moves


def ismcts(
    rules: Rules,
    view: View,
    seat: int,
    legal: Sequence[CatSanityAction],
    seed: int,
    iterations: int,
    moves: int | None = None,
    clock: Callable[[], float] | None = None,
    seconds: float = 0.8,
) -> CatSanityAction:
    """The legal action whose subtree the search visited most, after at most `iterations` samples.

    `moves` caps the simulated moves instead (never below `MIN_ITERATIONS` samples): early in the
    game, when playouts are long, fewer samples fit; near the end, more. Both limits are counts, so
    the same view and seed always give the same choice. With a `clock`, the search also stops once
    `seconds` have passed (after `MIN_ITERATIONS`), so an overloaded machine still answers in time.
    """
    if len(legal) == 1:
        return legal[0]
    by_key = {action.encode(): action for action in legal}
    root = _Node(seat)
    deadline = clock() + seconds if clock else 0.0
    simulated = 0
    for iteration in range(iterations):
        if iteration >= MIN_ITERATIONS:
            if moves is not None and simulated >= moves:
                break
            if clock and clock() > deadline:
                break
        sample_seed = mix(seed * 1_000_003 + iteration)
        state = determinize(view, sample_seed)
        node = root
        path: list[_Node] = []
        draw = sample_seed
        while state.phase != "over":
            actor = to_act(state)[0]
            actions = rules.legal_actions(state, actor) if node is not root else list(legal)
            keys = [action.encode() for action in actions]
            untried = []
            for key, action in zip(keys, actions, strict=True):
                child = node.children.get(key)
                if child is None:
                    untried.append((key, action))
                else:
                    child.avail += 1
            if untried:
                draw = mix(draw)
                key, action = untried[draw % len(untried)]
                child = _Node(actor)
                child.avail = 1
                node.children[key] = child
                state = rules.advance(state, actor, action, MUTE)
                path.append(child)
                break
            best_key, best_value = keys[0], -1.0
            for key in keys:
                child = node.children[key]
                value = child.reward / child.visits + EXPLORATION * math.sqrt(
                    math.log(child.avail) / child.visits
                )
                if value > best_value:
                    best_key, best_value = key, value
            node = node.children[best_key]
            state = rules.advance(state, actor, actions[keys.index(best_key)], MUTE)
            path.append(node)
        final, played = _playout(rules, state, draw)
        simulated += len(path) + played
        result = rewards(final)
        for visited in path:
            visited.visits += 1
            visited.reward += result[visited.actor]
    best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].reward))
    return by_key[best[0]]
