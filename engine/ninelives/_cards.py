"""Nine Lives components: the four cats, the seeded 45-card cat deck, life cards and the power table.

Sources: nine-lives-cards.md (deck recipe and the power table) and rulings NL-1, NL-11.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple

from engine.core import Frozen, Rng
from lang import N_, _

CATS = ("circle", "square", "triangle", "star")
EMOJI = ("⚪", "🟦", "🔺", "⭐")
CIRCLE, SQUARE, TRIANGLE, STAR = range(4)
LIMIT = 9
HAND_SIZE = 3
LIVES = 9

Counts = tuple[int, int, int, int]
NO_COUNTS: Counts = (0, 0, 0, 0)


def icons_text(counts: Counts) -> str:
    """The icons of a card as emoji, e.g. "⚪⚪🟦" (long runs shortened, e.g. "⭐×9")."""
    return _icons(counts) or _("nothing")


@lru_cache(maxsize=2048)
def _icons(counts: Counts) -> str:
    parts = []
    for cat, n in enumerate(counts):
        if n > 4:
            parts.append(f"{EMOJI[cat]}×{n}")
        elif n:
            parts.append(EMOJI[cat] * n)
    return "".join(parts)


_CARD_IDS = tuple(f"C{n:02d}" for n in range(100))
_LIFE_IDS = tuple(f"L{n:02d}" for n in range(100))


def card_id(card: int) -> str:
    """The public id of cat card number `card`, e.g. "C07"."""
    return _CARD_IDS[card]


def life_id(card: int) -> str:
    """The public id of life card number `card`, e.g. "L13"."""
    return _LIFE_IDS[card]


def _multisets(size: int) -> list[Counts]:
    """Every multiset of `size` icons from circle/square/triangle, in a fixed order."""
    result = []
    for a in range(size, -1, -1):
        for b in range(size - a, -1, -1):
            result.append((a, b, size - a - b, 0))
    return result


FIXED_COMBOS: tuple[Counts, ...] = tuple(c for size in (1, 2, 3) for c in _multisets(size))
STAR_CARDS: tuple[Counts, ...] = tuple((0, 0, 0, n) for n in range(1, 10))
_BIG = {size: _multisets(size) for size in (4, 5, 6)}
_SIZE_WEIGHT = {4: 1.0, 5: 0.4, 6: 0.16}
_PICKS = {4: 10, 5: 4, 6: 1}
_EXTRA = 2


def _balanced(cards: list[Counts]) -> bool:
    """No cat kind above half of all icons among the random combos (nine-lives-cards.md)."""
    totals = [sum(card[cat] for card in cards) for cat in range(3)]
    return max(totals) * 2 <= sum(totals)


def _sample(rng: Rng, items: list[Counts], k: int) -> tuple[list[Counts], Rng]:
    """`k` different items picked at random (a partial Fisher-Yates shuffle)."""
    pool = list(items)
    for i in range(k):
        j, rng = rng.below(len(pool) - i)
        pool[i], pool[i + j] = pool[i + j], pool[i]
    return pool[:k], rng


def build_cat_deck(rng: Rng) -> tuple[tuple[Counts, ...], Rng]:
    """The 45 cat cards of one game: 19 small combos, 9 star cards, 17 random 4-6 icon combos."""
    while True:
        chosen: list[Counts] = []
        for size, count in _PICKS.items():
            picked, rng = _sample(rng, _BIG[size], count)
            chosen.extend(picked)
        for _extra in range(_EXTRA):
            unused = [c for size in (4, 5, 6) for c in _BIG[size] if c not in chosen]
            index, rng = rng.weighted([_SIZE_WEIGHT[sum(c)] for c in unused])
            chosen.append(unused[index])
        if _balanced(chosen):
            break
    chosen.sort(key=lambda c: (sum(c), tuple(-n for n in c)))
    return FIXED_COMBOS + STAR_CARDS + tuple(chosen), rng


@lru_cache(maxsize=256)
def catalog_text(cats: tuple[Counts, ...]) -> str:
    """The game's cat cards in id order, each as 4 digits (circles, squares, triangles, stars)."""
    return " ".join("".join(map(str, card)) for card in cats)


@lru_cache(maxsize=256)
def parse_catalog(text: str) -> tuple[Counts, ...]:
    """The cat cards written by `catalog_text`."""
    return tuple(tuple(int(d) for d in card) for card in text.split())  # type: ignore[misc]


class PowerKey(StrEnum):
    """The powers of life cards (nine-lives-cards.md), by the keys stored in states and logs."""

    SKIP = "skip"
    COPYCAT = "copycat"
    WILDCARD = "wildcard"
    REPLACE = "replace"
    INSPECT = "inspect"
    SHAPESHIFT = "shapeshift"
    FORBID = "forbid"
    PLUS = "plus"
    WILDCARD_PAID = "wildcard_paid"
    SWAP = "swap"
    STEAL = "steal"
    DRAW_AND_PLAY = "draw_and_play"
    STEAL_AND_PLAY = "steal_and_play"
    DOUBLE_TURN = "double_turn"
    CAROUSEL = "carousel"
    SHUFFLE_LIVES = "shuffle_lives"
    SINGLE_CAT = "single_cat"
    FORCE_WAGER = "force_wager"
    FORBID_WAGER = "forbid_wager"
    NUMBERSHIFT = "numbershift"
    IGNORE = "ignore"


class Power(NamedTuple):
    """One row of the power table in nine-lives-cards.md."""

    key: PowerKey
    name: str
    """In English: `life_name` says it in the language speaking."""
    core: bool
    draw: int
    weight: float
    params: str  # "", "A", "AB" (two different cats) or "An" (a cat and 1..5)
    emoji: str
    text: str
    """In English, with {a} and {b} for its parameters: `life_text` says it in the language speaking."""


POWERS: dict[PowerKey, Power] = {
    p.key: p
    for p in (
        Power(
            PowerKey.SKIP,
            N_("Skip Turn"),
            True,
            2,
            1,
            "",
            "⏭️",
            N_("You may skip your turn; the next player must skip."),
        ),
        Power(
            PowerKey.COPYCAT, N_("Copycat"), True, 2, 2, "", "🐈", N_("Use another player's top life power.")
        ),
        Power(
            PowerKey.WILDCARD,
            N_("Wildcard"),
            True,
            2,
            1,
            "",
            "🃏",
            N_("Play any card, regardless of the rules."),
        ),
        Power(
            PowerKey.REPLACE,
            N_("Replace"),
            True,
            2,
            1.5,
            "",
            "🔁",
            N_("You may play on top of a table card."),
        ),
        Power(
            PowerKey.INSPECT,
            N_("Inspect"),
            True,
            2,
            2,
            "",
            "🔍",
            N_("Everyone else plays with an open hand."),
        ),
        Power(
            PowerKey.SHAPESHIFT, N_("Shapeshift"), True, 2, 2, "AB", "🪄", N_("Your card's {a} count as {b}.")
        ),
        Power(
            PowerKey.FORBID, N_("Forbid"), True, 3, 1.25, "A", "🚫", N_("You can't play a card showing {a}.")
        ),
        Power(PowerKey.PLUS, N_("More Allowed"), True, 2, 1.25, "A", "➕", N_("You may take {a} above 9.")),
        Power(
            PowerKey.WILDCARD_PAID,
            N_("Wildcard Paid"),
            False,
            1,
            1,
            "",
            "💸",
            N_("Give a card away, then play any."),
        ),
        Power(
            PowerKey.SWAP,
            N_("Swap"),
            False,
            2,
            1.5,
            "",
            "🔄",
            N_("You may trade your card with a table card."),
        ),
        Power(
            PowerKey.STEAL,
            N_("Steal"),
            False,
            1,
            1.5,
            "",
            "🦝",
            N_("Steal a card from the table or a player."),
        ),
        Power(
            PowerKey.DRAW_AND_PLAY,
            N_("Draw and Play"),
            False,
            0,
            1,
            "",
            "🎴",
            N_("Draw 2; you must play one of them."),
        ),
        Power(
            PowerKey.STEAL_AND_PLAY,
            N_("Steal and Play"),
            False,
            0,
            1,
            "",
            "🥷",
            N_("Steal 2; you must play one of them."),
        ),
        Power(
            PowerKey.DOUBLE_TURN,
            N_("Double Turn"),
            False,
            2,
            2,
            "",
            "⏩",
            N_("You may take 2 turns; so must the next."),
        ),
        Power(
            PowerKey.CAROUSEL,
            N_("Card Carousel"),
            False,
            2,
            1,
            "",
            "🎠",
            N_("Everyone passes 2 cards one way."),
        ),
        Power(
            PowerKey.SHUFFLE_LIVES,
            N_("Shuffle Lives"),
            False,
            2,
            2,
            "",
            "🔀",
            N_("Reorder any player's life stack."),
        ),
        Power(
            PowerKey.SINGLE_CAT,
            N_("Single Cat"),
            False,
            1,
            1,
            "",
            "☝️",
            N_("Your card counts as one icon of it."),
        ),
        Power(
            PowerKey.FORCE_WAGER,
            N_("Force Wager"),
            False,
            2,
            1.25,
            "",
            "⚠️",
            N_("The next player must wager."),
        ),
        Power(
            PowerKey.FORBID_WAGER,
            N_("Forbid Wager"),
            False,
            2,
            1.5,
            "",
            "🔒",
            N_("The next player may not wager."),
        ),
        Power(
            PowerKey.NUMBERSHIFT,
            N_("Numbershift"),
            False,
            2,
            1.5,
            "An",
            "🔢",
            N_("Your card counts as {b} × {a}."),
        ),
        Power(
            PowerKey.IGNORE, N_("Ignore"), False, 3, 1.25, "A", "🙈", N_("Everyone ignores {a} this round.")
        ),
    )
}


class LifeCard(Frozen):
    """A life card: its power and the power's parameters (`a` a cat, `b` a cat or a number; -1 unused)."""

    power: PowerKey
    a: int = -1
    b: int = -1

    @property
    def draw(self) -> int:
        return POWERS[self.power].draw


def life_name(card: LifeCard) -> str:
    """The card's power with its parameters, e.g. "Shapeshift ⚪→🟦" or "Numbershift 3×⭐"."""
    power = POWERS[card.power]
    name = _(power.name)
    if power.params == "AB":
        return f"{name} {EMOJI[card.a]}→{EMOJI[card.b]}"
    if power.params == "An":
        return f"{name} {card.b}×{EMOJI[card.a]}"
    if power.params == "A":
        return f"{name} {EMOJI[card.a]}"
    return name


def life_text(card: LifeCard) -> str:
    """What the card does, with its cats filled in."""
    power = POWERS[card.power]
    a = EMOJI[card.a] if card.a >= 0 else ""
    b = (EMOJI[card.b] if power.params == "AB" else str(card.b)) if card.b >= 0 else ""
    return _(power.text, a=a, b=b)


def _card_types(power: Power) -> list[LifeCard]:
    if power.params == "AB":
        return [LifeCard(power=power.key, a=a, b=b) for a in range(4) for b in range(4) if a != b]
    if power.params == "An":
        return [LifeCard(power=power.key, a=a, b=n) for a in range(4) for n in range(1, 6)]
    if power.params == "A":
        return [LifeCard(power=power.key, a=a) for a in range(4)]
    return [LifeCard(power=power.key)]


def powers_in_play(limited: bool) -> list[Power]:
    """The powers of the limited (core) set or of the full set (NL-11)."""
    return [p for p in POWERS.values() if p.core or not limited]


def card_types(limited: bool) -> list[LifeCard]:
    """Every life card type once: 25 in the limited set, 60 in the full set."""
    return [card for power in powers_in_play(limited) for card in _card_types(power)]


def build_life_pool(players: int, limited: bool, rng: Rng) -> tuple[tuple[LifeCard, ...], Rng]:
    """The life cards dealt in one game, 9 per seat in seat order (seat s holds 9s..9s+8).

    Every card type once, then extra cards until there are 9 per player: a power
    drawn by its weight, then its parameters uniformly (NL-X1); shuffled and dealt.
    """
    pool = card_types(limited)
    powers = powers_in_play(limited)
    while len(pool) < LIVES * players:
        index, rng = rng.weighted([p.weight for p in powers])
        card, rng = rng.choice(_card_types(powers[index]))
        pool.append(card)
    shuffled, rng = rng.shuffled(pool)
    return shuffled[: LIVES * players], rng
