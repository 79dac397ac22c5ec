"""Counting cats on the table and deciding where a card may go (NL-2, NL-3, NL-4, NL-9)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engine.ninelives._cards import EMOJI, LIMIT, NO_COUNTS, Counts, LifeCard, PowerKey
from engine.ninelives.model import Placed, State
from lang import _

WILD = frozenset({PowerKey.WILDCARD, PowerKey.WILDCARD_PAID})


def raw_counts(table: tuple[tuple[Placed, ...], ...]) -> Counts:
    """Icons per cat on the uncovered table cards, overrides applied, nothing ignored."""
    c0 = c1 = c2 = c3 = 0
    for pile in table:
        counts = pile[-1].counts
        c0 += counts[0]
        c1 += counts[1]
        c2 += counts[2]
        c3 += counts[3]
    return (c0, c1, c2, c3)


def cat_counts(table: tuple[tuple[Placed, ...], ...], ignored: tuple[int, ...] = ()) -> Counts:
    """Each cat's count (NL-2): uncovered cards only, overrides first, then ignored cats left out (0)."""
    counts = raw_counts(table)
    if not ignored:
        return counts
    return tuple(0 if cat in ignored else n for cat, n in enumerate(counts))  # type: ignore[return-value]


def effective(printed: Counts, power: LifeCard | None, icon: int = -1) -> tuple[Counts, str]:
    """How a card played under `power` counts, and a note saying why if it differs (NL-9)."""
    if power is None:
        return printed, ""
    key = power.power
    if key == PowerKey.SHAPESHIFT:
        a, b = power.a, power.b
        if not printed[a]:
            return printed, ""
        counts = list(printed)
        counts[b] += counts[a]
        counts[a] = 0
        return tuple(counts), f"{EMOJI[a]} count as {EMOJI[b]}"  # type: ignore[return-value]
    if key == PowerKey.NUMBERSHIFT:
        counts = [0, 0, 0, 0]
        counts[power.a] = power.b
        return tuple(counts), f"counts as {power.b}×{EMOJI[power.a]}"  # type: ignore[return-value]
    if key == PowerKey.SINGLE_CAT and icon >= 0:
        counts = [0, 0, 0, 0]
        counts[icon] = 1
        return tuple(counts), f"counts as one {EMOJI[icon]}"  # type: ignore[return-value]
    return printed, ""


def too_many(current: Counts, adds: Counts, ignored: tuple[int, ...], allowed: int = -1) -> list[int]:
    """The cats the card adds to that would end above 9 (NL-2: ignored cats and More Allowed exempt)."""
    return [
        cat
        for cat in range(4)
        if adds[cat] and current[cat] + adds[cat] > LIMIT and cat not in ignored and cat != allowed
    ]


def fits(current: Counts, adds: Counts, ignored: tuple[int, ...], allowed: int = -1) -> bool:
    """Whether no cat the card adds to ends above 9 (the fast form of `too_many`)."""
    for cat in range(4):
        if adds[cat] and current[cat] + adds[cat] > LIMIT and cat not in ignored and cat != allowed:
            return False
    return True


def perfect(after: Counts, adds: Counts, ignored: tuple[int, ...]) -> list[int]:
    """The cats on the played card that now stand at exactly 9 (NL-4; never an ignored cat)."""
    return [cat for cat in range(4) if adds[cat] and after[cat] == LIMIT and cat not in ignored]


def minus(a: Counts, b: Counts) -> Counts:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3])


def plus(a: Counts, b: Counts) -> Counts:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


class Option(NamedTuple):
    """One legal way to play a card: as a new table card ("t"), covering ("cover") or swapping
    ("swap") pile `pile`'s top card, counted as one `icon` under Single Cat (-1 otherwise)."""

    mode: str
    pile: int = -1
    icon: int = -1


def forbidden_by_power(state: State, card: int) -> bool:
    """Forbid(A): this turn the player may not play a card showing A (NL-10)."""
    power = state.power
    return power is not None and power.power == PowerKey.FORBID and state.cats[card][power.a] > 0


class Placement(NamedTuple):
    """A legal way to play a card, as `Option` says, with the counts it meets (`before`) and what
    it counts as (`adds`)."""

    mode: str
    pile: int
    icon: int
    before: Counts
    adds: Counts


def placements(
    printed: Counts, power: LifeCard | None, base: Counts, table: Sequence[Sequence[Placed]], ignored
) -> list[Placement]:
    """Every legal way to play a card printed `printed` under `power`, onto a table counting `base`.

    The one enumeration of the rules on where a card may go: the engine's legal moves and the
    hand panel's explanations both come from it.
    """
    key = power.power if power is not None else None
    if key == PowerKey.FORBID and printed[power.a] > 0:  # type: ignore[union-attr]
        return []
    wild = key in WILD
    allowed = power.a if key == PowerKey.PLUS else -1  # type: ignore[union-attr]
    icons = [cat for cat in range(4) if printed[cat]] if key == PowerKey.SINGLE_CAT else [-1]
    modes = [("t", -1, base)]
    if key in (PowerKey.REPLACE, PowerKey.SWAP):
        mode = "cover" if key == PowerKey.REPLACE else "swap"
        modes += [(mode, i, minus(base, pile[-1].counts)) for i, pile in enumerate(table)]
    result = []
    for mode, pile, current in modes:
        for icon in icons:
            adds, _note = effective(printed, power, icon)
            if wild or fits(current, adds, ignored, allowed):
                result.append(Placement(mode, pile, icon, current, adds))
    return result


def options(state: State, card: int, base: Counts | None = None) -> list[Option]:
    """Every legal way to play `card` from hand this turn, given the power in force.

    `base` may pass the table's `raw_counts` when the caller has them already.
    """
    if base is None:
        base = raw_counts(state.table)
    found = placements(state.cats[card], state.power, base, state.table, state.ignored)
    return [Option(way.mode, way.pile, way.icon) for way in found]


def blocking(state: State, card: int, option: Option) -> list[int]:
    """The cats that stop `card` from being played this way (for error messages)."""
    power = state.power
    allowed = power.a if power is not None and power.power == PowerKey.PLUS else -1
    current = raw_counts(state.table)
    if option.pile >= 0:
        current = minus(current, state.table[option.pile][-1].counts)
    adds, _note = effective(state.cats[card], power, option.icon)
    return too_many(current, adds, state.ignored, allowed)


def all_full(state: State) -> bool:
    """NL-5 (c): every cat not ignored stands at 9 or more."""
    counts = raw_counts(state.table)
    return all(counts[cat] >= LIMIT for cat in range(4) if cat not in state.ignored)


def note_text(note: str) -> str:
    """A table card's note as the state keeps it (in English: "⚪ count as 🟦", "counts as 3×⭐",
    "counts as one 🟦"), in the language speaking."""
    if note.startswith("counts as one "):
        return _("counts as one {cat}", cat=note.removeprefix("counts as one "))
    if note.startswith("counts as "):
        times, _sign, cat = note.removeprefix("counts as ").partition("×")
        return _("counts as {count}×{cat}", count=times, cat=cat)
    shown, found, counted = note.partition(" count as ")
    return _("{cat} count as {other}", cat=shown, other=counted) if found else note


__all__ = [
    "NO_COUNTS",
    "Option",
    "all_full",
    "cat_counts",
    "effective",
    "note_text",
    "options",
    "perfect",
    "too_many",
]
