"""Cats & Dogs: who must act, the trick they must beat, and every player's ribbons.

The trick is drawn big, as the text shows it (with 2 players the table's face-up card first; solo the
face-up card and the hidden one, drawn as a card back), each card over the name of who played it, and
beside it the trick's tally: the cats' strengths summed against the dogs' (what decides the trick;
solo it is left out, a hidden card being part of it). Before the first card of a trick the panel shows
the last trick instead, its winner's card framed. With 1 or 2 players a row below shows the table's
face-up cards still to come. The round and trick numbers and the cards collected are the text's.

A cat card is orange with a pointy-eared head, a dog card sky blue with a floppy-eared one (shape, not
only colour, tells them apart); each shows its strength as a large number at the top and its ribbons
as rosettes along the foot, below the number, so no rosette ever hides it. The seats read "18 +7":
the ribbons in total and this round.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.catsdogs.model import STANDARD
from engine.catsdogs.texts import trick_cards, who
from engine.catsdogs.view import RIBBONS, STRENGTH, TABLE, View
from engine.core import Outcome, fill_names
from lang import _
from pictures import kit, seats, shapes
from pictures.letters import lettering
from pictures.results import paint_results, results_scene

TITLE = "Cats & Dogs"
NAME_H = 28
"""The room under a card for who played it."""
COMING_H = 74
"""The height of the row of table cards still to come (1 or 2 players)."""
TALLY_W = 110
GAP = 10
HEADS = (shapes.cat_head, shapes.dog_head)
COLOURS = (kit.ORANGE, kit.SKY)
"""A cat's head and colour, a dog's (SKY: `BLUE` is under 3:1 against the panels)."""


def scene(view: View, names: Sequence[str], outcome: Outcome | None) -> tuple:
    """The trick as the text shows it; the last trick (plays, winner) while no card is on the trick;
    the table's face-up cards to come (None in the standard game, which has none)."""
    if outcome is not None:
        return results_scene(names, outcome)
    plays = trick_cards(view)
    last = view.last_trick
    return (
        "table",
        tuple(names),
        fill_names(view.prompt, names),
        plays,
        (last.plays, last.winner) if last is not None and not plays else None,
        None if view.mode == STANDARD else tuple(view.table[1:]),
        any(card is None for _, card in plays),
        view.ribbons,
        view.scores,
        view.to_act,
    )


def paint(data: tuple) -> Image.Image:
    if data[0] == "results":
        return paint_results(TITLE, *data[1:], unit="")
    _scene, names, now, plays, last, coming, hidden, ribbons, scores, to_act = data
    canvas = kit.Canvas(now)
    x0, y0, x1, y1 = seats.stage(len(names))
    if coming is not None:
        _coming(canvas, coming, (x0, y1 - COMING_H, x1, y1))
        y1 -= COMING_H + 6
    canvas.panel((x0, y0, x1, y1))
    canvas.record("trick", plays)
    if plays:
        _trick(canvas, names, plays, (x0, y0, x1, y1), tally=not hidden)
    elif last is not None:
        _last(canvas, names, *last, (x0, y0, x1, y1))
    else:
        middle = ((x0 + x1) / 2, (y0 + y1) / 2)
        canvas.text(middle, _("No card played yet"), kit.TEXT, kit.MUTED, anchor="mm")
    values = [f"{scores[s]} +{ribbons[s]}" for s in range(len(names))]
    seats.seat_rows(canvas, names, values, marked=to_act, icon=_seat_ribbon)
    return canvas.image


def _seat_ribbon(canvas: kit.Canvas, x: float, y: float) -> None:
    shapes.ribbon(canvas, x, y - 5, 9, kit.YELLOW)


def _row(
    canvas: kit.Canvas, names, plays, x: float, top: float, bottom: float, width: float, won=None
) -> float:
    """Cards `width` wide in a row from `x`, each over who played it (the `won` seat's framed and
    named in yellow); returns where the row ends."""
    height = bottom - top - NAME_H
    shown = kit.names_shown(names, kit.SMALL, width)
    for seat, card in plays:
        if seat == won:
            canvas.rounded((x - 5, top - 5, x + width + 5, top + height + 3), 13, kit.YELLOW)
        card_face(canvas, card, x, top, width, height)
        label = _("Hidden") if card is None else _("Table") if seat == TABLE else shown[seat]
        colour = kit.YELLOW if seat == won else kit.INK
        canvas.text(
            (x + width / 2, bottom - NAME_H / 2 + 3), label, kit.SMALL, colour, anchor="mm", width=width + 2
        )
        x += width + GAP
    return x


def _trick(canvas: kit.Canvas, names, plays, box, tally: bool) -> None:
    """The cards on the trick, as big as the panel allows, and the cats' and dogs' sums beside them."""
    x0, y0, x1, y1 = box
    extra = TALLY_W + GAP if tally else 0
    room = x1 - x0 - 24 - extra
    width = min(128, (room - GAP * (len(plays) - 1)) / max(len(plays), 3), (y1 - y0 - 16 - NAME_H) * 0.9)
    start = (x0 + x1 - len(plays) * (width + GAP) + GAP - extra) / 2
    left = _row(canvas, names, plays, start, y0 + 10, y1 - 4, width)
    if not tally:
        return
    sums = tuple(sum(STRENGTH[card] for _, card in plays if card[0] == kind) for kind in "CD")
    canvas.record("sums", sums)
    top, bottom = y0 + 10, y1 - 10 - NAME_H / 2
    canvas.panel((left, top, left + TALLY_W, bottom), fill=kit.PANEL_LIGHT, radius=10)
    for row, (total, head, colour) in enumerate(zip(sums, HEADS, COLOURS, strict=True)):
        middle = top + (bottom - top) * (1 + 2 * row) / 4
        head(canvas, left + 25, middle + 2, 14, colour)
        canvas.text((left + TALLY_W - 12, middle), str(total), kit.LARGE, kit.INK, anchor="rm", bold=True)


def _last(canvas: kit.Canvas, names, plays, winner, box) -> None:
    """The last trick while the next has no card yet: its cards, its winner's framed."""
    x0, y0, x1, y1 = box
    result = _("a tie") if winner is None else _("{player} wins", player=who(winner, names))
    words = _("Last trick: {result}", result=result)
    title = canvas.text((x0 + 12, y0 + 6), words, kit.SMALL, kit.MUTED, width=x1 - x0 - 24)
    canvas.record("last", (title, plays, winner))
    width = min(112, (x1 - x0 - 24 - GAP * (len(plays) - 1)) / max(len(plays), 4))
    _row(
        canvas, names, plays, (x0 + x1 - len(plays) * (width + GAP) + GAP) / 2, y0 + 40, y1 - 4, width, winner
    )


def _coming(canvas: kit.Canvas, cards: Sequence[str], box) -> None:
    """The table's face-up cards still to come, small, after the word "Next"."""
    x0, y0, x1, y1 = box
    canvas.panel(box)
    canvas.record("coming", tuple(cards))
    if not cards:
        canvas.text(
            ((x0 + x1) / 2, (y0 + y1) / 2), _("No table card to come"), kit.SMALL, kit.MUTED, anchor="mm"
        )
        return
    # Translators: before the table's cards still to come in the picture, about 60 pixels.
    canvas.text((x0 + 12, (y0 + y1) / 2), _("Next"), kit.SMALL, kit.MUTED, anchor="lm")
    for index, card in enumerate(cards):
        card_face(canvas, card, x0 + 76 + index * 80, y0 + 7, 70, y1 - y0 - 14)


def card_face(canvas: kit.Canvas, card: str | None, x: float, y: float, w: float, h: float) -> None:
    """A card (`None`: a hidden one, its back) in the box at (x, y), w wide and h tall: its head at
    the top left, its strength at the top right, its ribbons along the foot, below the number (kept
    whole: the same card at the same size looks the same in every picture)."""
    area = (round(x), round(y), round(x + w) + 1, round(y + h) + 1)
    key = ("cats & dogs card", card, w, h, x % 1, y % 1)
    canvas.kept(key, area, lambda: _card_face(canvas, card, x, y, w, h))


def _card_face(canvas: kit.Canvas, card: str | None, x: float, y: float, w: float, h: float) -> None:
    if card is None:
        canvas.panel((x, y, x + w, y + h), fill=kit.PURPLE, outline=kit.DARK, width=2, radius=10)
        canvas.rounded((x + 7, y + 7, x + w - 7, y + h - 7), 6, kit.PURPLE, kit.DARK, 2)
        shapes.shape(canvas, "paw", x + w / 2, y + h / 2, min(w, h) * 0.22, kit.DARK)
        return
    cat = card[0] == "C"
    canvas.panel((x, y, x + w, y + h), fill=COLOURS[not cat], outline=kit.DARK, width=2, radius=10)
    size, head, rosette = (60, 17, 12) if h >= 120 else (kit.HUGE, 13, 11) if h >= 72 else (kit.LARGE, 9, 7)
    pad = 8 if h >= 72 else 6
    number = str(STRENGTH[card])
    canvas.text((x + w - pad, y + pad + 2), number, size, kit.DARK, anchor="rt", bold=True)
    HEADS[not cat](canvas, x + pad + head, y + pad + head * 1.05, head, kit.INK)
    below = y + pad + 2 + lettering(number, size, "rt", True)[0].height + 3  # the number's foot
    rosette = min(rosette, (y + h - pad - below) / 2.6)  # a rosette reaches r above, 1.6 r below
    count = RIBBONS[card]
    for index in range(count):
        across = x + w / 2 + (index - (count - 1) / 2) * rosette * 2.4
        shapes.ribbon(canvas, across, y + h - pad - rosette * 1.6, rosette, kit.DARK)
