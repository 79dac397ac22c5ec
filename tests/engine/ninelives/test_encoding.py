"""Encoded Nine Lives actions: every legal action round-trips through its text, and move logs
recorded before the actions were typed still replay to the same game (G-2)."""

from __future__ import annotations

import random
from typing import NamedTuple

import pytest

from engine.core import InvalidInput
from engine.history import replay
from engine.ninelives import RULES
from engine.ninelives.model import Options, decode

FULL = Options(limited_powers=False)


class Recorded(NamedTuple):
    """A game prefix as stored in a move log ("seat/action" pairs) and facts about where it led."""

    seed: int
    players: int
    log: str
    round: int
    turn: int
    lives: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    table: tuple[tuple[int, ...], ...]
    rng: int


# Recorded with the string-verb actions; between them every kind of action occurs.
RECORDED = (
    Recorded(
        seed=187,
        players=4,
        log=(
            "0/n:L04 0/n:L07 0/n:L01 0/n:L05 0/keep 1/n:L17 1/n:L16 1/n:L11 1/n:L12 1/n:L15 1/n:L13 "
            "1/n:L09 1/n:L14 2/n:L24 2/n:L22 2/n:L20 2/n:L26 2/n:L19 2/n:L18 2/n:L23 2/n:L25 3/n:L35 "
            "3/n:L31 3/n:L34 3/n:L33 3/keep 2/p:C44 3/p:C24 0/p:C08 1/p:C38 2/w 2/p:C17 3/p:C05 0/w "
            "0/p:C07 1/p:C20 2/p:C15 3/w 3/giveup 2/queen:3 3/w 3/p:C26 1/p:C43 2/p:C04 3/p:C10 0/p:C29 "
            "1/w 1/p:C32 1/icon:0 2/w 2/p:C34 2/swap:C43 3/w 3/stack:2 3/n:L18 3/n:L25 3/n:L19 3/keep "
            "3/p:C01 0/w 0/from:3 0/giveup 3/keep 0/p:C23 1/w 1/p:C11 2/p:C03 3/p:C39 0/w 0/p:C22 1/p:C02 "
            "2/p:C43 3/w 3/p:C25 1/w 1/giveup 0/p:C41 1/w 1/p:C16 2/p:C12 3/p:C00 0/p:C06 1/p:C37 2/w "
            "2/p:C19 3/w 3/p:C14 0/w 0/p:C13 0/cover:C41 2/w 2/give:C27 2/to:0 2/p:C33 3/p:C36 0/p:C21 "
            "2/w 2/p:C08 3/p:C42 0/w 0/giveup 2/n:L25 2/n:L18 0/p:C34 1/w 1/p:C18 2/p:C40 3/p:C35 0/w "
            "0/p:C27 1/p:C02 2/w 2/p:C26 3/w 3/p:C15 0/w 0/p:C39 1/w 1/p:C03 2/w 2/dir:l 0/pass:C29 "
            "0/pass:C44 1/pass:C22 1/pass:C30 2/pass:C23 2/pass:C25 2/giveup 0/n:L06 1/keep 0/p:C04 "
            "1/p:C44 2/w 2/p:C01 3/w 3/p:C17 0/p:C05 1/p:C29 2/w 2/p:C11 3/p:C25 0/w 0/giveup 2/keep "
            "0/p:C31 1/w 1/p:C14 2/p:C20 3/w 3/p:C10 0/p:C24 1/w 1/p:C00 2/p:C32 3/w 3/skip 2/p:C38 "
            "3/p:C35 1/w 1/p:C43 1/icon:1 1/n:L17 1/n:L14 0/p:C09 1/p:C21 2/w 2/p:C30 2/t"
        ),
        round=8,
        turn=3,
        lives=(2, 6, 6, 4),
        hands=((28, 7, 26, 39), (42, 13), (22, 16, 15), (23, 27, 36, 40)),
        table=((9,), (21,), (30,)),
        rng=8259420799827176088,
    ),
    Recorded(
        seed=273,
        players=5,
        log=(
            "0/n:L02 0/n:L03 0/n:L05 0/n:L07 0/n:L06 0/n:L08 0/n:L01 0/keep 1/n:L11 1/n:L09 1/n:L13 "
            "1/n:L15 1/keep 2/n:L24 2/n:L23 2/n:L21 2/n:L18 2/n:L26 2/n:L22 2/n:L20 2/keep 3/n:L35 "
            "3/n:L28 3/n:L29 3/n:L32 3/n:L33 3/n:L34 3/n:L30 3/n:L27 4/n:L37 4/n:L43 4/n:L40 4/n:L42 "
            "4/keep 2/p:C23 3/p:C13 4/p:C39 0/p:C09 1/w 1/giveup 1/p:C11 2/p:C02 3/w 3/p:C17 4/w 4/p:C15 "
            "0/p:C21 1/p:C40 2/p:C34 3/p:C16 4/w 4/from:0 4/p:C29 0/w 0/p:C20 1/w 1/giveup 4/n:L37 "
            "1/p:C06 2/w 2/p:C31 3/w 3/p:C03 4/w 4/from:t 4/take:C06 4/p:C18 0/p:C32 1/w 1/p:C04 2/w "
            "2/p:C05 2/end 3/w 3/p:C19 3/p:C35 0/w 0/p:C44 1/p:C00 2/w 2/giveup 3/n:L29 1/p:C26 2/p:C14 "
            "3/p:C41 4/p:C06 0/w 0/copy:2"
        ),
        round=4,
        turn=0,
        lives=(9, 5, 5, 9, 9),
        hands=((1, 36, 38, 12), (33, 7, 10, 22), (27, 24, 8), (37, 43), (42, 25)),
        table=((26,), (14,), (41,), (6,)),
        rng=7381402429213844243,
    ),
)


@pytest.mark.parametrize("game", RECORDED, ids=lambda game: f"seed{game.seed}")
def test_a_move_log_recorded_before_typed_actions_replays_to_the_same_game(game):
    log = [(int(seat), text) for seat, _, text in (entry.partition("/") for entry in game.log.split())]
    state = replay(RULES, game.players, game.seed, FULL, log)
    assert state.phase == "play"
    assert (state.round, state.turn) == (game.round, game.turn)
    assert tuple(state.lives(s) for s in range(game.players)) == game.lives
    assert state.hands == game.hands
    assert tuple(tuple(p.card for p in pile) for pile in state.table) == game.table
    assert state.rng.state == game.rng
    assert [RULES.decode_action(text).encode() for _, text in log] == [text for _, text in log]


def test_every_kind_of_action_occurs_in_the_recorded_logs():
    verbs = {entry.partition("/")[2].partition(":")[0] for game in RECORDED for entry in game.log.split()}
    assert verbs == {
        "keep", "n", "w", "p", "t", "cover", "swap", "icon", "giveup", "skip", "end",
        "copy", "give", "to", "from", "take", "dir", "pass", "stack", "queen",
    }  # fmt: skip


@pytest.mark.parametrize("seed", range(12))
def test_every_legal_action_round_trips_through_its_encoding(seed):
    chooser = random.Random(seed)
    players = 2 + seed % 5
    state = RULES.setup(players, seed, FULL if seed % 2 else None)
    for _ in range(400):
        if RULES.outcome(state) is not None:
            break
        seat = RULES.to_act(state)[0]
        actions = RULES.legal_actions(state, seat)
        for action in actions:
            text = action.encode()
            assert decode(text) == action and decode(text).encode() == text
        state, _ = RULES.apply(state, seat, chooser.choice(actions))


@pytest.mark.parametrize(
    "text", ["", "p", "p:C7", "p:L07", "w:", "keep:1", "queen:6", "dir:up", "from:x", "nope"]
)
def test_text_that_is_no_action_is_refused_with_a_reason(text):
    with pytest.raises(InvalidInput, match="Nine Lives"):
        decode(text)
