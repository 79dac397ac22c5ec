"""One scenario per ruling (CS-1 … CS-13, CS-X*) and per special card, from literal positions."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.catsanity import RULES
from engine.catsanity._cards import ALL_CARDS, MOON
from engine.catsanity._flow import start_turn
from engine.catsanity.model import Options
from engine.catsanity.position import position
from engine.catsanity.texts import TEXTS
from engine.core import IllegalAction, InvalidInput, NotYourTurn

# ---- CS-1 turn steps, CS-12 and CS-13 setup ------------------------------------------------------------


def test_cs1_setup_deals_two_then_the_first_turn_refills_the_alley_to_three():
    state = RULES.setup(4, seed=3)
    assert len(state.alley) == 3 and len(state.deck) == 45
    assert state.tokens == (7, 7, 7, 7) and state.phase == "turn"


def test_cs1_turn_steps_run_in_order_precious_then_skip_then_refill(table):
    """p0 adopts; p1 loses its last token to the Precious Cat and is skipped; p2 refills the alley."""
    t = table(
        """
        alley house1 house2 house3
        deck fib1 fib2 fib3 fib4 chorus1
        p0 7 twinA1
        p1 1 precious
        p2 3 twinB1
        """
    )
    t.play("adopt:house1")
    kinds = [e.kind for e in t.events]
    assert kinds == ["adopt", "precious", "skip", "reveal"]
    assert t.state.turn == 2 and t.state.tokens == (7, 0, 3)
    assert t.state.alley == ("house2", "house3", "chorus1")


@pytest.mark.parametrize(("players", "tokens"), [(2, 5), (3, 7), (4, 7), (5, 6)])
def test_cs12_tokens_by_player_count_and_the_full_48_card_deck(players, tokens):
    state = RULES.setup(players, seed=11)
    assert state.tokens == (tokens,) * players
    cards = state.deck + state.alley + sum(state.homes, ())
    assert sorted(cards) == sorted(ALL_CARDS) and len(cards) == 48


def test_cs13_first_player_option_and_random_default():
    assert RULES.setup(4, 5, Options(first_seat=2)).turn == 2
    assert {RULES.setup(4, seed).turn for seed in range(40)} == {0, 1, 2, 3}
    with pytest.raises(InvalidInput):
        RULES.setup(3, 5, Options(first_seat=3))


# ---- CS-2 play end -------------------------------------------------------------------------------------


def test_cs2a_empty_deck_at_turn_start_ends_play_even_with_cats_in_the_alley(table):
    t = table(
        """
        alley house1 house2
        deck
        p0 7 twinA1
        p1 7 twinB1
        """
    )
    t.play("adopt:house1")
    assert t.state.phase == "over" and t.state.alley == ("house2",)
    assert RULES.outcome(t.state).reason == "The deck ran out at the start of a turn."
    assert RULES.outcome(t.state).scores == (5, 2) and RULES.to_act(t.state) == []


def test_cs2b_play_ends_when_nobody_has_a_token_left(table):
    t = table(
        """
        alley ninja1 house1 house2
        p0 1 twinA1
        p1 0 house3
        p2 0
        """
    )
    t.play("adopt:ninja1", "ninja:1")
    assert t.state.phase == "over" and t.state.end_reason == "insane"
    assert RULES.outcome(t.state).reason == "Every player went insane."
    assert "Nobody has any sanity left" in t.texts("end")[0]


# ---- CS-3 CatSanity! -----------------------------------------------------------------------------------


def test_cs3_three_moon_cats_cost_everyone_a_token_and_end_the_turn(table):
    t = table(
        """
        alley house1 ninja1 recall1
        deck fib1 fib2 cthulhu
        p0 3
        p1 1
        p2 0
        """
    )
    t.play("adopt:house1")
    assert t.texts("catsanity") == [
        "CatSanity! Three Moon Cats in the alley — everyone loses a sanity token. "
        "The three cats are shuffled back into the deck and {p1}'s turn ends."
    ]
    # p1 lost its last token, p2 stayed at 0, p0 lost one; the turn went on to p2 (skipped) and p0.
    assert t.state.tokens == (2, 0, 0)
    assert t.state.turn == 0 and len(t.state.alley) == 3
    assert sorted(t.state.alley + t.state.deck) == sorted(["fib1", "fib2", "cthulhu", "ninja1", "recall1"])


def test_cs3_needs_exactly_three_cards_two_moon_cats_are_no_catsanity(table):
    t = table(
        """
        alley house1 ninja1
        deck recall1
        p0 3
        p1 3
        """
    )
    t.play("adopt:house1")
    assert t.texts("catsanity") == [] and t.state.alley == ("ninja1", "recall1")
    assert t.state.tokens == (3, 3) and t.state.turn == 1


# ---- CS-4 auctions -------------------------------------------------------------------------------------

AUCTION = """
    turn 1
    alley house1 twinA1 ninja1
    p0 4
    p1 3
    p2 0
    p3 5
"""


def test_cs4_bidding_goes_left_of_the_caller_round_to_the_caller_winner_takes_every_sun_cat(table):
    t = table(AUCTION)
    t.play("auction")
    assert RULES.to_act(t.state) == [3]  # p2 is insane: passes without being asked (CS-X1)
    assert "{p2} is insane and passes." in t.texts("bid")
    t.play("bid:2")
    assert t.legal() == ["bid:0", "bid:3", "bid:4"]  # p0: strictly higher, at most its 4 tokens
    t.play("bid:3")  # the caller p1 can't outbid 3 with its 3 tokens: it passes
    assert t.state.homes[0] == ("house1", "twinA1") and t.state.tokens == (1, 3, 0, 5)
    assert t.state.alley[0] == "ninja1"  # Moon Cats stay in the alley
    assert t.state.turn == 3  # the auction replaced p1's adoption; p2 is skipped


def test_cs4_bids_above_your_tokens_or_not_higher_are_refused_with_a_reason(table):
    t = table(AUCTION).play("auction")
    with pytest.raises(IllegalAction, match=r"You only have 5 sanity tokens, you can't bid 6\."):
        RULES.apply(t.state, 3, RULES.decode_action("bid:6"))
    t.play("bid:3")
    with pytest.raises(IllegalAction, match="higher than 3"):
        RULES.apply(t.state, 0, RULES.decode_action("bid:3"))
    with pytest.raises(NotYourTurn):
        RULES.apply(t.state, 1, RULES.decode_action("bid:0"))


def test_cs4_the_caller_closes_with_the_final_higher_bid(table):
    t = table(AUCTION.replace("p1 3", "p1 6")).play("auction", "bid:1", "bid:2", "bid:5")
    assert t.state.homes[1] == ("house1", "twinA1") and t.state.tokens[1] == 1


def test_cs4_if_everyone_passes_nobody_takes_anything_and_the_turn_ends(table):
    t = table(AUCTION).play("auction", "bid:0", "bid:0", "bid:0")
    assert t.texts("auction")[-1] == "Nobody bid: the Sun Cats stay in the alley."
    assert t.state.alley == ("house1", "twinA1", "ninja1") and t.state.homes == ((), (), (), ())
    assert t.state.turn == 3 and t.state.tokens == (4, 3, 0, 5)


def test_cs4_no_auction_without_a_sun_cat_in_the_alley(table):
    t = table(
        """
        alley ninja1 recall1
        p0 3
        p1 3
        """
    )
    assert "auction" not in t.legal()
    with pytest.raises(IllegalAction, match="at least one Sun Cat"):
        RULES.apply(t.state, 0, RULES.decode_action("auction"))


def test_csx1_a_bidder_who_cannot_outbid_passes_automatically(table):
    """CS-X1."""
    t = table(AUCTION).play("auction", "bid:4")
    # p0 has 4 tokens and can't beat 4; the caller p1 has 3: both pass without a decision.
    assert t.state.homes[3] == ("house1", "twinA1") and t.state.tokens[3] == 1
    assert "{p0} can't outbid 4 and passes." in t.texts("bid")


# ---- CS-5 adoption -------------------------------------------------------------------------------------


def test_cs5_sun_cats_are_free_moon_cats_cost_a_token(table):
    t = table(
        """
        alley house1 recall1 twinA1
        p0 3
        p1 3 house2
        """
    )
    t.play("adopt:house1")
    assert t.state.tokens == (3, 3)
    t.play("adopt:recall1")  # p1 adopts a Moon Cat; p0 (1 card) returns it without a choice
    assert t.state.tokens == (3, 2)


def test_cs5_paying_the_last_token_still_resolves_the_special_action_then_insane(table):
    t = table(
        """
        alley ninja1 house1 house2
        p0 1 twinA1
        p1 4 house3
        p2 4
        """
    )
    t.play("adopt:ninja1")
    assert t.state.tokens[0] == 0 and t.state.phase == "ninja" and RULES.to_act(t.state) == [0]
    t.play("ninja:1")
    assert "house3" in t.state.homes[0]
    t.play("adopt:house1", "adopt:house2")  # p1, p2; then p0 is skipped as insane
    assert t.state.turn == 1 and "{p0} is insane and skips the turn." in t.texts("skip")


def test_csx2_adopting_is_required_even_when_only_moon_cats_are_left(table):
    """CS-X2."""
    t = table(
        """
        alley ninja1 recall1
        p0 2
        p1 2
        """
    )
    assert t.legal() == ["adopt:ninja1", "adopt:recall1"]


# ---- CS-6 Copy Cat -------------------------------------------------------------------------------------


def test_cs6_csx5_copy_cat_is_declared_publicly_as_a_sun_kind_with_a_letter_for_twins(table):
    """CS-X5."""
    t = table(
        """
        alley copycat house1 house2
        p0 3 twinD1 twinD2
        p1 3
        """
    )
    t.play("adopt:copycat")
    assert t.legal() == [f"copy:{k}" for k in ["house", *(f"twin{c}" for c in "ABCDEFGH"), "chorus", "fib"]]
    assert RULES.actions_are_public(t.state, 0)
    t.play("copy:twinD")
    assert t.state.copy_as == "twinD" and t.texts("copy") == ["{p0} declares the Copy Cat a Twin D Cat."]
    assert RULES.view(t.state, None).scores[0] == 12  # a third matched Twin


def test_cs6_a_copy_cat_returned_to_the_deck_loses_its_declaration(table):
    t = table(
        """
        alley recall1 house1 house2
        p0 3
        p1 3 copycat=fib fib1
        """
    )
    t.play("adopt:recall1")  # p1 holds exactly 2 cats: both go back
    assert t.state.copy_as is None and "copycat" in t.state.deck


# ---- CS-7 Ninja ----------------------------------------------------------------------------------------

NINJA = """
    alley ninja1 house1 house2
    p0 3
    p1 3 twinA1 copycat=house chorus1 moonking fib1
    p2 3
"""


def test_cs7_ninja_takes_one_random_sun_cat_never_the_copy_cat(table):
    taken = Counter()
    for seed in range(300):
        t = table(NINJA, seed=seed).play("adopt:ninja1")
        assert t.legal() == ["ninja:1", "ninja:2"]
        t.play("ninja:1")
        (card,) = set(t.state.homes[0]) - {"ninja1"}
        taken[card] += 1
        assert t.texts("ninja")[0].startswith("Banzai! Ninja attack! {p0} liberates a")
    assert set(taken) == {"twinA1", "chorus1", "fib1"}
    assert all(60 <= n <= 140 for n in taken.values())  # about 100 each out of 300


def test_cs7_csx4_ninja_may_attack_a_home_without_sun_cats_and_nothing_happens(table):
    """CS-X4."""
    t = table(NINJA).play("adopt:ninja1", "ninja:2")
    assert t.state.homes[0] == ("ninja1",) and t.state.homes[2] == ()
    assert "Nothing happens" in t.texts("ninja")[0]


# ---- CS-8 Recall ---------------------------------------------------------------------------------------

RECALL = """
    turn 1
    alley recall1 house1 house2
    p0 0 twinA1 twinA2 chorus1 copycat=chorus
    p1 4 fib1
    p2 2 house3 house4 house5
    p3 3 moonking
"""


def test_cs8_csx3_opponents_return_two_cats_one_after_another_insane_ones_too(table):
    """CS-X3."""
    t = table(RECALL).play("adopt:recall1")
    # p2 chooses first (left of p1), then p3 returns its only cat, then p0 (insane) chooses.
    assert RULES.to_act(t.state) == [2] and t.legal() == ["return:house"]
    t.play("return:house", "return:house")
    assert t.state.homes[2] == ("house3",) and RULES.to_act(t.state) == [0]
    assert "{p3} returns Moon King to the deck." in t.texts("recall")
    assert t.legal() == ["return:twinA", "return:chorus", "return:copycat"]
    t.play("return:copycat", "return:twinA")
    assert t.state.homes[0] == ("twinA1", "chorus1") and t.state.copy_as is None
    assert t.texts("recall")[-1] == "{p0} returns Copy Cat, Twin A Cat to the deck."
    assert t.texts("shuffle") == ["The deck is reshuffled."] and t.state.turn == 2


def test_cs8_csx3_a_pending_recall_pick_is_seen_only_by_its_chooser(table):
    """CS-X3."""
    t = table(RECALL).play("adopt:recall1", "return:house")
    assert not RULES.actions_are_public(t.state, 2)
    assert RULES.view(t.state, 2).my_recall_pick == ("house5",)
    for seat in (None, 0, 1, 3):
        view = RULES.view(t.state, seat)
        assert view.my_recall_pick == () and "house5" in view.homes[2]  # still at home, not marked
        assert view == RULES.view(
            t.state.model_copy(update={"recall": t.state.recall.model_copy(update={"picked": ()})}), seat
        )
    private = [e for e in t.events if e.visible_to is not None]
    assert [e.visible_to for e in private] == [(2,)]


def test_cs8_the_deck_is_reshuffled_after_the_returns(table):
    orders = set()
    for seed in range(5):
        t = table(RECALL, seed=seed).play(
            "adopt:recall1", "return:house", "return:house", "return:twinA", "return:twinA"
        )
        orders.add(t.state.deck)
    assert len(orders) > 1


# ---- CS-9 Cthulhu, CS-10 Precious, King and Queen ------------------------------------------------------


def test_cs9_cthulhu_costs_every_opponent_one_and_bigger_homes_two(table):
    t = table(
        """
        alley cthulhu house1 house2
        p0 3 house3
        p1 3 house4 house5
        p2 3 house6 house7 house8
        p3 0 twinA1 twinA2 twinB1
        """
    )
    t.play("adopt:cthulhu")  # p0's home now holds 2 cats: p1 (2) loses 1, p2 (3) loses 2, p3 stays 0
    assert t.state.tokens == (2, 2, 1, 0)
    assert "{p1} −1, {p2} −2, {p3} (already insane) −0" in t.texts("cthulhu")[0]


def test_cs10_precious_costs_its_owner_a_token_at_the_start_of_each_turn(table):
    t = table(
        """
        alley precious house1 house2
        p0 3
        p1 3
        """
    )
    t.play("adopt:precious", "adopt:house1")
    assert t.state.tokens == (1, 3)  # 1 to adopt, 1 at the start of p0's next turn
    assert t.texts("precious") == [
        "My precious! {p0} loses a sanity token to the Precious Cat (1 sanity token left)."
    ]


def test_cs10_precious_last_token_skips_that_very_turn():
    state = position(
        """
        p0 1 precious
        p1 2
        """
    )
    events = []
    state = start_turn(state, 0, events)
    assert state.tokens == (0, 2) and state.turn == 1 and [e.kind for e in events][:2] == ["precious", "skip"]


def test_moon_king_and_queen_score_two_plus_two_per_other_moon_cat():
    state = position(
        """
        phase over
        p0 0 moonking moonqueen ninja1 copycat=house house1
        p1 0
        """
    )
    outcome = RULES.outcome(state)
    # King 2+2*3, Queen 2+2*3, 2 House (one is the Copy Cat) 6.
    assert outcome.scores[0] == 8 + 8 + 6
    labels = [line.label for line in outcome.breakdown[0]]
    assert "Moon King (+3 other Moon Cats)" in labels and "2 House Cats (with the Copy Cat)" in labels


# ---- actions: encodings, labels, refusals --------------------------------------------------------------


def test_every_encoding_decodes_and_nonsense_is_refused():
    for text in ["adopt:twinA1", "auction", "bid:0", "bid:7", "copy:twinH", "ninja:3", "return:moonqueen"]:
        assert RULES.decode_action(text).encode() == text
    for text in ["adopt:dog", "copy:ninja", "bid:-1", "bid:x", "auction:1", "return:dog", ""]:
        with pytest.raises(InvalidInput):
            RULES.decode_action(text)


def test_labels_are_short_and_readable(table):
    t = table(AUCTION)
    labels = [TEXTS.label(RULES, t.state, 1, a) for a in RULES.legal_actions(t.state, 1)]
    assert labels == [
        "🏠 Adopt House Cat",
        "👯 Adopt Twin A Cat",
        "🥷 Adopt Ninja Cat (−1 sanity)",
        "🔨 Mine! Mine! Mine! (auction 2 Sun Cats)",
    ]
    assert all(len(label) <= 80 for label in labels)


def test_a_refused_adoption_says_why(table):
    t = table(AUCTION)
    with pytest.raises(IllegalAction, match="There is no Moon Queen in the alley"):
        RULES.apply(t.state, 1, RULES.decode_action("adopt:moonqueen"))
    with pytest.raises(IllegalAction, match="adopt a cat from the alley or call an auction"):
        RULES.apply(t.state, 1, RULES.decode_action("bid:1"))


def test_moon_cards_are_exactly_the_ten_moon_cats():
    assert len(MOON) == 10 and len(ALL_CARDS) == 48
