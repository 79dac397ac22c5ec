"""The 48 CatSanity cards: every card has a unique id, a kind and a readable name.

Ids look like ``house1``, ``twinA2``, ``ninja3`` or ``moonking``; a kind groups
cards that play and score alike (``house``, ``twinA`` … ``twinH``, ``chorus``,
``fib``, and one kind per Moon Cat).
"""

from __future__ import annotations

from lang import N_, _

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
    "house": N_("House Cat"),
    **{f"twin{letter}": f"Twin {letter} Cat" for letter in TWIN_LETTERS},
    "chorus": N_("Chorus Cat"),
    "fib": N_("Fibonacci Cat"),
    COPY: N_("Copy Cat"),
    "ninja": N_("Ninja Cat"),
    "recall": N_("Recall Cat"),
    CTHULHU: N_("Cat of Cthulhu"),
    PRECIOUS: N_("Precious Cat"),
    KING: N_("Moon King"),
    QUEEN: N_("Moon Queen"),
}
"""Each kind's name in English: `kind_name` says it in the language speaking."""

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


def kind_name(kind: str) -> str:
    """A kind's name in the language speaking, e.g. "Twin D Cat"."""
    if kind.startswith("twin"):
        return _("Twin {letter} Cat", letter=kind[4:])
    return _(KIND_NAMES[kind])


def name(card: str) -> str:
    """The readable name of a card, e.g. "Twin D Cat"."""
    return kind_name(KIND[card])


def is_moon(card: str) -> bool:
    """Whether a card is a Moon Cat (adopting it costs a sanity token)."""
    return card in MOON
