"""CatSanity: who must act, the alley's cats, and every home with its cats grouped by kind, its running
score and its sanity (the text's 🧠).

Sun Cats and Moon Cats are marked as the text marks them (☀️, 🌙): a sun or a crescent on each card and
chip, in the kind's colour, with the kind's name beside it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from PIL import Image

from engine.catsanity.texts import MOON_MARK, SUN_MARK
from engine.catsanity.view import KIND, KIND_NAMES, TOKENS_BY_PLAYERS, View, is_moon
from engine.core import Outcome, fill_names
from pictures import kit
from pictures.results import paint_results, score_lines

TITLE = "CatSanity"
COLOURS = {"house": kit.ORANGE, "chorus": kit.GREEN, "fib": kit.PURPLE}


def short(kind: str) -> str:
    """A kind's name as the text writes it, less the "Cat" every kind has: "Twin A", "Moon King"."""
    return KIND_NAMES[kind].removesuffix(" Cat").removeprefix("Cat of ")


def mark(moon: bool) -> str:
    """What marks a Moon Cat or a Sun Cat, as the text writes it."""
    return MOON_MARK if moon else SUN_MARK


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
    sanity = tuple(
        f"sanity {tokens}/{TOKENS_BY_PLAYERS[view.players]}" if tokens else "insane" for tokens in view.tokens
    )
    now = fill_names(view.prompt, names)
    return ("table", tuple(names), now, view.to_act, alley, homes, view.scores, sanity, view.deck_size)


def paint(data: tuple) -> Image.Image:
    if data[0] == "results":
        _, names, scores, winners, best, home, lines = data
        return paint_results(
            TITLE,
            names,
            scores,
            winners,
            (),
            collection=lambda canvas, box: _winner_home(canvas, box, names[best], home, lines),
        )
    _, names, now, to_act, alley, homes, scores, sanity, deck = data
    canvas = kit.Canvas(now)
    _alley(canvas, alley, deck)
    _homes(canvas, names, to_act, homes, scores, sanity)
    return canvas.image


def chip_label(kind: str, count: int) -> str:
    return short(kind) + (f" ×{count}" if count > 1 else "")


def chip_width(kind: str, count: int, size: int = kit.SMALL) -> float:
    return kit.length(chip_label(kind, count), size) + 44


def chip(
    canvas: kit.Canvas, x: float, y: float, kind: str, moon: bool, count: int, size: int = kit.SMALL
) -> float:
    """A kind's chip at (x, y) — marker shape, name and count; returns its right edge."""
    width = chip_width(kind, count, size)
    height = size + 12
    canvas.panel((x, y, x + width, y + height), fill=kit.PANEL_LIGHT, radius=height // 2)
    kit.symbol(canvas, mark(moon), x + 17, y + height / 2, 10, colour(kind, moon))
    canvas.text((x + 33, y + height / 2), chip_label(kind, count), size, kit.INK, anchor="lm")
    return x + width


def _alley(canvas: kit.Canvas, alley: Sequence[tuple[str, bool]], deck: int) -> None:
    canvas.panel((16, 48, 784, 118))
    canvas.text((28, 70), "Alley", kit.TEXT, kit.MUTED, anchor="lm")
    canvas.text((28, 100), f"deck {deck}", kit.SMALL, kit.MUTED, anchor="lm")
    canvas.record("alley", tuple(alley))
    if not alley:
        canvas.text((150, 83), "empty", kit.TEXT, kit.MUTED, anchor="lm")
    shown = []
    for index, (kind, moon) in enumerate(alley):
        x = 150 + index * 212
        canvas.panel((x, 56, x + 200, 110), fill=kit.INK, outline=colour(kind, moon), width=4, radius=10)
        drawn = kit.symbol(canvas, mark(moon), x + 26, 83, 16, colour(kind, moon))
        size = kit.TEXT if kit.length(short(kind), kit.TEXT, True) <= 142 else kit.SMALL
        shown.append(
            (drawn, canvas.text((x + 50, 83), short(kind), size, kit.DARK, anchor="lm", bold=True, width=142))
        )
    canvas.record("alley shows", tuple(shown))


def _homes(canvas: kit.Canvas, names, to_act, homes, scores, sanity) -> None:
    top, bottom = 124, 446
    height = (bottom - top) / len(names)
    shown = []
    for seat, home in enumerate(homes):
        y = top + seat * height
        mine = seat in to_act
        canvas.panel(
            (16, y, 784, y + height - 6),
            fill=kit.PANEL_LIGHT if mine else kit.PANEL,
            outline=kit.HIGHLIGHT if mine else None,
            width=4,
            radius=10,
        )
        middle = y + (height - 6) / 2
        points = f"{scores[seat]} pt{'s' if scores[seat] != 1 else ''}"
        canvas.text(
            (28, middle - 13), f"{names[seat]} · {points}", kit.SMALL, kit.INK, anchor="lm", width=250
        )
        canvas.text((28, middle + 14), sanity[seat], kit.SMALL, kit.YELLOW, anchor="lm", width=250)
        x, drawn, more = 290, 0, ""
        for kind, moon, count in home:
            if x + chip_width(kind, count) > 720:
                more = canvas.text((x, middle), f"+{len(home) - drawn}", kit.TEXT, kit.INK, anchor="lm")
                break
            x = chip(canvas, x, middle - 19, kind, moon, count) + 6
            drawn += 1
        if not home:
            canvas.text((290, middle), "no cats yet", kit.SMALL, kit.MUTED, anchor="lm")
        shown.append((scores[seat], sanity[seat], drawn, more, mine))
    canvas.record("homes", tuple(shown))


def _winner_home(canvas: kit.Canvas, box, name: str, home, lines) -> None:
    x0, y0, x1, y1 = box
    canvas.text((x0 + 14, y0 + 10), f"{name}'s home", kit.TEXT, kit.INK, width=x1 - x0 - 28)
    x, y = x0 + 14, y0 + 50
    for kind, moon, count in home:
        if x + chip_width(kind, count) > x1 - 10:
            x, y = x0 + 14, y + 44
        x = chip(canvas, x, y, kind, moon, count) + 6
    score_lines(canvas, (x0, y + 50, x1, y1), lines)
