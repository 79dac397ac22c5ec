"""Trick resolution (CD-2), leading (CD-3, CD-6) in all three modes, from a table of hand-made tricks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.catsdogs import RULES, Play
from engine.catsdogs._cards import CARDS, STRENGTH, TABLE, resolve_trick
from engine.catsdogs.position import cards, position

T = TABLE

# players, leader, plays in order from the leader (then the table card(s): duo table, solo face-up + hidden),
# expected winner (None: tie, T: the table), expected collections, expected next leader.
TRICKS = [
    # 3–5 players, mixed factions (CD-2): the higher sum wins, its highest card takes the losing faction.
    ("cats outsum dogs", 4, 0, "C7 D4 C3 D5", "", 0, {0: "C7 D4 D5", 2: "C3"}, 0),
    ("dogs outsum cats", 4, 1, "C9 D8 D3 C1", "", 2, {2: "D8 C9 C1", 3: "D3"}, 2),
    ("two low cats lose to one dog", 3, 0, "C1 D9 C2", "", 1, {1: "D9 C1 C2"}, 1),
    ("weak dogs win with a 3", 4, 0, "D2 D3 C4 D1", "", 1, {0: "D2", 1: "D3 C4", 3: "D1"}, 1),
    ("one cat loses to four dogs", 5, 0, "C9 D1 D2 D3 D4", "", 4, {1: "D1", 2: "D2", 3: "D3", 4: "D4 C9"}, 4),
    ("one cat beats three dogs", 4, 3, "D1 D2 C9 D3", "", 1, {1: "C9 D1 D2 D3"}, 1),
    # All one faction (CD-2): the highest card takes the weakest card.
    ("all cats", 3, 1, "C2 C9 C5", "", 2, {2: "C9 C2", 0: "C5"}, 2),
    ("all dogs, five players", 5, 3, "D1 D2 D3 D4 D5", "", 2, {2: "D5 D1", 4: "D2", 0: "D3", 1: "D4"}, 2),
    ("all cats, four players", 4, 0, "C1 C5 C6 C8", "", 3, {3: "C8 C1", 1: "C5", 2: "C6"}, 3),
    ("all dogs, the leader wins", 3, 0, "D9 D1 D7", "", 0, {0: "D9 D1", 2: "D7"}, 0),
    # Equal sums (CD-2, CD-3): nobody wins, everyone collects their own, the last player leads.
    ("tie, three players", 3, 0, "C4 D1 D3", "", None, {0: "C4", 1: "D1", 2: "D3"}, 2),
    ("tie, four players", 4, 2, "C9 D6 C1 D4", "", None, {2: "C9", 3: "D6", 0: "C1", 1: "D4"}, 1),
    ("tie, five players", 5, 4, "C1 D2 C2 D4 C3", "", None, {4: "C1", 0: "D2", 1: "C2", 2: "D4", 3: "C3"}, 3),
    # Two players (CD-6): the table card is a third card; when it wins, or on a tie, the second player leads.
    ("2p: the table wins", 2, 0, "C5 D3", "D4", T, {T: "D4 C5", 1: "D3"}, 1),
    ("2p: the first player wins", 2, 1, "C9 D2", "C1", 1, {1: "C9 D2", T: "C1"}, 1),
    ("2p: tie", 2, 0, "C3 D5", "C2", None, {0: "C3", 1: "D5", T: "C2"}, 1),
    ("2p: all dogs, the table wins", 2, 1, "D1 D7", "D9", T, {T: "D9 D1", 0: "D7"}, 0),
    ("2p: all cats, the leader wins", 2, 0, "C9 C2", "C4", 0, {0: "C9 C2", T: "C4"}, 0),
    ("2p: the second player wins", 2, 0, "D6 C8", "D1", 1, {1: "C8 D6 D1"}, 1),
    ("2p: the table wins as second", 2, 1, "D2 C3", "C6", T, {T: "C6 D2", 0: "C3"}, 0),
    # Solo (CD-7): the face-up and hidden cards both belong to the table.
    ("solo: the player wins", 1, 0, "C9", "D4 D3", 0, {0: "C9 D4 D3"}, 0),
    ("solo: the hidden card wins", 1, 0, "C1", "D2 C5", T, {0: "C1", T: "C5 D2"}, 0),
    ("solo: tie", 1, 0, "D5", "C2 C3", None, {0: "D5", T: "C2 C3"}, 0),
    ("solo: all cats, the player wins", 1, 0, "C3", "C1 C2", 0, {0: "C3 C1", T: "C2"}, 0),
    ("solo: all dogs, the table wins", 1, 0, "D2", "D8 D1", T, {0: "D2", T: "D8 D1"}, 0),
]


def _fillers(used: set[str]) -> list[str]:
    return [card for card in CARDS if card not in used]


def trick_position(players: int, leader: int, plays: str, table: str):
    """A position where the last card of `plays` is about to be played; every hand keeps one more card."""
    played = cards(plays)
    extra = _fillers(set(played) | set(cards(table)))
    last = (leader + len(played) - 1) % players
    hands = [[extra.pop()] for _ in range(players)]
    hands[last].append(played[-1])
    table_cards = cards(table)
    kwargs = {}
    if players == 2:
        kwargs["table"] = f"{table_cards[0]} {extra.pop()}"
    elif players == 1:
        kwargs["table"] = f"{table_cards[0]} {extra.pop()}"
        kwargs["hidden"] = f"{table_cards[1]} {extra.pop()}"
    state = position(
        " | ".join(" ".join(hand) for hand in hands), trick=" ".join(played[:-1]), leader=leader, **kwargs
    )
    return state, last, played[-1]


@pytest.mark.parametrize(
    ("players", "leader", "plays", "table", "winner", "collections", "next_leader"),
    [row[1:] for row in TRICKS],
    ids=[row[0] for row in TRICKS],
)
def test_trick_resolution_table_cd2_cd3_cd6_cd7(
    players, leader, plays, table, winner, collections, next_leader
):
    """CD-2/CD-3 (CD-6/CD-X4 two players, CD-7/CD-X4 solo): winner, collected cards, next leader."""
    state, seat, card = trick_position(players, leader, plays, table)
    after, events = RULES.apply(state, seat, Play(card=card))
    assert after.last_trick.winner == winner
    for who in range(players):
        assert sorted(after.collected[who]) == sorted(cards(collections.get(who, ""))), f"seat {who}"
    assert sorted(after.table_pile) == sorted(cards(collections.get(T, "")))
    assert after.leader == next_leader
    assert RULES.to_act(after) == [next_leader]
    # Collected cards never go back into a hand (CD-2).
    assert all(len(hand) == 1 for hand in after.hands)
    assert events[-1].kind in {"trick", "lead"}


def test_the_table_has_at_least_twenty_tricks():
    assert len(TRICKS) >= 20


plays_strategy = st.integers(2, 5).flatmap(
    lambda n: st.permutations(CARDS).map(lambda deck: tuple(enumerate(deck[:n])))
)


@given(plays_strategy)
def test_every_played_card_is_collected_once_cd2(plays):
    """CD-2: each card goes to exactly one collector; the winner holds the top card of the higher sum."""
    result = resolve_trick(plays)
    assert len(result.collectors) == len(plays)
    seats = {seat for seat, _ in plays}
    assert set(result.collectors) <= seats
    if result.winner is None:
        assert result.cats == result.dogs
        assert result.collectors == tuple(seat for seat, _ in plays)
        return
    winning = "C" if result.cats > result.dogs else "D"
    top = max((card for _, card in plays if card[0] == winning), key=STRENGTH.__getitem__)
    assert plays[result.best] == (result.winner, top)
    for (seat, _), collector in zip(plays, result.collectors, strict=True):
        if collector != seat:
            assert collector == result.winner
    taken = sum(1 for (seat, _), collector in zip(plays, result.collectors, strict=True) if collector != seat)
    if not result.cats or not result.dogs:
        assert taken == (0 if min(plays, key=lambda p: STRENGTH[p[1]])[0] == result.winner else 1)
    else:
        assert taken == sum(1 for _, card in plays if card[0] != winning)
