"""Counting cats and the nine-limit (NL-2, NL-3, NL-4) on hand-made tables."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import IllegalAction
from engine.ninelives._cards import LifeCard
from engine.ninelives._counting import cat_counts, effective, fits, raw_counts
from engine.ninelives.model import Placed
from engine.ninelives.position import act, card_in, play, playable, position, texts


@pytest.mark.parametrize(
    ("table", "ignored", "expected"),
    [
        ("", "", (0, 0, 0, 0)),
        ("oo s 3x", "", (2, 1, 0, 3)),
        ("2o2t ot", "", (3, 0, 3, 0)),
        # NL-2: a covered card no longer counts, only the top of a pile does
        ("ooo/s", "", (0, 1, 0, 0)),
        ("ooo/s/tt o", "", (1, 0, 2, 0)),
        # NL-9: overrides are stored with the card and counted instead of the print
        ("ooo=sss", "", (0, 3, 0, 0)),
        ("ost=4x tt", "", (0, 0, 2, 4)),
        ("ooo=sss/t", "", (0, 0, 1, 0)),
        # NL-2: overrides first, then an ignored cat is left out
        ("ooo=sss ss", "s", (0, 0, 0, 0)),
        ("ooo=sss ss t", "o", (0, 5, 1, 0)),
        ("9x 5o", "xo", (0, 0, 0, 0)),
    ],
)
def test_cat_count_covers_overrides_and_ignore_nl_2(table, ignored, expected):
    state = position(["o", "o"], table=table, ignored=ignored)
    assert cat_counts(state.table, state.ignored) == expected


def test_raw_counts_keep_ignored_cats_for_display_nl_2():
    state = position(["o", "o"], table="ooo ss", ignored="o")
    assert raw_counts(state.table) == (3, 2, 0, 0)
    assert cat_counts(state.table, state.ignored) == (0, 2, 0, 0)


@pytest.mark.parametrize(
    ("card", "power", "expected"),
    [
        ((2, 1, 0, 0), "shapeshift:o>s", (0, 3, 0, 0)),
        ((0, 1, 2, 0), "shapeshift:o>s", (0, 1, 2, 0)),  # NL-9: no A on the card, no change
        ((0, 0, 0, 4), "shapeshift:x>t", (0, 0, 4, 0)),
        ((2, 1, 1, 0), "numbershift:t3", (0, 0, 3, 0)),
        ((0, 0, 0, 9), "numbershift:o1", (1, 0, 0, 0)),  # NL-9: even without A on the card
        ((1, 1, 1, 0), "wildcard", (1, 1, 1, 0)),
    ],
)
def test_card_changing_powers_count_nl_9(card, power, expected):
    from engine.ninelives.position import life

    assert effective(card, life(power))[0] == expected


def test_single_cat_counts_the_chosen_icon_once_nl_9():
    counts, note = effective((3, 2, 0, 0), LifeCard(power="single_cat"), 1)
    assert counts == (0, 1, 0, 0) and "one" in note


def test_a_play_may_reach_nine_but_not_pass_it_nl_3():
    state = position(["ooo oooo sss", "o"], table="5o o ss")
    assert playable(state, 0) == {"ooo", "sss"}
    with pytest.raises(IllegalAction, match="above 9"):
        play(state, 0, "oooo")


def test_the_limit_concerns_only_cats_on_the_played_card_nl_2():
    """A cat already above 9 (More Allowed earlier) blocks only cards that add to it."""
    state = position(["t os", "o"], table="5o 5o ss")
    assert playable(state, 0) == {"t"}


def test_an_ignored_cat_may_pass_nine_nl_2():
    state = position(["ooo s", "o"], table="5o 3o ss", ignored="o")
    assert playable(state, 0) == {"ooo", "s"}


def test_perfect_nine_makes_the_player_safe_nl_4():
    state = position(["ooo t", "s", "s"], table="3o 3o")
    state, events = play(state, 0, "ooo")
    assert state.safe == (0,)
    assert "Perfect nine" in texts(events)
    assert state.turn == 1


def test_perfect_nine_needs_a_cat_on_the_played_card_nl_4():
    """Reaching 9 triangles does not count when the played card shows no triangle — it can't."""
    state = position(["s t", "s", "s"], table="9o tt")
    state, _ = play(state, 0, "s")
    assert state.safe == ()


def test_an_ignored_cat_cannot_make_a_perfect_nine_nl_4():
    state = position(["ooo t", "s", "s"], table="3o 3o", ignored="o")
    state, _ = play(state, 0, "ooo")
    assert state.safe == ()


def test_a_safe_player_takes_no_more_turns_nl_4():
    state = position(["ooo t", "s t", "ss t"], table="3o 3o")
    state, _ = play(state, 0, "ooo")
    state, _ = play(state, 1, "s")
    state, _ = play(state, 2, "ss")
    assert state.turn == 1


@given(
    st.tuples(*(st.integers(0, 12) for _ in range(4))),
    st.tuples(*(st.integers(0, 9) for _ in range(4))),
)
def test_fits_is_exactly_the_nine_limit_on_the_cards_cats_nl_2(current, adds):
    expected = all(current[c] + adds[c] <= 9 for c in range(4) if adds[c])
    assert fits(current, adds, ()) == expected


def test_a_played_card_keeps_its_override_on_the_table_nl_9():
    state = position(["2os", "t", "t"], lives=["shapeshift:o>s", "skip", "skip"])
    state, _ = act(state, 0, "w")
    state, _ = act(state, 0, f"p:{card_in(state, 0, '2os')}")
    assert state.table[0][-1] == Placed(
        card=state.table[0][-1].card, counts=(0, 3, 0, 0), note="⚪ count as 🟦"
    )
    assert cat_counts(state.table) == (0, 3, 0, 0)
