"""Cats & Dogs: the trick on the table (or the last one, with who took it), the table's face-up cards,
and every player's ribbons this round and in all.

Cat cards are orange with a pointy-eared head, dog cards blue with a floppy-eared one; both show their
strength as a large number and their ribbons as rosettes.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.catsdogs.view import RIBBONS, STRENGTH, TABLE, View
from engine.core import Outcome
from pictures import kit
from pictures.results import draw_results, results_scene

TITLE = "Cats & Dogs"
CARD_W, CARD_H = 92, 128


def scene(view: View, names: Sequence[str], outcome: Outcome | None) -> tuple:
    if outcome is not None:
        return results_scene(names, outcome)
    last = view.last_trick
    earlier = None if last is None else (last.plays, last.winner)
    return (
        "table",
        tuple(names),
        view.round,
        view.target,
        view.trick,
        earlier,
        view.table,
        view.ribbons,
        view.scores,
        view.to_act,
    )


def draw(data: tuple) -> bytes:
    if data[0] == "results":
        return draw_results(TITLE, *data[1:], unit="")
    _, names, round_, target, trick, earlier, table, ribbons, scores, to_act = data
    canvas = kit.Canvas(TITLE, f"Round {round_} · ribbons (+this round) · goal {target}")
    if trick or earlier is None:
        _trick(canvas, names, "Trick on the table", trick, None)
    else:
        _trick(canvas, names, _took(names, earlier[1]), *earlier)
    if table:
        _small_cards(canvas, "Table cards to come", [(card, False) for card in table])
    elif trick and earlier is not None:
        plays, winner = earlier
        _small_cards(canvas, _took(names, winner), [(card, seat == winner) for seat, card in plays])
    else:
        canvas.panel((16, 244, 784, 366))
        canvas.text((400, 305), "First trick of the round", kit.TEXT, kit.MUTED, anchor="mm")
    values = [f"{scores[s]} (+{ribbons[s]})" for s in range(len(names))]
    kit.seat_rows(canvas, 376, names, values, marked=to_act)
    return canvas.png()


def _took(names: Sequence[str], winner: int | None) -> str:
    if winner is None:
        return "Last trick: nobody took it"
    return f"Last trick: {'the table' if winner == TABLE else names[winner]} took it"


def playing_card(canvas: kit.Canvas, card: str, x: float, y: float, winner: bool = False) -> None:
    cat = card[0] == "C"
    colour = kit.ORANGE if cat else kit.SKY
    canvas.panel(
        (x, y, x + CARD_W, y + CARD_H),
        fill=kit.INK,
        outline=kit.HIGHLIGHT if winner else colour,
        width=5 if winner else 4,
        radius=10,
    )
    (kit.cat_head if cat else kit.dog_head)(canvas, x + 26, y + 30, 17, colour)
    canvas.text((x + CARD_W - 12, y + 8), str(STRENGTH[card]), kit.HUGE, kit.DARK, anchor="ra", bold=True)
    canvas.text((x + 10, y + 60), "CAT" if cat else "DOG", kit.SMALL, kit.DARK, bold=True)
    for index in range(RIBBONS[card]):
        kit.ribbon(canvas, x + 18 + index * 28, y + 100, 10, fill=kit.GREEN)


def _trick(canvas: kit.Canvas, names, title: str, plays, winner) -> None:
    canvas.panel((16, 52, 784, 236))
    canvas.text((28, 58), title, kit.SMALL, kit.MUTED, width=740)
    if not plays:
        canvas.text((400, 150), "No card played yet", kit.TEXT, kit.MUTED, anchor="mm")
    for index, (seat, card) in enumerate(plays[:7]):
        x = 28 + index * 108
        playing_card(canvas, card, x, 84, winner=seat == winner)
        who = "Table" if seat == TABLE else names[seat]
        canvas.text((x + CARD_W / 2, 224), who, kit.SMALL, kit.INK, anchor="mm", width=104)


def _small_cards(canvas: kit.Canvas, title: str, cards: Sequence[tuple[str, bool]]) -> None:
    canvas.panel((16, 244, 784, 366))
    canvas.text((28, 250), title, kit.SMALL, kit.MUTED, width=740)
    for index, (card, won) in enumerate(cards[:8]):
        x = 28 + index * 94
        cat = card[0] == "C"
        colour = kit.ORANGE if cat else kit.SKY
        outline = kit.HIGHLIGHT if won else colour
        canvas.panel((x, 278, x + 84, 358), fill=kit.INK, outline=outline, width=5 if won else 4, radius=8)
        (kit.cat_head if cat else kit.dog_head)(canvas, x + 24, 306, 13, colour)
        canvas.text((x + 74, 284), str(STRENGTH[card]), kit.LARGE, kit.DARK, anchor="ra", bold=True)
        for r in range(RIBBONS[card]):
            kit.ribbon(canvas, x + 16 + r * 22, 336, 7, fill=kit.GREEN)
