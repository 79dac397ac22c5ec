"""The seat's view carries its possible choices with the engine's own verdict: exactly the legal actions are
playable, every other one says why not in the words `apply` refuses it with, and the table's controls and
the Twin letter select offer only what the view marks playable."""

from __future__ import annotations

import json

import pytest

from engine.catsanity import RULES
from engine.catsanity.model import Phase, PossibleChoice, RecallState, State
from engine.catsanity.position import position
from engine.catsanity.texts import TEXTS, TWIN_KEY
from engine.core import IllegalAction, NotYourTurn, OutOfDate
from engine.testing import random_playout
from engine.texts import Choice


def verdicts(state, seat: int) -> dict[str, str]:
    """Each possible choice of `seat`, mapped to "" if playable, else to the engine's reason."""
    return {choice.action: choice.why_not for choice in RULES.view(state, seat).choices}


@pytest.mark.parametrize("players", [2, 3, 5])
def test_over_whole_games_the_playable_choices_are_exactly_the_legal_actions(players):
    playout = random_playout(RULES, players, seed=players * 7, keep_states=True)
    for state in playout.states:
        for seat in range(players):
            choices = RULES.view(state, seat).choices
            legal = [action.encode() for action in RULES.legal_actions(state, seat)]
            assert sorted(c.action for c in choices if c.playable) == sorted(legal)
            for choice in choices:
                if not choice.playable:
                    with pytest.raises(IllegalAction) as refusal:
                        RULES.apply(state, seat, RULES.decode_action(choice.action))
                    assert choice.why_not == str(refusal.value)
        assert RULES.view(state, None).choices == ()


def test_an_auction_without_a_sun_cat_is_offered_with_the_reason_it_is_refused():
    """CS-4: an auction needs a Sun Cat in the alley."""
    state = position("""
        turn 0
        alley ninja1 moonqueen
        p0 4
        p1 7
    """)  # fmt: skip
    assert verdicts(state, 0) == {
        "adopt:ninja1": "",
        "adopt:moonqueen": "",
        "auction": "An auction needs at least one Sun Cat in the alley.",
    }
    assert verdicts(state, 1) == {}  # not this seat's turn


def test_a_bidder_sees_why_low_and_unaffordable_bids_are_refused():
    """CS-4: a bid beats the high bid and is at most the bidder's tokens; passing is always allowed."""
    state = position("""
        turn 2
        alley house3 twinA1
        p0 5
        p1 4
        p2 5
    """)  # fmt: skip
    state, _ = RULES.apply(state, 2, RULES.decode_action("auction"))
    state, _ = RULES.apply(state, 0, RULES.decode_action("bid:2"))
    seen = verdicts(state, 1)
    assert [bid for bid, why in seen.items() if not why] == ["bid:0", "bid:3", "bid:4"]
    assert seen["bid:2"] == "A bid must be higher than 2; bid more or pass."
    assert seen["bid:5"] == "You only have 4 sanity tokens, you can't bid 5."


def test_the_ninja_cannot_target_its_own_home():
    """CS-7: the Ninja Cat attacks an opponent."""
    state = position("""
        turn 1
        phase ninja
        p0 5 house1
        p1 5 ninja1
    """)  # fmt: skip
    assert verdicts(state, 1) == {
        "ninja:0": "",
        "ninja:1": "The Ninja Cat must attack one of your opponents.",
    }


def test_a_cat_already_set_aside_for_the_recall_cannot_be_chosen_again():
    """CS-8: the second cat returned is another one; the only House Cat is already set aside."""
    state = position("""
        turn 0
        p0 5 recall1
        p1 5 house1 fib1 fib2
    """)  # fmt: skip
    recall = RecallState(adopter=0, waiting=(1,), picked=("house1",))
    state = state.model_copy(update={"phase": Phase.RECALL, "recall": recall})
    assert verdicts(state, 1) == {
        "return:house": "You have no House Cat left in your home to return.",
        "return:fib": "",
    }
    legal = [Choice(a.encode(), TEXTS.label(RULES, state, 1, a)) for a in RULES.legal_actions(state, 1)]
    (select,) = TEXTS.controls(RULES.view(state, 1), legal)
    assert [choice.value for choice in select.choices] == ["return:fib"]


COPY_STATE = position("""
    turn 0
    phase copy
    p0 6 twinD1 copycat
    p1 7
""")  # fmt: skip


def test_a_twin_letter_the_engine_refuses_is_refused_with_the_engines_reason():
    view = RULES.view(COPY_STATE, 0)
    assert TEXTS.compose(view, TWIN_KEY, ["copy:twinD"]) == "copy:twinD"
    refused = PossibleChoice(action="copy:twinD", playable=False, why_not="Not this letter today.")
    others = tuple(choice for choice in view.choices if choice.action != "copy:twinD")
    refusing = view.model_copy(update={"choices": (*others, refused)})
    with pytest.raises(IllegalAction, match=r"Not this letter today\."):
        TEXTS.compose(refusing, TWIN_KEY, ["copy:twinD"])


def test_a_twin_letter_chosen_after_the_declaration_was_made_shows_the_table_moved_on():
    declared, _ = RULES.apply(COPY_STATE, 0, RULES.decode_action("copy:house"))
    with pytest.raises(OutOfDate):
        TEXTS.compose(RULES.view(declared, 0), TWIN_KEY, ["copy:twinD"])


def test_another_player_choosing_a_twin_letter_on_the_table_is_told_it_is_not_their_turn():
    """CS-6: the Copy Cat's owner declares it; the select sits on the public table."""
    with pytest.raises(NotYourTurn):
        TEXTS.compose(RULES.view(COPY_STATE, 1), TWIN_KEY, ["copy:twinD"])


def test_a_stored_state_keeps_its_phase_text_and_loads_as_a_typed_phase():
    stored = COPY_STATE.model_dump_json()
    assert json.loads(stored)["phase"] == "copy"
    loaded = State.model_validate_json(stored)
    assert loaded.phase is Phase.COPY and loaded == COPY_STATE
