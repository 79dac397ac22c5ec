"""The "normal" computer player's judgement, from a seat's view only.

Strategy: keep every cat at 9 or under, grab a perfect nine whenever one is there, play big cards
while the table has room and keep the small flexible ones for later, wager when the hand is weak,
and order lives so the most useful powers come first.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ninelives.cards import LIMIT, Counts, LifeCard
from engine.ninelives.counting import effective, fits, minus, perfect, plus
from engine.ninelives.model import Move, View

POWER_VALUE = {
    "wildcard": 9,
    "plus": 7,
    "replace": 7,
    "single_cat": 7,
    "wildcard_paid": 7,
    "shapeshift": 6,
    "numbershift": 6,
    "swap": 6,
    "skip": 6,
    "copycat": 5,
    "ignore": 5,
    "steal": 4,
    "draw_and_play": 4,
    "steal_and_play": 4,
    "double_turn": 3,
    "force_wager": 3,
    "inspect": 2,
    "carousel": 2,
    "shuffle_lives": 2,
    "forbid_wager": 2,
    "forbid": 1,
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
        self.allowed = self.power.a if self.power is not None and self.power.power == "plus" else -1
        self.wild = self.power is not None and self.power.power in ("wildcard", "wildcard_paid")

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
    if move.verb == "icon":
        nine, after, _ = table.outcome(card, icon=int(move.arg))
    else:
        nine, after, _ = table.outcome(card, cover=move.arg if move.verb != "t" else "")
    return (1000 if nine else 0) - sum(after)


WAGER_HAND = 6


def wants_to_wager(view: View, table: Table, plays: Sequence[Move]) -> bool:
    """Wager unless a perfect nine is there or the hand is already big: cards and powers are what
    keep a player in the round (measured: this beats wagering only on a weak hand by far)."""
    if not plays:
        return True
    if any(play_score(view, table, m.arg) >= 1000 for m in plays):
        return False
    return view.seats[view.seat].stack_size >= 2 and len(view.hand) <= WAGER_HAND


def best_life(view: View, moves: Sequence[Move], best_first: bool) -> Move:
    """In an ordering: the most useful power next (or the least useful, for someone else's stack)."""
    cards = {life.id: life.card() for life in view.arranging}
    candidates = [m for m in moves if m.verb == "n"]
    if not candidates:
        return moves[0]
    sign = 1 if best_first else -1
    return max(candidates, key=lambda m: (sign * power_value(cards[m.arg]), m.arg))


def _leader(view: View, seats: Sequence[int]) -> int:
    return max(seats, key=lambda s: (view.seats[s].lives, -s))


def choose(view: View, legal: Sequence[Move]) -> Move:
    """The normal player's move."""
    if len(legal) == 1:
        return legal[0]
    seat = view.seat
    verbs = {m.verb for m in legal}
    if view.phase == "order":
        return best_life(view, legal, True)
    if view.phase == "return":
        return legal[0]  # keep: the order they were wagered in
    if view.phase == "queen":
        mine = [m for m in legal if int(m.arg) == seat]
        return mine[0] if mine else legal[0]
    hand = _hand(view)
    table = Table(view)
    if view.phase == "carousel":
        # Pass the cards that are hardest to place: unplayable ones, then the biggest.
        return max(legal, key=lambda m: (not table.playable(hand[m.arg]), sum(hand[m.arg]), m.arg))
    step = view.step
    if step == "play":
        plays = [m for m in legal if m.verb == "p"]
        if "w" in verbs and wants_to_wager(view, table, plays):
            return next(m for m in legal if m.verb == "w")
        best = max(plays, key=lambda m: (play_score(view, table, m.arg), m.arg), default=None)
        if best is not None and play_score(view, table, best.arg) >= 1000:
            return best
        for verb in ("skip", "end"):
            if verb in verbs:
                return next(m for m in legal if m.verb == verb)
        return best if best is not None else legal[-1]
    if step in ("place", "icon"):
        return max(legal, key=lambda m: (placement_score(view, table, m), m.encode()))
    if step == "reorder":
        return best_life(view, legal, view.arranging_for == seat)
    if step == "copy":
        return max(legal, key=lambda m: (power_value(view.seats[int(m.arg)].top.card()), m.arg))
    if step == "give":
        return max(legal, key=lambda m: (not table.playable(hand[m.arg]), sum(hand[m.arg]), m.arg))
    if step == "to":
        safe = [int(m.arg) for m in legal if view.seats[int(m.arg)].safe]
        target = safe[0] if safe else _leader(view, [int(m.arg) for m in legal])
        return next(m for m in legal if int(m.arg) == target)
    if step == "from":
        crowded = any(sum(counts) >= 3 for counts in table.tops.values())
        if crowded and any(m.arg == "t" for m in legal):
            return next(m for m in legal if m.arg == "t")
        players = [m for m in legal if m.arg != "t"]
        return max(players, key=lambda m: (view.seats[int(m.arg)].hand_size, m.arg)) if players else legal[0]
    if step == "take":
        return max(legal, key=lambda m: (sum(table.tops[m.arg]), m.arg))
    if step == "stack":
        mine = [m for m in legal if int(m.arg) == seat]
        return mine[0] if mine else max(legal, key=lambda m: (view.seats[int(m.arg)].lives, m.arg))
    return legal[0]
