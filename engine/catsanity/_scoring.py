"""Scoring a home exactly as CS-11, with a line per scoring group so players can see why."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from engine.catsanity._cards import COPY, KIND, KING, MOON, PRECIOUS, QUEEN, TWIN_LETTERS, kind_name
from engine.core import ScoreLine
from lang import _, n_

FIBONACCI = (0, 1, 4, 9, 20, 40, 48)
TWIN_SET = (0, 2, 8, 12)
CHORUS_MIN = 5
CHORUS_POINTS = 25
HOUSE_POINTS = 3
PRECIOUS_POINTS = 9


def _copy_note(with_copy: bool) -> str:
    return _(" (with the Copy Cat)") if with_copy else ""


def _twin_set(letter: str, count: int) -> str:
    if count == 1:
        return _("Twin {letter} single", letter=letter)
    if count == 2:
        return _("Twin {letter} pair", letter=letter)
    return _("Twin {letter} trio", letter=letter)


def _zero_moons(kind: str, count: int) -> str:
    """The Moon Cats that score nothing, counted: "2 Ninja Cats"."""
    if kind == "ninja":
        return n_("{count} Ninja Cat", "{count} Ninja Cats", count)
    if kind == "recall":
        return n_("{count} Recall Cat", "{count} Recall Cats", count)
    return n_("{count} Cat of Cthulhu", "{count} Cat of Cthulhus", count)


def score_lines(home: Iterable[str], copy_as: str | None) -> tuple[ScoreLine, ...]:
    """The score breakdown of a home; the Copy Cat counts as `copy_as` (CS-6)."""
    kinds = Counter(KIND[card] for card in home)
    copied = copy_as if kinds[COPY] and copy_as else None
    counts = kinds.copy()
    if copied:
        counts[copied] += 1
    lines: list[ScoreLine] = []
    if counts["house"]:
        n = counts["house"]
        lines.append(
            ScoreLine(
                label=n_("{count} House Cat", "{count} House Cats", n) + _copy_note(copied == "house"),
                points=HOUSE_POINTS * n,
            )
        )
    for letter in TWIN_LETTERS:
        kind = f"twin{letter}"
        n = counts[kind]
        if n:
            lines.append(
                ScoreLine(label=_twin_set(letter, n) + _copy_note(copied == kind), points=TWIN_SET[n])
            )
    if counts["chorus"]:
        n = counts["chorus"]
        points = CHORUS_POINTS if n >= CHORUS_MIN else 0
        hint = "" if points else _(", need {count}", count=CHORUS_MIN)
        label = n_("{count} Chorus Cat", "{count} Chorus Cats", n) + _copy_note(copied == "chorus") + hint
        lines.append(ScoreLine(label=label, points=points))
    if counts["fib"]:
        n = counts["fib"]
        label = n_("{count} Fibonacci Cat", "{count} Fibonacci Cats", n) + _copy_note(copied == "fib")
        lines.append(ScoreLine(label=label, points=FIBONACCI[n]))
    if kinds[COPY] and not copied:
        lines.append(ScoreLine(label=_("Copy Cat (not declared)"), points=0))
    if kinds[PRECIOUS]:
        lines.append(ScoreLine(label=kind_name(PRECIOUS), points=PRECIOUS_POINTS))
    moons = sum(n for kind, n in kinds.items() if kind in _MOON_KINDS)
    for royal in (KING, QUEEN):
        if kinds[royal]:
            others = moons - 1
            label = n_(
                "{name} (+{count} other Moon Cat)",
                "{name} (+{count} other Moon Cats)",
                others,
                name=kind_name(royal),
            )
            lines.append(ScoreLine(label=label, points=2 + 2 * others))
    for kind in ("ninja", "recall", "cthulhu"):
        if kinds[kind]:
            lines.append(ScoreLine(label=_zero_moons(kind, kinds[kind]), points=0))
    return tuple(lines)


_MOON_KINDS = frozenset(KIND[card] for card in MOON)


def score(home: Iterable[str], copy_as: str | None) -> int:
    """A home's total score (CS-11)."""
    return sum(line.points for line in score_lines(home, copy_as))


@lru_cache(maxsize=8192)
def quick_score(home: tuple[str, ...], copy_as: str | None) -> int:
    """The same total as `score`, without building the breakdown (for search and views)."""
    house = chorus = fib = moons = 0
    twins: dict[str, int] = {}
    royals = precious = 0
    for card in home:
        kind = KIND[card]
        if kind == "house":
            house += 1
        elif kind == "chorus":
            chorus += 1
        elif kind == "fib":
            fib += 1
        elif kind[:4] == "twin":
            twins[kind] = twins.get(kind, 0) + 1
        else:
            moons += 1
            if kind == COPY and copy_as:
                if copy_as == "house":
                    house += 1
                elif copy_as == "chorus":
                    chorus += 1
                elif copy_as == "fib":
                    fib += 1
                else:
                    twins[copy_as] = twins.get(copy_as, 0) + 1
            elif kind == PRECIOUS:
                precious = 1
            elif kind in (KING, QUEEN):
                royals += 1
    total = HOUSE_POINTS * house + FIBONACCI[fib] + (CHORUS_POINTS if chorus >= CHORUS_MIN else 0)
    total += sum(TWIN_SET[n] for n in twins.values()) + PRECIOUS_POINTS * precious
    return total + royals * (2 + 2 * (moons - 1))
