"""Mad Cat Sad Cat: who must act, the roller's dice (the tray, and the dice just rolled while some are
being set aside), the kind locked in, the catpot, the cat cards a turn can end on and every player's VPs.

Drawn for a phone, the picture keeps what the roller and the moochers decide on: the dice, and per
combination the card's VPs as "outer / inner" (the moochers' / the roller's), of the locked kind only
once a kind is locked (both kinds before), the combinations the tray already reads as lit and framed.
The supply, the lock-in rules and who has picked a mooch card are the text's.

The dice are drawn as the text writes them (`FACE_LABELS`): a mad cat 🔥1 is a red flame marked 1, a
sad cat 💧2 a blue drop marked 2, a wild 🐾 a yellow paw; three shapes and three colours, so no die is
told by colour alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.core import Outcome, fill_names
from engine.madcat.texts import FACE_LABELS, KIND_LABELS, short_combo
from engine.madcat.view import CATPOT, COMBOS, View, card
from lang import _, current, n_
from pictures import kit, seats, shapes
from pictures.results import paint_results, results_scene

TITLE = "Mad Cat Sad Cat"
DICE = 5
KINDS = ("mad", "sad")
GAP = 12
"""The room before each die, in pixels (its outline included)."""
CELL_SIZES = ((kit.LARGE, 14, " / "), (kit.TEXT, 12, " / "), (kit.SMALL, 10, " / "), (kit.SMALL, 8, "/"))
"""A card's lettering, its kind's symbol's radius and how "outer / inner" is spaced, largest first: the
largest that every card shown fits in is drawn."""
SIDE = 150
"""The width of the panel beside the dice: the kind locked in and the catpot."""


def split_label(label: str) -> tuple[str, str]:
    """A die face or a kind as the text writes it, split into its emoji and its words:
    "🔥1" -> ("🔥", "1"), "💧 sad" -> ("💧", "sad"), "🐾" -> ("🐾", "")."""
    emoji = next(e for e in shapes.SYMBOLS if label.startswith(e))
    return emoji, label.removeprefix(emoji).strip()


def scene(view: View, names: Sequence[str], outcome: Outcome | None) -> tuple:
    """What the picture shows, as plain data from the public view (and the public outcome): the dice
    just rolled only while the roller sets some aside (after that the text too speaks of the tray)."""
    if outcome is not None:
        return results_scene(names, outcome)
    return (
        "table",
        tuple(names),
        fill_names(view.prompt, names),
        view.to_act,
        view.aside,
        view.rolled if view.phase == "aside" else (),
        view.phase == "roll",
        view.kind,
        view.readings,
        view.cards,
        view.scores,
        view.final_round,
    )


def paint(data: tuple) -> Image.Image:
    if data[0] == "results":
        return paint_results(TITLE, *data[1:])
    _scene, names, now, to_act, aside, rolled, in_hand, kind, readings, cards, scores, final_round = data
    canvas = kit.Canvas(now, _("Final round!") if final_round else "")
    language = current()  # what the kept drawings below say is in it
    x0, y0, x1, y1 = seats.stage(len(names))
    spare = y1 - y0 - 146  # 146: the stage of five players, the fewest pixels the scene has
    top = y0 + 4
    dice_row = 58 + min(14, spare // 4)
    dice = (x0, top, x1 - SIDE - 6, top + dice_row)
    shows = canvas.kept_in(
        ("dice", aside, rolled, in_hand, language), dice, lambda: _dice(canvas, dice, aside, rolled, in_hand)
    )
    canvas.record("tray", tuple(aside))
    canvas.record("rolled", tuple(rolled))
    for key, value in shows.items():
        canvas.record(key, value)
    side = (x1 - SIDE, top, x1, top + dice_row)
    catpot = canvas.kept_in(
        ("side", kind, cards[CATPOT], language), side, lambda: _side(canvas, side, kind, cards[CATPOT])
    )
    canvas.record("catpot", catpot)
    canvas.record("lock", kind)
    grid = (x0, top + dice_row + 6, x1, y1)
    shown = canvas.kept_in(
        ("cards", cards, kind, readings, language), grid, lambda: _cards(canvas, grid, cards, kind, readings)
    )
    canvas.record("cards", shown)
    seats.seat_rows(canvas, names, [_("{score} VP", score=score) for score in scores], marked=to_act)
    return canvas.image


def die(canvas: kit.Canvas, face: str, cx: float, cy: float, r: float = 26) -> str:
    """A die showing `face` as the text writes it: its emoji's shape, marked with its number on the
    round of the shape (where the number's whole box stands on the die's colour); returns the face as
    drawn, e.g. "🔥1"."""
    emoji, number = split_label(FACE_LABELS[face])
    shapes.symbol(canvas, emoji, cx, cy, r)
    if number:
        number = canvas.text((cx, cy + r * 0.3), number, kit.SMALL, kit.DARK, anchor="mm", bold=True)
    return emoji + number


def _dice(canvas: kit.Canvas, box, aside, rolled, in_hand: bool) -> dict[str, str]:
    """The tray's dice, then those just rolled (at most five in all) or how many dice are left to roll
    (nothing once all five are on the tray); an empty tray is left out. Returns the dice as drawn."""
    x0, y0, x1, y1 = box
    canvas.panel(box)
    middle = (y0 + y1) / 2
    # Translators: the label before the dice set aside in the picture: one word, as short as can be.
    tray = _("Tray")
    # Translators: the label before the dice just rolled in the picture: one word, as short as can be.
    rolled_label = _("Rolled")
    labels = ([tray] if aside else []) + ([rolled_label] if rolled else [])
    room = x1 - x0 - 22 - 26 * (len(labels) - 1) - sum(kit.length(label, kit.SMALL) for label in labels)
    faces = (*aside, *rolled)
    r = min(24, (y1 - y0) * 0.37, (room - GAP * len(faces)) / max(1, 2 * sum(map(_half, faces))))
    shows = {}
    x = x0 + 12
    if aside:
        x, shows["tray shows"] = _row(canvas, tray, aside, x, middle, r)
        x += 26
    left = DICE - len(aside)
    if aside and (rolled or left):
        canvas.draw.line((x - 14, y0 + 10, x - 14, y1 - 10), fill=kit.PANEL_LIGHT, width=3)
    if rolled:
        shows["rolled shows"] = _row(canvas, rolled_label, rolled, x, middle, r)[1]
    elif in_hand:
        words = _("All {count} dice to roll", count=DICE)
        canvas.text(((x0 + x1) / 2, middle), words, kit.TEXT, kit.INK, anchor="mm")
    elif left:
        words = n_("{count} die to roll", "{count} dice to roll", left)
        if kit.length(words, kit.SMALL) > x1 - x - 10:
            # Translators: the dice still to roll, where even "2 dice to roll" is too long.
            words = _("{count} to roll", count=left)
        canvas.text((x, middle), words, kit.SMALL, kit.INK, anchor="lm", width=x1 - x - 10)
    return shows


def _row(canvas: kit.Canvas, label: str, faces, x: float, middle: float, r: float) -> tuple[float, str]:
    """`label`, then `faces` as dice of radius `r`; returns where the row ends and the dice as drawn."""
    x = x + kit.length(canvas.text((x, middle), label, kit.SMALL, kit.MUTED, anchor="lm"), kit.SMALL)
    drawn = []
    for face in faces:
        x += GAP + _half(face) * r
        drawn.append(die(canvas, face, x, middle + r * 0.05, r))
        x += _half(face) * r
    return x, " ".join(drawn)


def _half(face: str) -> float:
    """Half a die's width, in its radius: a paw is wider than a flame or a drop."""
    return 0.92 if face == "w" else 0.76


def _side(canvas: kit.Canvas, box, kind: str | None, catpot: int) -> str:
    """The kind locked in (its shape) and the catpot, the card five wilds or a failed turn's moochers
    take; returns the catpot as drawn."""
    x0, y0, x1, y1 = box
    canvas.panel(box)
    upper, lower = y0 + (y1 - y0) * 0.28, y0 + (y1 - y0) * 0.72
    if kind is None:
        # Translators: the picture's side panel, about 120 pixels: no kind locked in yet.
        canvas.text((x0 + 12, upper), _("No lock"), kit.SMALL, kit.MUTED, anchor="lm")
    else:
        emoji = split_label(KIND_LABELS[kind])[0]
        shapes.symbol(canvas, emoji, x0 + 24, upper, 11)
        # Translators: after the locked kind's symbol in the picture, about 90 pixels.
        canvas.text((x0 + 42, upper), _("locked"), kit.SMALL, kit.INK, anchor="lm")
    canvas.text((x0 + 12, lower), _("Catpot"), kit.SMALL, kit.MUTED, anchor="lm")
    return canvas.text((x1 - 12, lower), str(catpot), kit.TEXT, kit.INK, anchor="rm", bold=True)


def _cards(canvas: kit.Canvas, box, cards: Sequence[int], locked: str | None, readings) -> tuple:
    """A tile per combination, as wide as its name (a short one as wide as nine tenths of the average):
    under it, per kind shown, the kind's symbol and its cards' VPs as "outer / inner" (the symbol above
    them where a row is tall), one size for all; the combinations the tray already reads as are lit and
    framed."""
    x0, y0, x1, y1 = box
    kinds = (locked,) if locked else KINDS
    names = [short_combo(combo) for combo in COMBOS]
    named = [kit.length(name, kit.SMALL) for name in names]
    widths = [max(width, 0.9 * sum(named) / len(named)) for width in named]
    gap = 4
    pad = (x1 - x0 - sum(widths) - gap * (len(COMBOS) - 1)) / len(COMBOS)
    head = 29
    row = (y1 - y0 - head - 2) / len(kinds)
    tiles = [width + pad - 10 for width in widths]
    values = {
        (kind, combo): (cards[card(kind, combo, False)], cards[card(kind, combo, True)])
        for kind in kinds
        for combo in COMBOS
    }
    stacked = row >= 70  # room for the symbol above the words
    for size, r, slash in CELL_SIZES:
        needs = [_width(f"{o}{slash}{i}", size, 0 if stacked else r) for (o, i) in values.values()]
        if max(needs) <= min(tiles) and size * 0.75 + 4 <= row:
            break
    shown = []
    left = x0
    for combo, name, width in zip(COMBOS, names, widths, strict=True):
        right = left + width + pad
        lit = combo in readings
        canvas.panel(
            (left, y0, right, y1),
            fill=kit.PANEL_LIGHT if lit else kit.PANEL,
            outline=kit.HIGHLIGHT if lit else None,
            width=2,
            radius=8,
        )
        centre = (left + right) / 2
        canvas.text((centre, y0 + 3 + head / 2), name, kit.SMALL, kit.INK if lit else kit.MUTED, anchor="mm")
        for line, kind in enumerate(kinds):
            middle = y0 + head + row * (line + 0.5)
            outer, inner = values[kind, combo]
            words = f"{outer}{slash}{inner}"
            if stacked:
                block = 2 * r + 10 + 0.73 * size  # the symbol, a gap, the digits' height
                shapes.symbol(canvas, split_label(KIND_LABELS[kind])[0], centre, middle - block / 2 + r, r)
                canvas.text((centre, middle + block / 2), words, size, kit.INK, anchor="ms", bold=True)
            else:
                _value(canvas, kind, words, centre, middle, size, r)
            shown.append((kind, combo, outer, inner))
        left = right + gap
    return tuple(shown)


def _width(words: str, size: int, r: float) -> float:
    """How wide a kind's symbol of radius `r` (none: 0) and `words` beside it are drawn."""
    return (2 * r + 6 if r else 0) + kit.length(words, size, True)


def _value(
    canvas: kit.Canvas, kind: str, words: str, centre: float, middle: float, size: int, r: float
) -> None:
    """A kind's symbol, then its cards' "outer / inner" as the text's grid writes them, centred."""
    start = centre - _width(words, size, r) / 2
    shapes.symbol(canvas, split_label(KIND_LABELS[kind])[0], start + r, middle, r)
    canvas.text((start + 2 * r + 6, middle), words, size, kit.INK, anchor="lm", bold=True)
