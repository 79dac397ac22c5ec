"""CatSanity: the alley's cats, and every home with its cats grouped by kind and its running score.

Sun Cats are round chips, Moon Cats diamond ones; each kind has its colour and its name on the chip.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.catsanity.view import KIND, View, is_moon
from engine.core import Outcome
from pictures import kit
from pictures.results import draw_results

TITLE = "CatSanity"
SHORT = {"copycat": "Copy", "moonking": "King", "moonqueen": "Queen", "fib": "Fib"}
COLOURS = {"house": kit.ORANGE, "chorus": kit.GREEN, "fib": kit.PURPLE}


def short(kind: str) -> str:
    if kind.startswith("twin"):
        return f"Twin {kind[4:]}"
    return SHORT.get(kind, kind.capitalize())


def colour(kind: str, moon: bool):
    if moon:
        return kit.YELLOW
    return kit.SKY if kind.startswith("twin") else COLOURS.get(kind, kit.GREY)


def groups(home: Sequence[str]) -> tuple[tuple[str, bool, int], ...]:
    """A home's cats as (kind, is a Moon Cat, how many), Sun Cats first, in a fixed order."""
    counted = Counter(KIND[card] for card in home)
    moons = {KIND[card] for card in home if is_moon(card)}
    return tuple(
        sorted(((kind, kind in moons, n) for kind, n in counted.items()), key=lambda g: (g[1], g[0]))
    )


def scene(view: View, names: Sequence[str], outcome: Outcome | None) -> tuple:
    homes = tuple(groups(home) for home in view.homes)
    if outcome is not None:
        best = (
            outcome.winners[0] if outcome.winners else max(range(len(names)), key=lambda s: outcome.scores[s])
        )
        return (
            "results",
            tuple(names),
            outcome.scores,
            outcome.winners,
            best,
            homes[best],
            tuple((line.label, line.points) for line in outcome.breakdown[best]) if outcome.breakdown else (),
        )
    alley = tuple((KIND[card], is_moon(card)) for card in view.alley)
    return ("table", tuple(names), view.turn, alley, homes, view.scores, view.tokens, view.deck_size)


def draw(data: tuple) -> bytes:
    if data[0] == "results":
        _, names, scores, winners, best, home, lines = data
        return draw_results(
            TITLE,
            names,
            scores,
            winners,
            (),
            collection=lambda canvas, box: _winner_home(canvas, box, names[best], home, lines),
        )
    _, names, turn, alley, homes, scores, tokens, deck = data
    canvas = kit.Canvas(TITLE, f"Deck {deck}")
    _alley(canvas, alley)
    _homes(canvas, names, turn, homes, scores, tokens)
    return canvas.png()


def chip_label(kind: str, count: int) -> str:
    return short(kind) + (f" x{count}" if count > 1 else "")


def chip_width(kind: str, count: int, size: int = kit.TEXT) -> float:
    return kit.font(size).getlength(chip_label(kind, count)) + 44


def chip(
    canvas: kit.Canvas, x: float, y: float, kind: str, moon: bool, count: int, size: int = kit.TEXT
) -> float:
    """A kind's chip at (x, y) — marker shape, name and count; returns its right edge."""
    width = chip_width(kind, count, size)
    height = size + 12
    canvas.panel((x, y, x + width, y + height), fill=kit.PANEL_LIGHT, radius=height // 2)
    kit.shape(canvas, "diamond" if moon else "circle", x + 17, y + height / 2, 10, colour(kind, moon))
    canvas.text((x + 33, y + height / 2), chip_label(kind, count), size, kit.INK, anchor="lm")
    return x + width


def _alley(canvas: kit.Canvas, alley: Sequence[tuple[str, bool]]) -> None:
    canvas.panel((16, 52, 784, 122))
    canvas.text((30, 87), "Alley", kit.TEXT, kit.MUTED, anchor="lm")
    if not alley:
        canvas.text((120, 87), "empty", kit.TEXT, kit.MUTED, anchor="lm")
    for index, (kind, moon) in enumerate(alley):
        x = 120 + index * 220
        canvas.panel((x, 60, x + 206, 114), fill=kit.INK, outline=colour(kind, moon), width=4, radius=10)
        kit.shape(canvas, "diamond" if moon else "circle", x + 28, 87, 16, colour(kind, moon))
        canvas.text((x + 54, 87), short(kind), kit.TEXT, kit.DARK, anchor="lm", bold=True, width=146)


def _homes(canvas: kit.Canvas, names, turn, homes, scores, tokens) -> None:
    top, bottom = 132, 438
    height = (bottom - top) / len(names)
    for seat, home in enumerate(homes):
        y = top + seat * height
        mine = seat == turn
        canvas.panel(
            (16, y, 784, y + height - 6),
            fill=kit.PANEL_LIGHT if mine else kit.PANEL,
            outline=kit.HIGHLIGHT if mine else None,
            radius=10,
        )
        middle = y + (height - 6) / 2
        canvas.text((28, middle - 12), names[seat], kit.SMALL, kit.INK, anchor="lm", width=140)
        canvas.text(
            (28, middle + 13),
            f"{scores[seat]} pts · {tokens[seat]} tok",
            kit.SMALL,
            kit.YELLOW,
            bold=True,
            anchor="lm",
            width=150,
        )
        x = 180
        for kind, moon, count in home:
            if x + chip_width(kind, count) > 750:
                canvas.text((x, middle), "…", kit.TEXT, kit.INK, anchor="lm")
                break
            x = chip(canvas, x, middle - 19, kind, moon, count) + 6
        if not home:
            canvas.text((180, middle), "no cats yet", kit.SMALL, kit.MUTED, anchor="lm")


def _winner_home(canvas: kit.Canvas, box, name: str, home, lines) -> None:
    x0, y0, x1, y1 = box
    canvas.text((x0 + 14, y0 + 10), f"{name}'s home", kit.TEXT, kit.INK, width=x1 - x0 - 28)
    x, y = x0 + 14, y0 + 50
    for kind, moon, count in home:
        if x + chip_width(kind, count) > x1 - 10:
            x, y = x0 + 14, y + 40
        x = chip(canvas, x, y, kind, moon, count) + 6
    y += 50
    for label, points in lines[: max(0, int((y1 - y - 10) // 28))]:
        canvas.text((x0 + 14, y), label, kit.SMALL, kit.MUTED, width=x1 - x0 - 80)
        canvas.text((x1 - 14, y), str(points), kit.SMALL, kit.YELLOW, anchor="ra", bold=True)
        y += 28
