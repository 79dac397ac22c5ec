"""Computer players: legal moves only, decisions from the view alone, deterministic per seed."""

from __future__ import annotations

import pytest

from engine import GAMES
from engine.ninelives import RULES
from engine.ninelives._determinise import sample_state
from engine.ninelives._heuristics import choose as normal_choice
from engine.ninelives.ai import PLAYERS, EasyPlayer, HardPlayer, NormalPlayer
from engine.ninelives.model import Options, View
from engine.ninelives.position import card_in, position
from engine.testing import random_playout

LEVELS = {"easy": EasyPlayer(), "normal": NormalPlayer(), "hard": HardPlayer(iterations=4)}


def positions(games: int, every: int):
    """(state, seat to act) along random games over player counts and both power sets."""
    for index in range(games):
        players = 2 + index % 5
        options = Options(limited_powers=index % 2 == 0)
        playout = random_playout(RULES, players, 900 + index, options, keep_states=True)
        for state in playout.states[index % every :: every]:
            seats = RULES.to_act(state)
            if seats:
                yield state, seats[len(seats) // 2]


def test_every_level_is_registered():
    assert set(PLAYERS) == {"easy", "normal", "hard"}
    assert GAMES["ninelives"].computer("hard") is PLAYERS["hard"]


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_computer_players_only_choose_legal_moves(level):
    player = LEVELS[level]
    count = 0
    for state, seat in positions(games=20 if level == "hard" else 60, every=5 if level == "hard" else 2):
        legal = RULES.legal_actions(state, seat)
        move = player.choose(RULES, RULES.view(state, seat), seat, legal, seed=count)
        assert move in legal
        count += 1
    assert count > 100


def test_the_sampled_hidden_state_matches_the_view_and_keeps_the_choice():
    """Hidden cards resampled consistently with a view give the same view, legal moves and choice."""
    player = LEVELS["hard"]
    checked = 0
    for state, seat in positions(games=15, every=4):
        view = RULES.view(state, seat)
        legal = RULES.legal_actions(state, seat)
        choice = player.choose(RULES, view, seat, legal, seed=checked)
        for resample in range(2):
            other = sample_state(view, 77 * checked + resample)
            assert RULES.view(other, seat) == view
            assert RULES.legal_actions(other, seat) == legal
            again = player.choose(RULES, RULES.view(other, seat), seat, legal, seed=checked)
            assert again == choice
        checked += 1
    assert checked > 60


def test_the_sample_changes_what_the_seat_cannot_see():
    state = RULES.setup(4, 3)
    view = RULES.view(state, 0)
    hands = {sample_state(view, seed).hands[1] for seed in range(10)}
    assert len(hands) > 1 and all(sample_state(view, s).hands[0] == state.hands[0] for s in range(3))


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_same_seed_and_view_give_the_same_move(level):
    player = LEVELS[level]
    for index, (state, seat) in enumerate(positions(games=6, every=7)):
        view = RULES.view(state, seat)
        copy = View.model_validate_json(view.model_dump_json())
        legal = RULES.legal_actions(state, seat)
        assert player.choose(RULES, view, seat, legal, index) == player.choose(
            RULES, copy, seat, legal, index
        )


def test_easy_never_gives_up_while_it_can_play():
    state = position(["oo s", "t"])
    legal = RULES.legal_actions(state, 0)
    moves = {EasyPlayer().choose(RULES, RULES.view(state, 0), 0, legal, seed).encode() for seed in range(30)}
    assert "giveup" not in moves and len(moves) > 1


def test_normal_takes_a_perfect_nine():
    state = position(["3o t s", "s"], table="3o 3o", lives=["wildcard wildcard", "skip"])
    move = normal_choice(RULES.view(state, 0), RULES.legal_actions(state, 0))
    assert move.encode() == f"p:{card_in(state, 0, '3o')}"


def test_normal_wagers_without_a_play():
    state = position(["5o", "s"], table="5o", lives=["wildcard wildcard", "skip"])
    assert normal_choice(RULES.view(state, 0), RULES.legal_actions(state, 0)).encode() == "w"


def test_hard_finds_the_perfect_nine():
    state = position(
        ["3o t s", "ss t", "tt s"],
        table="3o 3o",
        deck="ooo sss ttt xxx x",
        lives=["inspect inspect inspect"] * 3,
    )
    move = HardPlayer(iterations=60).choose(RULES, RULES.view(state, 0), 0, RULES.legal_actions(state, 0), 5)
    assert move.encode() == f"p:{card_in(state, 0, '3o')}"


def test_hard_stops_at_its_deadline():
    ticks = iter(range(1000))
    player = HardPlayer(iterations=10_000, clock=lambda: next(ticks), seconds=3)
    state = position(["3o t s", "ss", "tt"], table="3o 3o", lives=["inspect inspect", "skip", "skip"])
    player.choose(RULES, RULES.view(state, 0), 0, RULES.legal_actions(state, 0), 5)
    assert next(ticks) < 100, "the search gave up soon after the clock passed its deadline"
