"""Mad Cat Sad Cat: the roller's dice (set aside, then just rolled) and the eight cat cards with their
VPs, the catpot and every player's score.

Mad dice are orange-red squares marked "M", sad dice blue circles marked "S", wilds yellow stars: three
shapes, three letters and three colours, so no die is told by colour alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Outcome
from engine.madcat.view import CATPOT, COMBOS, View, card
from pictures import kit
from pictures.results import draw_results, results_scene

TITLE = "Mad Cat Sad Cat"
COMBO_SHORT = {"2p": "Two pairs", "fh": "Full house", "4k": "Four kind", "5k": "Five kind"}
KIND_LOOK = {"mad": ("square", kit.VERMILLION, "MAD"), "sad": ("circle", kit.SKY, "SAD")}
FACE_LOOK = {
    "m1": ("square", kit.VERMILLION, "M1"),
    "m2": ("square", kit.VERMILLION, "M2"),
    "m3": ("square", kit.VERMILLION, "M3"),
    "s1": ("circle", kit.SKY, "S1"),
    "s2": ("circle", kit.SKY, "S2"),
    "w": ("star", kit.YELLOW, "W"),
}


def scene(view: View, names: Sequence[str], outcome: Outcome | None) -> tuple:
    """What the picture shows, as plain data from the public view (and the public outcome)."""
    if outcome is not None:
        return results_scene(names, outcome)
    return (
        "table",
        tuple(names),
        view.turn,
        view.phase,
        view.aside,
        view.rolled,
        view.kind,
        view.cards,
        view.scores,
        view.supply,
        view.final_round,
    )


def draw(data: tuple) -> bytes:
    if data[0] == "results":
        return draw_results(TITLE, *data[1:])
    _, names, turn, phase, aside, rolled, kind, cards, scores, supply, final_round = data
    canvas = kit.Canvas(TITLE, "Final round!" if final_round else f"Supply {supply} VP")
    _tray(canvas, names[turn], phase, aside, rolled, kind)
    _cards(canvas, cards, kind)
    kit.seat_rows(canvas, 376, names, [f"{score} VP" for score in scores], marked=(turn,))
    return canvas.png()


def die(canvas: kit.Canvas, face: str, cx: float, cy: float, r: float = 25) -> None:
    form, colour, letter = FACE_LOOK[face]
    kit.shape(canvas, form, cx, cy, r, colour)
    canvas.text(
        (cx, cy + (4 if form == "star" else 1)),
        letter,
        kit.SMALL if form == "star" else kit.TEXT,
        kit.DARK,
        anchor="mm",
        bold=True,
    )


def _tray(canvas: kit.Canvas, roller: str, phase: str, aside, rolled, kind) -> None:
    canvas.panel((16, 52, 784, 150))
    what = "is choosing a mooch card" if phase == "mooch" else "rolls"
    canvas.text((28, 58), f"{roller} {what}", kit.SMALL, kit.MUTED, width=300)
    canvas.text((28, 84), "Set aside", kit.SMALL, kit.INK)
    if kind:
        form, colour, word = KIND_LOOK[kind]
        kit.shape(canvas, form, 40, 128, 10, colour)
        canvas.text((56, 128), f"locked {word.lower()}", kit.SMALL, kit.INK, anchor="lm")
    for index, face in enumerate(aside):
        die(canvas, face, 200 + index * 54, 106)
    canvas.draw.line((468, 62, 468, 140), fill=kit.PANEL_LIGHT, width=3)
    canvas.text((482, 84), "Rolled", kit.SMALL, kit.INK)
    if not rolled:
        canvas.text((560, 106), "—", kit.TEXT, kit.MUTED, anchor="lm")
    for index, face in enumerate(rolled):
        die(canvas, face, 580 + index * 46, 106, r=21)


def _cards(canvas: kit.Canvas, cards: Sequence[int], locked: str | None) -> None:
    left, top, width, height, gap = 86, 160, 146, 98, 8
    for row, kind in enumerate(("mad", "sad")):
        y = top + row * (height + gap)
        form, colour, word = KIND_LOOK[kind]
        kit.shape(canvas, form, 44, y + 36, 20, colour)
        canvas.text((44, y + 76), word, kit.SMALL, colour, anchor="mm", bold=True)
        for column, combo in enumerate(COMBOS):
            x = left + column * (width + gap)
            outline = kit.HIGHLIGHT if locked == kind else colour
            canvas.panel((x, y, x + width, y + height), fill=kit.PANEL, outline=outline, width=3)
            canvas.text((x + width / 2, y + 16), COMBO_SHORT[combo], kit.SMALL, kit.INK, anchor="mm")
            inner, outer = cards[card(kind, combo, True)], cards[card(kind, combo, False)]
            canvas.text((x + width / 2, y + 51), str(inner), kit.HUGE, kit.INK, anchor="mm", bold=True)
            canvas.text((x + width / 2, y + 84), f"mooch {outer}", kit.SMALL, colour, anchor="mm", bold=True)
    x = left + 4 * (width + gap)
    canvas.panel((x, top, 784, top + 2 * height + gap), fill=kit.PANEL, outline=kit.YELLOW, width=3)
    kit.shape(canvas, "diamond", (x + 784) / 2, top + 46, 22, kit.YELLOW)
    canvas.text(((x + 784) / 2, top + 92), "Catpot", kit.SMALL, kit.INK, anchor="mm")
    canvas.text(((x + 784) / 2, top + 140), str(cards[CATPOT]), kit.HUGE, kit.INK, anchor="mm", bold=True)
