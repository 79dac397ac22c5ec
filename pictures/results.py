"""The results picture every game shares: the players ranked by score with bars, winners crowned,
and beside them the winner's own collection (each game draws its own, or the score breakdown)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image

from engine.core import Outcome
from pictures import kit

Box = tuple[float, float, float, float]
Collection = Callable[[kit.Canvas, Box], None]


def results_scene(names: Sequence[str], outcome: Outcome) -> tuple:
    """The results picture's scene when it shows the winner's score breakdown beside the ranking."""
    breakdown = tuple(tuple((line.label, line.points) for line in lines) for lines in outcome.breakdown)
    return ("results", tuple(names), outcome.scores, outcome.winners, breakdown)


def paint_results(
    title: str,
    names: Sequence[str],
    scores: Sequence[int],
    winners: Sequence[int],
    breakdown: Sequence[Sequence[tuple[str, int]]],
    collection: Collection | None = None,
    unit: str = "",
) -> Image.Image:
    canvas = kit.Canvas(f"{title}: final scores")
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    top, bottom, right = 58, 434, 420
    height = min(70, (bottom - top) / max(1, len(order)))
    best = max(max(scores, default=0), 1)
    for rank, seat in enumerate(order):
        y = top + rank * height
        won = seat in winners
        canvas.panel(
            (16, y, right, y + height - 6),
            fill=kit.PANEL_LIGHT if won else kit.PANEL,
            outline=kit.HIGHLIGHT if won else None,
            radius=10,
        )
        if won:
            kit.crown(canvas, 40, y + height / 2 - 3, 13)
        canvas.text((64, y + 6), names[seat], kit.TEXT, kit.INK, width=230)
        bar = max(0, scores[seat]) / best * (right - 150 - 64)
        canvas.draw.rounded_rectangle(
            (64, y + height - 22, 64 + max(bar, 4), y + height - 12),
            radius=4,
            fill=kit.YELLOW if won else kit.SKY,
        )
        canvas.text(
            (right - 14, y + height / 2 - 3),
            f"{scores[seat]}{unit}",
            kit.LARGE,
            kit.INK,
            anchor="rm",
            bold=True,
        )
    box = (436, top, 784, bottom)
    canvas.panel(box, fill=kit.PANEL)
    if collection is not None:
        collection(canvas, box)
    elif winners and breakdown and breakdown[winners[0]]:
        _breakdown(canvas, box, names[winners[0]], breakdown[winners[0]])
    else:
        canvas.text(
            ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "Nobody wins", kit.LARGE, kit.MUTED, anchor="mm"
        )
    return canvas.image


def _breakdown(canvas: kit.Canvas, box: Box, name: str, lines: Sequence[tuple[str, int]]) -> None:
    x0, y0, x1, y1 = box
    canvas.text((x0 + 14, y0 + 10), f"How {name} scored", kit.TEXT, kit.INK, width=x1 - x0 - 28)
    score_lines(canvas, (x0, y0 + 52, x1, y1), lines)


def score_lines(canvas: kit.Canvas, box: Box, lines: Sequence[tuple[str, int]], step: int = 32) -> None:
    """Score lines, label and points, down `box`; those that do not fit are summed on a last line that
    says how many they are, so the points shown always add up to the score."""
    x0, y0, x1, y1 = box
    room = max(0, int((y1 - y0) // step))
    shown = lines if len(lines) <= room else lines[: max(0, room - 1)]
    rest = lines[len(shown) :]
    if rest:
        word = "line" if len(rest) == 1 else "lines"
        shown = (*shown, (f"{len(rest)} more {word}", sum(points for _, points in rest)))
    canvas.record("score lines", tuple(shown))
    for index, (label, points) in enumerate(shown):
        y = y0 + index * step
        muted = index == len(shown) - 1 and bool(rest)
        canvas.text((x0 + 14, y), label, kit.SMALL, kit.MUTED if muted else kit.INK, width=x1 - x0 - 80)
        canvas.text((x1 - 14, y), str(points), kit.SMALL, kit.YELLOW, anchor="ra", bold=True)
