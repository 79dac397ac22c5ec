"""Take-backs in the engine (engine/history.py): which moves of each game can be taken back, why the
others stand, and a log holding take-backs replaying to the same game."""

from __future__ import annotations

import random
import re

import pytest

from engine import GAMES, IllegalAction
from engine.history import NOTHING_TO_TAKE_BACK, UNDO, replay, take_back, take_back_refusal

UNDOABLE = {  # each game's moves (first word of their encoding) that showed nothing hidden
    "catsanity": "auction",
    "madcat": "a",
    "ninelives": "queen",
}
STANDING = {  # a move of each game that stands, and the reason a player reads
    "catsanity": ("adopt", "New cats came out of the deck, so your move stands."),
    "madcat": ("roll", "The dice were rolled, so your move stands."),
    "catsdogs": ("p", "A card played is shown to everyone, so it stands."),
    "ninelives": ("p", "A card from your hand was shown, so your move stands."),
}


def playout(key: str, seed: int, players: int = 2):
    """(state before, seat, action, state after) of each move of a random game."""
    rules = GAMES[key].rules
    state, chooser, moves = rules.setup(players, seed, None), random.Random(seed), []
    while rules.outcome(state) is None and len(moves) < 300:
        seat = rules.to_act(state)[0]
        action = chooser.choice(rules.legal_actions(state, seat))
        after, _ = rules.apply(state, seat, action)
        moves.append((state, seat, action, after))
        state = after
    return moves


@pytest.mark.parametrize("key", sorted(GAMES))
def test_each_game_says_which_moves_stand_and_why(key):
    rules = GAMES[key].rules
    verdicts: dict[str, set] = {}
    for seed in range(4):
        for before, seat, action, after in playout(key, seed):
            refusal = take_back_refusal(rules, before, seat, action, after)
            verdicts.setdefault(action.encode().split(":")[0], set()).add(refusal)
            if refusal is None:
                state, events = take_back(rules, before, seat, action, after, seat)
                assert state == before and "took back their move" in events[0].text
            else:
                with pytest.raises(IllegalAction, match=re.escape(refusal)):
                    take_back(rules, before, seat, action, after, seat)
    if key in UNDOABLE:
        assert None in verdicts[UNDOABLE[key]], verdicts
    verb, reason = STANDING[key]
    assert reason in verdicts[verb], verdicts
    assert None not in verdicts.get("roll", set())


@pytest.mark.parametrize("key", sorted(UNDOABLE))
def test_a_log_with_take_backs_replays_to_the_same_game(key):
    rules = GAMES[key].rules
    moves = playout(key, 1)
    log, expected = [], None
    for before, seat, action, after in moves:
        log.append((seat, action.encode()))
        if take_back_refusal(rules, before, seat, action, after) is None and expected is None:
            log.append((seat, UNDO))
            log.append((seat, action.encode()))  # made again: the game goes on as it did
            expected = after
    assert expected is not None
    assert replay(rules, 2, 1, None, log) == moves[-1][3]


def test_only_the_mover_takes_back_and_only_their_last_move():
    rules = GAMES["madcat"].rules
    moves = playout("madcat", 2)
    at = next(i for i, move in enumerate(moves) if take_back_refusal(rules, *move) is None)
    before, seat, action, after = moves[at]
    with pytest.raises(IllegalAction, match=re.escape(NOTHING_TO_TAKE_BACK)):
        take_back(rules, before, seat, action, after, 1 - seat)
    log = [(s, a.encode()) for _, s, a, _ in moves[: at + 1]]
    assert replay(rules, 2, 2, None, [*log, (seat, UNDO)]) == before
    with pytest.raises(IllegalAction, match=re.escape(NOTHING_TO_TAKE_BACK)):
        replay(rules, 2, 2, None, [*log, (seat, UNDO), (seat, UNDO)])
