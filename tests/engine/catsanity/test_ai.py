"""CatSanity computer players: legal, blind to the hidden deck, deterministic, and sensible."""

from __future__ import annotations

import pytest

from engine import GAMES
from engine.catsanity import RULES
from engine.catsanity._search import determinize, ismcts
from engine.catsanity.ai import PLAYERS, HardPlayer
from engine.catsanity.position import position
from engine.core import Rng
from engine.testing import RandomPlayer

LEVELS = {"easy": PLAYERS["easy"], "normal": PLAYERS["normal"], "hard": HardPlayer(iterations=4)}


def random_positions(games: int, every: int = 1):
    """(state, seat) pairs from random games over 2–5 players, including every kind of decision."""
    for game in range(games):
        players = 2 + game % 4
        walker = RandomPlayer(RULES, game)
        state = RULES.setup(players, seed=game)
        step = 0
        while RULES.outcome(state) is None:
            (seat,) = RULES.to_act(state)
            if step % every == 0:
                yield state, seat
            state, _ = RULES.apply(state, seat, walker.choose(state, seat))
            step += 1


def resampled(state, seed: int):
    """The same position with the hidden deck dealt in another order and another generator."""
    deck, _ = Rng.seeded(seed).shuffled(state.deck)
    return state.model_copy(update={"deck": deck, "rng": Rng.seeded(seed + 1)})


POSITIONS = list(random_positions(120, every=2))


def test_there_are_thousands_of_positions_with_every_kind_of_decision():
    assert len(POSITIONS) >= 1_500
    assert {state.phase for state, _ in POSITIONS} == {"turn", "auction", "copy", "ninja", "recall"}


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_easy_and_normal_only_choose_legal_actions(level):
    player = LEVELS[level]
    for index, (state, seat) in enumerate(POSITIONS):
        legal = RULES.legal_actions(state, seat)
        assert player.choose(RULES, RULES.view(state, seat), seat, legal, index) in legal


def test_hard_only_chooses_legal_actions():
    player = LEVELS["hard"]
    for index, (state, seat) in enumerate(POSITIONS[::10]):
        legal = RULES.legal_actions(state, seat)
        assert player.choose(RULES, RULES.view(state, seat), seat, legal, index) in legal


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_choices_do_not_depend_on_the_hidden_deck(level):
    """Resample what the seat cannot see: same view, same seed, so the very same choice."""
    player = LEVELS[level]
    for index, (state, seat) in enumerate(POSITIONS[:: 25 if level == "hard" else 5]):
        legal = RULES.legal_actions(state, seat)
        view = RULES.view(state, seat)
        choice = player.choose(RULES, view, seat, legal, index)
        for other in (1, 2):
            other_view = RULES.view(resampled(state, index * 7 + other), seat)
            assert other_view == view
            assert player.choose(RULES, other_view, seat, legal, index) == choice


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_same_seed_and_view_give_the_same_choice(level):
    player = LEVELS[level]
    for index, (state, seat) in enumerate(POSITIONS[::40]):
        legal = RULES.legal_actions(state, seat)
        view = RULES.view(state, seat)
        assert player.choose(RULES, view, seat, legal, index) == player.choose(
            RULES, view, seat, legal, index
        )


def test_determinize_samples_a_full_state_consistent_with_the_view():
    for index, (state, seat) in enumerate(POSITIONS[::10]):
        view = RULES.view(state, seat)
        sample = determinize(view, index)
        assert RULES.view(sample, seat) == view
        assert sorted(sample.deck) == sorted(state.deck)
        assert RULES.legal_actions(sample, seat) == RULES.legal_actions(state, seat)
    decks = {determinize(view, seed).deck for seed in range(5)}
    assert len(decks) == 5


def test_the_players_are_registered_for_the_bot():
    for level in ("easy", "normal", "hard"):
        assert GAMES["catsanity"].computer(level) is PLAYERS[level]
        assert PLAYERS[level].level == level


FIFTH_CHORUS = """
    turn 0
    alley chorus5 house1 ninja1
    deck house2 house3
    p0 4 chorus1 chorus2 chorus3 chorus4
    p1 4 twinA1 twinA2 fib1 fib2 fib3
    p2 4 twinB1 twinB2 house4 house5
"""
# The deck runs out before p0's next turn: the fifth Chorus Cat (25 points) is p0's only way to win.


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_normal_and_hard_take_the_fifth_chorus_cat(level):
    state = position(FIFTH_CHORUS)
    player = PLAYERS["normal"] if level == "normal" else HardPlayer(iterations=60)
    legal = RULES.legal_actions(state, 0)
    assert player.choose(RULES, RULES.view(state, 0), 0, legal, 3).encode() == "adopt:chorus5"


def test_normal_keeps_its_last_token_and_declares_the_copy_cat_where_it_scores_most():
    state = position(
        """
        alley ninja1 house1 recall1
        p0 1 twinB1
        p1 3
        """
    )
    legal = RULES.legal_actions(state, 0)
    assert PLAYERS["normal"].choose(RULES, RULES.view(state, 0), 0, legal, 1).encode() == "adopt:house1"
    state = position(
        """
        phase copy
        p0 3 fib1 fib2 fib3 fib4 copycat twinC1
        p1 3
        """
    )
    legal = RULES.legal_actions(state, 0)
    assert PLAYERS["normal"].choose(RULES, RULES.view(state, 0), 0, legal, 1).encode() == "copy:fib"


def test_normal_bids_for_valuable_sun_cats_and_passes_on_worthless_ones(table):
    t = table(
        """
        turn 1
        alley chorus5 twinA2 ninja1
        p0 5 chorus1 chorus2 chorus3 chorus4 twinA1
        p1 5 house1
        """
    ).play("auction")
    legal = RULES.legal_actions(t.state, 0)
    assert PLAYERS["normal"].choose(RULES, RULES.view(t.state, 0), 0, legal, 1).amount >= 1


def test_the_search_stops_at_its_deadline_when_given_a_clock():
    ticks = []

    def clock():
        ticks.append(1)
        return float(len(ticks))  # one second passes at every look

    state = position(FIFTH_CHORUS)
    legal = RULES.legal_actions(state, 0)
    choice = ismcts(
        RULES, RULES.view(state, 0), 0, legal, seed=1, iterations=10_000, clock=clock, seconds=0.5
    )
    assert choice in legal and len(ticks) == 2  # the start, then one look after the 8 minimum iterations


def test_the_search_stops_after_its_budget_of_simulated_moves(monkeypatch):
    from engine.catsanity import _search as search

    samples = []

    def counting(view, seed):
        samples.append(seed)
        return determinize(view, seed)

    monkeypatch.setattr(search, "determinize", counting)
    state = position(FIFTH_CHORUS)
    legal = RULES.legal_actions(state, 0)
    ismcts(RULES, RULES.view(state, 0), 0, legal, seed=1, iterations=10_000, moves=1)
    assert len(samples) == search.MIN_ITERATIONS
    samples.clear()
    ismcts(RULES, RULES.view(state, 0), 0, legal, seed=1, iterations=30, moves=None)
    assert len(samples) == 30
