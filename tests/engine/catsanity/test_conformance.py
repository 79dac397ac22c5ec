"""Hundreds of random CatSanity games at every player count through the conformance harness, with
invariants and leak checks; every game replays exactly from its seed and action log (G-2)."""

from __future__ import annotations

import pytest

from engine.catsanity import RULES
from engine.catsanity._cards import ALL_CARDS, COPY
from engine.catsanity.model import Options
from engine.catsanity.rules import CatSanityRules
from engine.core import Rng
from engine.testing import check_conformance, view_json

SORTED_CARDS = sorted(ALL_CARDS)
OTHER_TABLE = CatSanityRules()  # views of resampled states, kept apart from the game's own views


def invariant(previous, state):
    """No card created or lost; tokens never negative nor rising; an insane seat never takes a turn."""
    cards = [*state.deck, *state.alley]
    for home in state.homes:
        cards.extend(home)
    assert sorted(cards) == SORTED_CARDS, "cards were created or lost"
    assert len(state.alley) <= 3
    assert all(0 <= now <= before for now, before in zip(state.tokens, previous.tokens, strict=True))
    if state.phase == "turn":
        assert state.tokens[state.turn] > 0, "a seat with no sanity token is choosing on its own turn"
    if state.phase == "auction":
        assert state.tokens[state.auction.waiting[0]] > state.auction.high, "a bidder who cannot outbid"
    if state.copy_as is not None:
        assert any(COPY in home for home in state.homes), "a Copy Cat declaration outside a home"
    if state.phase == "over":
        assert not state.deck or not any(state.tokens)


def leak_check(state, seat, view):
    """The deck (order and ids) and another seat's pending Recall pick never reach a view.

    Besides looking for every deck card id in the JSON, the hidden parts are resampled — the deck in
    another order, another generator, no pending pick for non-choosers — and the view must not change.
    """
    # Every piece of the JSON between two quotes: each whole string (a card id among them), and more.
    hidden = _deck_ids(state).intersection(view_json(view).split(b'"'))
    assert not hidden, f"deck card {sorted(hidden)} visible to seat {seat}"
    assert OTHER_TABLE.view(_resampled(state, seat), seat) == view, f"hidden state leaks to seat {seat}"


_deck: list = [None, frozenset()]


def _deck_ids(state) -> frozenset[bytes]:
    """The ids of the deck's cards as JSON bytes, read once per state (every seat's view asks)."""
    if _deck[0] is not state:
        _deck[:] = [state, frozenset(card.encode() for card in state.deck)]
    return _deck[1]


_last: list = [None, None, None]


def _resampled(state, seat):
    """The same position with the hidden parts changed: what `seat` sees must stay the same."""
    recall = state.recall
    pending = recall is not None and recall.picked and seat != recall.waiting[0]
    if _last[0] is not state:
        update = {"deck": state.deck[::-1], "rng": Rng(state=state.rng.state ^ 0x9E3779B97F4A7C15)}
        other = state.model_copy(update=update)
        cleared = other
        if recall is not None and recall.picked:
            cleared = other.model_copy(update={"recall": recall.model_copy(update={"picked": ()})})
        _last[:] = [state, other, cleared]
    return _last[2] if pending else _last[1]


GAMES_EACH = 55  # with and without a chosen first seat: 440 random games over 2 to 5 players


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_keep_the_contract_the_invariants_and_the_secrets(players):
    played = check_conformance(
        RULES,
        players=[players],
        games=GAMES_EACH,
        options=[None, Options(first_seat=1)],
        deep_games=8,
        max_steps=3_000,
        invariant=invariant,
        leak_check=leak_check,
    )
    assert played == 2 * GAMES_EACH


def test_the_leak_check_catches_a_view_that_shows_the_deck():
    state = RULES.setup(3, 7)
    leaky = RULES.view(state, 1).model_copy(update={"alley": state.alley + state.deck[-1:]})
    try:
        leak_check(state, 1, leaky)
    except AssertionError as error:
        assert "deck card" in str(error)
    else:
        raise AssertionError("the leak check missed a deck card in a view")
