"""The conformance harness itself: it passes a correct toy game and catches broken ones."""

from __future__ import annotations

import pytest

from engine.core import Action, Event, Frozen, IllegalAction, InvalidInput, Outcome, Rng, Rules
from engine.history import replay
from engine.testing import check_conformance, random_playout


class Take(Action):
    count: int

    def encode(self) -> str:
        return f"t{self.count}"


class NimState(Frozen):
    players: int
    pile: int
    turn: int
    secret: int
    rng: Rng


class NimView(Frozen):
    pile: int
    turn: int
    secret: int | None


class Nim(Rules[NimState, Take, NimView]):
    """Take 1-3 from a pile; whoever takes the last one wins. Each seat's secret is private."""

    key = "nim"
    title = "Nim"
    min_players = 2
    max_players = 3
    Options = Frozen
    State = NimState
    View = NimView

    def setup(self, players, seed, options=None):
        rng = Rng.seeded(seed)
        pile, rng = rng.below(20)
        return NimState(players=players, pile=pile + 5, turn=0, secret=7, rng=rng)

    def to_act(self, state):
        return [] if state.pile == 0 else [state.turn]

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [Take(count=n) for n in range(1, min(3, state.pile) + 1)]

    def check(self, state, seat, action):
        if not 1 <= action.count <= min(3, state.pile):
            raise IllegalAction(f"You can take 1 to {min(3, state.pile)}.")

    def resolve(self, state, seat, action):
        new = state.model_copy(update={"pile": state.pile - action.count, "turn": (seat + 1) % state.players})
        return new, [Event(kind="take", text=f"{{p{seat}}} took {action.count}.")]

    def view(self, state, seat):
        return NimView(pile=state.pile, turn=state.turn, secret=state.secret if seat == 0 else None)

    def outcome(self, state):
        if state.pile:
            return None
        last = (state.turn - 1) % state.players
        return Outcome(scores=tuple(int(s == last) for s in range(state.players)), winners=(last,), reason="")

    def decode_action(self, text):
        if not text.startswith("t") or not text[1:].isdigit():
            raise InvalidInput(f"{text!r} is not a move.")
        return Take(count=int(text[1:]))


def no_secret_for_others(state, seat, view):
    assert seat == 0 or view.secret is None, "seat sees another seat's secret"


def test_a_correct_game_passes():
    assert check_conformance(Nim(), players=[2, 3], games=30, leak_check=no_secret_for_others) == 60


def test_a_random_playout_ends_and_replays():
    """G-2: the seed and the action log give back the same game."""
    rules = Nim()
    playout = random_playout(rules, 2, seed=4, keep_states=True)
    assert replay(rules, 2, 4, None, playout.log) == playout.states[-1]


class LeakyNim(Nim):
    def view(self, state, seat):
        return NimView(pile=state.pile, turn=state.turn, secret=state.secret)


class LaxNim(Nim):
    def check(self, state, seat, action):
        """Accepts taking more than the pile holds, which legal_actions does not list."""


class ClockNim(Nim):
    """Reads something outside the state: replay gives a different game."""

    calls = 0

    def setup(self, players, seed, options=None):
        ClockNim.calls += 1
        return super().setup(players, seed + ClockNim.calls, options)


@pytest.mark.parametrize(
    ("broken", "message"),
    [(LeakyNim, "secret"), (LaxNim, "did not list"), (ClockNim, "replay differs")],
)
def test_the_harness_catches_a_broken_game(broken, message):
    with pytest.raises(AssertionError, match=message):
        check_conformance(broken(), players=[2, 3], games=10, leak_check=no_secret_for_others)


def test_the_fast_search_generator_draws_the_same_sequence_as_the_state_generator():
    from engine.core import FastRng

    rng, fast = Rng.seeded(2026), FastRng(2026)
    for _ in range(100):
        value, rng = rng.next_u64()
        assert fast.next() == value


@pytest.mark.parametrize("key", ["catsanity", "madcat", "catsdogs", "ninelives"])
def test_every_game_refuses_a_player_count_it_cannot_seat_with_a_readable_reason(key):
    from engine import GAMES

    rules = GAMES[key].rules
    reason = f"{rules.title} is for {rules.min_players} to {rules.max_players} players"
    with pytest.raises(InvalidInput, match=reason):
        rules.setup(rules.max_players + 1, seed=1)
