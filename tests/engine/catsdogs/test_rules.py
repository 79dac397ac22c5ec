"""Named scenarios for each ruling (CD-1 … CD-7, house rulings CD-X1 … CD-X5) from literal positions.

In `position`, hands are what each seat holds now: cards on the trick have left them.
"""

from __future__ import annotations

import pytest

from engine.catsdogs import RULES, Options, Play
from engine.catsdogs._cards import ribbons
from engine.catsdogs.position import cards, position
from engine.catsdogs.texts import TEXTS
from engine.core import IllegalAction, InvalidInput


def play(state, card):
    """Play `card` for the seat to act; the new state and events."""
    return RULES.apply(state, RULES.to_act(state)[0], Play(card=card))


def test_cd1_any_card_may_be_played_no_duty_to_follow():
    state = position("C2 C3 | D1 D2 C9 | C4 C6 C7", trick="C5", leader=0)
    legal = RULES.legal_actions(state, 1)
    assert [a.card for a in legal] == ["C9", "D1", "D2"]
    after, _ = play(state, "D1")
    assert after.trick == ((0, "C5"), (1, "D1"))


def test_cd1_a_card_not_in_hand_is_refused_with_a_reason():
    state = position("C2 C3 | D1 D2 | C4 C6", leader=0)
    with pytest.raises(IllegalAction, match="don't hold 🐶 Dog 9"):
        RULES.apply(state, 0, Play(card="D9"))
    with pytest.raises(IllegalAction, match="not a Cats & Dogs card"):
        RULES.check(state, 0, Play(card="X1"))
    assert RULES.legal_actions(state, 1) == []


def test_cd2_collected_cards_go_to_the_pile_and_score_at_round_end():
    """CD-2/CD-4: the last trick's collections and earlier ones score their ribbons; hands stay empty."""
    state = position("C1 | D9 | C2", collected="D3 | - | C7", leader=0, scores=(4, 0, 2))
    state, _ = play(state, "C1")
    state, _ = play(state, "D9")
    after, events = play(state, "C2")  # dogs 9 > cats 3: seat 1 collects C1 and C2
    record = after.rounds[-1]
    assert record.collected == (("D3",), ("C1", "D9", "C2"), ("C7",))
    assert record.ribbons == (2, 5, 0)
    assert after.scores == (6, 5, 2)
    assert any(e.kind == "score" and "{p1} +5🎀 (total 5)" in e.text for e in events)


def test_cd3_after_a_tie_the_last_player_leads():
    state = position("C8 | D7 | D3 D8", trick="C4 D1", leader=0)
    after, _ = play(state, "D3")
    assert after.last_trick.winner is None
    assert RULES.to_act(after) == [2]


def test_cd3_the_trick_winner_leads():
    state = position("C4 C8 | D7 | D8", trick="D1 D3", leader=1)
    after, _ = play(state, "C8")  # seat 0: cats 8 > dogs 4
    assert after.last_trick.winner == 0
    assert RULES.to_act(after) == [0]


@pytest.mark.parametrize(("players", "hand", "out"), [(3, 5, 3), (4, 4, 2), (5, 3, 3)])
def test_cd4_deal_by_player_count_rest_out_of_play(players, hand, out):
    state = RULES.setup(players, seed=3)
    assert [len(h) for h in state.hands] == [hand] * players
    assert len(state.out) == out
    assert state.table == () and state.hidden == ()
    view = RULES.view(state, 0)
    assert view.out_count == out and view.hand_sizes == (hand,) * players


def test_cd4_next_round_is_led_left_of_the_previous_first_leader():
    state = position("- | - | C2", trick="C1 D9", leader=0, round_leader=1)
    after, events = play(state, "C2")  # seat 1 wins this trick, but that does not matter for the new round
    assert after.round == 2 and after.round_leader == 2 and RULES.to_act(after) == [2]
    assert [len(h) for h in after.hands] == [5, 5, 5]
    assert after.collected == ((), (), ()) and after.trick_no == 0
    assert any(e.kind == "round" and "{p2} leads" in e.text for e in events)


def test_cd5_the_round_is_finished_before_the_game_ends():
    """CD-5: a player reaching 21 mid-round does not end it: scores only count after the last trick."""
    state = position("C1 C2 | D9 D8 | C3 C4", collected="C5 D1 D2 D3 | - | -", scores=(14, 0, 0), leader=0)
    assert ribbons(state.collected[0]) + 14 >= 21
    assert RULES.outcome(state) is None
    after, _ = play(state, "C1")
    assert RULES.outcome(after) is None and RULES.to_act(after) == [1]


def test_cd5_game_ends_after_a_round_reaching_21():
    """CD-5: the game ends after the round in which someone reaches 21; the highest total wins."""
    state = position("- | - | C9", trick="C1 D9", collected="D1 | - | -", scores=(19, 3, 7), leader=0)
    after, events = play(state, "C9")  # cats 10 > dogs 9: seat 2 collects D9
    outcome = RULES.outcome(after)
    assert after.over and RULES.to_act(after) == []
    assert outcome.scores == (25, 3, 7) and outcome.winners == (0,)
    assert [line.points for line in outcome.breakdown[0]] == [6]
    assert events[-1].kind == "end" and "{p0} wins with 25 ribbons" in events[-1].text


def test_cd5_nobody_at_21_means_another_round():
    state = position("- | - | C9", trick="C1 D9", scores=(10, 3, 7), leader=0)
    after, _ = play(state, "C9")
    assert not after.over and after.round == 2 and after.scores == (13, 3, 7)


@pytest.mark.parametrize(("last_win", "winner"), [((5, 7, 0), 1), ((7, 5, 0), 0)])
def test_cd5_a_tie_goes_to_the_tied_player_who_most_recently_won_a_trick(last_win, winner):
    """CD-5: a tie goes to the tied player who most recently won a trick."""
    # The last trick is a tie (cats 4, dogs 4): nobody wins it; seats 0 and 1 end on 21 each.
    state = position(
        "- | - | D3", trick="C4 D1", scores=(20, 18, 0), leader=0, last_win=last_win, tricks_played=7
    )
    after, _ = play(state, "D3")
    outcome = RULES.outcome(after)
    assert outcome.scores == (21, 21, 2)
    assert outcome.winners == (winner,)
    assert "most recently won a trick" in outcome.reason


def test_cd5_winning_the_last_trick_breaks_the_tie():
    # Seat 1 wins the final trick (dogs 9 > cats 3) and ties with seat 0 at 21.
    state = position(
        "- | - | C1", trick="C2 D9", scores=(21, 16, 0), leader=0, last_win=(6, 0, 0), tricks_played=9
    )
    after, _ = play(state, "C1")
    assert after.scores == (21, 21, 0)
    assert RULES.outcome(after).winners == (1,)


def test_cdx2_tied_players_who_never_won_a_trick_share_the_win():
    state = position("- | - | D3", trick="C4 D1", scores=(20, 18, 0), leader=0, last_win=(0, 0, 9))
    after, _ = play(state, "D3")
    outcome = RULES.outcome(after)
    assert outcome.winners == (0, 1) and "share the win" in outcome.reason


def test_cd6_two_players_deal_five_each_and_five_table_cards():
    state = RULES.setup(2, seed=11)
    assert [len(h) for h in state.hands] == [5, 5]
    assert len(state.table) == 5 and len(state.out) == 3
    view = RULES.view(state, 1)
    assert view.table == state.table and view.mode == "two-player"


def test_cd6_table_win_gives_the_lead_to_the_player_who_did_not_play_first():
    state = position("C6 | D3 D7", trick="C5", leader=0, table="D4 C8")
    after, events = play(state, "D3")  # dogs 7 > cats 5; the table's D4 is the top dog
    assert after.last_trick.winner == -1
    assert after.table_pile == ("C5", "D4") and after.collected == ((), ("D3",))
    assert RULES.to_act(after) == [1]
    assert any("the table wins with 🐶 Dog 4" in e.text for e in events)


def test_cd6_a_tie_gives_the_lead_to_the_player_who_did_not_play_first():
    state = position("C6 | D5 D7", trick="C3", leader=0, table="C2 C8")
    after, _ = play(state, "D5")
    assert after.last_trick.winner is None and RULES.to_act(after) == [1]


def test_cd6_the_player_with_the_higher_total_starts_the_next_round():
    state = position("D2 | -", trick="C9", leader=1, round_leader=1, table="C1", scores=(10, 4))
    after, _ = play(state, "D2")  # seat 1's C9 wins and collects D2: +2, total 6 < 10
    assert after.scores == (10, 6)
    assert after.round == 2 and RULES.to_act(after) == [0]


def test_cd6_on_equal_totals_the_player_who_did_not_start_starts():
    state = position("- | D2", trick="C9", leader=0, round_leader=0, table="C1", scores=(8, 10))
    after, _ = play(state, "D2")  # seat 0: +2 → 10 each
    assert after.scores == (10, 10) and RULES.to_act(after) == [1] and after.round_leader == 1


def test_cdx4_table_collections_score_for_nobody_and_21_ends_the_two_player_game():
    state = position("- | D9", trick="C2", leader=0, table="D1", scores=(20, 20))
    after, _ = play(state, "D9")  # dogs 10 > cats 2: seat 1 takes C2 (2 ribbons); the table keeps D1
    assert after.table_pile == ("D1",)
    outcome = RULES.outcome(after)
    assert outcome.scores == (20, 22) and outcome.winners == (1,)


def test_cd7_solo_setup_hides_five_cards():
    state = RULES.setup(1, seed=5)
    assert len(state.hands[0]) == 5 and len(state.table) == 5 and len(state.hidden) == 5
    assert len(state.out) == 3
    view = RULES.view(state, 0)
    assert view.hidden_left == 5 and view.max_rounds == 4
    text = view.model_dump_json()
    assert not [card for card in (*state.hidden, *state.out) if card in text]


def test_cd7_solo_the_hidden_card_is_turned_after_the_play():
    state = position("C9 C8", table="D4 D8", hidden="D3 C1")
    after, events = play(state, "C9")
    assert [e.kind for e in events[:3]] == ["play", "reveal", "trick"]
    assert "🐶 Dog 3" in events[1].text
    assert after.last_trick.plays == ((0, "C9"), (-1, "D4"), (-1, "D3"))
    assert after.collected == (("C9", "D4", "D3"),)
    assert RULES.view(after, 0).last_trick == after.last_trick  # played cards stay visible
    assert "C1" not in RULES.view(after, 0).model_dump_json()


def test_cd7_solo_continues_to_the_next_round_below_21():
    state = position("C9", table="D4", hidden="D3", scores=(3,))
    after, _ = play(state, "C9")  # cats 9 > dogs 7: C9, D4 and D3 give 3 ribbons
    assert not after.over and after.round == 2 and after.scores == (6,)
    assert RULES.view(after, 0).round_ribbons == ((3,),)
    assert len(after.hidden) == 5 and len(after.table) == 5 and len(after.hands[0]) == 5


def test_cd7_solo_is_lost_with_less_than_21_after_four_rounds():
    """CD-7/CD-X3: below 21 after round 4 the solo game is lost and has no winner."""
    state = position("C1", table="D9", hidden="D8", scores=(14,), round=4)
    after, _ = play(state, "C1")  # the table's dogs win and take C1
    outcome = RULES.outcome(after)
    assert after.over and outcome.winners == () and outcome.scores == (14,)
    assert "lost" in outcome.reason


def test_cdx3_solo_is_won_as_soon_as_a_round_reaches_21():
    """CD-X3: the solo game ends as a success right after the round that reaches 21."""
    state = position("C9", table="D1", hidden="D2", scores=(17,), round=2)
    after, _ = play(state, "C9")  # cats 9 > dogs 3: +5
    outcome = RULES.outcome(after)
    assert after.over and after.round == 2
    assert outcome.winners == (0,) and outcome.scores == (22,) and "success" in outcome.reason


def test_cdx1_first_player_option_and_random_default():
    assert RULES.setup(4, seed=1, options=Options(first_player=3)).leader == 3
    leaders = {RULES.setup(4, seed=seed).leader for seed in range(40)}
    assert leaders == {0, 1, 2, 3}
    assert RULES.setup(4, seed=9) == RULES.setup(4, seed=9)
    with pytest.raises(InvalidInput):
        RULES.setup(3, seed=1, options=Options(first_player=3))
    with pytest.raises(InvalidInput):
        RULES.setup(6, seed=1)


def test_views_show_own_hand_sizes_and_collected_but_not_other_hands():
    state = position("C1 C2 | D1 D2 | C3 D3", trick="", collected="- | - | -", leader=0)
    assert RULES.view(state, 1).hand == ("D1", "D2")
    public = RULES.view(state, None)
    assert public.hand == () and public.hand_sizes == (2, 2, 2)
    assert public.prompt == "{p0} chooses a card to play to trick 4"
    assert not [c for c in ("C1", "C2", "D1", "D2", "C3", "D3") if c in public.model_dump_json()]


def test_cdx5_views_drop_the_last_trick_of_an_earlier_round():
    """CD-X5: after a new deal the views no longer show the previous round's last trick."""
    state = position("- | - | C9", trick="C1 D9", scores=(1, 1, 1), leader=0)
    after, _ = play(state, "C9")
    assert after.last_trick is not None and RULES.view(after, 0).last_trick is None


def test_cdx5_views_keep_only_the_ribbons_of_an_earlier_round():
    """CD-X5: after a new deal no view shows the previous round's collected cards, only their ribbons."""
    state = position("- | - | C2", trick="C1 D9", collected="D3 | - | C7", leader=0)
    after, _ = play(state, "C2")
    record = after.rounds[-1]
    assert after.round == 2 and sum(record.ribbons) > 0
    for seat in (None, 0, 1, 2):
        view = RULES.view(after, seat)
        assert view.collected == ((), (), ()) and view.ribbons == (0, 0, 0)
        assert view.round_ribbons == (record.ribbons,)
    public = RULES.view(after, None).model_dump_json()
    assert not [card for card in ("D3", "C7", "C1", "D9", "C2") if card in public]


def test_events_narrate_plays_sums_winner_and_collections():
    state = position("C9 | D6 | C5 | D5 D8", trick="C7 D4 C3", leader=0)
    _, events = play(state, "D5")
    assert events[0].text == "{p3} plays 🐶 Dog 5."
    trick = next(e for e in events if e.kind == "trick")
    assert trick.visible_to is None
    assert "Cats 10 – Dogs 9: {p0} wins with 🐱 Cat 7" in trick.text
    assert "{p0} 🐱 Cat 7, 🐶 Dog 4, 🐶 Dog 5" in trick.text and "{p2} 🐱 Cat 3" in trick.text


def test_private_hand_events_at_a_new_deal():
    state = position("- | - | C9", trick="C1 D9", leader=0)
    after, events = play(state, "C9")
    hands = [e for e in events if e.kind == "hand"]
    assert [e.visible_to for e in hands] == [(0,), (1,), (2,)]
    for seat, event in enumerate(hands):
        assert all(
            card in event.text.replace("🐱 Cat ", "C").replace("🐶 Dog ", "D") for card in after.hands[seat]
        )
    assert [e.kind for e in RULES.opening_events(after)][:1] == ["round"]


def test_actions_encode_decode_and_label():
    assert RULES.decode_action("p:C7") == Play(card="C7") and Play(card="D3").encode() == "p:D3"
    for bad in ("C7", "p:C0", "p:X1", "", "p:C10"):
        with pytest.raises(InvalidInput):
            RULES.decode_action(bad)
    state = position("C1 C8 | D2 D3 | C4 C5")
    assert TEXTS.label(RULES, state, 0, Play(card="C1")) == "🐱 Cat 1 · 3🎀"
    assert TEXTS.label(RULES, state, 0, Play(card="C8")) == "🐱 Cat 8"
    assert not RULES.actions_are_public(state, 0)


def test_position_helper_accounts_for_all_cards():
    state = position("C1 | D9 | C9", collected="D1 | - | -")
    assert len(state.out) == 18 - 4
    assert cards("C1 - d2") == ("C1", "D2")
    with pytest.raises(ValueError):
        position("C1 | C1 | C2")
