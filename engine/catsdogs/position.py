"""Literal positions for scenarios and tests, like a chess FEN: cards as text, the rest derived.

    position(hands="C1 C5 | D2 D3 | C2 C9", trick="C5 D2", leader=0)

Hands are separated by "|", cards by spaces ("-" is an empty pile); `trick` lists
the cards already on the current trick in playing order from the leader. Every
card not placed anywhere is out of play, so the 18 cards are always accounted for.
"""

from __future__ import annotations

from engine.catsdogs._cards import CARDS, sort_cards
from engine.catsdogs.model import HAND_SIZE, State
from engine.core import Rng


def cards(text: str) -> tuple[str, ...]:
    """Card ids from "C1 D7" ("" or "-" for none)."""
    return tuple(card for card in text.upper().split() if card != "-")


def piles(text: str, players: int) -> tuple[tuple[str, ...], ...]:
    """One pile per seat from "C1 C2 | D4 | -" (empty text: all empty)."""
    if not text.strip():
        return ((),) * players
    parts = tuple(cards(part) for part in text.split("|"))
    if len(parts) != players:
        raise ValueError(f"expected {players} piles, got {len(parts)}: {text!r}")
    return parts


def position(
    hands: str,
    *,
    trick: str = "",
    leader: int = 0,
    table: str = "",
    hidden: str = "",
    collected: str = "",
    table_pile: str = "",
    scores: tuple[int, ...] | None = None,
    round: int = 1,
    round_leader: int | None = None,
    last_win: tuple[int, ...] | None = None,
    tricks_played: int = 0,
    seed: int = 0,
) -> State:
    """A State from a literal description; unplaced cards are out of play."""
    players = hands.count("|") + 1
    hand_piles = tuple(sort_cards(hand) for hand in piles(hands, players))
    on_trick = cards(trick)
    plays = tuple(((leader + i) % players, card) for i, card in enumerate(on_trick))
    placed = [card for hand in hand_piles for card in hand]
    placed += [*on_trick, *cards(table), *cards(hidden), *cards(table_pile)]
    placed += [card for pile in piles(collected, players) for card in pile]
    unknown = set(placed) - set(CARDS)
    if unknown or len(set(placed)) != len(placed):
        raise ValueError(f"cards must be distinct card ids: {sorted(placed)}")
    leader_left = len(hand_piles[leader]) + (1 if plays else 0)
    return State(
        players=players,
        rng=Rng.seeded(seed),
        round=round,
        hands=hand_piles,
        out=tuple(card for card in CARDS if card not in placed),
        table=cards(table),
        hidden=cards(hidden),
        trick=plays,
        trick_no=HAND_SIZE[players] - leader_left,
        leader=leader,
        round_leader=leader if round_leader is None else round_leader,
        collected=piles(collected, players),
        table_pile=cards(table_pile),
        scores=scores or (0,) * players,
        rounds=(),
        last_trick=None,
        last_win=last_win or (0,) * players,
        tricks_played=tricks_played,
        over=False,
    )
