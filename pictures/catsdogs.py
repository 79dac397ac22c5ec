"""Cats & Dogs: who must act, the trick as the text shows it (the table's face-up and hidden cards
included), the cards still to come or the last trick, and every player's ribbons.

Cat cards are orange with a pointy-eared head, dog cards blue with a floppy-eared one; both show their
strength as a large number and their ribbons as rosettes. A hidden card shows its back.
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.catsdogs.model import SOLO
from engine.catsdogs.texts import TEXTS, trick_cards
from engine.catsdogs.view import RIBBONS, STRENGTH, TABLE, View
from engine.core import Outcome, fill_names
from pictures import kit
from pictures.results import paint_results, results_scene

TITLE = "Cats & Dogs"
CARD_W, CARD_H, SMALL_W = 112, 132, 86


def scene(view: View, names: Sequence[str], outcome: Outcome | None) -> tuple:
    if outcome is not None:
        return results_scene(names, outcome)
    if view.table[1:]:
        below = ("Cards to come" + (f" · {view.hidden_left} hidden" if view.mode == SOLO else ""),)
        below += (tuple((card, False) for card in view.table[1:]),)
    elif view.last_trick is not None:
        last = view.last_trick
        result = (
            "a tie"
            if last.winner is None
            else f"{'Table' if last.winner == TABLE else names[last.winner]} wins"
        )
        below = (f"Last trick: {result}", tuple((card, seat == last.winner) for seat, card in last.plays))
    else:
        below = ("First trick of the round", ())
    return (
        "table",
        tuple(names),
        fill_names(view.prompt, names),
        f"{TEXTS.heading(view)} · goal {view.target}",
        trick_cards(view),
        below,
        view.ribbons,
        view.scores,
        view.to_act,
    )


def paint(data: tuple) -> Image.Image:
    if data[0] == "results":
        return paint_results(TITLE, *data[1:], unit="")
    _, names, now, heading, trick, below, ribbons, scores, to_act = data
    canvas = kit.Canvas(now)
    _trick(canvas, names, heading, trick)
    _below(canvas, *below)
    values = [f"{scores[s]} +{ribbons[s]}" for s in range(len(names))]
    kit.seat_rows(
        canvas, names, values, marked=to_act, icon=lambda c, x, y: kit.ribbon(c, x, y - 6, 9, kit.GREEN)
    )
    return canvas.image


def card_face(
    canvas: kit.Canvas, card: str | None, x: float, y: float, w: float, h: float, won=False
) -> None:
    """A card (`None`: a hidden one, its back) in the box at (x, y) of width w and height h."""
    if card is None:
        canvas.panel((x, y, x + w, y + h), fill=kit.BLUE, outline=kit.INK, width=3, radius=10)
        canvas.text((x + w / 2, y + h / 2), "?", kit.HUGE, kit.INK, anchor="mm", bold=True)
        return
    cat = card[0] == "C"
    colour = kit.ORANGE if cat else kit.SKY
    outline = kit.HIGHLIGHT if won else colour
    canvas.panel((x, y, x + w, y + h), fill=kit.INK, outline=outline, width=6 if won else 4, radius=10)
    (kit.cat_head if cat else kit.dog_head)(canvas, x + 24, y + 26, 15, colour)
    big = kit.HUGE if h > 100 else kit.LARGE
    canvas.text((x + w - 10, y + 6), str(STRENGTH[card]), big, kit.DARK, anchor="ra", bold=True)
    if h > 100:
        canvas.text((x + 10, y + 56), "CAT" if cat else "DOG", kit.SMALL, kit.DARK, bold=True)
    for index in range(RIBBONS[card]):
        kit.ribbon(canvas, x + 18 + index * 26, y + h - 30, 9, fill=kit.GREEN)


def _trick(canvas: kit.Canvas, names, heading: str, plays) -> None:
    canvas.panel((16, 48, 784, 250))
    canvas.text((28, 52), heading, kit.SMALL, kit.MUTED, width=740)
    canvas.record("trick", tuple(plays))
    if not plays:
        canvas.text((400, 150), "No card played yet", kit.TEXT, kit.MUTED, anchor="mm")
    for index, (seat, card) in enumerate(plays):
        x = 28 + index * (CARD_W + 12)
        card_face(canvas, card, x, 80, CARD_W, CARD_H - 8)
        who = "Table" if seat == TABLE else names[seat]
        canvas.text((x + CARD_W / 2, 244), who, kit.SMALL, kit.INK, anchor="ms", width=CARD_W + 8)


def _below(canvas: kit.Canvas, title: str, cards: Sequence[tuple[str, bool]]) -> None:
    canvas.panel((16, 256, 784, 362))
    canvas.text((28, 258), title, kit.SMALL, kit.MUTED, width=740)
    canvas.record("below", (title, tuple(cards)))
    for index, (card, won) in enumerate(cards[:8]):
        card_face(canvas, card, 28 + index * (SMALL_W + 8), 290, SMALL_W, 66, won)
