"""Computer players: legal choices only, decisions from the view alone, deterministic per seed."""

from __future__ import annotations

import pytest

from engine import GAMES
from engine.ai import LEVELS
from engine.catsdogs import RULES, Play
from engine.catsdogs._cards import CARDS
from engine.catsdogs._search import INDEX, SOLO_ROUND_GAIN, solo_values, success_utility
from engine.catsdogs.ai import PLAYERS, EasyPlayer, HardPlayer, NormalPlayer, determinise, unknown_cards
from engine.catsdogs.position import position
from engine.testing import RandomPlayer

FAST = {"easy": EasyPlayer(), "normal": NormalPlayer(samples=12), "hard": HardPlayer(iterations=24)}


def random_positions(players: int, games: int, seed: int = 0):
    """(state, seat) for every decision of `games` random games."""
    for game in range(games):
        player = RandomPlayer(RULES, seed + game)
        state = RULES.setup(players, seed + game)
        while not state.over:
            seat = RULES.to_act(state)[0]
            yield state, seat
            state, _ = RULES.apply(state, seat, player.choose(state, seat))


def test_players_exist_for_every_level():
    assert set(PLAYERS) == set(LEVELS)
    for level in LEVELS:
        assert GAMES["catsdogs"].computer(level).level == level


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_only_legal_actions_over_random_positions(players):
    """About 2,000 positions over the five player counts, every level (hard with a small budget)."""
    checked = 0
    for index, (state, seat) in enumerate(random_positions(players, 500 // (13 * players) + 2, seed=players)):
        view = RULES.view(state, seat)
        legal = RULES.legal_actions(state, seat)
        levels = ("easy", "normal", "hard") if index % 3 == 0 and players > 1 else ("easy", "normal")
        for level in levels:
            action = FAST[level].choose(RULES, view, seat, legal, seed=index)
            assert action in legal, f"{level} chose {action} outside {legal}"
        checked += 1
    assert checked >= 300


def test_solo_hard_plays_legal_cards():
    for index, (state, seat) in enumerate(random_positions(1, 4, seed=77)):
        if index % 3:
            continue
        legal = RULES.legal_actions(state, seat)
        assert PLAYERS["hard"].choose(RULES, RULES.view(state, seat), seat, legal, seed=index) in legal


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_determinise_is_consistent_with_the_view(players):
    """The sampled State gives back exactly the seat's view, and hidden cards really are resampled."""
    differs = 0
    for index, (state, seat) in enumerate(random_positions(players, 3, seed=40 + players)):
        view = RULES.view(state, seat)
        for sample_seed in range(3):
            sampled = determinise(view, sample_seed * 1000 + index)
            assert RULES.view(sampled, seat) == view
            placed = [c for h in sampled.hands for c in h] + [c for p in sampled.collected for c in p]
            placed += [*sampled.out, *sampled.hidden, *sampled.table, *sampled.table_pile]
            placed += [c for _, c in sampled.trick]
            assert sorted(placed) == sorted(CARDS)
            differs += (
                sampled.hands != state.hands or sampled.out != state.out or sampled.hidden != state.hidden
            )
    assert differs > 0


@pytest.mark.parametrize("players", [1, 2, 4, 5])
def test_choices_do_not_depend_on_hidden_cards(players):
    """Resample the hidden cards consistently with the view: the same seed gives the same choice."""
    for index, (state, seat) in enumerate(random_positions(players, 2, seed=90 + players)):
        if index % 2:
            continue
        view = RULES.view(state, seat)
        legal = RULES.legal_actions(state, seat)
        levels = ("easy", "normal", "hard") if players > 1 or index % 8 == 0 else ("easy", "normal")
        for level in levels:
            player = FAST[level] if players > 1 else PLAYERS[level]
            expected = player.choose(RULES, view, seat, legal, seed=index)
            for sample_seed in (1, 2):
                other = determinise(view, sample_seed)
                other_view = RULES.view(other, seat)
                assert (
                    player.choose(RULES, other_view, seat, RULES.legal_actions(other, seat), index)
                    == expected
                )


def test_same_seed_and_view_same_choice_and_seeds_matter():
    state = RULES.setup(4, seed=8)
    seat = RULES.to_act(state)[0]
    view = RULES.view(state, seat)
    legal = RULES.legal_actions(state, seat)
    for level in LEVELS:
        player = FAST[level]
        assert player.choose(RULES, view, seat, legal, 5) == player.choose(RULES, view, seat, legal, 5)
    easy = {FAST["easy"].choose(RULES, view, seat, legal, seed).card for seed in range(30)}
    assert len(easy) > 1


def test_a_single_legal_card_is_played_at_once():
    state = position("C1 | D9 | C2", leader=0)
    legal = RULES.legal_actions(state, 0)
    for level in LEVELS:
        assert PLAYERS[level].choose(RULES, RULES.view(state, 0), 0, legal, 1) == Play(card="C1")


def test_easy_and_normal_take_a_certain_trick_when_last():
    """Last to play, the trick's result is certain: C9 takes D1 and D2 (5 ribbons); D3 would give C1 away."""
    state = position("C5 | D4 | C9 D3 C8", trick="D1 D2", leader=0, collected="- | - | -")
    view = RULES.view(state, 2)
    legal = RULES.legal_actions(state, 2)
    assert NormalPlayer().choose(RULES, view, 2, legal, 0).card in {"C8", "C9"}
    picks = [EasyPlayer().choose(RULES, view, 2, legal, seed).card for seed in range(200)]
    assert picks.count("D3") < picks.count("C9")


def test_hard_saves_the_trick_it_can_win():
    """2 players, second to play: only C9 beats the table's D8 and the leader's D2; hard finds it."""
    state = position("C3 C4 | C9 C2 C1", trick="D2", leader=0, table="D8 D7 D6")
    view = RULES.view(state, 1)
    choice = HardPlayer(iterations=200).choose(RULES, view, 1, RULES.legal_actions(state, 1), 3)
    assert choice.card == "C9"


def test_solo_hard_plays_for_the_target_not_the_ribbons_in_the_last_round():
    """CD-7: on 18 ribbons in round 4, 3 more win. D2 gives the most ribbons on average, but C8 gives
    the best chance to reach 21 — the exact expectimax over the hidden cards plays C8."""
    state = position("C8 D2 C2", table="C7 C9 D3", hidden="D1 D9 D4", scores=(18,), round=4)
    view = RULES.view(state, 0)
    unknown = [INDEX[card] for card in unknown_cards(view)]
    assert len(unknown) == 18 - 6
    args = ([INDEX[c] for c in view.hand], [INDEX[c] for c in view.table], unknown)
    ribbons = solo_values(*args)
    chance = solo_values(*args, success_utility(18, 0, SOLO_ROUND_GAIN))
    assert max(ribbons, key=ribbons.get) == INDEX["D2"]
    assert max(chance, key=chance.get) == INDEX["C8"]
    assert PLAYERS["hard"].choose(RULES, view, 0, RULES.legal_actions(state, 0), 0).card == "C8"
    assert success_utility(19, 0, {})[1] == 0.0 and success_utility(19, 0, {})[2] == 1.0
