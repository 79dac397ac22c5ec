"""Every power changes what is legal or what happens (NL-8, NL-9, NL-10), limited and full sets."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.ninelives import RULES
from engine.ninelives._cards import POWERS, life_id
from engine.ninelives.position import (
    act,
    card_in,
    codes,
    hand,
    on_table,
    play,
    playable,
    position,
    table_text,
    texts,
)

BOTH = pytest.mark.parametrize("limited", [True, False], ids=["limited", "full"])


def wagered(lives: str, hands: list[str], **kw):
    """A position where seat 0 has just wagered the top of `lives` (seat 0's stack)."""
    others = kw.pop("others", ["skip skip"] * (len(hands) - 1))
    state = position(hands, lives=[lives, *others], **kw)
    state, events = act(state, 0, "w")
    return state, events


@BOTH
def test_skip_turn_lets_you_pass_and_skips_the_next_player_nl_8(limited):
    state = position(["oo", "s", "t"], lives=["skip skip", "skip", "skip"], limited=limited)
    assert "skip" not in codes(state, 0)
    state, _ = act(state, 0, "w")
    assert "skip" in codes(state, 0)
    state, events = act(state, 0, "skip")
    assert state.turn == 2, "{p1} must skip"
    assert "{p1} must skip a turn" in texts(events)
    assert hand(state, 0)[0] == "oo", "nothing was played"


@BOTH
def test_copycat_uses_another_players_top_power_nl_10_nl_x4(limited):
    state = position(
        ["3o", "s", "t"],
        table="7o",
        deck="x xx xxx",
        lives=["copycat", "plus:o skip", "copycat"],
        limited=limited,
    )
    assert playable(state, 0) == set()
    state, _ = act(state, 0, "w")
    assert codes(state, 0) == ["copy:1"], "a Copycat on top has nothing to copy (NL-X4)"
    assert RULES.actions_are_public(state, 0)
    state, events = act(state, 0, "copy:1")
    assert "copies {p1}'s More Allowed ⚪" in texts(events)
    assert len(state.hands[0]) == 3, "the draw stays Copycat's 2"
    assert "ooo" in playable(state, 0)


@BOTH
def test_wildcard_plays_any_card_and_can_still_make_a_perfect_nine_nl_4(limited):
    state = position(["4o t", "s", "s"], table="5o 1o", lives=["wildcard", "skip", "skip"], limited=limited)
    assert playable(state, 0) == {"t"}
    state, _ = act(state, 0, "w")
    assert playable(state, 0) == {"oooo", "t"}
    state, _events = play(state, 0, "4o")
    assert table_text(state)[-1] == "oooo" and 0 not in state.safe, "10 circles is no perfect nine"


def test_wildcard_play_reaching_exactly_nine_is_safe_nl_4():
    state = position(["3o t", "s", "s"], table="5o 1o", lives=["wildcard", "skip", "skip"])
    state, _ = act(state, 0, "w")
    state, _ = play(state, 0, "3o")
    assert state.safe == (0,)


@BOTH
def test_replace_covers_a_table_card_which_stops_counting_nl_10(limited):
    """NL-X10: a card with several ways to be placed is picked first, then placed."""
    state = position(
        ["ooo t", "s", "s"], table="4o 3o ss", lives=["replace", "skip", "skip"], limited=limited
    )
    assert playable(state, 0) == {"t"}
    state, _ = act(state, 0, "w")
    assert "ooo" in playable(state, 0)
    state, _ = act(state, 0, f"p:{card_in(state, 0, 'ooo')}")
    assert state.step == "place"
    assert codes(state, 0) == [f"cover:{on_table(state, '4o')}", f"cover:{on_table(state, '3o')}"]
    state, events = act(state, 0, f"cover:{on_table(state, '3o')}")
    assert table_text(state) == ["oooo", "ooo", "ss"]
    assert len(state.table[1]) == 2, "the covered card stays under it"
    assert "on top of" in texts(events)


def test_replace_may_also_play_as_a_new_card_and_make_a_perfect_nine_nl_4():
    """NL-X3: Replace widens the choice; the normal play stays possible."""
    state = position(["ooo t", "s", "s"], table="3o 3o", lives=["replace", "skip", "skip"])
    state, _ = act(state, 0, "w")
    state, _ = act(state, 0, f"p:{card_in(state, 0, 'ooo')}")
    assert codes(state, 0)[0] == "t"
    state2, _ = act(state, 0, "t")
    assert state2.safe == (0,)
    state3, _ = act(state, 0, f"cover:{on_table(state, '3o')}")
    assert state3.safe == (), "covering 3 with 3 leaves 6"


@BOTH
def test_inspect_opens_everyone_elses_hand_until_the_round_ends_nl_8_nl_x9(limited):
    """NL-X9: the open hands are shown to everyone, the public table included, until the round ends."""
    state = position(["o", "s ss", "t tt"], lives=["inspect skip", "skip skip", "skip skip"], limited=limited)
    assert RULES.view(state, 0).seats[1].open_hand is None
    state, _ = act(state, 0, "w")
    for seat in (None, 0, 1, 2):
        view = RULES.view(state, seat)
        assert view.seats[1].open_hand is not None and view.seats[2].open_hand is not None
        assert view.seats[0].open_hand is None, "the wagerer's own hand stays closed"
    state, _ = play(state, 0, "o")
    assert RULES.view(state, 0).seats[2].open_hand is not None, "still open next turn"
    state, _ = act(state, 1, "giveup")
    assert all(seat.open_hand is None for seat in RULES.view(state, 0).seats)


@BOTH
def test_shapeshift_counts_one_cat_as_another_on_the_card_played_nl_9(limited):
    """NL-X3: the override applies by itself to the card played that turn."""
    state = position(
        ["3o", "s", "s"], table="9o 1s", lives=["shapeshift:o>s", "skip", "skip"], limited=limited
    )
    assert playable(state, 0) == set()
    state, _ = act(state, 0, "w")
    assert "ooo" in playable(state, 0)
    state, events = play(state, 0, "3o")
    assert table_text(state) == ["ooooooooo", "s", "sss"]
    assert "⚪ count as 🟦" in texts(events)


@BOTH
def test_forbid_stops_cards_showing_the_cat_and_draws_three_nl_10(limited):
    state = position(["os s", "s", "s"], deck="t t x", lives=["forbid:o", "skip", "skip"], limited=limited)
    state, _ = act(state, 0, "w")
    assert len(state.hands[0]) == 5
    assert playable(state, 0) == {"s", "t", "x"}
    with pytest.raises(IllegalAction, match="Forbid"):
        play(state, 0, "os")


@BOTH
def test_more_allowed_lets_the_cat_pass_nine_this_turn_only_nl_8(limited):
    state = position(
        ["3o 2o", "3o", "s s"], table="8o", lives=["plus:o skip", "skip", "skip"], limited=limited
    )
    state, _ = act(state, 0, "w")
    assert playable(state, 0) == {"ooo", "oo"}
    state, _ = play(state, 0, "3o")
    assert playable(state, 1) == set(), "the power was only for its wagerer's turn"


def test_limited_set_has_only_the_core_powers_nl_11():
    core = {key for key, power in POWERS.items() if power.core}
    assert core == {"skip", "copycat", "wildcard", "replace", "inspect", "shapeshift", "forbid", "plus"}
    for seed in range(5):
        state = RULES.setup(6, seed)
        assert {card.power for card in state.lifecards} <= core


def test_wildcard_paid_gives_a_card_then_plays_any_nl_10():
    state, events = wagered("wildcard_paid", ["5o t", "s", "s"], table="5o", deck="ss")
    assert state.step == "give" and codes(state, 0) == ["give:C00", "give:C01", "give:C05"]
    state, _ = act(state, 0, f"give:{card_in(state, 0, 't')}")
    assert codes(state, 0) == ["to:1", "to:2"]
    state, events = act(state, 0, "to:2")
    assert hand(state, 2) == ["s", "t"]
    assert "gave 🔺" in texts(events, 2) and "gave 🔺" not in texts(events, 1)
    assert "ooooo" in playable(state, 0)


def test_swap_trades_a_hand_card_for_a_table_card_nl_10():
    state, _ = wagered("swap", ["3o t", "s", "s"], table="4o 4o", deck="ss xx")
    state, _ = act(state, 0, f"p:{card_in(state, 0, '3o')}")
    assert codes(state, 0) == ["swap:C04", "swap:C05"], "as a new card it would make 11"
    state, events = act(state, 0, "swap:C04")
    assert table_text(state) == ["ooo", "oooo"]
    assert "oooo" in hand(state, 0)
    assert "swapping it for" in texts(events)


def test_swap_can_make_a_perfect_nine_nl_4():
    state, _ = wagered("swap", ["4o t", "s", "s"], table="1o 5o", deck="ss xx")
    state, _ = play(state, 0, "4o", f"swap:{on_table(state, 'o')}")
    assert state.safe == (0,)


def test_steal_takes_an_uncovered_table_card_nl_10_nl_x6():
    """NL-X6: a card stolen from the table goes to the hand and the card it covered counts again."""
    state, _ = wagered("steal", ["t", "s ss", "s"], table="oo/3o x", deck="tt")
    assert codes(state, 0) == ["from:t", "from:1", "from:2"]
    state, _ = act(state, 0, "from:t")
    assert codes(state, 0) == [f"take:{on_table(state, '3o')}", f"take:{on_table(state, 'x')}"]
    state, _events = act(state, 0, f"take:{on_table(state, '3o')}")
    assert "ooo" in hand(state, 0)
    assert table_text(state) == ["oo", "x"], "the covered card counts again"
    assert state.step == "play"


def test_steal_takes_a_random_card_from_a_players_hand_nl_10():
    state, _ = wagered("steal", ["t", "s ss", "o"], deck="tt")
    state, events = act(state, 0, "from:1")
    assert len(state.hands[0]) == 3 and len(state.hands[1]) == 1
    assert "stole" in texts(events, 1) and "stole" not in texts(events, 2)
    assert "steals 1 card from {p1}'s hand" in texts(events, 2)


def test_draw_and_play_must_play_one_of_the_two_drawn_nl_10():
    state, _ = wagered("draw_and_play", ["t", "s", "s"], deck="oo 9x")
    assert hand(state, 0) == ["oo", "t", "xxxxxxxxx"]
    assert playable(state, 0) == {"oo", "xxxxxxxxx"}
    with pytest.raises(IllegalAction, match="just received"):
        play(state, 0, "t")


def test_steal_and_play_takes_two_from_a_player_and_plays_one_nl_10():
    """NL-X6: Steal and Play takes up to two cards from one player and plays one of those received."""
    state, _ = wagered("steal_and_play", ["t", "oo ss", "x"])
    assert codes(state, 0) == ["from:1", "from:2"], "never from the table"
    state, _ = act(state, 0, "from:1")
    assert hand(state, 0) == ["oo", "ss", "t"] and state.hands[1] == ()
    assert playable(state, 0) == {"oo", "ss"}


def test_double_turn_gives_an_optional_second_turn_and_binds_the_next_player_nl_8_nl_x5():
    """NL-X5, NL-X12: the wagerer's extra turn is optional, "end" replaces giving up in it;
    the next player's visit is two turns."""
    state, _ = wagered("double_turn", ["o s t", "s ss sss", "t"], deck="x xx")
    state, _ = play(state, 0, "o")
    assert state.turn == 0 and state.optional_now
    assert "end" in codes(state, 0) and "giveup" not in codes(state, 0)
    state, events = act(state, 0, "end")
    assert state.turn == 1 and "{p1} must take 2 turns" in texts(events)
    state, _ = play(state, 1, "s")
    assert state.turn == 1 and "end" not in codes(state, 1), "the second turn is not optional"
    state, _ = play(state, 1, "ss")
    assert state.turn == 2


def test_card_carousel_passes_two_cards_each_at_once_nl_10_nl_x7():
    """NL-X7: secret picks one at a time; 2 cards or fewer pass without choosing; nothing moves early."""
    state, _ = wagered("carousel", ["o", "s ss sss", "t tt ttt", "x"], deck="oo ooo")
    assert codes(state, 0) == ["dir:l", "dir:r"]
    state, _ = act(state, 0, "dir:l")
    assert RULES.to_act(state) == [0, 1, 2], "seat 3 has just one card and passes it"
    assert not RULES.actions_are_public(state, 1)
    for seat, card in ((2, "tt"), (0, "ooo"), (1, "s"), (2, "ttt"), (0, "o")):
        state, events = act(state, seat, f"pass:{card_in(state, seat, card)}")
    assert state.phase == "carousel" and RULES.to_act(state) == [1]
    assert hand(state, 2) == ["t", "tt", "ttt"], "nothing moves before everyone chose"
    state, events = act(state, 1, f"pass:{card_in(state, 1, 'sss')}")
    assert hand(state, 0) == ["oo", "x"]
    assert hand(state, 1) == ["o", "ooo", "ss"]
    assert hand(state, 2) == ["s", "sss", "t"]
    assert hand(state, 3) == ["tt", "ttt"]
    assert state.phase == "play" and state.turn == 0
    assert "passed 🔺🔺, 🔺🔺🔺 to {p3}" in texts(events, 3) and "🔺🔺🔺" not in texts(events, 1)


def test_shuffle_lives_reorders_any_stack_seen_only_by_its_shuffler_nl_10_nl_x8():
    """NL-X8: the shuffler sees the whole chosen stack; the others see only its new top card."""
    state = position(["o", "s"], lives=["shuffle_lives skip", "plus:o plus:s plus:t"], deck="x xx")
    state, _ = act(state, 0, "w")
    assert codes(state, 0) == ["stack:1"], "only stacks of two or more"
    state, _ = act(state, 0, "stack:1")
    hidden = state.stacks[1][2]
    assert life_id(hidden) in RULES.view(state, 0).model_dump_json()
    assert life_id(hidden) not in RULES.view(state, None).model_dump_json()
    state, _ = act(state, 0, f"n:{life_id(hidden)}")
    state, _ = act(state, 0, "keep")
    assert [state.lifecards[c].a for c in state.stacks[1]] == [2, 0, 1]
    assert RULES.view(state, None).seats[1].top.id == life_id(hidden), "the new top is public"
    assert life_id(state.stacks[1][1]) not in RULES.view(state, 0).model_dump_json(), (
        "the rest is hidden again"
    )
    assert state.step == "play"


def test_single_cat_counts_the_card_as_one_chosen_icon_nl_9():
    state, _ = wagered("single_cat", ["3o2s t", "s", "s"], table="8o 8s 1t", deck="x")
    assert "oooss" in playable(state, 0)
    state, _ = act(state, 0, f"p:{card_in(state, 0, '3o2s')}")
    assert codes(state, 0) == ["icon:0", "icon:1"]
    state, events = act(state, 0, "icon:1")
    assert table_text(state)[-1] == "s" and state.safe == (0,)
    assert "counts as one 🟦" in texts(events)


def test_single_cat_with_one_legal_icon_plays_at_once_nl_9_nl_x10():
    """NL-X10: a card with one legal way to be placed is played at once."""
    state, _ = wagered("single_cat", ["3o2s t", "s", "s"], table="8o 9s", deck="x")
    state, _ = play(state, 0, "3o2s")
    assert table_text(state)[-1] == "o" and state.turn == 1


def test_force_wager_makes_the_next_player_wager_nl_8_nl_x5():
    """NL-X5: Force Wager binds the first turn the next player takes. NL-X12: giving up comes after."""
    state = position(["o", "s", "t"], lives=["force_wager", "forbid:x skip", "skip"], deck="x xx xxx 5x")
    state, _ = act(state, 0, "w")
    state, events = play(state, 0, "o")
    assert codes(state, 1) == ["w"] and "{p1} must wager" in texts(events)
    state, _ = act(state, 1, "w")
    assert "giveup" in codes(state, 1)


def test_forbid_wager_stops_the_next_player_wagering_nl_8():
    state = position(["o", "s", "t"], lives=["forbid_wager", "skip skip", "skip"], deck="x xx")
    state, _ = act(state, 0, "w")
    state, _ = play(state, 0, "o")
    assert "w" not in codes(state, 1)
    with pytest.raises(IllegalAction, match="Forbid Wager"):
        act(state, 1, "w")
    state, _ = play(state, 1, "s")
    assert "w" in codes(state, 2), "only the next player is bound"


def test_numbershift_counts_the_card_as_n_of_one_cat_nl_9():
    state, _ = wagered("numbershift:x3", ["9o", "s", "s"], table="9o 6x", deck="t t")
    assert "ooooooooo" in playable(state, 0)
    state, events = play(state, 0, "9o")
    assert table_text(state)[-1] == "xxx" and state.safe == (0,)
    assert "counts as 3×⭐" in texts(events)


def test_ignore_lifts_the_limit_for_everyone_until_the_round_ends_nl_8():
    state = position(
        ["4o", "3o s", "s"], table="8o", lives=["ignore:o", "skip skip", "skip"], deck="t tt ttt"
    )
    state, _ = act(state, 0, "w")
    assert "oooo" in playable(state, 0)
    state, _ = play(state, 0, "4o")
    assert "ooo" in playable(state, 1), "everyone ignores it"
    state, _ = act(state, 1, "giveup")
    assert state.ignored == ()


def test_ignore_can_end_the_round_when_the_rest_is_full_nl_5_nl_x2():
    state = position(
        ["x", "s", "t"], table="9s 9t 9x 3o", lives=["ignore:o skip skip"] + ["skip skip"] * 2, deck="o o o"
    )
    state, events = act(state, 0, "w")
    assert "all cats are at nine" in texts(events)
    assert [state.lives(s) for s in range(3)] == [1, 1, 1]


def test_draw_and_play_with_nothing_to_draw_plays_normally_nl_x6():
    """NL-X6: with no card received, Draw and Play's player plays normally."""
    state, _ = wagered("draw_and_play", ["t", "s", "s"])
    assert state.must_from == () and playable(state, 0) == {"t"}


def test_powers_that_act_happen_right_after_the_wager_nl_x3():
    state, _ = wagered("steal", ["t", "s ss", "s"], deck="tt")
    assert all(code.startswith("from:") for code in codes(state, 0)), "no play before the steal"
    state, _ = wagered("steal", ["t", "", ""], deck="tt")
    assert state.step == "play", "nothing to steal: the power does nothing"


def test_bindings_lapse_when_the_round_ends_nl_x5():
    """NL-X5: bindings on the next player lapse when the round ends."""
    state = position(["oo", "s", "t"], lives=["skip skip", "skip skip", "skip skip"], deck="x xx")
    state, _ = act(state, 0, "w")
    assert state.next_skip == 1
    state, _ = act(state, 0, "giveup")
    assert state.next_skip == 0 and state.turn == state.queen


def test_a_perfect_nine_ends_a_double_turn_nl_x5():
    """NL-X5: a player who makes a perfect nine takes no more turns, extra ones included."""
    state, _ = wagered("double_turn", ["3o s", "s ss", "t tt"], table="3o 3o", deck="x xx")
    state, _ = play(state, 0, "3o")
    assert state.safe == (0,) and state.turn == 1


def test_skip_turn_binds_the_next_seat_that_is_not_safe_nl_x5():
    """NL-X5: Skip Turn binds the next seat clockwise that is not safe."""
    state = position(["oo", "s", "t", "x"], lives=["skip skip", "skip", "skip", "skip"], safe=(1,))
    state, _ = act(state, 0, "w")
    state, events = act(state, 0, "skip")
    assert "{p2} must skip a turn" in texts(events), "safe {p1} is not the next player"
    assert state.turn == 3


def test_card_carousel_includes_safe_seats_nl_x7():
    """NL-X7: every seat takes part in Card Carousel, safe ones too."""
    state, _ = wagered("carousel", ["o", "s ss sss", "t tt ttt"], deck="x xx", safe=(1,))
    state, _ = act(state, 0, "dir:l")
    assert RULES.to_act(state) == [0, 1, 2]


def two_turn_visit(lives: str, hands: list[str], deck: str = "oo ss tt oo ss tt"):
    """Three seats; seat 2 has just wagered Double Turn and ended its extra turn, so seat 0 (lives
    `lives`) must take two turns."""
    state = position(hands, lives=[lives, "skip skip", "double_turn"], turn=2, deck=deck)
    state, _ = act(state, 2, "w")
    state, _ = play(state, 2, hands[2].split()[0])
    state, _ = act(state, 2, "end")
    assert state.turn == 0 and state.owed == 1
    return state


def wager_on_both_turns(state, first: str, second: str):
    """Seat 0, whose visit is two turns, wagers a life and plays `first`, then does so with `second`."""
    state, _ = act(state, 0, "w")
    state, _ = play(state, 0, first)
    state, _ = act(state, 0, "w")
    return play(state, 0, second)


def test_a_skip_takes_one_turn_from_a_doubled_visit_nl_x5():
    """NL-X5: Double Turn makes the next player's visit two turns; a skip takes one away."""
    state = position(
        ["o s", "ss sss", "t"], lives=["double_turn skip", "skip skip", "skip skip"], deck="x xx 3x 4x"
    )
    state, events = wager_on_both_turns(state, "o", "s")
    assert "{p1} must take 2 turns" in texts(events) and "{p1} must skip a turn" in texts(events)
    assert state.turn == 1 and "end" not in codes(state, 1)
    state, _ = play(state, 1, "ss")
    assert state.turn == 2, "{p1} took one turn of the two"


@pytest.mark.parametrize(
    ("order", "bound"), [("forbid_wager force_wager", "force"), ("force_wager forbid_wager", "forbid")]
)
def test_force_and_forbid_wager_in_one_visit_the_later_one_counts_nl_x5(order, bound):
    """NL-X5: if a two-turn visit sets both Force and Forbid Wager, the later one binds the next player."""
    state = two_turn_visit(order, ["o s", "t tt", "x xx"])
    state, _ = wager_on_both_turns(state, "o", "s")
    assert state.turn == 1
    if bound == "force":
        assert codes(state, 1) == ["w"]
    else:
        assert "w" not in codes(state, 1) and "p:" + card_in(state, 1, "t") in codes(state, 1)


def test_force_wager_binds_only_the_first_of_two_turns_nl_x5():
    """NL-X5: Force Wager binds the first turn the next player takes, not the second of a doubled visit."""
    state = position(
        ["o s", "t tt", "x"], lives=["double_turn force_wager", "skip skip", "skip"], deck="oo ss 3o 3s 5x"
    )
    state, _ = wager_on_both_turns(state, "o", "s")
    assert state.turn == 1 and codes(state, 1) == ["w"]
    state, _ = act(state, 1, "w")
    state, _ = play(state, 1, "t")
    assert state.turn == 1, "the second turn of the visit"
    assert "w" in codes(state, 1) and "p:" + card_in(state, 1, "tt") in codes(state, 1)


def test_two_skips_make_the_next_player_skip_two_turns_nl_x5():
    """NL-X5: each Skip Turn makes the next player skip one turn; a second one skips their next turn too."""
    state = two_turn_visit("skip skip", ["o s oo", "t tt", "x xx"])
    state, events = wager_on_both_turns(state, "o", "s")
    assert "{p1} must skip a turn" in texts(events) and state.turn == 2
    state, _ = play(state, 2, "xx")
    state, _ = play(state, 0, "oo")
    assert state.turn == 2, "{p1} skips a second turn"


def test_force_wager_binds_the_first_turn_taken_after_a_skipped_one_nl_x5():
    """NL-X5: Force Wager binds the first turn the next player takes, even when a Skip took the one due."""
    state = two_turn_visit("skip force_wager", ["o s oo", "t tt", "x xx"])
    state, _ = wager_on_both_turns(state, "o", "s")
    assert state.turn == 2, "{p1} skips the turn due"
    state, _ = play(state, 2, "xx")
    state, _ = play(state, 0, "oo")
    assert state.turn == 1 and codes(state, 1) == ["w"]


@pytest.mark.parametrize("power", ["force_wager", "forbid_wager", "double_turn"])
def test_force_forbid_and_double_turn_lapse_when_the_round_ends_nl_x5(power):
    """NL-X5: bindings lapse when the round ends: the next round's turns are plain ones."""
    state = position(
        ["oo s", "s ss", "t tt"], lives=[f"{power} skip skip", "skip skip", "skip skip"], deck="x xx"
    )
    state, _ = act(state, 0, "w")
    state, _ = act(state, 0, "giveup")
    assert state.round == 2 and state.turn == 0, "{p0} holds the most cards and rules"
    state, _ = play(state, 0, "s")
    assert state.turn == 1, "no extra turn for {p0}"
    moves = codes(state, 1)
    assert "w" in moves and f"p:{card_in(state, 1, 's')}" in moves
    state, _ = play(state, 1, "s")
    assert state.turn == 2, "{p1} takes one turn"


def test_a_perfect_nine_ends_a_visit_doubled_by_the_previous_player_nl_x5():
    """NL-X5: a player who makes a perfect nine takes no more turns, a second turn owed included."""
    state = position(["t", "3o s", "tt"], table="3o 3o", lives=["double_turn", "skip", "skip"], deck="x xx")
    state, _ = act(state, 0, "w")
    state, _ = play(state, 0, "t")
    state, _ = act(state, 0, "end")
    assert state.turn == 1 and state.owed == 1
    state, _ = play(state, 1, "3o")
    assert state.safe == (1,) and state.turn == 2


def test_shuffle_lives_may_reorder_any_stack_of_two_or_more_ones_own_included_nl_x8():
    """NL-X8: any stack with two cards or more may be chosen, one's own included."""
    state = position(
        ["o", "s", "t", "x"], lives=["shuffle_lives plus:o plus:s", "skip", "skip skip", ""], deck="oo ss"
    )
    state, _ = act(state, 0, "w")
    assert codes(state, 0) == ["stack:0", "stack:2"], "stacks of one card or none are not offered"
    state, _ = act(state, 0, "stack:0")
    assert RULES.view(state, 0).arranging_for == 0
    state, _ = act(state, 0, f"n:{life_id(state.stacks[0][1])}")
    assert [state.lifecards[c].a for c in state.stacks[0]] == [1, 0]
    top = RULES.view(state, None).seats[0].top
    assert (top.power, top.a) == ("plus", 1), "the new top card is public"
    assert state.step == "play" and state.turn == 0


def test_several_inspects_add_up_nl_x9():
    """NL-X9: several Inspects add up: a later one opens the first wagerer's hand and closes none."""
    state = position(
        ["o oo", "s ss", "t tt"], lives=["inspect skip", "inspect skip", "skip skip"], deck="x xx 3x 4x"
    )
    state, _ = act(state, 0, "w")
    state, _ = play(state, 0, "o")
    assert [seat.open_hand is not None for seat in RULES.view(state, None).seats] == [False, True, True]
    state, _ = act(state, 1, "w")
    assert [seat.open_hand is not None for seat in RULES.view(state, None).seats] == [True, True, True]
    state, _ = play(state, 1, "s")
    view = RULES.view(state, 2)
    assert [len(seat.open_hand) for seat in view.seats] == [3, 3, 2]


def test_a_picked_card_cannot_be_taken_back_nl_x10():
    """NL-X10: once a card with several placements is picked, another card can't be played instead."""
    state, _ = wagered("replace", ["ooo t", "s", "s"], table="4o 3o ss", deck="x xx")
    picked = card_in(state, 0, "ooo")
    state, _ = act(state, 0, f"p:{picked}")
    assert RULES.view(state, 0).selected.id == picked
    assert not any(code.startswith("p:") for code in codes(state, 0))
    with pytest.raises(IllegalAction):
        act(state, 0, f"p:{card_in(state, 0, 't')}")
    state, _ = act(state, 0, f"cover:{on_table(state, '4o')}")
    assert hand(state, 0) == ["t", "x", "xx"], "the picked card was the one played"


def test_giving_up_waits_for_a_picked_card_to_be_placed_nl_x12():
    """NL-X12: giving up is offered at the turn's play, not between picking a card and placing it."""
    state, _ = wagered("replace", ["ooo t", "s", "s"], table="4o 3o ss", deck="x xx")
    assert "giveup" in codes(state, 0)
    state, _ = act(state, 0, f"p:{card_in(state, 0, 'ooo')}")
    assert "giveup" not in codes(state, 0)
    with pytest.raises(IllegalAction):
        act(state, 0, "giveup")
