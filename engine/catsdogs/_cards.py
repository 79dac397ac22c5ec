"""The 18 cards of Cats & Dogs and how a trick is resolved (ruling CD-2).

A card is its id: "C1" … "C9" for cats, "D1" … "D9" for dogs. Plays are
`(seat, card)` pairs in playing order; the seat `TABLE` (-1) is the table's
card in the two-player and solo games (CD-6, CD-7).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from lang import _

CATS = "C"
DOGS = "D"
TABLE = -1
TARGET = 21

CARDS: tuple[str, ...] = tuple(f"{faction}{n}" for faction in (CATS, DOGS) for n in range(1, 10))
ORDER: dict[str, int] = {card: index for index, card in enumerate(CARDS)}
STRENGTH: dict[str, int] = {card: int(card[1]) for card in CARDS}
FACTION: dict[str, str] = {card: card[0] for card in CARDS}


def _ribbons(strength: int) -> int:
    if strength == 1:
        return 3
    if strength <= 3:
        return 2
    if strength <= 6:
        return 1
    return 0


RIBBONS: dict[str, int] = {card: _ribbons(STRENGTH[card]) for card in CARDS}
_EMOJI = {CATS: "🐱", DOGS: "🐶"}


def card_emoji(card: str) -> str:
    """The card's faction as an emoji: 🐱 or 🐶."""
    return _EMOJI[card[0]]


def card_name(card: str) -> str:
    """The card as players read it, e.g. "🐱 Cat 7"."""
    word = _("Cat") if card[0] == CATS else _("Dog")
    return f"{_EMOJI[card[0]]} {word} {card[1]}"


def names(cards: Iterable[str]) -> str:
    """Cards joined for a sentence: "🐱 Cat 2, 🐶 Dog 5" (or "nothing")."""
    text = ", ".join(card_name(card) for card in cards)
    return text or _("nothing")


def joined(parts: Iterable[str]) -> str:
    """Names joined for a sentence: "{p0} and {p1} and {p2}"."""
    text = ""
    for part in parts:
        text = _("{first} and {second}", first=text, second=part) if text else part
    return text


def ribbons(cards: Iterable[str]) -> int:
    """The ribbons on these cards."""
    return sum(RIBBONS[card] for card in cards)


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """Cards in the canonical order: cats 1–9, then dogs 1–9."""
    return tuple(sorted(cards, key=ORDER.__getitem__))


class TrickResult(NamedTuple):
    """A resolved trick: faction sums, the winner (None on a tie), the index of the winning play
    (None on a tie) and who collects each play."""

    cats: int
    dogs: int
    winner: int | None
    best: int | None
    collectors: tuple[int, ...]


def resolve_trick(plays: Sequence[tuple[int, str]]) -> TrickResult:
    """Resolve a trick as CD-2: `collectors[i]` is the seat that collects `plays[i]`'s card."""
    cats = dogs = 0
    for _seat, card in plays:
        if card[0] == CATS:
            cats += STRENGTH[card]
        else:
            dogs += STRENGTH[card]
    own = tuple(seat for seat, _card in plays)
    if cats == dogs:
        return TrickResult(cats, dogs, None, None, own)
    winning = CATS if cats > dogs else DOGS
    best = max(
        (index for index, (_, card) in enumerate(plays) if card[0] == winning),
        key=lambda index: STRENGTH[plays[index][1]],
    )
    winner = plays[best][0]
    if not cats or not dogs:
        weakest = min(plays, key=lambda play: STRENGTH[play[1]])[1]
        collectors = tuple(winner if card == weakest else seat for seat, card in plays)
    else:
        collectors = tuple(seat if card[0] == winning else winner for seat, card in plays)
    return TrickResult(cats, dogs, winner, best, collectors)
