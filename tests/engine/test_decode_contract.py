"""Every game reads a move only from the text its own encodings write, and refuses anything else with
`InvalidInput` (a sentence for the player), never a bare ValueError, KeyError or IndexError: a move's
text comes from outside, in a button's custom id, and a broken or hostile client may send any text.

Every game gets the same malformed and non-ASCII inputs, then the same inputs made from its own real
moves (each one broken in the same ways), then arbitrary text from hypothesis.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GAMES, InvalidInput, Rules
from engine.testing import random_playout

MALFORMED = [
    # empty, whitespace and separators only
    "",
    " ",
    "\t\n",
    "\u00a0",
    "\u3000",
    "\u200b",
    ":",
    "::",
    ":::",
    "\x00",
    "\ufeff",
    # no move of any game
    "x",
    "play",
    "move:1",
    "pass:",
    "None",
    "null",
    "nil",
    "undefined",
    "NaN",
    "true",
    "0",
    "-1",
    "{}",
    "[]",
    "'p:C7'",
    # digits a player never sees on a button: other scripts, superscripts, fractions, numerals
    "٣",
    "²",
    "½",
    "３",
    "Ⅻ",
    "𝟙",
    # other scripts' letters and emoji
    "é",
    "кот",
    "猫",
    "🐱",
    # very long
    "x" * 10_000,
    ":" * 10_000,
    "9" * 5_000,
    # each game's verbs with arguments it cannot read
    "bid:٣",
    "bid:²",
    "bid:½",
    "bid:３",
    "bid:-1",
    "bid:+1",
    "bid:1.0",
    "bid:1_0",
    "bid: 1",
    "bid:" + "9" * 100,
    "ninja:٣",
    "ninja:-1",
    "adopt:",
    "adopt:кот",
    "copy:",
    "auction:",
    "p:C٣",
    "p:C²",
    "p:C½",
    "p:C-1",
    "p:C" + "9" * 100,
    "p: C7",
    "p:C7:",
    "p:C٠٧",
    "n:L٣٣",
    "n:L-1",
    "icon:٣",
    "from:٣",
    "to:٣",
    "w:",
    "keep:",
    "a:",
    "a:m١",
    "a:m²",
    "roll:",
    "stop:mad:2p:",
    "stop:::",
    "mooch:",
    "mooch:٣k",
]

LOOKALIKE_DIGITS = ("٣", "²", "½", "３", "߃", "𝟙")
"""Characters `str.isdigit`, `int` or the regular expression `\\d` take for digits, though no button
ever shows them."""

SEEDS = range(4)


def real_moves(rules: Rules) -> list[str]:
    """Encodings of moves that occur in play: every legal move of every seat to act, over a few games."""
    moves: set[str] = set()
    for seed in SEEDS:
        for players in {rules.min_players, rules.max_players}:
            playout = random_playout(rules, players, seed, keep_states=True)
            for state in playout.states:
                for seat in rules.to_act(state):
                    moves.update(action.encode() for action in rules.legal_actions(state, seat))
    return sorted(moves)


MOVES = {key: real_moves(game.rules) for key, game in GAMES.items()}


def broken(move: str) -> list[str]:
    """`move` broken in ways no game reads: an extra colon or argument, a space or an invisible
    character inside, a lookalike letter, and every digit replaced by one no button shows."""
    verb, colon, arg = move.partition(":")
    versions = [move + ":", move + ":0", ":" + move, move + "\u200b", move + "\u0301", "р" + move[1:]]
    if colon:
        versions += [f"{verb}: {arg}", f"{verb}:{arg}:{arg}", f"{verb}:-{arg}"]
    if any(c.isdigit() for c in move):
        versions += ["".join(digit if c.isdigit() else c for c in move) for digit in LOOKALIKE_DIGITS]
    return versions


def refuses(rules: Rules, text: str) -> None:
    with pytest.raises(InvalidInput) as refusal:
        rules.decode_action(text)
    assert str(refusal.value), "a refusal says why"


def reads_or_refuses(rules: Rules, text: str) -> None:
    """`text` is a move that reads back the same after encoding, or it is refused with `InvalidInput`;
    either way no character outside ASCII is read as part of a move."""
    try:
        action = rules.decode_action(text)
    except InvalidInput as refusal:
        assert str(refusal), "a refusal says why"
        return
    assert text.strip().isascii(), f"{rules.key} read {text!r} as {action.encode()!r}"
    assert rules.decode_action(action.encode()) == action


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_refuses_the_same_malformed_and_non_ascii_inputs(key):
    rules = GAMES[key].rules
    for text in MALFORMED:
        refuses(rules, text)


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_game_refuses_its_own_moves_broken_in_the_same_ways(key):
    rules = GAMES[key].rules
    assert len(MOVES[key]) > 10
    for move in MOVES[key]:
        assert rules.decode_action(move).encode() == move
        for text in broken(move):
            refuses(rules, text)


def test_a_bid_in_other_digits_is_refused_not_read():
    rules = GAMES["catsanity"].rules
    assert rules.decode_action("bid:3").encode() == "bid:3"
    refuses(rules, "bid:٣")  # was read as a bid of 3
    refuses(rules, "bid:²")  # was a bare ValueError from int()


NUMBERS = st.text(
    st.one_of(st.characters(categories=["Nd", "No", "Nl"]), st.sampled_from("0123456789")),
    min_size=1,
    max_size=3,
)
"""Numbers written in any script: the digits of every language, superscripts, fractions, numerals."""
TAILS = st.text(st.one_of(st.characters(), st.sampled_from("0123456789:-+ ")), max_size=8)


def heads(key: str) -> list[str]:
    """The beginnings of `key`'s real moves where an argument or a number starts: "bid:", "p:C" …"""
    found: set[str] = set()
    for move in MOVES[key]:
        found.update(move[:i] for i in range(1, len(move)) if move[i].isdigit() or move[i - 1] == ":")
    return sorted(found)


@cache
def near_moves(key: str) -> st.SearchStrategy[str]:
    """Text where a reader goes wrong: one of `key`'s real moves cut anywhere and followed by arbitrary
    text, or the beginning of one followed by a number in any script or by arbitrary text.

    Made once per game: hypothesis checks a strategy the first time it draws from it."""
    cut = st.builds(
        lambda move, at, tail: move[: at % (len(move) + 1)] + tail,
        st.sampled_from(MOVES[key]),
        st.integers(min_value=0),
        TAILS,
    )
    head = st.sampled_from(heads(key))
    return st.one_of(cut, st.builds(str.__add__, head, NUMBERS), st.builds(str.__add__, head, TAILS))


@cache
def any_text(key: str) -> st.SearchStrategy[str]:
    """Any text at all, or text near one of `key`'s real moves."""
    return st.one_of(st.text(), near_moves(key))


@pytest.mark.parametrize("key", sorted(GAMES))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_text_is_read_as_a_move_or_refused_with_invalid_input(key, data):
    text = data.draw(any_text(key))
    reads_or_refuses(GAMES[key].rules, text)
