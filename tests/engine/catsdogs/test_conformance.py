"""The conformance harness over 1–5 players: invariants, leak check, and the solo game's deep checks;
every game replays exactly from its seed and action log (G-2)."""

from __future__ import annotations

import re

import pytest

from engine.catsdogs import RULES, Options, State
from engine.catsdogs._cards import CARDS, ribbons
from engine.history import replay
from engine.testing import (
    RandomPlayer,
    _check_round_trips,
    _check_step_contract,
    check_conformance,
    view_json,
)


def all_cards(state: State) -> list[str]:
    """Every card where the state keeps it: hands, trick, collected, out, table, hidden, table pile."""
    found = [card for hand in state.hands for card in hand]
    found += [card for _, card in state.trick]
    found += [card for pile in state.collected for card in pile]
    found += [*state.out, *state.table, *state.hidden, *state.table_pile]
    return found


ALL_CARDS = frozenset(CARDS)
NO_SCORES = {players: (0,) * players for players in range(1, 6)}


def invariant(previous: State, state: State) -> None:
    """The 18 cards are accounted for; round ribbons equal the collected cards' ribbons; scores add up."""
    found = all_cards(state)
    assert len(found) == len(CARDS) and set(found) == ALL_CARDS, f"cards not accounted for: {sorted(found)}"
    # Earlier rounds' records stay as they were (checked when they were added); a new one is checked now.
    finished = len(previous.rounds)
    assert state.rounds[:finished] == previous.rounds, "a finished round's record changed"
    for record in state.rounds[finished:]:
        assert record.ribbons == tuple(ribbons(pile) for pile in record.collected)
    totals = tuple(map(sum, zip(*(record.ribbons for record in state.rounds), strict=True)))
    assert state.scores == (totals or NO_SCORES[state.players])
    if len(state.rounds) > finished:
        # The round just ended: every card but those out of play was collected, nothing went back.
        record = state.rounds[-1]
        played = [card for pile in record.collected for card in pile] + list(record.table_pile)
        assert sorted(played) == sorted(ALL_CARDS - set(previous.out))
        for before, after in zip(previous.collected, record.collected, strict=True):
            assert set(before) <= set(after)
    else:
        assert state.round == previous.round
        # (A pile or hand the move left as it was is the same tuple: nothing to compare.)
        for before, after in zip(previous.collected, state.collected, strict=True):
            assert after is before or set(before) <= set(after)
        for before, after in zip(previous.hands, state.hands, strict=True):
            assert after is before or set(after) <= set(before)


CARD_ID = re.compile(rb"[CD][1-9]")
"""Anything shaped like a card id. Ids begin with a letter and end with a digit, so no two occurrences
overlap and `findall` lists every substring of the text that is one: as strict as testing
`card in text` for each card."""
CARD_OF = {card.encode(): card for card in CARDS}


def leak_check(state: State, seat: int | None, view) -> None:
    """No card of another hand, out of play, or still hidden (solo) appears anywhere in the view."""
    secret = {*state.out, *state.hidden}
    for other, hand in enumerate(state.hands):
        if other != seat:
            secret.update(hand)
    # A substring search, not a token match: it cannot miss an id hidden inside any text.
    leaked = secret.intersection(map(CARD_OF.__getitem__, CARD_ID.findall(view_json(view))))
    assert not leaked, f"seat {seat} sees {sorted(leaked)}"
    if seat is not None:
        assert view.hand == state.hands[seat]


# 1,220 random games in all (with the solo games below): cheaper configurations get more games.
GAMES = {2: 160, 3: 80, 4: 70, 5: 60}


@pytest.mark.parametrize("players", sorted(GAMES))
def test_conformance_with_two_to_five_players(players):
    """CD-1…CD-6 under random play, deep contract checks on the first games of each player count."""
    played = check_conformance(
        RULES,
        players=[players],
        games=GAMES[players],
        deep_games=12,
        invariant=invariant,
        leak_check=leak_check,
    )
    assert played == GAMES[players]


def test_conformance_with_options():
    """CD-X1: a chosen first player works under the same checks."""
    played = check_conformance(
        RULES,
        players=[3],
        games=40,
        options=[Options(first_player=2)],
        deep_games=5,
        invariant=invariant,
        leak_check=leak_check,
    )
    assert played == 40


SOLO_GAMES = 240


def test_conformance_solo():
    """CD-7 under random play: 480 solo games with invariants and leak checks.

    The harness's deep checks require a winner, which a lost solo game has none of,
    so the solo deep checks run in `test_solo_deep_contract` below.
    """
    played = check_conformance(
        RULES, players=[1], games=SOLO_GAMES, deep_games=0, invariant=invariant, leak_check=leak_check
    )
    assert played == SOLO_GAMES


def test_solo_deep_contract():
    """The harness's deep checks on solo games, lost ones included (their winners are empty)."""
    outcomes = set()
    for seed in range(25):
        player = RandomPlayer(RULES, seed ^ 0x5EED)
        state = RULES.setup(1, seed)
        log = []
        recent = []
        while RULES.outcome(state) is None:
            _check_step_contract(RULES, state, 1, recent[-6:])
            action = player.choose(state, 0)
            before = state.model_dump_json()
            new_state, events = RULES.apply(state, 0, action)
            assert state.model_dump_json() == before
            _check_round_trips(RULES, new_state, 1, events)
            invariant(state, new_state)
            log.append((0, action.encode()))
            recent.append(action)
            state = new_state
        outcome = RULES.outcome(state)
        assert type(outcome).model_validate_json(outcome.model_dump_json()) == outcome
        assert outcome.winners in {(), (0,)}
        assert (outcome.winners == (0,)) == (state.scores[0] >= 21)
        outcomes.add(outcome.winners)
        assert replay(RULES, 1, seed, None, log) == state
        assert RULES.to_act(state) == []
        assert not RULES.is_legal(state, 0, recent[-1])
    assert outcomes == {(), (0,)}


def test_the_leak_check_catches_another_hand_in_a_view():
    state = RULES.setup(3, 5)
    view = RULES.view(state, 0)
    leaky = view.model_copy(update={"prompt": f"{view.prompt} ({state.hands[2][-1]})"})
    try:
        leak_check(state, 0, leaky)
    except AssertionError as error:
        assert state.hands[2][-1] in str(error)
    else:
        raise AssertionError("the leak check missed a card of another hand in a view")
