"""The 17 cat cards and the VPs on them (MC-1, MC-3).

Card VPs live in one tuple of 17 piles: for each kind (mad, then sad) and each
combination (two pairs, full house, four of a kind, five of a kind) its outer
card (moochers split it) then its inner card (the roller takes it); the catpot
is last.
"""

from __future__ import annotations

from engine.madcat._dice import COMBOS, KINDS, combo_name, kind_word
from lang import _

TOTAL_VPS = 160
CATPOT = 16
CARD_COUNT = 17
LOCK_IN_VPS = 2

_SETUP_OUTER = {"2p": 1, "fh": 1, "4k": 2, "5k": 2}
_SETUP_INNER = {"2p": 2, "fh": 2, "4k": 3, "5k": 3}


def card(kind: str, combo: str, inner: bool) -> int:
    """The index of a kind's combination card in the piles tuple."""
    return KINDS.index(kind) * 8 + COMBOS.index(combo) * 2 + (1 if inner else 0)


def card_name(index: int, side: bool = True) -> str:
    """A card's name for narration, e.g. "mad Full house (inner)" or "catpot"; without its `side`,
    "mad Full house"."""
    if index == CATPOT:
        return _("catpot")
    kind = kind_word(KINDS[index // 8])
    combo = combo_name(COMBOS[(index % 8) // 2])
    if not side:
        # Translators: a card's name, its kind ("mad") and combination ("Full house").
        return _("{kind} {combo}", kind=kind, combo=combo)
    if index % 2:
        return _("{kind} {combo} (inner)", kind=kind, combo=combo)
    return _("{kind} {combo} (outer)", kind=kind, combo=combo)


def setup_cards() -> tuple[int, ...]:
    """The VPs on each card at the start of the game (MC-1); the catpot starts empty."""
    piles = []
    for _kind in KINDS:
        for combo in COMBOS:
            piles += [_SETUP_OUTER[combo], _SETUP_INNER[combo]]
    return (*piles, 0)


def lock_in_order(kind: str) -> tuple[int, ...]:
    """Which cards get VPs when a roller locks in on `kind` (MC-3): catpot, then the other kind's cards."""
    other = KINDS[1 - KINDS.index(kind)]
    return (CATPOT, *(card(other, combo, inner) for combo in COMBOS for inner in (False, True)))


LOCK_IN_ORDER: dict[str, tuple[int, ...]] = {kind: lock_in_order(kind) for kind in KINDS}


def add_lock_in_vps(cards: tuple[int, ...], supply: int, kind: str) -> tuple[tuple[int, ...], int, int]:
    """Cards and supply after a lock-in on `kind`, and how many VPs moved (MC-3, MC-X3)."""
    piles = list(cards)
    moved = 0
    for index in LOCK_IN_ORDER[kind]:
        amount = min(LOCK_IN_VPS, supply - moved)
        piles[index] += amount
        moved += amount
    return tuple(piles), supply - moved, moved
