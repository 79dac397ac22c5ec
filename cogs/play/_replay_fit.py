"""A replay step's table text, shown less, degree by degree, until the step's controls are on a phone's
first screen (`cogs.play._replay`). Without a picture the table is its text, one line per player, and
at the most players some games' tables alone are taller than the first screen.

The degrees, each keeping what the one before kept less: 1, every line on one phone line (a longer
one cut after a whole part, " · ", or else a word, and ended by "…"); 2, also without its charts (a
fenced block is a reference chart, Mad Cat Sad Cat's VP grid); from 3, also each field's value to at
most `LINES_FROM - degree` lines (each field keeps its first, the longest lose theirs first).
"""

from __future__ import annotations

from collections.abc import Sequence

from cogs.phone import PHONE_COLUMNS, columns, shown, wrapped_lines

CUT = " …"
"""What ends a line cut short, and a field whose last lines are left out."""
SEPARATOR = " · "
"""What parts a line of the table (a player's, a field's name) are separated by."""
FENCE = "```"
LINES_FROM = 10
"""The degree past which no field keeps more than one line: degree `LINES_FROM - 1`."""
DEGREES = LINES_FROM - 1
"""The most the table is cut: every field its first line only."""
CUT_COLUMNS = PHONE_COLUMNS - 4
"""Columns a cut line fills at most, "…" included: full by design, it would be the first a browser
wraps (`python -m bench.phone_view --view replay --no-picture --measure` draws some lines of 40 columns
on two, bold ones most)."""
BOLD = 1.25
"""How much wider a bold character is than a plain one, near enough."""
_PAIRED_MARKS = ("**", "__", "~~", "||")


def one_line(line: str, bold: bool = False) -> str:
    """`line` as much of it as fills one phone line: cut after its last whole part (" · ") or else word
    that fits, "…" after it, and any markdown mark it leaves open closed. With `bold`, all of it is
    bold (a field's name)."""
    if wrapped_lines(line) == 1:
        return line
    room = CUT_COLUMNS - columns(CUT)
    words = line.split(" ")
    kept: list[str] = []
    used = 0.0
    for word in words:
        wide = bold or "**" in word or (" ".join(kept).count("**") % 2 == 1)
        size = columns(shown(word)) * (BOLD if wide else 1)
        if used + (1 if kept else 0) + size > room:
            break
        used += (1 if kept else 0) + size
        kept.append(word)
    text = " ".join(kept) if kept else _first_columns(shown(line), int(room / (BOLD if bold else 1)))
    dot = SEPARATOR.strip()  # a line of parts ("**Bo** · 7 VPs · rolling") loses whole parts
    if text.endswith(f" {dot}"):
        text = text[: -len(dot) - 1]
    elif SEPARATOR in text and words[len(kept)] != dot:
        text = text.rsplit(SEPARATOR, 1)[0]
    for mark in _PAIRED_MARKS:
        if text.count(mark) % 2:
            text += mark
    if text.replace("``", "").count("`") % 2:
        text += "`"
    return text + CUT


def _first_columns(text: str, room: int) -> str:
    """The start of one word wider than a line, `room` columns of it."""
    kept = ""
    for char in text:
        if columns(kept + char) > room:
            break
        kept += char
    return kept


def cut_table(fields: Sequence[tuple[str, str]], degree: int) -> list[tuple[str, str]]:
    """The table's `fields` shown less by `degree` (0: as they are; see the module's docstring)."""
    if degree <= 0:
        return list(fields)
    most = LINES_FROM - degree if degree >= 3 else None
    return [(one_line(name, bold=True), "\n".join(_lines(value, degree < 2, most))) for name, value in fields]


def _lines(value: str, charts: bool, most: int | None) -> list[str]:
    """A field's value as lines of one phone line each, its charts (fenced blocks) kept whole or, without
    `charts`, left out; with `most`, its first `most` lines, the last ended by "…" if any are left out."""
    lines: list[str] = []
    in_chart = False
    for line in value.split("\n"):
        fence = line.lstrip().startswith(FENCE)
        in_chart ^= fence
        if fence or in_chart:
            if charts:
                lines.append(line)
        else:
            lines.append(one_line(line))
    if most is not None and len(lines) > most:
        lines = [*lines[: most - 1], _ended(lines[most - 1])]
    return lines or ["—"]


def _ended(line: str) -> str:
    """A field's last line shown, "…" saying more lines follow."""
    return line if line.endswith(CUT) else one_line(line + CUT)
