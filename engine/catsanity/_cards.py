"""The 48 CatSanity cards: every card has a unique id, a kind and a readable name.

Ids look like ``house1``, ``twinA2``, ``ninja3`` or ``moonking``; a kind groups
cards that play and score alike (``house``, ``twinA`` … ``twinH``, ``chorus``,
``fib``, and one kind per Moon Cat).
"""

from __future__ import annotations

TWIN_LETTERS = "ABCDEFGH"

HOUSE = tuple(f"house{n}" for n in range(1, 9))
TWINS = tuple(f"twin{letter}{n}" for letter in TWIN_LETTERS for n in (1, 2))
CHORUS = tuple(f"chorus{n}" for n in range(1, 10))
FIB = tuple(f"fib{n}" for n in range(1, 6))
NINJAS = ("ninja1", "ninja2", "ninja3")
RECALLS = ("recall1", "recall2")
COPY = "copycat"
CTHULHU = "cthulhu"
PRECIOUS = "precious"
KING = "moonking"
QUEEN = "moonqueen"

SUN_CARDS = HOUSE + TWINS + CHORUS + FIB
MOON_CARDS = (COPY, *NINJAS, *RECALLS, CTHULHU, PRECIOUS, KING, QUEEN)
ALL_CARDS = SUN_CARDS + MOON_CARDS
SUN = frozenset(SUN_CARDS)
MOON = frozenset(MOON_CARDS)

SUN_KINDS = ("house", *(f"twin{letter}" for letter in TWIN_LETTERS), "chorus", "fib")
"""What a Copy Cat may be declared as (CS-6)."""


def _kind(card: str) -> str:
    if card.startswith("twin"):
        return card[:5]
    return card.rstrip("0123456789")


KIND: dict[str, str] = {card: _kind(card) for card in ALL_CARDS}

KIND_NAMES: dict[str, str] = {
    "house": "House Cat",
    **{f"twin{letter}": f"Twin {letter} Cat" for letter in TWIN_LETTERS},
    "chorus": "Chorus Cat",
    "fib": "Fibonacci Cat",
    COPY: "Copy Cat",
    "ninja": "Ninja Cat",
    "recall": "Recall Cat",
    CTHULHU: "Cat of Cthulhu",
    PRECIOUS: "Precious Cat",
    KING: "Moon King",
    QUEEN: "Moon Queen",
}

KIND_EMOJI: dict[str, str] = {
    "house": "🏠",
    **{f"twin{letter}": "👯" for letter in TWIN_LETTERS},
    "chorus": "🎶",
    "fib": "🌀",
    COPY: "🪞",
    "ninja": "🥷",
    "recall": "🕊️",
    CTHULHU: "🐙",
    PRECIOUS: "💍",
    KING: "👑",
    QUEEN: "👸",
}

TOKENS_BY_PLAYERS = {2: 5, 3: 7, 4: 7, 5: 6}
ALLEY_SIZE = 3


def name(card: str) -> str:
    """The readable name of a card, e.g. "Twin D Cat"."""
    return KIND_NAMES[KIND[card]]


def is_moon(card: str) -> bool:
    """Whether a card is a Moon Cat (adopting it costs a sanity token)."""
    return card in MOON
