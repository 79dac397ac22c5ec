"""Computer players: legal choices only, decisions from the view alone, deterministic per seed."""

from __future__ import annotations

import pytest

from engine import GAMES
from engine.ai import LEVELS
from engine.madcat import RULES
from engine.madcat._odds import policy_for, values_from_cards
from engine.madcat.ai import PLAYERS, HardPlayer, NormalPlayer, determinise, expected_share
from engine.madcat.model import Mooch, Roll, SetAside, Stop
from engine.madcat.position import position
from engine.testing import RandomPlayer


def random_positions(players: int, games: int, seed: int = 0):
    """(state, seat) for every seat to act at every step of `games` random games."""
    for game in range(games):
        player = RandomPlayer(RULES, seed + game)
        state = RULES.setup(players, seed + game)
        while RULES.outcome(state) is None:
            seats = RULES.to_act(state)
            for seat in seats:
                yield state, seat
            seat = player.pick_seat(seats)
            state, _ = RULES.apply(state, seat, player.choose(state, seat))


def test_players_exist_for_every_level():
    assert set(PLAYERS) == set(LEVELS)
    for level in LEVELS:
        assert GAMES["madcat"].computer(level).level == level


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_only_legal_actions_over_random_positions(players):
    """Thousands of positions over the four player counts, every level."""
    checked = 0
    for index, (state, seat) in enumerate(random_positions(players, 8, seed=players * 100)):
        view = RULES.view(state, seat)
        legal = RULES.legal_actions(state, seat)
        for level in LEVELS:
            action = PLAYERS[level].choose(RULES, view, seat, legal, seed=index)
            assert action in legal, f"{level} chose {action} outside {legal}"
        checked += 1
    assert checked > 400


@pytest.mark.parametrize("players", [2, 4, 5])
def test_determinise_is_consistent_with_the_view(players):
    """The sampled State gives back exactly the seat's view, and hidden picks really are resampled."""
    differs = 0
    for index, (state, seat) in enumerate(random_positions(players, 3, seed=40 + players)):
        view = RULES.view(state, seat)
        for sample_seed in range(3):
            sampled = determinise(view, sample_seed * 1000 + index)
            assert RULES.view(sampled, seat) == view
            differs += sampled.picks != state.picks
    assert differs > 0


@pytest.mark.parametrize("players", [3, 4, 5])
def test_choices_do_not_depend_on_hidden_information(players):
    """Resample others' picks and the dice to come, consistently with the view: same seed, same choice."""
    compared = 0
    for index, (state, seat) in enumerate(random_positions(players, 4, seed=90 + players)):
        view = RULES.view(state, seat)
        legal = RULES.legal_actions(state, seat)
        if len(legal) == 1:
            continue
        for level in LEVELS:
            chosen = PLAYERS[level].choose(RULES, view, seat, legal, seed=index)
            for sample_seed in (1, 2):
                sampled = determinise(view, sample_seed * 7 + index)
                other_view = RULES.view(sampled, seat)
                other_legal = RULES.legal_actions(sampled, seat)
                assert PLAYERS[level].choose(RULES, other_view, seat, other_legal, seed=index) == chosen
        compared += 1
    assert compared > 100


def test_same_seed_and_view_give_the_same_choice_and_seeds_vary_easy():
    state = position(phase="aside", rolled="m1 m2 m3 s1 w", kind=None)
    view = RULES.view(state, 0)
    legal = RULES.legal_actions(state, 0)
    for level in LEVELS:
        first = [PLAYERS[level].choose(RULES, view, 0, legal, seed=seed) for seed in range(20)]
        again = [PLAYERS[level].choose(RULES, view, 0, legal, seed=seed) for seed in range(20)]
        assert first == again
    assert len({PLAYERS["easy"].choose(RULES, view, 0, legal, seed=seed) for seed in range(20)}) > 3


def test_hard_stops_on_four_of_a_kind_unless_five_is_worth_the_risk():
    # Rolling the last die: 2/6 five of a kind (m1 or wild), 2/6 still four of a kind, 2/6 a fail.
    state = position(tray="m1 m1 m1 m1", mad="1/2 1/2 2/3 2/3")
    legal = RULES.legal_actions(state, 0)
    assert PLAYERS["hard"].choose(RULES, RULES.view(state, 0), 0, legal, seed=1) == Stop(
        kind="mad", combo="4k"
    )
    rich = position(tray="m1 m1 m1 m1", mad="1/2 1/2 2/3 2/20")
    legal = RULES.legal_actions(rich, 0)
    assert PLAYERS["hard"].choose(RULES, RULES.view(rich, 0), 0, legal, seed=1) == Roll()


def test_hard_and_normal_keep_the_promising_dice():
    # Setting aside the pair and the wilds reads as four of a kind at once; a lone die reads as nothing.
    state = position(phase="aside", rolled="m1 m1 m2 w w", kind=None, mad="1/2 1/2 2/9 2/3")
    legal = RULES.legal_actions(state, 0)
    for level in ("normal", "hard"):
        choice = PLAYERS[level].choose(RULES, RULES.view(state, 0), 0, legal, seed=3)
        assert choice == SetAside(faces=("m1", "m1", "w", "w")), level


def test_hard_mooches_the_card_the_tray_already_reads_as():
    state = position(phase="mooch", tray="m1 m1 m2 m2", mad="6/2 1/2 2/3 2/3", picks=". . . .", players=4)
    legal = RULES.legal_actions(state, 1)
    for level in ("normal", "hard"):
        assert PLAYERS[level].choose(RULES, RULES.view(state, 1), 1, legal, seed=5) == Mooch(card="2p")
    assert PLAYERS["easy"].choose(RULES, RULES.view(state, 1), 1, legal, seed=5) != Mooch(card="none")


def policy_of(state):
    return policy_for(values_from_cards(state.cards))


def test_hard_mooch_values_account_for_sharing():
    assert expected_share(5, 0, 0.7) == 5
    assert expected_share(5, 1, 1.0) == 2  # 5 // 2
    assert expected_share(1, 2, 1.0) == 0  # 1 VP among three: nothing
    assert 2 < expected_share(5, 2, 0.5) < 5
    # A tray of two pairs pays that card for sure; alone at the table the moocher takes it all.
    state = position(2, phase="mooch", tray="m1 m1 m2 m2", mad="6/2 1/2 2/3 2/3", picks=". .")
    alone = HardPlayer().mooch_values(RULES.view(state, 1), policy_of(state))
    assert alone["2p"] == 6 and alone["none"] < 0
    crowded = position(5, phase="mooch", tray="m1 m1 m2 m2", mad="6/2 1/2 2/3 2/3", picks=". . . . .")
    assert HardPlayer().mooch_values(RULES.view(crowded, 1), policy_of(crowded))["2p"] < 6


@pytest.mark.parametrize(("full_house", "expected"), [(5, Roll()), (1, Stop(kind="sad", combo="2p"))])
def test_normal_rolls_while_one_more_roll_is_worth_more(full_house, expected):
    # Two pairs (2 VPs) now; the last die makes a full house with s1, s2 or a wild (3/6), else fails.
    state = position(tray="s1 s1 s2 s2", sad=f"1/2 1/{full_house} 2/3 2/3")
    legal = RULES.legal_actions(state, 0)
    assert legal == [Roll(), Stop(kind="sad", combo="2p")]
    assert PLAYERS["normal"].choose(RULES, RULES.view(state, 0), 0, legal, seed=0) == expected
    assert NormalPlayer.one_roll(policy_of(state), (state.aside, "sad")) == full_house / 2
