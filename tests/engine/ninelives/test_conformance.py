"""The conformance harness over thousands of random games, with Nine Lives' invariants and leak check;
every game replays exactly from its seed and action log (G-2)."""

from __future__ import annotations

import re

import pytest

from engine.ninelives import RULES
from engine.ninelives._cards import LIVES, card_id, life_id
from engine.ninelives.model import Options, State
from engine.testing import check_conformance, view_json

ALL_CATS = set(range(45))


def invariant(previous: State, state: State) -> None:
    """All 45 cat cards are somewhere, exactly once; lives = stack + wagered and never increase.

    A state whose cards (or lives) are the very tuples of a previous state that passed is not counted
    again: they hold exactly what passed."""
    passed = previous is _passed[0]
    same_cards = state.deck is previous.deck and state.discard is previous.discard
    if not (passed and same_cards and state.hands is previous.hands and state.table is previous.table):
        cards = set().union(state.deck, state.discard, *state.hands)
        on_table = [placed.card for pile in state.table for placed in pile]
        cards.update(on_table)
        count = len(state.deck) + len(state.discard) + sum(map(len, state.hands)) + len(on_table)
        assert count == 45 and cards == ALL_CATS, "a cat card is missing or doubled"
    if not (passed and state.stacks is previous.stacks and state.wagered is previous.wagered):
        for seat in range(state.players):
            stack, wagered = state.stacks[seat], state.wagered[seat]
            lives = len(stack) + len(wagered)
            assert lives <= len(previous.stacks[seat]) + len(previous.wagered[seat]), "a player gained a life"
            assert len(set(stack + wagered)) == lives, "a life card is both in the stack and wagered"
    if state.phase == "carousel":
        for seat in range(state.players):
            assert set(state.gifts[seat]) <= set(state.hands[seat])
    _passed[0] = state


_passed: list = [None]
"""The latest state that passed `invariant` (games are checked one step after another)."""


CARD_IDS = [card_id(card).encode() for card in range(45)]
LIFE_IDS = [life_id(card).encode() for card in range(LIVES * RULES.max_players)]


def hidden_ids(state: State, seat: int | None) -> list[bytes]:
    """Ids of every card `seat` must not see: other closed hands, the deck, other stacks below the top."""
    hidden = [CARD_IDS[c] for c in state.deck]
    for other in range(state.players):
        if other == seat:
            continue
        if other not in state.open_hands:
            hidden += [CARD_IDS[c] for c in state.hands[other]]
        shuffler = state.phase == "play" and state.step == "reorder" and state.turn == seat
        if shuffler and state.shuffle_target == other:
            continue
        below = state.stacks[other] if state.phase == "order" else state.stacks[other][1:]
        hidden += [LIFE_IDS[c] for c in below]
    return hidden


IDS = re.compile(rb'"([CL][0-9][0-9])"')


def leak_check(state: State, seat: int | None, view) -> None:
    """No id of a card hidden from `seat` appears anywhere in its view."""
    shown = set(IDS.findall(view_json(view)))
    leaked = shown.intersection(hidden_ids(state, seat))
    assert not leaked, f"seat {seat} sees hidden cards {sorted(leaked)}"


CONFIGURATIONS = [(players, limited) for limited in (True, False) for players in range(2, 7)]
GAMES_EACH = 45  # 10 configurations: 450 random games in all


@pytest.mark.parametrize(("players", "limited"), CONFIGURATIONS)
def test_random_games_keep_the_contract_and_invariants(players, limited):
    """450 random games over 2-6 players and both power sets (NL-11), split for parallel runs."""
    played = check_conformance(
        RULES,
        players=[players],
        games=GAMES_EACH,
        options=[Options(limited_powers=limited)],
        seed=players + 10 * limited,
        deep_games=1,
        invariant=invariant,
    )
    assert played == GAMES_EACH


@pytest.mark.parametrize(
    ("players", "limited"), [(2, True), (4, False), (6, True), (3, False), (5, True), (6, False)]
)
def test_no_seat_sees_another_hand_or_hidden_life(players, limited):
    played = check_conformance(
        RULES,
        players=[players],
        games=8,
        options=[Options(limited_powers=limited)],
        seed=7,
        deep_games=0,
        leak_check=leak_check,
    )
    assert played == 8


def test_the_leak_check_catches_a_leaky_view():
    state = RULES.setup(3, 5)
    view = RULES.view(state, 0)
    leaky = view.model_copy(update={"hand": RULES.view(state, 1).hand})
    try:
        leak_check(state, 0, leaky)
    except AssertionError:
        return
    raise AssertionError("the leak check missed another seat's hand")
