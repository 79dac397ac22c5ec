"""The seeded cat deck and life-card pool (nine-lives-cards.md), encodings and labels."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import InvalidInput, Rng
from engine.ninelives import RULES
from engine.ninelives._cards import LIVES, POWERS, build_cat_deck, build_life_pool, card_types, powers_in_play
from engine.ninelives.model import Options


@pytest.mark.parametrize("seed", range(12))
def test_the_cat_deck_has_45_cards_built_from_the_recipe(seed):
    cats, _ = build_cat_deck(Rng.seeded(seed))
    assert len(cats) == 45
    small = [c for c in cats if c[3] == 0 and sum(c) <= 3]
    stars = [c for c in cats if c[3]]
    combos = [c for c in cats if c[3] == 0 and sum(c) > 3]
    assert len(small) == 19 and len(set(small)) == 19
    assert sorted(stars) == [(0, 0, 0, n) for n in range(1, 10)]
    assert all(c[:3] == (0, 0, 0) for c in stars), "star cards only ever show stars"
    sizes = Counter(sum(c) for c in combos)
    assert len(combos) == 17 and len(set(combos)) == 17
    assert set(sizes) <= {4, 5, 6} and sizes[4] >= 10 and sizes[5] >= 4 and sizes[6] >= 1
    totals = [sum(c[k] for c in combos) for k in range(3)]
    assert max(totals) * 2 <= sum(totals), "no kind above half of the combo icons"


def test_the_deck_is_reproducible_from_the_seed_and_varies_between_seeds():
    assert build_cat_deck(Rng.seeded(5))[0] == build_cat_deck(Rng.seeded(5))[0]
    assert len({build_cat_deck(Rng.seeded(s))[0] for s in range(10)}) > 5


def test_card_types_are_25_limited_and_60_full():
    assert len(card_types(True)) == 25
    assert len(card_types(False)) == 60
    assert Counter(c.power for c in card_types(False))["numbershift"] == 20


@pytest.mark.parametrize(("players", "limited"), [(2, True), (3, True), (6, True), (2, False), (6, False)])
def test_the_life_pool_deals_nine_each_and_holds_every_type_when_it_can_nl_x1(players, limited):
    """NL-X1: the pool deals 9 each; every card type is in it before any extra card."""
    pool, _ = build_life_pool(players, limited, Rng.seeded(players))
    assert len(pool) == LIVES * players
    types = card_types(limited)
    if LIVES * players >= len(types):
        assert set(types) <= set(pool), "every card type once, then weighted extras"
    if limited:
        assert all(POWERS[c.power].core for c in pool)


def test_full_games_deal_advanced_powers():
    powers = {
        c.power for seed in range(3) for c in RULES.setup(6, seed, Options(limited_powers=False)).lifecards
    }
    assert {"carousel", "numbershift", "ignore", "steal"} <= powers


@pytest.mark.parametrize("text", ["p:C7", "p:C07x", "w:1", "x", "to:9", "from:s", "dir:up", "", "keep:"])
def test_malformed_moves_are_refused(text):
    with pytest.raises(InvalidInput):
        RULES.decode_action(text)


@pytest.mark.parametrize("text", ["p:C07", "n:L53", "w", "giveup", "from:t", "from:3", "dir:r", "icon:3"])
def test_moves_round_trip(text):
    assert RULES.decode_action(text).encode() == text


def test_with_enough_card_types_no_life_card_is_dealt_twice_nl_x1():
    """NL-X1: extra cards are added only when the card types are fewer than 9 per player."""
    for players, limited in ((2, True), (6, False), (4, False)):
        for seed in range(4):
            dealt = RULES.setup(players, seed, Options(limited_powers=limited)).lifecards
            assert len(dealt) == LIVES * players and len(set(dealt)) == len(dealt)


def test_extra_life_cards_are_a_power_by_weight_then_its_cats_uniformly_nl_x1():
    """NL-X1: each extra card is a power drawn by its weight, then its cats drawn uniformly.

    Six players with the limited set (25 types) need 29 extra cards a game; over 400 games each
    power's share of the extras follows its weight (Shapeshift, 12 types of weight 2, gets 2/12 of
    them, not the 12/25 a uniform pick among types would give), and its cats are spread evenly."""
    types = card_types(True)
    extras: Counter = Counter()
    for seed in range(400):
        pool, _ = build_life_pool(6, True, Rng.seeded(seed))
        extras += Counter(pool) - Counter(types)
    total = sum(extras.values())
    assert total == 400 * (LIVES * 6 - len(types))
    weights = {power.key: power.weight for power in powers_in_play(True)}
    per_power: Counter = Counter()
    for card, n in extras.items():
        per_power[card.power] += n
    for key, weight in weights.items():
        expected = total * weight / sum(weights.values())
        assert abs(per_power[key] - expected) < 0.12 * expected, (key, per_power[key], expected)
        variants = [card for card in types if card.power == key]
        for card in variants:
            share = expected / len(variants)
            assert abs(extras[card] - share) < 0.35 * share, (card, extras[card], share)


def test_the_life_pool_is_shuffled_before_it_is_dealt_nl_x1():
    """NL-X1: the pool is shuffled, then dealt 9 each: a seat's lives are not the card list's order."""
    in_order = tuple(card_types(True)[:LIVES])
    first_stacks = set()
    for seed in range(10):
        state = RULES.setup(2, seed)
        stack = tuple(state.lifecards[c] for c in state.stacks[0])
        assert len(stack) == LIVES and stack != in_order
        first_stacks.add(stack)
    assert len(first_stacks) == 10
