"""CatSanity strategy as numbers: what a cat, a token or an auction is worth to a seat.

Everything here reads only public information (homes, alley, tokens, deck size), so it serves the
computer players on a view and the search's playouts on a sampled state alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.catsanity._cards import (
    ALL_CARDS,
    COPY,
    CTHULHU,
    KIND,
    KING,
    MOON,
    PRECIOUS,
    QUEEN,
    SUN,
    SUN_KINDS,
)
from engine.catsanity._scoring import FIBONACCI, quick_score
from engine.catsanity.model import (
    Adopt,
    CallAuction,
    Declare,
    PlaceBid,
    ReturnCat,
)

TWIN_PAIR_HOPE = 6.0
MAX_BID = 4
_KIND_COUNT: dict[str, int] = {}
for _card in ALL_CARDS:
    _KIND_COUNT[KIND[_card]] = _KIND_COUNT.get(KIND[_card], 0) + 1


def deck_size(pos: Any) -> int:
    """The deck size of a view, or of a sampled state."""
    size = getattr(pos, "deck_size", None)
    return len(pos.deck) if size is None else size


def turns_left(pos: Any, size: int) -> float:
    """Roughly how many more turns each sane seat gets: about one card leaves the deck per turn."""
    sane = sum(1 for t in pos.tokens if t > 0) or 1
    return size / sane


def token_cost(tokens: int, turns: float, spend: int = 1) -> float:
    """Points a seat gives up by spending `spend` of its `tokens`; the last one costs every later turn."""
    if spend <= 0:
        return 0.0
    cost = sum(1.2 + 5.0 / t for t in range(tokens, max(tokens - spend, 0), -1) if t > 1)
    if spend >= tokens:
        cost += 3.2 * turns
    return cost


def _counts(home: Sequence[str], copy_as: str | None) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in home:
        kind = KIND[card]
        if kind == COPY and copy_as:
            kind = copy_as
        counts[kind] = counts.get(kind, 0) + 1
    return counts


def _left(pos: Any, kind: str) -> int:
    """How many cats of `kind` are not in any home (still in the deck or the alley)."""
    placed = 0
    for home in pos.homes:
        for card in home:
            if KIND[card] == kind:
                placed += 1
    return _KIND_COUNT[kind] - placed


def potential(counts: dict[str, int], pos: Any, frac: float) -> float:
    """Points a home may still grow into (sets under way), scaled by how much game is left."""
    if frac <= 0:
        return 0.0
    total = 0.0
    chorus = counts.get("chorus", 0)
    if 0 < chorus < 5 and _left(pos, "chorus") >= 5 - chorus:
        total += 25.0 * (chorus / 5) ** 2
    fib = counts.get("fib", 0)
    if 0 < fib < 6 and _left(pos, "fib") > 0:
        total += 0.5 * (FIBONACCI[fib + 1] - FIBONACCI[fib])
    for kind, n in counts.items():
        if n == 1 and kind[:4] == "twin" and _left(pos, kind) > 0:
            total += TWIN_PAIR_HOPE * 0.5
    if counts.get(KING) or counts.get(QUEEN):
        total += 2.0
    return total * frac


def home_value(home: tuple[str, ...], copy_as: str | None, pos: Any, frac: float) -> float:
    """A home's score now plus what its sets may still become."""
    return quick_score(home, copy_as) + potential(_counts(home, copy_as), pos, frac)


def best_declaration(home: tuple[str, ...], pos: Any, frac: float) -> tuple[str, float]:
    """The Sun kind the Copy Cat in `home` is best declared as, and the home's value then."""
    best = max(SUN_KINDS, key=lambda kind: (home_value(home, kind, pos, frac), -SUN_KINDS.index(kind)))
    return best, home_value(home, best, pos, frac)


class Valuer:
    """Valuations for one seat in one position."""

    def __init__(self, pos: Any, seat: int) -> None:
        self.pos = pos
        self.seat = seat
        self.size = deck_size(pos)
        self.frac = min(1.0, self.size / 24.0)
        self.turns = turns_left(pos, self.size)
        self.home = pos.homes[seat]
        self.copy_as = pos.copy_as
        self.base = home_value(self.home, self.copy_as, pos, self.frac)
        scores = [quick_score(home, pos.copy_as) for home in pos.homes]
        self.leader = max((s for s in range(pos.players) if s != seat), key=lambda s: scores[s])

    def with_cards(self, cards: tuple[str, ...], seat: int | None = None) -> float:
        """How much `cards` add to a seat's home value (the Copy Cat declared at its best)."""
        seat = self.seat if seat is None else seat
        home = self.pos.homes[seat]
        base = self.base if seat == self.seat else home_value(home, self.copy_as, self.pos, self.frac)
        new = home + cards
        if COPY in cards:
            return best_declaration(new, self.pos, self.frac)[1] - base
        return home_value(new, self.copy_as, self.pos, self.frac) - base

    def loss(self, seat: int, card: str) -> float:
        """What a seat loses if `card` leaves its home."""
        home = self.pos.homes[seat]
        rest = list(home)
        rest.remove(card)
        copy_as = None if card == COPY else self.copy_as
        value = home_value(tuple(rest), copy_as, self.pos, self.frac)
        lost = home_value(home, self.copy_as, self.pos, self.frac) - value
        if card == PRECIOUS:
            lost -= token_cost(self.pos.tokens[seat], turns_left(self.pos, self.size), 1)
        return lost

    def weight(self, other: int) -> float:
        """How much hurting `other` helps: the leader matters most."""
        return 0.6 if other == self.leader else 0.25

    def ninja_value(self, target: int) -> float:
        suns = [card for card in self.pos.homes[target] if card in SUN]
        if not suns:
            return 0.0
        total = 0.0
        for card in suns:
            total += self.with_cards((card,)) + self.weight(target) * self.loss(target, card)
        return total / len(suns)

    def effect(self, card: str) -> float:
        """The value of a Moon Cat's special action for the adopter."""
        kind = KIND[card]
        pos, seat = self.pos, self.seat
        others = [s for s in range(pos.players) if s != seat]
        if kind == "ninja":
            return max(self.ninja_value(target) for target in others)
        if kind == "recall":
            return sum(self.weight(o) * 2.0 for o in others if len(pos.homes[o]) > 0)
        if kind == CTHULHU:
            mine = len(self.home) + 1
            return sum(
                self.weight(o) * 2.5 * min(pos.tokens[o], 2 if len(pos.homes[o]) > mine else 1)
                for o in others
            )
        if kind == PRECIOUS:
            drain = int(min(self.pos.tokens[seat] - 1, self.turns))
            return -token_cost(self.pos.tokens[seat] - 1, self.turns, drain) if drain > 0 else 0.0
        return 0.0

    def adopt_value(self, card: str) -> float:
        """Net value of adopting `card`: its points, its special action, its token."""
        value = self.with_cards((card,))
        if card in MOON:
            value += self.effect(card) - token_cost(self.pos.tokens[self.seat], self.turns, 1)
        return value

    def max_bid(self, suns: tuple[str, ...], seat: int | None = None) -> int:
        """The highest bid at which the Sun Cats are still worth it to `seat`."""
        seat = self.seat if seat is None else seat
        value = self.with_cards(suns, seat)
        tokens = self.pos.tokens[seat]
        turns = turns_left(self.pos, self.size)
        best = 0
        for bid in range(1, min(tokens, MAX_BID) + 1):
            if value - token_cost(tokens, turns, bid) > 0.5:
                best = bid
        return best


# ---- the normal player's choices ----------------------------------------------------------------------


def choose_normal(pos: Any, seat: int, legal: Sequence[Any]) -> Any:
    """A fast heuristic decision from public information (see the module docstring)."""
    if len(legal) == 1:
        return legal[0]
    valuer = Valuer(pos, seat)
    phase = pos.phase
    if phase == "turn":
        return _choose_turn(valuer, legal)
    if phase == "auction":
        return _choose_bid(valuer, legal)
    if phase == "copy":
        kind, _ = best_declaration(valuer.home, pos, valuer.frac)
        return next(a for a in legal if isinstance(a, Declare) and a.kind == kind)
    if phase == "ninja":
        return max(legal, key=lambda a: (valuer.ninja_value(a.target), -a.target))
    return _choose_return(valuer, legal)


def _choose_turn(valuer: Valuer, legal: Sequence[Any]) -> Any:
    pos = valuer.pos
    best, best_value = None, float("-inf")
    for action in legal:
        if isinstance(action, Adopt):
            value = valuer.adopt_value(action.card)
            if value > best_value:
                best, best_value = action, value
    if any(isinstance(a, CallAuction) for a in legal):
        suns = tuple(card for card in pos.alley if card in SUN)
        rivals = [valuer.max_bid(suns, s) for s in range(pos.players) if s != valuer.seat]
        price = max(rivals, default=0) + 1
        mine = valuer.max_bid(suns)
        if mine >= price:
            tokens = pos.tokens[valuer.seat]
            value = valuer.with_cards(suns) - token_cost(tokens, valuer.turns, price)
            if value > best_value + 1.0:
                return next(a for a in legal if isinstance(a, CallAuction))
    return best


def _choose_bid(valuer: Valuer, legal: Sequence[Any]) -> Any:
    pos = valuer.pos
    suns = tuple(card for card in pos.alley if card in SUN)
    limit = valuer.max_bid(suns)
    auction = pos.auction
    if auction.high + 1 <= limit:
        return next((a for a in legal if isinstance(a, PlaceBid) and a.amount == auction.high + 1), legal[0])
    return next(a for a in legal if isinstance(a, PlaceBid) and a.amount == 0)


def _choose_return(valuer: Valuer, legal: Sequence[Any]) -> Any:
    home = valuer.home
    picked = getattr(valuer.pos, "my_recall_pick", None)
    if picked is None:
        recall = getattr(valuer.pos, "recall", None)
        picked = recall.picked if recall is not None else ()

    def cost(action: ReturnCat) -> float:
        card = next(c for c in reversed(home) if KIND[c] == action.kind and c not in picked)
        return valuer.loss(valuer.seat, card)

    return min(legal, key=cost)


def marginal(home: tuple[str, ...], copy_as: str | None, card: str) -> float:
    """Points `card` adds to `home` right now, plus a small bonus for sets it starts (no lookahead)."""
    kind = KIND[card]
    if kind == "house":
        return 3.0
    if kind == COPY:
        return 4.0
    same = moons = royals = 0
    for other in home:
        other_kind = KIND[other]
        if other_kind == kind or (other_kind == COPY and copy_as == kind):
            same += 1
        if other in MOON:
            moons += 1
            if other_kind in (KING, QUEEN):
                royals += 1
    if kind == "chorus":
        return 25.0 if same == 4 else (2.0 + same if same < 4 else 0.0)
    if kind == "fib":
        return FIBONACCI[same + 1] - FIBONACCI[same] + (1.5 if same < 3 else 0.0)
    if kind[:4] == "twin":
        return (3.5, 6.0, 4.0, 0.0)[same]
    gain = 2.0 * royals
    if kind == PRECIOUS:
        return gain + 9.0
    if kind in (KING, QUEEN):
        return gain + 2.0 + 2.0 * moons
    return gain


def quick_choice(pos: Any, seat: int, legal: Sequence[Any], draw: int) -> Any:
    """A cheap playout decision: immediate points minus the token, no auctions, passes on bids.

    `draw` is a random 64-bit number: one time in eight the choice is a random legal action.
    """
    if len(legal) == 1:
        return legal[0]
    if draw & 7 == 0:
        return legal[(draw >> 3) % len(legal)]
    phase = pos.phase
    if phase == "turn":
        home, copy_as = pos.homes[seat], pos.copy_as
        tokens = pos.tokens[seat]
        moon_cost = 2.0 + 6.0 / tokens if tokens > 1 else 3.0 * len(pos.deck) / pos.players + 3.0
        best, best_value = legal[0], float("-inf")
        for action in legal:
            if action.__class__ is not Adopt:
                continue
            card = action.card
            value = marginal(home, copy_as, card)
            if card in MOON:
                value -= moon_cost
            if value > best_value:
                best, best_value = action, value
        return best
    if phase == "auction":
        return legal[0]
    if phase == "ninja":
        return max(legal, key=lambda a: sum(card in SUN for card in pos.homes[a.target]))
    if phase == "copy":
        home = pos.homes[seat]
        return max(legal, key=lambda a: quick_score(home, a.kind))
    home = pos.homes[seat]
    return min(legal, key=lambda a: _loss(home, pos.copy_as, a.kind))


def _loss(home: tuple[str, ...], copy_as: str | None, kind: str) -> float:
    """Roughly what a home loses when one cat of `kind` leaves it."""
    index = next(i for i, card in enumerate(home) if KIND[card] == kind)
    return marginal(home[:index] + home[index + 1 :], copy_as, home[index])
