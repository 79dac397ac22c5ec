"""CS-11 scoring, checked against totals worked out by hand from the rulebook."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.catsanity import RULES
from engine.catsanity._cards import ALL_CARDS, CHORUS, FIB, HOUSE, MOON, SUN_KINDS, TWINS
from engine.catsanity._scoring import quick_score, score, score_lines
from engine.catsanity.position import position

EVERY_TYPE = "house1 twinA1 chorus1 fib1 copycat ninja1 recall1 cthulhu precious moonking moonqueen"

# (home, Copy Cat declaration, total worked out by hand)
CASES = [
    ("", None, 0),
    ("house1", None, 3),
    (" ".join(HOUSE), None, 24),  # 8 House × 3
    ("twinA1", None, 2),
    ("twinA1 twinA2", None, 8),
    ("twinA1 copycat", "twinA", 8),  # Copy Cat completes a pair
    ("twinA1 twinA2 copycat", "twinA", 12),  # Copy Cat completes a third Twin: the set is 12, not 14
    ("twinA1 twinB1 twinC1", None, 6),  # three unmatched Twins
    ("twinA1 twinA2 twinB1 twinB2", None, 16),
    ("twinA1 twinA2 copycat", "twinB", 10),  # a Copy Cat Twin of another letter stays single
    ("chorus1 chorus2 chorus3 chorus4", None, 0),  # fewer than 5 Chorus Cats score nothing
    ("chorus1 chorus2 chorus3 chorus4 chorus5", None, 25),
    ("chorus1 chorus2 chorus3 chorus4 copycat", "chorus", 25),  # Copy Cat as fifth Chorus
    (" ".join(CHORUS) + " copycat", "chorus", 25),  # 10 Chorus Cats still 25
    ("fib1", None, 1),
    ("fib1 fib2", None, 4),
    ("fib1 fib2 fib3", None, 9),
    ("fib1 fib2 fib3 fib4", None, 20),
    (" ".join(FIB), None, 40),
    (" ".join(FIB) + " copycat", "fib", 48),  # six Fibonacci with a Copy Cat
    ("fib1 fib2 fib3 copycat", "fib", 20),  # the Copy Cat makes 4 Fibonacci
    ("precious", None, 9),
    ("moonking", None, 2),  # 2 for itself, no other Moon Cat
    ("moonking moonqueen", None, 8),  # each 2 + 2 × 1
    ("moonking moonqueen ninja1 recall1 cthulhu", None, 20),  # King + Queen with other Moon Cats: 10 + 10
    ("moonqueen copycat", "house", 4 + 3),  # the Copy Cat counts as a Moon Cat and as a House Cat
    ("moonking precious ninja1 ninja2", None, 8 + 9),  # King 2 + 2 × 3, Precious 9
    ("ninja1 recall1 cthulhu", None, 0),
    # a home with every type: House 3, Twin A pair with the Copy Cat 8, 1 Chorus 0, 1 Fibonacci 1,
    # Precious 9; 7 Moon Cats, so King and Queen 2 + 2 × 6 = 14 each.
    (EVERY_TYPE, "twinA", 3 + 8 + 0 + 1 + 9 + 14 + 14),
    (EVERY_TYPE, "chorus", 3 + 2 + 0 + 1 + 9 + 14 + 14),
    # 2 House 6, Twin B pair 8, Twin C single 2, 5 Chorus 25, 2 Fibonacci 4, Precious 9
    (
        "house1 house2 twinB1 twinB2 twinC1 chorus1 chorus2 chorus3 chorus4 chorus5 fib1 fib2 precious",
        None,
        54,
    ),
    # all 48 cards, Copy Cat a Fibonacci: 24 + 8 pairs 64 + 25 + 6 Fibonacci 48 + 9 + 10 Moon: 20 + 20
    (" ".join(ALL_CARDS), "fib", 24 + 64 + 25 + 48 + 9 + 40),
    # all 48, Copy Cat a Twin A: 7 pairs 56 + trio 12 = 68 for the Twins, 5 Fibonacci 40
    (" ".join(ALL_CARDS), "twinA", 24 + 68 + 25 + 40 + 9 + 40),
]


@pytest.mark.parametrize(("home", "copy_as", "total"), CASES)
def test_cs11_scoring_case(home, copy_as, total):
    cards = tuple(home.split())
    assert score(cards, copy_as) == total
    assert quick_score(cards, copy_as) == total


def test_cs11_there_are_at_least_25_hand_worked_cases():
    assert len(CASES) >= 25


def test_cs11_breakdown_explains_every_point():
    lines = score_lines(tuple(EVERY_TYPE.split()), "twinA")
    assert [(line.label, line.points) for line in lines] == [
        ("1 House Cat", 3),
        ("Twin A pair (with the Copy Cat)", 8),
        ("1 Chorus Cat, need 5", 0),
        ("1 Fibonacci Cat", 1),
        ("Precious Cat", 9),
        ("Moon King (+6 other Moon Cats)", 14),
        ("Moon Queen (+6 other Moon Cats)", 14),
        ("1 Ninja Cat", 0),
        ("1 Recall Cat", 0),
        ("1 Cat of Cthulhu", 0),
    ]


def test_cs11_outcome_scores_every_home_and_ties_share_the_win():
    state = position(
        """
        phase over
        p0 0 twinA1 twinA2 house1
        p1 2 fib1 fib2 house2 twinB1 twinC1
        p2 0 chorus2 chorus3
        """
    )
    outcome = RULES.outcome(state)
    assert outcome.scores == (11, 11, 0) and outcome.winners == (0, 1)
    assert [line.label for line in outcome.breakdown[2]] == ["2 Chorus Cats, need 5"]


def test_outcome_is_none_while_play_goes_on():
    assert RULES.outcome(RULES.setup(3, 1)) is None


homes = st.lists(st.sampled_from(ALL_CARDS), unique=True, max_size=30)
declarations = st.sampled_from((None, *SUN_KINDS))


def by_the_rulebook(home: list[str], copy_as: str | None) -> int:
    """CS-11 read straight from RULINGS.md, card by card: the total the engine must agree with."""
    kinds = [card.rstrip("0123456789") for card in home]
    if "copycat" in kinds and copy_as is not None:
        kinds.append(copy_as)  # a declared Copy Cat also counts as the Sun Cat it copies
    twins = {kind: kinds.count(kind) for kind in kinds if kind.startswith("twin")}
    moons = sum(card in MOON for card in home)
    royals = sum(kind in ("moonking", "moonqueen") for kind in kinds)
    chorus, fib = kinds.count("chorus"), kinds.count("fib")
    return (
        3 * kinds.count("house")
        + sum((0, 2, 8, 12)[n] for n in twins.values())
        + (25 if chorus >= 5 else 0)
        + (0, 1, 4, 9, 20, 40, 48)[fib]
        + 9 * kinds.count("precious")
        + royals * (2 + 2 * (moons - 1))
    )


@given(homes, declarations)
def test_cs11_the_total_is_the_rulebooks_whatever_the_order_and_however_it_is_counted(home, copy_as):
    total = score(home, copy_as)
    assert total == by_the_rulebook(home, copy_as)
    assert quick_score(tuple(home), copy_as) == total == score(list(reversed(home)), copy_as)


@given(homes, declarations)
def test_cs11_a_house_cat_always_adds_3(home, copy_as):
    spare = [card for card in HOUSE if card not in home]
    if spare:
        assert score((*home, spare[0]), copy_as) == score(home, copy_as) + 3


@given(homes)
def test_cs11_twin_sets_score_per_letter(home):
    twins = [card for card in home if card in TWINS]
    letters = {card[4] for card in twins}
    counts = [sum(card[4] == letter for card in twins) for letter in letters]
    assert score(twins, None) == sum((0, 2, 8)[n] for n in counts)
