"""A conformance harness every game's tests call, and a seeded random player.

`check_conformance` plays random games and checks the engine contract on every
step: legal ⇔ accepted, no actions for seats not to act, input never mutated,
JSON round-trips, encodings round-trip, termination within a bound, replay from
seed + action log, plus the game's own invariants and leak checks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import Action, EngineError, Frozen, Rng, Rules, draw_below
from engine.history import replay

Invariant = Callable[[Frozen, Frozen], None]
"""Called as `invariant(previous_state, state)`; raises AssertionError on a broken invariant."""

LeakCheck = Callable[[Frozen, "int | None", Frozen], None]
"""Called as `leak_check(state, seat, view)` for every seat and the public view; raises on a leak."""


def view_json(view: Frozen) -> bytes:
    """The view's JSON as UTF-8 bytes: `model_dump_json()` without decoding it, for the leak checks
    that read every view at every step. An ASCII id is in these bytes exactly where it is in the text
    (no byte of a longer UTF-8 character is ASCII)."""
    return view.__pydantic_serializer__.to_json(view)


class RandomPlayer:
    """Picks uniformly among the legal actions, from its own seeded generator.

    It draws as an `Rng` would (`rng` is that generator), from a plain int: the harness draws twice
    at every step of every game."""

    def __init__(self, rules: Rules, seed: int) -> None:
        self.rules = rules
        self.rng = Rng.seeded(seed)

    @property
    def rng(self) -> Rng:
        return Rng(state=self._state)

    @rng.setter
    def rng(self, rng: Rng) -> None:
        self._state = rng.state

    def _pick(self, items: Sequence[Any]) -> Any:
        index, self._state = draw_below(self._state, len(items))
        return items[index]

    def choose(self, state: Frozen, seat: int) -> Action:
        return self._pick(self.rules.legal_actions(state, seat))

    def pick_seat(self, seats: Sequence[int]) -> int:
        return self._pick(seats)


@dataclass
class Playout:
    """A finished random game: its parameters, the action log, every state and all events."""

    players: int
    seed: int
    options: Frozen | None
    log: list[tuple[int, str]] = field(default_factory=list)
    states: list[Frozen] = field(default_factory=list)
    steps: int = 0


def random_playout(
    rules: Rules,
    players: int,
    seed: int,
    options: Frozen | None = None,
    max_steps: int = 100_000,
    keep_states: bool = False,
) -> Playout:
    """Play one game with random legal moves; raise if it does not end within `max_steps`."""
    player = RandomPlayer(rules, seed ^ 0x5EED)
    state = rules.setup(players, seed, options)
    playout = Playout(players, seed, options, states=[state] if keep_states else [])
    while rules.outcome(state) is None:
        if playout.steps >= max_steps:
            raise AssertionError(f"{rules.key}: game with seed {seed} did not end within {max_steps} steps")
        seats = rules.to_act(state)
        assert seats, f"{rules.key}: game not over but nobody is to act"
        seat = player.pick_seat(seats)
        action = player.choose(state, seat)
        state, _ = rules.apply(state, seat, action)
        playout.log.append((seat, action.encode()))
        playout.steps += 1
        if keep_states:
            playout.states.append(state)
    return playout


def _check_step_contract(rules: Rules, state: Frozen, players: int, foreign: Iterable[Action]) -> None:
    """Deep checks of one position: action lists, encodings, refusals."""
    to_act = set(rules.to_act(state))
    legal_by_seat: dict[int, list[Action]] = {}
    for seat in range(players):
        actions = rules.legal_actions(state, seat)
        legal_by_seat[seat] = actions
        if seat not in to_act:
            assert not actions, f"{rules.key}: seat {seat} is not to act but has legal actions"
        else:
            assert actions, f"{rules.key}: seat {seat} is to act but has no legal action"
            assert actions == rules.legal_actions(state, seat), "legal_actions is not deterministic"
            encodings = [a.encode() for a in actions]
            assert len(set(encodings)) == len(encodings), f"{rules.key}: two legal actions share an encoding"
    for seat, actions in legal_by_seat.items():
        for action in actions:
            encoded = action.encode()
            assert 0 < len(encoded) <= 60, f"{rules.key}: encoding {encoded!r} is too long"
            assert rules.decode_action(encoded) == action, f"{rules.key}: {encoded!r} does not round-trip"
            assert rules.is_legal(state, seat, action)
    for action in foreign:
        for seat in range(players):
            if action in legal_by_seat[seat]:
                continue
            try:
                rules.apply(state, seat, action)
            except EngineError as error:
                assert str(error), "an engine error must carry a readable reason"
            else:
                raise AssertionError(
                    f"{rules.key}: apply accepted {action.encode()!r} for seat {seat}, "
                    "which legal_actions did not list"
                )


def _check_round_trips(rules: Rules, state: Frozen, players: int, events: Sequence[Frozen]) -> None:
    assert type(state).model_validate_json(state.model_dump_json()) == state, "state does not round-trip"
    for seat in [None, *range(players)]:
        view = rules.view(state, seat)
        assert type(view).model_validate_json(view.model_dump_json()) == view, "view does not round-trip"
    for event in events:
        assert type(event).model_validate_json(event.model_dump_json()) == event


def check_conformance(
    rules: Rules,
    *,
    players: Sequence[int],
    games: int,
    options: Sequence[Frozen | None] = (None,),
    seed: int = 0,
    max_steps: int = 100_000,
    deep_games: int = 20,
    invariant: Invariant | None = None,
    leak_check: LeakCheck | None = None,
) -> int:
    """Play `games` random games per player count and option set, checking the contract.

    Invariants and leak checks run on every step of every game. The costlier
    checks (refusals, mutation, round-trips, replay) run on the first
    `deep_games` games of each configuration. Returns how many games were played.
    """
    played = 0
    for option in options:
        for count in players:
            for index in range(games):
                game_seed = seed * 1_000_003 + count * 10_007 + index
                deep = index < deep_games
                _play_checked(rules, count, game_seed, option, max_steps, deep, invariant, leak_check)
                played += 1
    return played


def _play_checked(
    rules: Rules,
    players: int,
    seed: int,
    options: Frozen | None,
    max_steps: int,
    deep: bool,
    invariant: Invariant | None,
    leak_check: LeakCheck | None,
) -> None:
    player = RandomPlayer(rules, seed ^ 0x5EED)
    state = rules.setup(players, seed, options)
    viewers = [None, *range(players)]
    log: list[tuple[int, str]] = []  # the encoded moves and the moves themselves: kept for the deep checks
    recent: list[Action] = []
    steps = 0
    while True:
        if leak_check is not None:
            for seat in viewers:
                leak_check(state, seat, rules.view(state, seat))
        if rules.outcome(state) is not None:
            assert rules.to_act(state) == [], f"{rules.key}: finished game still has seats to act"
            break
        assert steps < max_steps, f"{rules.key}: seed {seed} did not end within {max_steps} steps"
        if deep:
            _check_step_contract(rules, state, players, recent[-6:])
        seat = player.pick_seat(rules.to_act(state))
        action = player.choose(state, seat)
        if deep:
            before = state.model_dump_json()
        new_state, events = rules.apply(state, seat, action)
        if deep:
            assert state.model_dump_json() == before, f"{rules.key}: apply mutated its input"
            _check_round_trips(rules, new_state, players, events)
            log.append((seat, action.encode()))
            recent.append(action)
        if invariant is not None:
            invariant(state, new_state)
        state = new_state
        steps += 1
    if deep:
        outcome = rules.outcome(state)
        assert type(outcome).model_validate_json(outcome.model_dump_json()) == outcome
        assert set(outcome.winners) <= set(range(players)), "winners must be seats (none: nobody won)"
        assert replay(rules, players, seed, options, log) == state, f"{rules.key}: replay differs"
        try:
            rules.apply(state, 0, recent[-1])
        except EngineError:
            pass
        else:
            raise AssertionError(f"{rules.key}: a finished game accepted a move")
