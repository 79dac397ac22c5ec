"""Mad Cat Sad Cat: who must act, the roller's tray (and the dice just rolled, while they are being
set aside), the sixteen cat cards with their VPs, the catpot and every player's score.

The dice are drawn as the text writes them (`FACE_LABELS`): a mad cat 🔥1 is a vermillion flame marked
1, a sad cat 💧2 a blue drop marked 2, a wild 🐾 a yellow paw; three shapes and three colours, so no
die is told by colour alone. The cards read as the text's grid does: per combination, the outer card
(the moochers split it) then the inner one (the roller's).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.core import Outcome, fill_names
from engine.madcat.texts import FACE_LABELS, KIND_LABELS, SHORT_COMBOS
from engine.madcat.view import CATPOT, COMBOS, View, card
from pictures import kit
from pictures.results import paint_results, results_scene

TITLE = "Mad Cat Sad Cat"
DICE = 5


def split_label(label: str) -> tuple[str, str]:
    """A die face or a kind as the text writes it, split into its emoji and its words:
    "🔥1" -> ("🔥", "1"), "💧 sad" -> ("💧", "sad"), "🐾" -> ("🐾", "")."""
    emoji = next(e for e in kit.SYMBOLS if label.startswith(e))
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
        view.cards,
        view.scores,
        view.supply,
        view.final_round,
    )


def paint(data: tuple) -> Image.Image:
    if data[0] == "results":
        return paint_results(TITLE, *data[1:])
    _, names, now, to_act, aside, rolled, in_hand, kind, cards, scores, supply, final_round = data
    canvas = kit.Canvas(now, "Final round!" if final_round else f"Supply {supply} VP")
    _tray(canvas, aside, rolled, in_hand, kind)
    _cards(canvas, cards, kind)
    kit.seat_rows(canvas, names, [f"{score} VP" for score in scores], marked=to_act)
    return canvas.image


def die(canvas: kit.Canvas, face: str, cx: float, cy: float, r: float = 26) -> str:
    """A die showing `face` as the text writes it: its emoji's shape, marked with its number; returns
    the face as drawn, e.g. "🔥1"."""
    emoji, number = split_label(FACE_LABELS[face])
    kit.symbol(canvas, emoji, cx, cy, r)
    if number:
        number = canvas.text((cx, cy + r * 0.3), number, kit.SMALL, kit.DARK, anchor="mm", bold=True)
    return emoji + number


def _tray(canvas: kit.Canvas, aside, rolled, in_hand: bool, kind: str | None) -> None:
    canvas.panel((16, 52, 784, 148))
    lock = f" · {split_label(KIND_LABELS[kind])[1]} locked" if kind else ""
    canvas.text((28, 56), f"Tray{lock}", kit.SMALL, kit.MUTED)
    canvas.record("tray", tuple(aside))
    canvas.record("rolled", tuple(rolled))
    if not aside:
        canvas.text((28, 118), "empty", kit.TEXT, kit.MUTED, anchor="lm")
    drawn = [die(canvas, face, 50 + index * 58, 118) for index, face in enumerate(aside)]
    canvas.record("tray shows", " ".join(drawn))
    canvas.draw.line((410, 62, 410, 140), fill=kit.PANEL_LIGHT, width=3)
    if rolled:
        canvas.text((424, 56), "Just rolled", kit.SMALL, kit.MUTED)
        drawn = [die(canvas, face, 448 + index * 58, 118) for index, face in enumerate(rolled)]
        canvas.record("rolled shows", " ".join(drawn))
    else:
        left = DICE - len(aside)
        words = f"All {DICE} dice to roll" if in_hand else f"{left} {'die' if left == 1 else 'dice'} to roll"
        canvas.text((424, 104), words, kit.TEXT, kit.INK, anchor="lm")


def _cards(canvas: kit.Canvas, cards: Sequence[int], locked: str | None) -> None:
    """Per combination a row; per kind a column of "outer / inner" VPs, the locked kind's framed."""
    top, row, names_w, column = 154, 44, 186, 220
    for index, kind in enumerate(("mad", "sad")):
        x = 16 + names_w + index * (column + 8)
        emoji, word = split_label(KIND_LABELS[kind])
        canvas.panel(
            (x, top, x + column, top + 4 * row + 30),
            fill=kit.PANEL,
            outline=kit.HIGHLIGHT if locked == kind else kit.SYMBOLS[emoji][1],
            width=4 if locked == kind else 2,
        )
        kit.symbol(canvas, emoji, x + 22, top + 19, 12)
        canvas.text((x + 40, top + 19), word.upper(), kit.SMALL, kit.INK, anchor="lm", bold=True)
        for line, combo in enumerate(COMBOS):
            y = top + 30 + line * row + row / 2
            outer, inner = cards[card(kind, combo, False)], cards[card(kind, combo, True)]
            canvas.text((x + column / 2 - 8, y), f"{outer} /", kit.TEXT, kit.MUTED, anchor="rm")
            canvas.text((x + column / 2 + 4, y), str(inner), kit.LARGE, kit.INK, anchor="lm", bold=True)
    canvas.text((24, top + 19), "outer / inner", kit.SMALL, kit.MUTED, anchor="lm")
    for line, combo in enumerate(COMBOS):
        y = top + 30 + line * row + row / 2
        canvas.text((24, y), SHORT_COMBOS[combo], kit.SMALL, kit.INK, anchor="lm", width=names_w - 12)
    x = 16 + names_w + 2 * (column + 8)
    middle = (x + 784) / 2
    canvas.panel((x, top, 784, top + 4 * row + 30), fill=kit.PANEL, outline=kit.YELLOW, width=3)
    kit.shape(canvas, "diamond", middle, top + 50, 24, kit.YELLOW)
    canvas.text((middle, top + 104), "Catpot", kit.TEXT, kit.INK, anchor="mm")
    canvas.text((middle, top + 164), str(cards[CATPOT]), kit.HUGE, kit.INK, anchor="mm", bold=True)
