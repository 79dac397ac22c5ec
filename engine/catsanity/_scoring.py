"""Scoring a home exactly as CS-11, with a line per scoring group so players can see why."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from engine.catsanity._cards import COPY, KIND, KIND_NAMES, KING, MOON, PRECIOUS, QUEEN, TWIN_LETTERS
from engine.core import ScoreLine

FIBONACCI = (0, 1, 4, 9, 20, 40, 48)
TWIN_SET = (0, 2, 8, 12)
CHORUS_MIN = 5
CHORUS_POINTS = 25
HOUSE_POINTS = 3
PRECIOUS_POINTS = 9


def _plural(count: int, singular: str) -> str:
    return f"{count} {singular}" if count == 1 else f"{count} {singular}s"


def _copy_note(with_copy: bool) -> str:
    return " (with the Copy Cat)" if with_copy else ""


def score_lines(home: Iterable[str], copy_as: str | None) -> tuple[ScoreLine, ...]:
    """The score breakdown of a home; the Copy Cat counts as `copy_as` (CS-6)."""
    kinds = Counter(KIND[card] for card in home)
    copied = copy_as if kinds[COPY] and copy_as else None
    counts = kinds.copy()
    if copied:
        counts[copied] += 1
    lines: list[ScoreLine] = []
    if counts["house"]:
        lines.append(
            ScoreLine(
                label=_plural(counts["house"], "House Cat") + _copy_note(copied == "house"),
                points=HOUSE_POINTS * counts["house"],
            )
        )
    for letter in TWIN_LETTERS:
        kind = f"twin{letter}"
        n = counts[kind]
        if n:
            shape = ("single", "pair", "trio")[n - 1]
            lines.append(
                ScoreLine(label=f"Twin {letter} {shape}{_copy_note(copied == kind)}", points=TWIN_SET[n])
            )
    if counts["chorus"]:
        n = counts["chorus"]
        points = CHORUS_POINTS if n >= CHORUS_MIN else 0
        hint = "" if points else f", need {CHORUS_MIN}"
        lines.append(
            ScoreLine(label=_plural(n, "Chorus Cat") + _copy_note(copied == "chorus") + hint, points=points)
        )
    if counts["fib"]:
        n = counts["fib"]
        lines.append(
            ScoreLine(label=_plural(n, "Fibonacci Cat") + _copy_note(copied == "fib"), points=FIBONACCI[n])
        )
    if kinds[COPY] and not copied:
        lines.append(ScoreLine(label="Copy Cat (not declared)", points=0))
    if kinds[PRECIOUS]:
        lines.append(ScoreLine(label="Precious Cat", points=PRECIOUS_POINTS))
    moons = sum(n for kind, n in kinds.items() if kind in _MOON_KINDS)
    for royal in (KING, QUEEN):
        if kinds[royal]:
            others = moons - 1
            lines.append(
                ScoreLine(
                    label=f"{KIND_NAMES[royal]} (+{_plural(others, 'other Moon Cat')})", points=2 + 2 * others
                )
            )
    for kind in ("ninja", "recall", "cthulhu"):
        if kinds[kind]:
            lines.append(ScoreLine(label=_plural(kinds[kind], KIND_NAMES[kind]), points=0))
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
