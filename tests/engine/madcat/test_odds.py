"""The exact odds the computer players rely on, checked against independent brute force."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product

import pytest

from engine.madcat._dice import COMBOS, FACES, kind_of, readings, sort_faces
from engine.madcat._odds import (
    Policy,
    Values,
    best_chances,
    next_roll,
    policy_for,
    roll_outcomes,
    values_from_cards,
)
from engine.madcat.rules import MadCatRules


def ordered_asides(roll: tuple[str, ...], kind):
    """Brute force: every non-empty subset of dice positions, kept if one kind (and the locked kind)."""
    for size in range(1, len(roll) + 1):
        for chosen in combinations(range(len(roll)), size):
            part = tuple(roll[i] for i in chosen)
            found = {face[0] for face in part} - {"w"}
            if len(found) > 1 or (kind is not None and found - {kind[0]}):
                continue
            yield part


def brute_next_roll(tray, kind):
    """Enumerate all 6^k ordered rolls; per roll check fail and which combinations some set-aside reads as."""
    count = 5 - len(tray)
    fail = Fraction(0)
    combos = dict.fromkeys(COMBOS, Fraction(0))
    each = Fraction(1, 6**count)
    for roll in product(FACES, repeat=count):
        parts = list(ordered_asides(roll, kind))
        if not parts:
            fail += each
            continue
        reach = set()
        for part in parts:
            new = sort_faces(tray + part)
            if new.count("w") < 5:
                reach |= set(readings(new, kind or kind_of(part)))
        for combo in reach:
            combos[combo] += each
    return fail, combos


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5])
def test_roll_outcomes_are_every_roll_with_exact_odds(count):
    outcomes = roll_outcomes(count)
    assert sum(chance for _, chance in outcomes) == 1
    tally: dict[tuple, int] = {}
    for roll in product(FACES, repeat=count):
        key = sort_faces(roll)
        tally[key] = tally.get(key, 0) + 1
    assert {roll: Fraction(n, 6**count) for roll, n in tally.items()} == dict(outcomes)


@pytest.mark.parametrize(
    ("tray", "kind"),
    [
        ((), None),
        (("w",), None),
        (("m1",), "mad"),
        (("m1", "m1"), "mad"),
        (("s1", "w"), "sad"),
        (("m1", "m2", "w"), "mad"),
    ],
)
def test_next_roll_matches_a_brute_force_over_ordered_rolls(tray, kind):
    fail, combos = brute_next_roll(tray, kind)
    odds = next_roll(tray, kind)
    assert odds.fail == fail and odds.combos == combos


def test_next_roll_known_values():
    assert next_roll((), None).fail == 0  # before lock-in every die may be set aside
    assert next_roll(("m1", "m1", "m2", "m2"), "mad").fail == Fraction(2, 6)  # one die: sad fails
    assert next_roll(("s1", "s1", "s2", "w"), "sad").combos["fh"] == Fraction(3, 6)  # s1, s2 or a wild
    assert next_roll(("w", "w", "w", "w"), None).five_wilds == Fraction(1, 6)
    with pytest.raises(ValueError):
        next_roll(("m1",) * 5, "mad")


def brute_chance(tray, kind, combo):
    """Best chance to ever read `combo`, by recursion over ordered rolls and position subsets."""
    if tray and tray.count("w") < 5 and combo in readings(tray, kind):
        return Fraction(1)
    if len(tray) == 5:
        return Fraction(0)
    total = Fraction(0)
    count = 5 - len(tray)
    for roll in product(FACES, repeat=count):
        options = [
            brute_chance(sort_faces(tray + p), kind or kind_of(p), combo) for p in ordered_asides(roll, kind)
        ]
        total += max(options, default=Fraction(0)) / 6**count
    return total


@pytest.mark.parametrize(
    ("tray", "kind"), [(("m1", "m1", "m2"), "mad"), (("s1", "w", "w"), "sad"), (("m1", "m2", "m3"), "mad")]
)
def test_best_chances_match_brute_force(tray, kind):
    chances = best_chances(tray, kind)
    for combo in COMBOS:
        assert chances[combo] == brute_chance(tray, kind, combo), combo


def brute_value(tray, kind, values):
    """Expectimax over ordered rolls: the roller's best expected VPs after setting aside `tray`."""
    if tray.count("w") == 5:
        return Fraction(values.catpot)
    stop = 0
    for combo in readings(tray, kind) if tray else ():
        for each in [kind] if kind else ["mad", "sad"]:
            stop = max(stop, values.inner[["mad", "sad"].index(each)][COMBOS.index(combo)])
    if len(tray) == 5:
        return Fraction(stop)
    count = 5 - len(tray)
    roll_on = Fraction(0)
    for roll in product(FACES, repeat=count):
        options = [
            brute_value(sort_faces(tray + p), kind or kind_of(p), values) for p in ordered_asides(roll, kind)
        ]
        roll_on += max(options, default=Fraction(0)) / 6**count
    return max(Fraction(stop), roll_on)


@pytest.mark.parametrize(
    ("tray", "kind"), [(("m1", "m1", "m2"), "mad"), (("w", "w", "w"), None), (("s1", "s2", "w"), "sad")]
)
def test_policy_values_match_a_brute_force_expectimax(tray, kind):
    values = Values(inner=((2, 0, 5, 3), (1, 4, 3, 6)), catpot=9)
    policy = Policy(values)
    assert policy.value((tray, kind)) == pytest.approx(float(brute_value(tray, kind, values)), abs=1e-12)


def test_policy_chances_are_probabilities_and_follow_the_policy():
    policy = policy_for(Values(inner=((2, 2, 3, 3), (2, 2, 3, 3)), catpot=4))
    for node in [(("m1",), "mad"), (("m1", "m1", "w"), "mad"), (("s1", "s2"), "sad")]:
        chances = policy.chances(node)
        assert all(0.0 <= chance <= 1.0 + 1e-12 for chance in chances)
    # Two pairs already on the tray: that mooch card pays for sure, the turn can't fail any more
    # once the roller would rather stop on the 2 VPs than risk a roll for more.
    stuck = Policy(Values(inner=((2, 0, 0, 0), (0, 0, 0, 0)), catpot=0))
    assert stuck.stops_here((("m1", "m1", "m2", "m2"), "mad"))
    assert stuck.chances((("m1", "m1", "m2", "m2"), "mad")) == (1.0, 0.0, 0.0, 0.0, 0.0)
    # Nothing to take at all: a five-dice tray without a card fails.
    assert stuck.chances((("m1", "m1", "m1", "m2", "m3"), "mad"))[-1] == 1.0


def test_values_come_from_the_inner_cards_and_the_catpot():
    state = MadCatRules().setup(2, seed=1)
    assert values_from_cards(state.cards) == Values(inner=((2, 2, 3, 3), (2, 2, 3, 3)), catpot=0)
