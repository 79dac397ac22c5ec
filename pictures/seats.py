"""The players' seats along a picture's foot, and the stage above them that each game draws on."""

from __future__ import annotations

import math
from collections.abc import Sequence

from pictures.kit import (
    HEIGHT,
    HIGHLIGHT,
    INK,
    PANEL,
    PANEL_LIGHT,
    SMALL,
    WIDTH,
    Canvas,
    drawable,
    length,
    names_shown,
)
from pictures.shapes import crown

SEAT_ROW = 40
"""The height of a row of seats: two seats a row, side by side."""
HEADLINE = 44
"""The height of the headline's band at the top."""


def seats_top(count: int) -> float:
    """Where the seats of `count` players begin: the rows of two seats along the picture's foot."""
    return HEIGHT - 6 - math.ceil(max(1, count) / 2) * SEAT_ROW


def stage(count: int) -> tuple[float, float, float, float]:
    """The room between the headline and the seats of `count` players: each game's own scene."""
    return (12, HEADLINE, WIDTH - 12, seats_top(count) - 6)


def seat_rows(
    canvas: Canvas,
    names: Sequence[str],
    values: Sequence[str],
    marked: Sequence[int] = (),
    crowned: Sequence[int] = (),
    icon=None,
) -> None:
    """The seats along the picture's foot, two a row in the text's seat order: a name and its value
    each, the value never cut for the name; `marked` seats are framed (whoever must act), `crowned`
    ones wear a crown (winners); `icon(canvas, x, y)` draws a small mark before each value (Nine
    Lives' heart). Names are shortened alike (`names_shown`), so no two players look the same."""
    top = seats_top(len(names))
    width = (WIDTH - 24 - 6) / 2
    values = [drawable(value) for value in values]
    value_room = max((length(value, SMALL, True) for value in values), default=0) + (26 if icon else 0)
    crown_room = 26 if crowned else 0
    shown_names = names_shown(names, SMALL, width - 20 - value_room - crown_room - 10)
    value_left = math.floor(width - 10 - value_room)
    shown = []
    for seat, (name, value) in enumerate(zip(shown_names, values, strict=True)):
        x = round(12 + (seat % 2) * (width + 6))
        y = round(top + (seat // 2) * SEAT_ROW)
        mark, crowned_here = seat in marked, seat in crowned
        canvas.panel(
            (x, y, x + width, y + SEAT_ROW - 4),
            fill=PANEL_LIGHT if mark else PANEL,
            outline=HIGHLIGHT if mark else None,
            width=3,
            radius=8,
        )
        middle = y + (SEAT_ROW - 4) / 2

        def draw_name(name=name, middle=middle, x=x, crowned_here=crowned_here) -> str:
            left = x + 10
            if crowned_here:
                crown(canvas, left + 10, middle, 10)
                left += crown_room
            return canvas.text((left, middle), name, SMALL, INK, anchor="lm")

        def draw_value(value=value, middle=middle, right=x + width - 10) -> str:
            shown_value = canvas.text((right, middle), value, SMALL, INK, anchor="rm", bold=True)
            if icon is not None:
                icon(canvas, right - length(value, SMALL, True) - 14, middle)
            return shown_value

        inside = (y + 4, y + SEAT_ROW - 7)  # within the frame, which a marked seat has
        name_box = (x + 4, inside[0], x + value_left - 2, inside[1])
        value_box = (x + value_left, inside[0], math.floor(x + width - 4), inside[1])
        name_shown = canvas.kept(("seat name", name, crowned_here, crown_room), name_box, draw_name)
        value_shown = canvas.kept(("seat value", value, icon), value_box, draw_value)
        shown.append((name_shown, value_shown, mark))
    canvas.record("seats", tuple(shown))
