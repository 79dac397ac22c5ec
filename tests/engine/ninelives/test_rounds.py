"""Setup, turns, round ends, lives and the game's end (NL-1, NL-3, NL-5, NL-6, NL-7, NL-11)."""

from __future__ import annotations

import pytest

from engine import GAMES
from engine.core import IllegalAction, InvalidInput, NotYourTurn
from engine.ninelives import RULES
from engine.ninelives._cards import HAND_SIZE, LIVES, life_id
from engine.ninelives.model import Options
from engine.ninelives.position import act, codes, hand, play, position, stack_powers, texts


def test_registered_for_two_to_six_players_limited_by_default_nl_11():
    assert GAMES["ninelives"].rules is RULES
    assert (RULES.min_players, RULES.max_players) == (2, 6)
    assert RULES.setup(3, 1).limited is True
    assert RULES.setup(3, 1, Options(limited_powers=False)).limited is False
    for players in (1, 7):
        with pytest.raises(InvalidInput, match="Nine Lives is for 2 to 6 players"):
            RULES.setup(players, 1)


def test_setup_deals_nine_lives_and_three_cats_then_everyone_orders_at_once_nl_1():
    """NL-X11: while the stacks are being ordered nobody's top card shows."""
    state = RULES.setup(4, 12)
    assert [len(stack) for stack in state.stacks] == [LIVES] * 4
    assert [len(h) for h in state.hands] == [HAND_SIZE] * 4
    assert RULES.to_act(state) == [0, 1, 2, 3]
    assert not RULES.actions_are_public(state, 0)
    view = RULES.view(state, 1)
    assert all(seat.top is None for seat in view.seats), "no top card is shown while stacks are ordered"
    assert [life.id for life in view.arranging] == [life_id(c) for c in state.stacks[1]]


def test_ordering_a_stack_card_by_card_nl_1():
    """NL-X1, NL-X14: keeping (the timer's default) keeps the order the pool was dealt in."""
    state = RULES.setup(2, 3, Options(first_queen=1))
    cards = state.stacks[0]
    wanted = (cards[4], cards[2], cards[7])
    for card in wanted:
        state, _ = act(state, 0, f"n:{life_id(card)}")
    state, _ = act(state, 0, "keep")
    rest = tuple(c for c in cards if c not in wanted)
    assert state.stacks[0] == wanted + rest
    assert RULES.to_act(state) == [1], "seat 0 is done; seat 1 still orders"
    state, events = act(state, 1, "keep")
    assert state.stacks[1] == tuple(range(9, 18)), "keeping is the random order dealt (the timer default)"
    assert state.phase == "play" and state.turn == 1 == state.queen
    assert "first Kittyqueen" in texts(events)


def test_the_last_card_of_an_ordering_places_itself_nl_1():
    state = RULES.setup(2, 3)
    for card in state.stacks[0][:8]:
        state, _ = act(state, 0, f"n:{life_id(card)}")
    assert not state.arranging[0]
    assert RULES.to_act(state) == [1]


def test_first_queen_is_the_hosts_choice_or_drawn_nl_1():
    assert RULES.setup(5, 3, Options(first_queen=4)).queen == 4
    queens = {RULES.setup(5, seed).queen for seed in range(40)}
    assert len(queens) > 2
    with pytest.raises(InvalidInput, match="The first Kittyqueen must be one of the 3 seats"):
        RULES.setup(3, 1, Options(first_queen=3))


def test_a_wager_draws_its_number_and_is_allowed_once_per_turn_nl_3():
    state = position(["o", "s"], deck="t tt ttt oo", lives=["forbid:x skip", "skip"])
    state, events = act(state, 0, "w")
    assert hand(state, 0) == ["o", "t", "tt", "ttt"], "Forbid draws 3"
    assert state.wagered[0] and stack_powers(state, 0) == ["skip"]
    assert "w" not in codes(state, 0)
    with pytest.raises(IllegalAction, match="already wagered"):
        act(state, 0, "w")
    assert "You drew" in texts(events, 0) and "You drew" not in texts(events, 1)


def test_without_a_legal_play_the_only_way_out_is_giving_up_nl_3():
    state = position(["oo", "s"], table="8o", lives=["", "skip"])
    assert codes(state, 0) == ["giveup"]


def test_giving_up_costs_the_top_life_and_every_wager_nl_5():
    state = position(
        ["oo", "s ss", "t"],
        lives=["skip skip skip", "skip skip", "skip"],
        wagered=["copycat inspect", "", ""],
    )
    state, events = act(state, 0, "giveup")
    assert [state.lives(s) for s in range(3)] == [2, 2, 1]
    assert "{p0} loses 3 lives" in texts(events)
    assert state.round == 2


def test_moves_out_of_turn_are_refused():
    state = position(["o", "s"])
    with pytest.raises(NotYourTurn):
        act(state, 1, "p:C01")


def test_only_one_player_left_unsafe_loses_nl_5():
    state = position(["3o t", "ss t"], table="3o 3o", lives=["skip skip", "skip skip"])
    state, events = play(state, 0, "3o")
    assert "Round 1 ends" in texts(events)
    assert [state.lives(s) for s in range(2)] == [2, 1]


def test_all_cats_at_nine_costs_everyone_a_life_nl_5():
    state = position(["2x t", "s", "o"], table="9o 9s 9t 7x", lives=["skip skip"] * 3)
    state, events = play(state, 0, "2x")
    assert "all cats are at nine" in texts(events)
    assert [state.lives(s) for s in range(3)] == [1, 1, 1]


def test_all_cats_at_nine_wins_over_last_player_standing_nl_x2():
    """NL-X2: a play that fills every cat and leaves one player unsafe costs everyone a life."""
    state = position(["2x t", "s t"], table="9o 9s 9t 7x", lives=["skip skip"] * 2)
    state, _ = play(state, 0, "2x")
    assert [state.lives(s) for s in range(2)] == [1, 1]


def test_surviving_wagers_go_under_the_stack_in_the_chosen_order_nl_5():
    """NL-X13: otherwise the wagered lives go back first, before the next round."""
    state = position(
        ["o", "s ss", "t"],
        lives=["skip skip", "skip skip", "skip"],
        wagered=["", "copycat inspect wildcard", "replace"],
    )
    state, _ = act(state, 0, "giveup")
    assert state.phase == "return"
    assert RULES.to_act(state) == [1], "a single wagered card goes back by itself"
    assert stack_powers(state, 2) == ["skip", "replace"]
    wagered = state.wagered[1]
    state, _ = act(state, 1, f"n:{life_id(wagered[2])}")
    assert not RULES.is_legal(state, 1, RULES.decode_action(f"n:{life_id(wagered[2])}"))
    state, _ = act(state, 1, "keep")
    assert stack_powers(state, 1) == ["skip", "skip", "wildcard", "copycat", "inspect"]
    assert state.phase == "play" and state.round == 2


def test_keeping_the_order_returns_wagers_in_the_order_wagered_nl_5():
    state = position(["o", "s"], lives=["skip skip", "skip"], wagered=["", "forbid:o plus:s"])
    state, _ = act(state, 0, "giveup")
    state, _ = act(state, 1, "keep")
    assert stack_powers(state, 1) == ["skip", "forbid", "plus"]


def test_round_end_discards_the_table_and_keeps_hands_nl_6():
    state = position(["o t", "s", "tt"], table="3o/ss xx", lives=["skip skip"] * 3, queen=0)
    state, _ = act(state, 0, "giveup")
    assert state.table == () and len(state.discard) == 3
    assert hand(state, 0) == ["o", "t"] and hand(state, 2) == ["tt"]


def test_the_player_with_most_cards_becomes_kittyqueen_nl_6():
    state = position(["o", "s ss", "t"], lives=["skip skip"] * 3, queen=0)
    state, events = act(state, 0, "giveup")
    assert state.queen == 1 and state.turn == 1
    assert "{p1} is the Kittyqueen" in texts(events)


def test_a_tie_for_most_cards_is_picked_by_the_current_queen_nl_6():
    state = position(["o", "s ss", "t tt"], lives=["skip skip"] * 3, queen=0, turn=2)
    state, _events = act(state, 2, "giveup")
    assert state.phase == "queen" and state.tied == (1, 2)
    assert RULES.to_act(state) == [0] and codes(state, 0) == ["queen:1", "queen:2"]
    assert RULES.actions_are_public(state, 0)
    state, _ = act(state, 0, "queen:2")
    assert state.queen == 2 and state.turn == 2 and state.phase == "play"


def test_an_empty_deck_is_refilled_from_the_shuffled_discard_nl_6():
    state = position(["o", "s"], deck="t", discard="oo ss tt", lives=["wildcard", "skip"])
    state, events = act(state, 0, "w")
    assert len(state.hands[0]) == 3 and not state.discard and len(state.deck) == 2
    assert "shuffled into a new deck" in texts(events)


def test_a_draw_with_no_cards_anywhere_draws_what_there_is_nl_6():
    state = position(["o", "s"], deck="t", lives=["wildcard", "skip"])
    state, _ = act(state, 0, "w")
    assert hand(state, 0) == ["o", "t"]


def test_the_game_ends_after_a_round_that_empties_a_stack_and_most_lives_win_nl_7_nl_x13():
    """NL-X13: a round leaving a player without lives ends the game; wagered lives count as lives."""
    state = position(["o", "s", "t"], lives=["skip", "skip skip", "skip skip"], wagered=["", "", "inspect"])
    state, events = act(state, 0, "giveup")
    assert state.phase == "over" and RULES.to_act(state) == []
    outcome = RULES.outcome(state)
    assert outcome.scores == (0, 2, 3) and outcome.winners == (2,)
    assert "{p0}" in outcome.reason
    assert "game is over" in texts(events)


def test_tied_lives_share_the_win_nl_7():
    state = position(["o", "s", "t"], lives=["skip", "skip skip", "skip skip"])
    state, _ = act(state, 0, "giveup")
    assert RULES.outcome(state).winners == (1, 2)


def test_lives_count_stack_and_wagers_nl_7():
    state = position(["o", "s"], lives=["skip skip", "skip"], wagered=["inspect", ""])
    assert RULES.view(state, 1).seats[0].lives == 3


def test_giving_up_is_possible_even_with_a_play_nl_x12():
    """NL-X12: giving up is always possible during a turn, even with a legal play."""
    state = position(["o", "s"])
    assert codes(state, 0) == ["w", "p:C00", "giveup"]


def test_the_last_round_puts_no_wagered_lives_back_nl_x13():
    """NL-X13: when a round leaves a player without lives the game ends at once: nobody is asked to
    put several wagered lives back, and they count as lives where they are."""
    state = position(
        ["o", "s", "t"], lives=["skip", "skip", "skip skip"], wagered=["", "inspect replace", "copycat"]
    )
    state, _ = act(state, 0, "giveup")
    assert state.phase == "over" and RULES.to_act(state) == []
    view = RULES.view(state, None)
    assert [(info.stack_size, len(info.wagered)) for info in view.seats] == [(0, 0), (1, 2), (2, 1)]
    outcome = RULES.outcome(state)
    assert outcome.scores == (0, 3, 3) and outcome.winners == (1, 2)


def test_wagered_lives_go_back_before_the_kittyqueen_is_chosen_nl_x13():
    """NL-X13: otherwise the wagered lives go back first; only then is the Kittyqueen chosen (NL-6)."""
    state = position(
        ["o", "s ss", "t tt"], lives=["skip skip"] * 3, wagered=["", "inspect replace", ""], queen=0
    )
    state, events = act(state, 0, "giveup")
    assert state.phase == "return" and RULES.to_act(state) == [1]
    assert codes(state, 0) == [], "the queen's tie pick waits"
    assert "Kittyqueen" not in texts(events)
    state, events = act(state, 1, "keep")
    assert state.phase == "queen" and RULES.to_act(state) == [0]
    assert codes(state, 0) == ["queen:1", "queen:2"]
    assert "{p0} picks the next Kittyqueen" in texts(events)
