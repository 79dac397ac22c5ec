"""The "normal" computer player's judgement, from a seat's view only.

Strategy: keep every cat at 9 or under, grab a perfect nine whenever one is there, play big cards
while the table has room and keep the small flexible ones for later, wager when the hand is weak,
and order lives so the most useful powers come first.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ninelives._cards import LIMIT, Counts, LifeCard, PowerKey, card_id, life_id
from engine.ninelives._counting import WILD, effective, fits, minus, perfect, plus
from engine.ninelives.model import (
    CardMove,
    CountAs,
    Crown,
    EndTurn,
    Move,
    NextLife,
    Phase,
    Play,
    SeatMove,
    SkipTurn,
    StealFrom,
    Step,
    View,
    Wager,
)

POWER_VALUE = {
    PowerKey.WILDCARD: 9,
    PowerKey.PLUS: 7,
    PowerKey.REPLACE: 7,
    PowerKey.SINGLE_CAT: 7,
    PowerKey.WILDCARD_PAID: 7,
    PowerKey.SHAPESHIFT: 6,
    PowerKey.NUMBERSHIFT: 6,
    PowerKey.SWAP: 6,
    PowerKey.SKIP: 6,
    PowerKey.COPYCAT: 5,
    PowerKey.IGNORE: 5,
    PowerKey.STEAL: 4,
    PowerKey.DRAW_AND_PLAY: 4,
    PowerKey.STEAL_AND_PLAY: 4,
    PowerKey.DOUBLE_TURN: 3,
    PowerKey.FORCE_WAGER: 3,
    PowerKey.INSPECT: 2,
    PowerKey.CAROUSEL: 2,
    PowerKey.SHUFFLE_LIVES: 2,
    PowerKey.FORBID_WAGER: 2,
    PowerKey.FORBID: 1,
}


def power_value(card: LifeCard | None) -> int:
    return POWER_VALUE.get(card.power, 0) if card is not None else 0


class Table:
    """What the view says about the table, ready for quick what-ifs."""

    def __init__(self, view: View) -> None:
        self.counts: Counts = view.counts
        self.ignored = view.ignored
        self.tops = {pile[-1].card.id: pile[-1].counts for pile in view.table}
        self.power = view.power.card() if view.power is not None else None
        self.allowed = self.power.a if self.power is not None and self.power.power == PowerKey.PLUS else -1
        self.wild = self.power is not None and self.power.power in WILD

    def outcome(self, icons: Counts, cover: str = "", icon: int = -1) -> tuple[bool, Counts, Counts]:
        """(perfect nine?, the counts after, what the card adds) for a play of `icons`."""
        base = minus(self.counts, self.tops[cover]) if cover else self.counts
        adds, _ = effective(icons, self.power, icon)
        after = plus(base, adds)
        return bool(perfect(after, adds, self.ignored)), after, adds

    def playable(self, icons: Counts, counts: Counts | None = None) -> bool:
        """Whether a card printed `icons` could be played as a new card on `counts` (no power)."""
        return fits(counts or self.counts, icons, self.ignored)


def _hand(view: View) -> dict[str, Counts]:
    return {card.id: card.icons for card in view.hand}


def play_score(view: View, table: Table, card: str) -> float:
    """How good playing `card` (as a new card) looks: perfect nines first, then big cards that keep
    the rest of the hand playable."""
    hand = _hand(view)
    icons = hand[card]
    nine, after, adds = table.outcome(icons)
    if nine:
        return 1000 + sum(adds)
    rest = [c for other, c in hand.items() if other != card]
    still = sum(1 for c in rest if table.playable(c, after))
    crowded = sum(1 for cat in range(4) if LIMIT - 2 <= after[cat] < LIMIT and cat not in table.ignored)
    return sum(icons) + 3 * still - 1.5 * crowded


def placement_score(view: View, table: Table, move: Move) -> float:
    """Where the picked card should go: a perfect nine, else the lowest table afterwards."""
    card = view.selected.icons if view.selected is not None else (0, 0, 0, 0)
    if isinstance(move, CountAs):
        nine, after, _ = table.outcome(card, icon=move.cat)
    else:
        nine, after, _ = table.outcome(card, cover=card_id(move.card) if isinstance(move, CardMove) else "")
    return (1000 if nine else 0) - sum(after)


WAGER_HAND = 6


def wants_to_wager(view: View, table: Table, plays: Sequence[Play]) -> bool:
    """Wager unless a perfect nine is there or the hand is already big: cards and powers are what
    keep a player in the round (measured: this beats wagering only on a weak hand by far)."""
    if not plays:
        return True
    if any(play_score(view, table, card_id(m.card)) >= 1000 for m in plays):
        return False
    return view.seats[view.seat].stack_size >= 2 and len(view.hand) <= WAGER_HAND


def best_life(view: View, moves: Sequence[Move], best_first: bool) -> Move:
    """In an ordering: the most useful power next (or the least useful, for someone else's stack)."""
    cards = {life.id: life.card() for life in view.arranging}
    candidates = [m for m in moves if isinstance(m, NextLife)]
    if not candidates:
        return moves[0]
    sign = 1 if best_first else -1
    return max(candidates, key=lambda m: (sign * power_value(cards[life_id(m.life)]), m.life))


def _leader(view: View, seats: Sequence[int]) -> int:
    return max(seats, key=lambda s: (view.seats[s].lives, -s))


def _first(legal: Sequence[Move], kind: type[Move]) -> Move | None:
    return next((m for m in legal if isinstance(m, kind)), None)


def choose(view: View, legal: Sequence[Move]) -> Move:
    """The normal player's move."""
    if len(legal) == 1:
        return legal[0]
    seat = view.seat
    if view.phase == Phase.ORDER:
        return best_life(view, legal, True)
    if view.phase == Phase.RETURN:
        return legal[0]  # keep: the order they were wagered in
    if view.phase == Phase.QUEEN:
        mine = [m for m in legal if isinstance(m, Crown) and m.seat == seat]
        return mine[0] if mine else legal[0]
    hand = _hand(view)
    table = Table(view)
    cards: list[CardMove] = [m for m in legal if isinstance(m, CardMove)]
    seats: list[SeatMove] = [m for m in legal if isinstance(m, SeatMove)]

    def hardest(move: CardMove) -> tuple[bool, int, int]:
        icons = hand[card_id(move.card)]
        return not table.playable(icons), sum(icons), move.card

    if view.phase == Phase.CAROUSEL:
        # Pass the cards that are hardest to place: unplayable ones, then the biggest.
        return max(cards, key=hardest)
    step = view.step
    if step == Step.PLAY:
        plays = [m for m in legal if isinstance(m, Play)]
        wager = _first(legal, Wager)
        if wager is not None and wants_to_wager(view, table, plays):
            return wager
        best = max(plays, key=lambda m: (play_score(view, table, card_id(m.card)), m.card), default=None)
        if best is not None and play_score(view, table, card_id(best.card)) >= 1000:
            return best
        for kind in (SkipTurn, EndTurn):
            found = _first(legal, kind)
            if found is not None:
                return found
        return best if best is not None else legal[-1]
    if step in (Step.PLACE, Step.ICON):
        return max(legal, key=lambda m: (placement_score(view, table, m), m.encode()))
    if step == Step.REORDER:
        return best_life(view, legal, view.arranging_for == seat)
    if step == Step.COPY:
        return max(seats, key=lambda m: (power_value(view.seats[m.seat].top.card()), m.seat))
    if step == Step.GIVE:
        return max(cards, key=hardest)
    if step == Step.TO:
        safe = [m.seat for m in seats if view.seats[m.seat].safe]
        target = safe[0] if safe else _leader(view, [m.seat for m in seats])
        return next(m for m in seats if m.seat == target)
    if step == Step.FROM:
        sources = [m for m in legal if isinstance(m, StealFrom)]
        crowded = any(sum(counts) >= 3 for counts in table.tops.values())
        from_table = [m for m in sources if m.seat is None]
        if crowded and from_table:
            return from_table[0]
        players = [m for m in sources if m.seat is not None]
        return max(players, key=lambda m: (view.seats[m.seat].hand_size, m.seat)) if players else legal[0]
    if step == Step.TAKE:
        return max(cards, key=lambda m: (sum(table.tops[card_id(m.card)]), m.card))
    if step == Step.STACK:
        mine = [m for m in seats if m.seat == seat]
        return mine[0] if mine else max(seats, key=lambda m: (view.seats[m.seat].lives, m.seat))
    return legal[0]
