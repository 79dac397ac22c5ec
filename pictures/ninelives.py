"""Nine Lives: who must act, the four cats' counts against the limit of nine, the cards on the table
(newest last), the power in force (its cats drawn as the game's shapes) and every player's lives.

The four cats are drawn as the text writes them (`EMOJI`): ⚪ a white circle, 🟦 a blue square, 🔺 a
red triangle, ⭐ a yellow star — each its own shape and its own colour.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.core import Outcome, fill_names
from engine.ninelives.view import EMOJI, LIMIT, POWERS, View
from pictures import kit
from pictures.results import paint_results

TITLE = "Nine Lives"
CAT_COLOURS = tuple(kit.SYMBOLS[emoji][1] for emoji in EMOJI)
SHOWN_PILES = 7


def scene(view: View, names: Sequence[str], outcome: Outcome | None) -> tuple:
    lives = tuple(seat.lives for seat in view.seats)
    if outcome is not None:
        return ("results", tuple(names), outcome.scores, outcome.winners, lives)
    piles = tuple((pile[-1].counts, len(pile), pile[-1].note) for pile in view.table)
    power = ()
    if view.power is not None and view.power.power:
        card = view.power.card()
        power = (POWERS[card.power].name, POWERS[card.power].params, card.a, card.b)
    safe = tuple(seat.safe for seat in view.seats)
    return (
        "table",
        tuple(names),
        fill_names(view.prompt, names),
        view.to_act,
        view.round,
        view.counts,
        view.ignored,
        piles,
        power,
        lives,
        safe,
        view.deck_size,
        len(view.discard),
    )


def paint(data: tuple) -> Image.Image:
    if data[0] == "results":
        _, names, scores, winners, lives = data
        return paint_results(
            TITLE,
            names,
            scores,
            winners,
            (),
            collection=lambda canvas, box: _lives_left(canvas, box, names, lives),
        )
    _, names, now, to_act, round_, counts, ignored, piles, power, lives, safe, deck, discard = data
    canvas = kit.Canvas(now)
    _counters(canvas, counts, ignored, (f"Round {round_}", f"Deck {deck}", f"Discard {discard}"))
    _piles(canvas, piles, power)
    values = [f"{count}" + (" safe" if is_safe else "") for count, is_safe in zip(lives, safe, strict=True)]
    kit.seat_rows(canvas, names, values, marked=to_act, icon=lambda c, x, y: kit.heart(c, x, y, 10))
    return canvas.image


def cat_icon(canvas: kit.Canvas, cat: int, cx: float, cy: float, r: float, dim: bool = False) -> str:
    """A cat as the text writes it (grey while it is ignored); returns its emoji."""
    return kit.symbol(canvas, EMOJI[cat], cx, cy, r, kit.GREY if dim else None)


def _counters(
    canvas: kit.Canvas, counts: Sequence[int], ignored: Sequence[int], about: Sequence[str]
) -> None:
    """One bar of nine cells per cat; a count above nine says "over!"; beside them the round and deck."""
    top, row = 50, 40
    cell, left = 36, 64
    canvas.record("counts", tuple(counts))
    shown = []
    for cat, count in enumerate(counts):
        y = top + cat * row
        dim = cat in ignored
        shown.append(cat_icon(canvas, cat, 32, y + 17, 14, dim))
        for index in range(LIMIT):
            x = left + index * (cell + 4)
            filled = index < count
            fill = (kit.GREY if dim else CAT_COLOURS[cat]) if filled else kit.PANEL
            canvas.rounded((x, y + 4, x + cell, y + 30), 5, fill, kit.PANEL_LIGHT, width=2)
        limit_x = left + LIMIT * (cell + 4) - 2
        canvas.draw.line((limit_x, y, limit_x, y + 34), fill=kit.INK, width=3)
        over = count > LIMIT
        label = f"{count}/9" + (" over!" if over else " ignored" if dim else "")
        canvas.text(
            (limit_x + 12, y + 17),
            label,
            kit.TEXT,
            kit.WARNING if over else kit.INK,
            anchor="lm",
            bold=count == LIMIT or over,
        )
    canvas.record("cats", tuple(shown))
    for line, words in enumerate(about):
        canvas.text((784, top + 4 + line * 36), words, kit.SMALL, kit.MUTED, anchor="ra")


def _power(canvas: kit.Canvas, power: tuple, right: float, y: float) -> None:
    """The power in force, right-aligned at (right, y): its name, then its cats as shapes."""
    name, params, a, b = power
    parts: list = [f"Power: {name}"]
    if params == "AB":
        parts += [a, "→", b]
    elif params == "An":
        parts += [f"{b}×", a]
    elif params == "A":
        parts += [a]
    widths = [28 if isinstance(part, int) else kit.length(part, kit.SMALL) + 8 for part in parts]
    x = right - sum(widths)
    drawn = []
    for part, width in zip(parts, widths, strict=True):
        if isinstance(part, int):
            drawn.append(cat_icon(canvas, part, x + 13, y + 15, 11))
        else:
            drawn.append(canvas.text((x, y), part, kit.SMALL, kit.YELLOW))
        x += width
    canvas.record("power", tuple(drawn))


def _piles(canvas: kit.Canvas, piles: Sequence[tuple], power: tuple) -> None:
    top = 214
    canvas.panel((16, top, 784, 362))
    canvas.text((28, top + 4), "On the table, newest last", kit.SMALL, kit.MUTED)
    if power:
        _power(canvas, power, 772, top + 4)
    shown = piles[-SHOWN_PILES:]
    cut = len(piles) - len(shown)
    canvas.record("piles", (cut, tuple(counts for counts, _, _ in shown)))
    if cut:
        canvas.text((28, top + 88), f"+{cut}", kit.TEXT, kit.MUTED, anchor="lm")
    if not piles:
        canvas.text((400, top + 88), "No cards yet", kit.TEXT, kit.MUTED, anchor="mm")
    for index, (counts, size, _note) in enumerate(shown):
        x = 82 + index * 100
        newest = index == len(shown) - 1
        canvas.panel(
            (x, top + 38, x + 92, top + 140),
            fill=kit.INK,
            outline=kit.HIGHLIGHT if newest else None,
            width=4,
            radius=8,
        )
        icons = [cat for cat, n in enumerate(counts) for _ in range(n)]
        _card_icons(canvas, icons, x + 46, top + 86)
        if size > 1:
            canvas.text((x + 88, top + 138), f"×{size}", kit.SMALL, kit.DARK, anchor="rd")


def _card_icons(canvas: kit.Canvas, icons: Sequence[int], cx: float, cy: float) -> None:
    """A card's icons in a small grid: up to three in a row, more rows below."""
    if not icons:
        return
    per_row = 3 if len(icons) > 4 else 2 if len(icons) > 1 else 1
    rows = -(-len(icons) // per_row)
    size = 16 if len(icons) <= 4 else 11
    step = size * 2 + 4
    for index, cat in enumerate(icons[:9]):
        row, column = divmod(index, per_row)
        in_row = min(per_row, len(icons) - row * per_row)
        x = cx + (column - (in_row - 1) / 2) * step
        y = cy + (row - (rows - 1) / 2) * step
        cat_icon(canvas, cat, x, y, size)


def _lives_left(canvas: kit.Canvas, box, names: Sequence[str], lives: Sequence[int]) -> None:
    x0, y0, _, _ = box
    canvas.text((x0 + 14, y0 + 10), "Lives left", kit.TEXT, kit.INK)
    for row, seat in enumerate(sorted(range(len(names)), key=lambda s: -lives[s])):
        y = y0 + 56 + row * 52
        canvas.text((x0 + 14, y), names[seat], kit.SMALL, kit.INK, width=130)
        for index in range(min(lives[seat], 9)):
            kit.heart(canvas, x0 + 162 + index * 20, y + 12, 8)
