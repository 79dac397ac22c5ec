"""Nine Lives: what the player to act weighs before a play. The headline says who must act; below it
the four cats' counts, big, each against the limit of nine (a gauge of nine cells under the number);
then the newest card on the table (the cards before it as "+N") beside the power in force, its cats
drawn as shapes ("Shapeshift ⚪→🟦"); along the foot every player's lives beside a heart ("safe" after
a perfect nine). The round, the deck, the discard pile, covered cards and why a card counts as it
does are the text's.

The four cats are drawn as the text writes them (`EMOJI`, through `shapes.symbol`): ⚪ a white circle,
🟦 a blue square, 🔺 a red triangle, ⭐ a yellow star, each its own shape and colour. A cat ignored this
round is drawn grey and struck through; a count at nine (full) is framed in white, one past nine in
the warning colour, its number too.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.core import Outcome, fill_names
from engine.ninelives.view import EMOJI, LIMIT, POWERS, View
from lang import _, p_
from pictures import kit, seats, shapes
from pictures.results import paint_results

TITLE = "Nine Lives"
CAT_COLOURS = tuple(shapes.SYMBOLS[emoji][1] for emoji in EMOJI)
RUN = 4
"""A card's icons of one cat are drawn one by one up to this many, else once with "×n" (as the text
writes a card: "⭐×9")."""
GAP = 8
LABEL = 76
"""The table panel's column for its label and the "+N" under it."""
POWER_WIDTH = 264
"""The power panel's width: room for the longest power, "Numbershift 3×⭐", in small letters."""


def scene(view: View, names: Sequence[str], outcome: Outcome | None) -> tuple:
    """The table's scene: names, headline, who acts, the counts, the ignored cats, the newest card's
    printed icons and how many cards the table holds (`bench.pictures` reads that, item 7), the power
    in force, and lives (safe or not), and the words it writes in the language speaking (a picture is
    drawn from its scene alone)."""
    lives = tuple(seat.lives for seat in view.seats)
    if outcome is not None:
        return ("results", tuple(names), outcome.scores, outcome.winners, lives, _("{player}'s lives"))
    newest = view.table[-1][-1].card.icons if view.table else ()
    power = ()
    if view.power is not None:
        card = view.power.card()
        power = (_(POWERS[card.power].name), POWERS[card.power].params, card.a, card.b)
    safe = tuple(seat.safe for seat in view.seats)
    prompt = fill_names(view.prompt, names)
    return (
        "table",
        tuple(names),
        prompt,
        view.to_act,
        view.counts,
        view.ignored,
        newest,
        len(view.table),
        power,
        lives,
        safe,
        (_("Table"), _("No cards yet"), _("Power"), p_("no power in force", "none"), _("safe")),
    )


def paint(data: tuple) -> Image.Image:
    if data[0] == "results":
        names, scores, winners, lives, whose = data[1:]

        def collection(canvas: kit.Canvas, box) -> None:
            _winner_lives(canvas, box, names, winners, lives, whose)

        return paint_results(TITLE, names, scores, winners, (), collection=collection)
    names, now, to_act, counts, ignored, newest, on_table, power, lives, safe, words = data[1:]
    table_word, no_cards, power_word, no_power, safe_word = words
    canvas = kit.Canvas(now)
    x0, y0, x1, y1 = seats.stage(len(names))
    y0 += 4
    tall = 62 + round((y1 - y0 - 142) * 0.4)  # the counts' row: 62 px with six players, more with fewer
    _counts(canvas, counts, ignored, (x0, y0, x1, y0 + tall))
    split = x1 - POWER_WIDTH - GAP
    table = (x0, y0 + tall + GAP, split, y1)
    canvas.record("table", tuple(_card_parts(newest)))
    canvas.kept_in(
        ("table", newest, on_table, table_word, no_cards),
        table,
        lambda: _table(canvas, newest, on_table, table, table_word, no_cards),
    )
    in_force = (split + GAP, y0 + tall + GAP, x1, y1)
    canvas.record(
        "power",
        canvas.kept_in(
            ("power", power, power_word, no_power),
            in_force,
            lambda: _power(canvas, power, in_force, power_word, no_power),
        ),
    )
    values = [
        f"{count} {safe_word}" if is_safe else f"{count}" for count, is_safe in zip(lives, safe, strict=True)
    ]
    seats.seat_rows(canvas, names, values, marked=to_act, icon=lambda c, x, y: shapes.heart(c, x, y, 10))
    return canvas.image


def cat_icon(canvas: kit.Canvas, cat: int, cx: float, cy: float, r: float, dim: bool = False) -> str:
    """A cat as the text writes it (grey while it is ignored); returns its emoji."""
    return shapes.symbol(canvas, EMOJI[cat], cx, cy, r, kit.GREY if dim else None)


def _counts(canvas: kit.Canvas, counts: Sequence[int], ignored: Sequence[int], box) -> None:
    """Four tiles, one a cat: its shape, its count in big figures and a gauge of nine cells."""
    x0, y0, x1, y1 = box
    width, height = (x1 - x0 - 3 * GAP) / 4, y1 - y0
    r = 16 + (height - 62) // 8
    gauge = 6 + (height - 62) // 10
    middle = y0 + (height - gauge - 8) / 2 + 1
    shown = []
    for cat, count in enumerate(counts):
        x = x0 + cat * (width + GAP)
        dim = cat in ignored

        def tile(x=x, cat=cat, count=count, dim=dim) -> str:
            over = count > LIMIT
            edge = kit.WARNING if over else None if dim or count < LIMIT else kit.INK
            canvas.panel((x, y0, x + width, y1), kit.PANEL, edge, width=3, radius=10)
            emoji = cat_icon(canvas, cat, x + 12 + r, middle, r, dim)
            if dim:  # ignored this round: struck through
                line = (x + 6, middle + r + 6, x + 18 + 2 * r, middle - r - 6)
                canvas.draw.line(line, fill=kit.INK, width=3)
            colour = kit.MUTED if dim else kit.WARNING if over else kit.INK
            centre = x + 12 + 2 * r + (width - 12 - 2 * r) / 2
            canvas.text((centre, middle), str(count), kit.HUGE, colour, anchor="mm", bold=True)
            cell = (width - 20 - (LIMIT - 1) * 3) / LIMIT
            top = y1 - 8 - gauge
            for index in range(LIMIT):
                left = x + 10 + index * (cell + 3)
                fill = (kit.GREY if dim else CAT_COLOURS[cat]) if index < count else kit.PANEL_LIGHT
                box = (round(left), top, round(left + cell) - 1, top + gauge - 1)
                canvas.draw.rectangle(box, fill=kit.INDEX[fill])  # the palette's index: drawn quicker
            return emoji

        area = (round(x), round(y0), round(x + width) + 1, round(y1) + 1)
        shown.append(canvas.kept(("nine lives count", cat, count, dim, x % 1, y0 % 1), area, tile))
    canvas.record("counts", tuple(counts))
    canvas.record("cats", tuple(shown))


def _table(canvas: kit.Canvas, newest: Sequence[int], on_table: int, box, label: str, empty: str) -> None:
    """The newest card, its icons in one row or two, whichever draws them bigger; under the label,
    "+N" counts the other cards on the table."""
    x0, y0, x1, y1 = box
    canvas.panel(box, kit.PANEL, radius=10)
    canvas.text((x0 + 12, y0 + 6), label, kit.SMALL, kit.MUTED)
    parts = _card_parts(newest)
    top, height, middle = y0 + 6, y1 - y0 - 12, (x0 + LABEL + x1 - 6) / 2
    if not parts:
        canvas.text((middle, top + height / 2), empty, kit.SMALL, kit.MUTED, anchor="mm")
        return
    if on_table > 1:
        canvas.text((x0 + 12, y1 - 8), f"+{on_table - 1}", kit.TEXT, kit.MUTED, anchor="ld")
    r, in_row = _fit_card(parts, x1 - x0 - LABEL - 6, height)
    width = in_row * (2 * r + 6) + _marks(parts) + 8
    canvas.rounded((middle - width / 2, top, middle + width / 2, top + height), 8, kit.DARK)
    lines = [parts[i : i + in_row] for i in range(0, len(parts), in_row)]
    for line, row in enumerate(lines):
        y = top + height / 2 + (line - (len(lines) - 1) / 2) * (2 * r + 6)
        x = middle - (len(row) * (2 * r + 6) + _marks(row) - 6) / 2
        for cat, n in row:
            cat_icon(canvas, cat, x + r, y, r)
            x += 2 * r + 6
            if n:
                shown = canvas.text((x - 4, y), f"×{n}", kit.SMALL, kit.INK, anchor="lm", bold=True)
                x += kit.length(shown, kit.SMALL, True) + 2


def _fit_card(parts: Sequence[tuple[int, int]], width: float, height: float) -> tuple[int, int]:
    """The icon radius and icons a row (all in one row, or in two) that draw a card's `parts`
    biggest within `width` × `height`; one row when both draw them alike."""
    best = (0, len(parts))
    for rows in (1, 2):
        in_row = max(1, -(-len(parts) // rows))
        tall = (height - 8 - 6 * (rows - 1)) // (2 * rows)
        r = min(20, tall, int(((width - 8 - _marks(parts)) / in_row - 6) / 2))
        if r > best[0]:
            best = (r, in_row)
    return best


def _card_parts(icons: Sequence[int]) -> list[tuple[int, int]]:
    """A card's icons as drawn: (cat, 0) one icon; (cat, n) one icon marked "×n"."""
    parts = []
    for cat, n in enumerate(icons):
        parts += [(cat, n)] if n > RUN else [(cat, 0)] * n
    return parts


def _marks(parts: Sequence[tuple[int, int]]) -> float:
    """How wide the "×n" after a card's long runs are."""
    return sum(kit.length(f"×{n}", kit.SMALL, True) + 2 for _, n in parts if n)


def _power(canvas: kit.Canvas, power: tuple, box, label: str, none: str) -> tuple:
    """The power in force: its name, then its cats as shapes, in the largest size that fits; returns
    what it drew (the name's words, the cats' emoji)."""
    x0, y0, x1, y1 = box
    canvas.panel(box, kit.PANEL, radius=10)
    canvas.text((x0 + 12, y0 + 6), label, kit.SMALL, kit.MUTED)
    middle = (y0 + 34 + y1 - 4) / 2
    if not power:
        canvas.text((x0 + 12, middle), none, kit.TEXT, kit.MUTED, anchor="lm")
        return ()
    name, params, a, b = power
    parts: list = [name]
    if params == "AB":
        parts += [a, "→", b]
    elif params == "An":
        parts += [f"{b}×", a]
    elif params == "A":
        parts += [a]
    for size, r in ((kit.TEXT, 16), (kit.SMALL, 13)):
        widths = [2 * r + 4 if isinstance(part, int) else kit.length(part, size, True) + 4 for part in parts]
        if sum(widths) <= x1 - x0 - 24:
            break
    x, drawn = x0 + 12, []
    for part, width in zip(parts, widths, strict=True):
        if isinstance(part, int):
            drawn.append(cat_icon(canvas, part, x + r, middle, r))
        else:
            drawn.append(canvas.text((x, middle), part, size, kit.YELLOW, anchor="lm", bold=True))
        x += width
    return tuple(drawn)


def _winner_lives(
    canvas: kit.Canvas, box, names: Sequence[str], winners: Sequence[int], lives, whose: str
) -> None:
    """The winner's nine lives as hearts, three by three: those left in the warning red, lost ones grey;
    `whose` words the title ("{player}'s lives")."""
    x0, y0, x1, y1 = box
    if not winners:
        return
    seat = winners[0]
    room = x1 - x0 - 24 - kit.length(whose.replace("{player}", ""), kit.SMALL)
    (name,) = kit.names_shown([names[seat]], kit.SMALL, room)
    canvas.text((x0 + 12, y0 + 8), whose.replace("{player}", name), kit.SMALL, kit.MUTED)
    size = min((x1 - x0 - 40) / 3, (y1 - y0 - 56) / 3)
    left = (x0 + x1) / 2 - size
    for index in range(LIMIT):
        row, column = divmod(index, 3)
        fill = kit.WARNING if index < lives[seat] else kit.GREY
        shapes.heart(canvas, left + column * size, y0 + 48 + size / 2 + row * size, size * 0.36, fill)
