"""Scenario tests, one or more per ruling (MC-1 … MC-10, MC-X1 … in docs/rulings.md)."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, InvalidInput, NotYourTurn, events_for
from engine.madcat import RULES
from engine.madcat._cards import CATPOT, TOTAL_VPS, card
from engine.madcat.model import Mooch, Options, Roll, SetAside, Stop
from engine.madcat.position import position, rigged


def act(state, seat, text):
    """Apply the encoded action `text` for `seat`; returns (state, events)."""
    return RULES.apply(state, seat, RULES.decode_action(text))


def codes(state, seat):
    return [action.encode() for action in RULES.legal_actions(state, seat)]


def texts(events, seat=None):
    return " ".join(event.text for event in events_for(events, seat))


def total(state):
    return state.supply + sum(state.cards) + sum(state.scores)


# --- MC-1 setup -----------------------------------------------------------------------------------


def test_setup_puts_the_ruled_vps_on_the_cards_and_the_roller_rolls_first_mc1_mcx7():
    """MC-1/MC-X7: the cards start with their VPs and the first roll is the starting player's action."""
    state = RULES.setup(3, seed=5)
    for kind in ("mad", "sad"):
        outer = [state.cards[card(kind, combo, False)] for combo in ("2p", "fh", "4k", "5k")]
        inner = [state.cards[card(kind, combo, True)] for combo in ("2p", "fh", "4k", "5k")]
        assert outer == [1, 1, 2, 2] and inner == [2, 2, 3, 3]
    assert state.cards[CATPOT] == 0
    assert state.supply == 128 and total(state) == TOTAL_VPS
    assert state.scores == (0, 0, 0)
    assert RULES.to_act(state) == [state.first] and codes(state, state.first) == ["roll"]


def test_the_starting_player_comes_from_the_seed_or_the_options_mcx1():
    firsts = {RULES.setup(4, seed=seed).first for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert RULES.setup(4, seed=3) == RULES.setup(4, seed=3)
    assert RULES.setup(4, seed=3, options=Options(first_player=2)).turn == 2
    with pytest.raises(InvalidInput):
        RULES.setup(4, seed=3, options=Options(first_player=4))
    with pytest.raises(InvalidInput):
        RULES.setup(6, seed=3)


# --- MC-2 setting aside ---------------------------------------------------------------------------


def test_after_a_roll_the_roller_must_set_aside_rolled_dice_mc2():
    state = rigged(position(phase="roll"), "m1 m2 s1 s1 w")
    state, events = act(state, 0, "roll")
    assert state.rolled == ("m1", "m2", "s1", "s1", "w")
    assert "rolls 🔥1 🔥2 💧1 💧1 🐾" in texts(events)
    options = codes(state, 0)
    assert "roll" not in options and not any(code.startswith("stop") for code in options)
    assert options[:4] == ["a:m1", "a:m2", "a:s1", "a:w"]
    assert "a:m1m2w" in options and "a:s1s1w" in options
    assert not any("m" in code and "s" in code for code in options), "never mad and sad together"
    with pytest.raises(IllegalAction, match="only mad cats or only sad cats"):
        act(state, 0, "a:m1s1")
    with pytest.raises(IllegalAction, match="didn't roll"):
        act(state, 0, "a:m3")


def test_a_roll_with_nothing_to_set_aside_fails_the_turn_mc2_mc9():
    state = position(phase="decide", tray="m1 m1", picks=". fail fail 2p", pot=5)
    state = rigged(state, "s1 s1 s2")
    state, events = act(state, 0, "roll")
    assert "turn fails" in texts(events)
    assert state.turn == 1 and state.phase == "roll"
    assert state.scores == (0, 2, 2, 0)  # the two Fail moochers split the catpot (MC-9)
    assert state.cards[CATPOT] == 1  # the indivisible VP stays


def test_wilds_can_be_set_aside_once_locked_in_mc2():
    state = position(phase="aside", tray="m1", rolled="s1 s2 w w")
    assert codes(state, 0) == ["a:w", "a:ww"]
    with pytest.raises(IllegalAction, match="locked in on mad cats"):
        act(state, 0, "a:s1")


# --- MC-3 lock-in ---------------------------------------------------------------------------------


def test_locking_in_puts_2_vps_on_the_catpot_and_each_card_of_the_other_kind_mc3():
    state = position(phase="aside", rolled="m1 m2 s1 s2 w", pot=3)
    before = state
    state, events = act(state, 0, "a:m1")
    assert state.kind == "mad" and state.phase == "mooch"
    assert state.cards[CATPOT] == 5
    for combo in ("2p", "fh", "4k", "5k"):
        for inner in (False, True):
            assert state.cards[card("sad", combo, inner)] == before.cards[card("sad", combo, inner)] + 2
            assert state.cards[card("mad", combo, inner)] == before.cards[card("mad", combo, inner)]
    assert state.supply == before.supply - 18 and total(state) == TOTAL_VPS
    assert "locked in on mad cats" in texts(events)


def test_wilds_alone_do_not_lock_in_mc3():
    state = position(phase="aside", rolled="m1 s1 w w w")
    state, _ = act(state, 0, "a:www")
    assert state.kind is None and state.phase == "decide" and state.supply == position().supply
    assert RULES.to_act(state) == [0]
    assert codes(state, 0) == ["roll"]  # three wilds read as nothing


def test_a_short_supply_fills_the_catpot_first_then_two_pairs_outer_first_mcx3():
    """MC-X3: with 5 VPs left the catpot gets 2, the outer two pairs 2, the inner two pairs 1, the rest 0."""
    state = position(phase="aside", rolled="s1 s1 s1 s2 s2", supply=5, scores="123 0 0 0")
    assert total(state) == TOTAL_VPS
    state, events = act(state, 0, "a:s1")
    assert state.supply == 0
    assert state.cards[CATPOT] == 2
    assert state.cards[card("mad", "2p", False)] == 1 + 2
    assert state.cards[card("mad", "2p", True)] == 2 + 1
    assert state.cards[card("mad", "fh", False)] == 1
    assert "supply is empty" in texts(events)


# --- MC-4 mooching --------------------------------------------------------------------------------


def test_every_other_seat_picks_at_once_and_the_roller_waits_mc4():
    state = position(phase="aside", rolled="m1 m1 m2 m3 w")
    state, _ = act(state, 0, "a:m1m1")
    assert RULES.to_act(state) == [1, 2, 3]
    assert RULES.legal_actions(state, 0) == []
    assert codes(state, 2) == ["mooch:2p", "mooch:fh", "mooch:4k", "mooch:5k", "mooch:fail", "mooch:none"]
    assert not RULES.actions_are_public(state, 2) and RULES.actions_are_public(position(), 0)
    with pytest.raises(NotYourTurn):
        act(state, 0, "roll")
    state, events = act(state, 2, "mooch:fh")
    assert RULES.to_act(state) == [1, 3]
    with pytest.raises(NotYourTurn):
        act(state, 2, "mooch:2p")
    assert texts(events) == "🤫 {p2} has picked a mooch card."  # the public narration names no card
    assert "Full house" in texts(events, 2)
    state, _ = act(state, 1, "mooch:none")
    state, _ = act(state, 3, "mooch:4k")
    assert RULES.to_act(state) == [0] and codes(state, 0) == ["roll"]


def test_no_card_is_a_secret_pick_that_never_pays_mcx2():
    state = position(phase="mooch", tray="s1", picks=". . fail fail", pot=6)
    state, events_none = act(state, 1, "mooch:none")
    assert texts(events_none) == "🤫 {p1} has picked a mooch card."  # the same words as any other pick
    assert RULES.view(state, 2).picked == (False, True, True, True) and RULES.view(state, 2).my_pick == "fail"
    state = rigged(state, "m1 m1 m2 m3")
    state, events = act(state, 0, "roll")  # no sad die and no wild: the turn fails (MC-9)
    assert state.scores == (0, 0, 3, 3) and "{p1}" not in texts(events)


def test_a_pick_is_seen_only_by_its_owner_until_revealed_mc4():
    state = position(phase="mooch", tray="m1 m1 w", picks=". fh . 4k")
    assert RULES.view(state, 1).my_pick == "fh"
    for seat in (None, 0, 2, 3):
        view = RULES.view(state, seat)
        assert view.revealed == (None,) * 4
        assert view.picked == (False, True, False, True)
        assert "fh" not in view.model_dump_json()
    assert RULES.view(state, 3).my_pick == "4k"


def test_moochers_see_the_tray_when_they_pick_mc4():
    state = position(phase="mooch", tray="m1 m1 w")
    view = RULES.view(state, 2)
    assert view.aside == ("m1", "m1", "w") and view.readings == ()
    assert "{p1}, {p2}, {p3} pick a mooch card" in view.prompt


# --- MC-6 moocher payouts -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("picks", "outer", "shares", "rest"),
    [
        (". 2p - -", 5, (5, 0, 0), 0),  # one moocher takes the whole outer card
        (". 2p 2p -", 5, (2, 2, 0), 1),  # two split, 1 indivisible VP stays
        (". 2p 2p 2p", 5, (1, 1, 1), 2),  # three split, 2 stay
        (". 2p 2p 2p", 2, (0, 0, 0), 2),  # too few to share: nobody gets any
        (". 2p 2p 2p", 6, (2, 2, 2), 0),
    ],
)
def test_moochers_split_the_outer_card_fairly_mc6(picks, outer, shares, rest):
    state = position(tray="m1 m1 m2", picks=picks, mad=f"{outer}/2 1/2 2/3 2/3")
    state = rigged(state, "m2 s1")
    state, _ = act(state, 0, "roll")
    state, events = act(state, 0, "a:m2")  # m1 m1 m2 m2 now reads as two pairs
    assert state.scores[1:] == shares
    assert state.cards[card("mad", "2p", False)] == rest
    assert total(state) == TOTAL_VPS
    moochers = [seat for seat in (1, 2, 3) if picks.split()[seat] == "2p"]
    assert [seat for seat in (1, 2, 3) if state.paid[seat]] == moochers
    assert RULES.view(state, None).revealed == tuple("2p" if seat in moochers else None for seat in range(4))
    assert "reveal" in texts(events) and (f"{rest} VP" in texts(events)) == (rest > 0)


def test_payouts_fire_when_the_last_moocher_picks_if_the_tray_already_reads_mc6():
    state = position(phase="aside", rolled="m1 m1 w w s1", mad="3/2 1/2 4/3 2/3")
    state, _ = act(state, 0, "a:m1m1ww")  # locks in; reads as two pairs or four of a kind (MC-5)
    state, _ = act(state, 1, "mooch:2p")
    state, _ = act(state, 2, "mooch:4k")
    assert state.scores == (0, 0, 0, 0), "nobody is paid before every moocher has picked"
    state, events = act(state, 3, "mooch:fh")
    assert state.scores == (0, 3, 4, 0)  # two different cards paid at the same moment
    assert state.cards[card("mad", "2p", False)] == 0 and state.cards[card("mad", "4k", False)] == 0
    assert RULES.view(state, 1).revealed == (None, "2p", "4k", None)
    assert "{p1} reveals Two pairs" in texts(events) and "{p2} reveals Four of a kind" in texts(events)


def test_a_payout_does_not_depend_on_the_rollers_later_choice_mc6():
    state = position(tray="m1 m1 m2", picks=". 2p fh -", mad="4/2 3/2 2/3 2/3")
    state = rigged(state, "m2 w")
    state, _ = act(state, 0, "roll")
    state, _ = act(state, 0, "a:m2w")  # m1 m1 m2 m2 w: two pairs and full house
    assert state.scores == (0, 4, 3, 0)
    state, _ = act(state, 0, "stop:mad:2p")  # the roller's reading does not matter to the moochers
    assert state.scores == (2, 4, 3, 0) and state.turn == 1


def test_a_payout_is_kept_when_the_tray_later_reads_differently_mc6():
    state = position(tray="m1 m1 m2", picks=". fh 2p -", mad="4/2 3/2 2/3 2/3")
    state = rigged(state, "m2 s1")
    state, _ = act(state, 0, "roll")
    state, _ = act(state, 0, "a:m2")  # m1 m1 m2 m2: two pairs
    assert state.scores == (0, 0, 4, 0)
    state = rigged(state, "m1")
    state, _ = act(state, 0, "roll")
    state, events = act(state, 0, "a:m1")  # m1 m1 m1 m2 m2: only a full house now
    assert state.scores == (0, 3, 4, 0) and "{p1} reveals Full house" in texts(events)
    assert RULES.view(state, 0).revealed == (None, "fh", "2p", None)


def test_a_moocher_is_paid_only_once_per_turn_mc6():
    state = position(tray="m1 m1 m2 m2", picks=". 2p! - -", mad="5/2 1/2 2/3 2/3", scores="0 1 0 0")
    state = rigged(state, "m3")
    state, _ = act(state, 0, "roll")
    state, events = act(state, 0, "a:m3")  # still reads as two pairs
    assert state.scores == (0, 1, 0, 0) and state.cards[card("mad", "2p", False)] == 5
    assert "reveal" not in texts(events)


# --- MC-7 stopping --------------------------------------------------------------------------------


def test_the_roller_may_stop_with_any_readable_combination_whose_inner_card_has_vps_mc7():
    state = position(tray="m1 m1 m2 w w", mad="1/2 1/0 2/3 2/3")
    assert codes(state, 0) == ["stop:mad:2p", "stop:mad:4k"]  # full house reads, but its inner card is empty
    with pytest.raises(IllegalAction, match="holds no VPs"):
        act(state, 0, "stop:mad:fh")
    with pytest.raises(IllegalAction, match="can't be read as Five of a kind"):
        act(state, 0, "stop:mad:5k")
    with pytest.raises(IllegalAction, match="locked in on mad cats"):
        act(state, 0, "stop:sad:2p")
    with pytest.raises(IllegalAction, match="stop with a combination"):
        act(state, 0, "roll")
    state, events = act(state, 0, "stop:mad:4k")
    assert state.scores == (3, 0, 0, 0) and state.cards[card("mad", "4k", True)] == 0
    assert state.earned[0] == (3, 0, 0)
    assert "stops with mad Four of a kind and takes 3 VPs" in texts(events)
    assert state.turn == 1 and state.phase == "roll" and state.aside == () and state.picks == (None,) * 4


def test_with_fewer_than_five_dice_the_roller_may_also_roll_on_mc7():
    state = position(tray="s1 s1 s2 s2")
    assert codes(state, 0) == ["roll", "stop:sad:2p"]


def test_five_dice_without_a_card_to_take_fail_the_turn_mc7_mc9():
    state = position(tray="m1 m1 m2 m2", picks=". fail 2p fail", mad="3/0 1/2 2/3 2/3", pot=7)
    state = rigged(state, "m3")
    state, _ = act(state, 0, "roll")
    state, events = act(state, 0, "a:m3")  # two pairs: its moocher is paid, but the inner card is empty
    assert "turn fails" in texts(events)
    assert state.scores == (0, 3, 3, 3)  # the 2p moocher from the outer card, the Fail moochers the catpot
    assert state.cards[CATPOT] == 1 and state.turn == 1


def test_the_stop_button_must_follow_a_set_aside_mc7():
    state = position(phase="aside", tray="m1 m1 m2 m2", rolled="m3")
    with pytest.raises(IllegalAction, match="only stop after setting aside"):
        act(state, 0, "stop:mad:2p")
    with pytest.raises(IllegalAction, match="Set aside at least one"):
        act(state, 0, "roll")


# --- MC-8 wilds -----------------------------------------------------------------------------------


def test_five_wilds_take_the_whole_catpot_and_nobody_else_gets_anything_mc8():
    state = position(tray="w w w", kind=None, pot=9)
    state = rigged(state, "w w")
    state, _ = act(state, 0, "roll")
    state, events = act(state, 0, "a:ww")
    assert state.scores == (9, 0, 0, 0) and state.cards[CATPOT] == 0
    assert state.earned[0] == (0, 0, 9)
    assert "Five wilds" in texts(events) and state.turn == 1


def test_five_wilds_with_an_empty_catpot_end_the_turn_without_vps_mcx4():
    """MC-X4: the fifth wild ends the turn at once, even on an empty catpot, and it is not a fail."""
    state = rigged(position(tray="w w w w", kind=None, pot=0), "w")
    state, events = act(state, 0, "roll")
    state, events = act(state, 0, "a:w")
    assert state.scores == (0, 0, 0, 0) and state.turn == 1 and "fails" not in texts(events)


def test_four_wilds_alone_stop_as_four_of_a_kind_of_either_kind_without_lock_in_mc8_mcx5():
    """MC-8/MC-X5: stopping on four wilds names the kind, adds no VPs and opens no mooching."""
    state = position(tray="w w w w", kind=None, sad="1/2 1/2 2/5 2/3")
    assert codes(state, 0) == ["roll", "stop:mad:4k", "stop:sad:4k"]
    supply = state.supply
    state, _ = act(state, 0, "stop:sad:4k")
    assert state.scores == (5, 0, 0, 0) and state.supply == supply  # no lock-in: nothing added, no mooching


def test_four_wilds_plus_a_mad_die_read_as_four_or_five_of_a_kind_mc5_mc8():
    state = rigged(position(tray="w w w w", kind=None), "m2")
    state, _ = act(state, 0, "roll")
    state, _ = act(state, 0, "a:m2")
    assert state.phase == "mooch"
    for seat in (1, 2, 3):
        state, _ = act(state, seat, "mooch:5k")
    assert codes(state, 0) == ["stop:mad:4k", "stop:mad:5k"]
    assert state.scores == (0, 0, 0, 0)  # 2 VPs split three ways: nothing, both stay
    assert state.cards[card("mad", "5k", False)] == 2


# --- MC-9 fail ------------------------------------------------------------------------------------


def test_fail_moochers_split_the_catpot_and_others_get_nothing_mc9():
    state = position(tray="s1", picks=". fail 2p fail", pot=4)
    state = rigged(state, "m1 m2 m3 m3")
    state, events = act(state, 0, "roll")
    assert state.scores == (0, 2, 0, 2) and state.cards[CATPOT] == 0
    assert state.earned[1] == (0, 0, 2)
    assert "{p1} and {p3} reveal Fail and take 2 VPs each from the catpot" in texts(events)


# --- MC-10 game end -------------------------------------------------------------------------------


def _emptying(players, turn, first=0):
    """A position where `turn`'s next set-aside empties the supply."""
    scores = " ".join(["100"] + ["0"] * (players - 1))
    state = position(players, phase="aside", turn=turn, first=first, rolled="m1 m1 m2 m2 w", supply=4)
    extra = TOTAL_VPS - total(state)
    state = position(
        players,
        phase="aside",
        turn=turn,
        first=first,
        rolled="m1 m1 m2 m2 w",
        supply=4,
        scores=scores.replace("100", str(extra)),
    )
    assert total(state) == TOTAL_VPS
    return state


def finish_turn(state):
    """Set aside all of the rigged roll, let everyone mooch nothing, stop with the first combination."""
    roller = state.turn
    state, events = act(state, roller, "a:m1m1m2m2w")
    for seat in RULES.to_act(state):
        state, events = act(state, seat, "mooch:none")
    if state.phase == "decide" and state.turn == roller:
        state, events = act(state, roller, codes(state, roller)[0])
    return state, events


@pytest.mark.parametrize("players", [2, 4])
def test_with_2_or_4_players_the_game_ends_after_the_turn_that_empties_the_supply_mc10(players):
    state = _emptying(players, turn=1)
    state, events = finish_turn(state)
    assert state.supply == 0 and state.phase == "over" and RULES.to_act(state) == []
    assert RULES.outcome(state) is not None and "game is over" in texts(events)


@pytest.mark.parametrize("players", [3, 5])
def test_with_3_or_5_players_play_goes_on_until_the_starting_player_is_due_mc10(players):
    state = _emptying(players, turn=1, first=0)
    state, _ = finish_turn(state)
    assert state.supply == 0 and state.phase == "roll" and state.turn == 2
    assert RULES.view(state, None).final_round
    while state.turn != 0 and state.phase != "over":
        supply_cards = state.cards[CATPOT]
        state = rigged(state, "m1 m1 m2 m2 w")
        state, _ = act(state, state.turn, "roll")
        state, _ = finish_turn(state)
        assert state.cards[CATPOT] == supply_cards, "no more VPs are added"
    assert state.phase == "over" and state.turn == players - 1


def test_the_game_ends_at_once_when_the_player_before_the_starting_player_empties_the_supply_mc10():
    state, _ = finish_turn(_emptying(3, turn=1, first=2))
    assert state.phase == "over"


def test_most_vps_win_and_ties_go_to_the_most_recent_roller_mc10():
    state = position(
        phase="over",
        turn=1,
        scores="30 20 30 25",
        supply=0,
        mad="0/0 0/0 0/0 0/0",
        sad="0/0 0/0 0/0 0/0",
        pot=55,
    )
    outcome = RULES.outcome(state)
    assert outcome.scores == (30, 20, 30, 25)
    assert outcome.winners == (0,)  # seat 1 rolled last; going back, seat 0 is the latest tied roller
    assert "rolled more recently" in outcome.reason
    assert [line.label for line in outcome.breakdown[0]] == ["Rolling", "Mooching", "Catpot"]
    state = state.model_copy(update={"turn": 3})
    assert RULES.outcome(state).winners == (2,)
    state = state.model_copy(update={"scores": (30, 20, 29, 26)})
    assert RULES.outcome(state).winners == (0,) and "tied" not in RULES.outcome(state).reason


# --- views, events, encodings ---------------------------------------------------------------------


def test_the_public_view_shows_dice_cards_scores_and_supply():
    state = position(tray="m1 m1 w", rolled="m1 w s2", picks=". fh! 4k -", scores="3 1 0 0")
    view = RULES.view(state, None)
    assert view.aside == ("m1", "m1", "w") and view.rolled == ("m1", "s2", "w")
    assert view.cards == state.cards and view.scores == (3, 1, 0, 0) and view.supply == state.supply
    assert view.readings == () and view.kind == "mad" and view.turn == 0
    assert view.revealed == (None, "fh", None, None) and view.my_pick is None
    assert view.to_act == (0,) and view.prompt == "{p0} rolls again or stops" and not view.over
    assert RULES.view(state, 2).my_pick == "4k" and RULES.view(state, 3).my_pick == "none"


def test_actions_round_trip_and_bad_input_is_refused():
    for action in [
        Roll(),
        SetAside(faces=("m1", "m1", "w")),
        Stop(kind="sad", combo="fh"),
        Mooch(card="fail"),
    ]:
        assert RULES.decode_action(action.encode()) == action
    for text in ["", "roll!", "a:", "a:x1", "a:m1m1m1m1m1m1", "a:wm1", "stop:mad", "stop:cat:2p", "mooch:3k"]:
        with pytest.raises(InvalidInput):
            RULES.decode_action(text)
