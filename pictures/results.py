"""The results picture every game shares: the players ranked by score with bars, winners crowned,
and beside them the winner's own collection (each game draws its own, or the score breakdown)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image

from engine.core import Outcome
from lang import _, n_
from pictures import kit, seats, shapes

Box = tuple[float, float, float, float]
Collection = Callable[[kit.Canvas, Box], None]


def results_scene(names: Sequence[str], outcome: Outcome) -> tuple:
    """The results picture's scene when it shows the winner's score breakdown beside the ranking."""
    breakdown = tuple(tuple((line.label, line.points) for line in lines) for lines in outcome.breakdown)
    return ("results", tuple(names), outcome.scores, outcome.winners, breakdown)


RANKING_RIGHT = 282
"""Where the ranking ends and the winner's panel begins."""


def paint_results(
    title: str,
    names: Sequence[str],
    scores: Sequence[int],
    winners: Sequence[int],
    breakdown: Sequence[Sequence[tuple[str, int]]],
    collection: Collection | None = None,
    unit: str = "",
) -> Image.Image:
    """The players ranked, winners crowned, each with a score bar; beside them the winner's
    `collection` (drawn in the box it is given) or how the winner scored."""
    canvas = kit.Canvas(_("{game}: final scores", game=title))
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    top, bottom = seats.HEADLINE, kit.HEIGHT - 6
    height = min(56, (bottom - top) / max(1, len(order)))
    best = max(max(scores, default=0), 1)
    values = [f"{score}{unit}" for score in scores]
    value_room = max(kit.length(value, kit.TEXT, True) for value in values)
    shown = kit.names_shown(names, kit.SMALL, RANKING_RIGHT - 12 - 44 - value_room - 20)
    for rank, seat in enumerate(order):
        y = top + rank * height
        won = seat in winners
        canvas.panel(
            (12, y, RANKING_RIGHT, y + height - 4),
            fill=kit.PANEL_LIGHT if won else kit.PANEL,
            outline=kit.HIGHLIGHT if won else None,
            radius=8,
        )
        middle = y + (height - 4) / 2 - (3 if height >= 48 else 0)
        if won:
            shapes.crown(canvas, 30, middle, 10)
        canvas.text((48, middle), shown[seat], kit.SMALL, kit.INK, anchor="lm")
        canvas.text((RANKING_RIGHT - 12, middle), values[seat], kit.TEXT, kit.INK, anchor="rm", bold=True)
        if height >= 48:
            bar = max(0, scores[seat]) / best * (RANKING_RIGHT - 24 - 48)
            canvas.draw.rectangle(
                (48, y + height - 14, 48 + max(bar, 4), y + height - 10), fill=kit.YELLOW if won else kit.SKY
            )
    box = (RANKING_RIGHT + 8, top, kit.WIDTH - 12, bottom)
    canvas.panel(box, fill=kit.PANEL)
    if collection is not None:
        collection(canvas, box)
    elif winners and breakdown and breakdown[winners[0]]:
        _breakdown(canvas, box, names[winners[0]], breakdown[winners[0]])
    else:
        middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        canvas.text(middle, _("Nobody wins"), kit.LARGE, kit.MUTED, anchor="mm")
    return canvas.image


def _breakdown(canvas: kit.Canvas, box: Box, name: str, lines: Sequence[tuple[str, int]]) -> None:
    x0, y0, x1, y1 = box
    (shown,) = kit.names_shown(
        [name], kit.SMALL, x1 - x0 - 24 - kit.length(_("How {name} scored", name=""), kit.SMALL)
    )
    canvas.text((x0 + 12, y0 + 8), _("How {name} scored", name=shown), kit.SMALL, kit.MUTED)
    score_lines(canvas, (x0, y0 + 44, x1, y1 - 4), lines)


def score_lines(canvas: kit.Canvas, box: Box, lines: Sequence[tuple[str, int]], step: int = 32) -> None:
    """Score lines, label and points, down `box`; those that do not fit are summed on a last line that
    says how many they are, so the points shown always add up to the score and stay inside `box`."""
    x0, y0, x1, y1 = box
    room = max(1, int((y1 - y0) // step))
    shown = lines if len(lines) <= room else lines[: room - 1]
    rest = lines[len(shown) :]
    if rest:
        more = n_("{count} more line", "{count} more lines", len(rest))
        shown = (*shown, (more, sum(points for _label, points in rest)))
    canvas.record("score lines", tuple(shown))
    for index, (label, points) in enumerate(shown):
        y = y0 + index * step + step / 2
        muted = index == len(shown) - 1 and bool(rest)
        number = str(points)
        room_left = x1 - x0 - 24 - kit.length(number, kit.SMALL, True) - 12
        colour = kit.MUTED if muted else kit.INK
        canvas.text((x0 + 12, y), label, kit.SMALL, colour, anchor="lm", width=room_left)
        canvas.text((x1 - 12, y), number, kit.SMALL, kit.YELLOW, anchor="rm", bold=True)
