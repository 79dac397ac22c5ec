"""The shapes every game's pictures draw — dice faces, cat and dog heads, ribbons, hearts, crowns and the
text's emoji as shapes (`symbol`) — each drawn once for its size and colours and pasted after that.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from pictures.kit import (
    COLOURS,
    DARK,
    HEIGHT,
    INDEX,
    INK,
    ORANGE,
    SKY,
    WARNING,
    WIDTH,
    YELLOW,
    Canvas,
)
from pictures.palette import Piece, drawn_mask, sheet
from pictures.silhouettes import SILHOUETTES, polygon, silhouette, star_points


@dataclass
class Sketch:
    """A small sheet a kept drawing is made on (`stamp`): what the kit's painters draw with."""

    image: Image.Image
    draw: ImageDraw.ImageDraw


def stamp(canvas: Canvas, painter, cx: float, cy: float, r: float, *colours) -> None:
    """Paste what `painter(sketch, x, y, r, *colours)` draws around (x, y), drawn once for each size and
    colours and kept (`stamped`): a picture draws the same shapes, hearts and crowns again and again,
    and pasting them costs a fraction of drawing their polygons again."""
    piece = stamped(painter, r, colours)
    reach = piece.width // 2
    piece.paste(canvas.core, (round(cx) - reach, round(cy) - reach))


@lru_cache(maxsize=1024)
def stamped(painter, r: float, colours: tuple) -> Piece:
    """What `painter` draws at radius `r` in `colours`, around the middle of a sheet that holds all of
    it (every painter stays within 1.7 r of its centre), with the mask of its pixels."""
    reach = math.ceil(r * 1.7) + 4
    drawing = sheet((2 * reach + 1, 2 * reach + 1))
    painter(Sketch(drawing, ImageDraw.Draw(drawing)), reach, reach, r, *colours)
    return Piece.of(drawing, drawn_mask(drawing))


def shape(canvas: Canvas, kind: str, cx: float, cy: float, r: float, fill, outline=DARK) -> None:
    """One of the kit's marker shapes centred on (cx, cy): circle, square, triangle, star, diamond, and
    the `SILHOUETTES` (flame, drop, paw, sun, moon)."""
    if canvas.watched is not None:
        at = (min(WIDTH - 1, max(0, round(cx + r))), min(HEIGHT - 1, max(0, round(cy))))
        canvas.watched.markings.append((kind, tuple(fill), COLOURS[canvas.pixels[at]]))
    stamp(canvas, _shape, cx, cy, r, kind, tuple(fill), tuple(outline))


def _shape(sketch: Sketch, cx: float, cy: float, r: float, kind: str, fill, outline) -> None:
    draw = sketch.draw
    if kind == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=2)
    elif kind == "square":
        s = r * 0.88
        draw.rounded_rectangle(
            (cx - s, cy - s, cx + s, cy + s), radius=max(2, r // 5), fill=fill, outline=outline, width=2
        )
    elif kind == "triangle":
        draw.polygon(polygon(cx, cy + r * 0.15, r * 1.1, 3), fill=fill, outline=outline, width=2)
    elif kind == "star":
        draw.polygon(star_points(cx, cy + r * 0.05, r * 1.1), fill=fill, outline=outline, width=2)
    elif kind == "diamond":
        draw.polygon(polygon(cx, cy, r * 1.05, 4), fill=fill, outline=outline, width=2)
    elif kind in SILHOUETTES:
        edge, inside = silhouette(kind, r)
        at = (round(cx - inside.width / 2), round(cy - inside.height / 2))
        sketch.image.paste(INDEX[tuple(outline)], at, edge)
        sketch.image.paste(INDEX[tuple(fill)], at, inside)
    else:
        raise ValueError(f"no shape called {kind!r}")


SYMBOLS: dict[str, tuple[str, tuple[int, int, int]]] = {
    "🔥": ("flame", WARNING),  # Mad Cat Sad Cat: a mad cat die
    "💧": ("drop", SKY),  # a sad cat die
    "🐾": ("paw", YELLOW),  # a wild die
    "⚪": ("circle", INK),  # Nine Lives' four cats
    "🟦": ("square", SKY),
    "🔺": ("triangle", WARNING),
    "⭐": ("star", YELLOW),
    "☀️": ("sun", ORANGE),  # CatSanity: a Sun Cat
    "🌙": ("moon", YELLOW),  # a Moon Cat
}
"""The emoji the games' texts write for a kind of thing (a die, a cat, a kind of card), as the
pictures draw them: the font has no emoji, so each is drawn as a shape of its own, in its colour.
The picture and the text then use one vocabulary: a 🔥1 in the text is a flame marked 1 in the
picture, a 🟦 a blue square."""


def symbol(canvas: Canvas, emoji: str, cx: float, cy: float, r: float, fill=None) -> str:
    """Draw the text's `emoji` as its shape (`SYMBOLS`), in its colour unless `fill` says another
    (a cat left out of play in grey, a kind of cat in its own); returns the emoji drawn."""
    form, colour = SYMBOLS[emoji]
    shape(canvas, form, cx, cy, r, colour if fill is None else fill)
    return emoji


def cat_head(canvas: Canvas, cx: float, cy: float, r: float, fill, outline=DARK) -> None:
    """A cat's head: a round face with two pointed ears."""
    stamp(canvas, _cat_head, cx, cy, r, tuple(fill), tuple(outline))


def _cat_head(sketch: Sketch, cx: float, cy: float, r: float, fill, outline) -> None:
    draw = sketch.draw
    for side in (-1, 1):
        draw.polygon(
            [
                (cx + side * r * 0.95, cy - r * 1.05),
                (cx + side * r * 0.25, cy - r * 0.6),
                (cx + side * r * 0.9, cy - r * 0.1),
            ],
            fill=fill,
            outline=outline,
            width=2,
        )
    draw.ellipse((cx - r, cy - r * 0.75, cx + r, cy + r * 0.85), fill=fill, outline=outline, width=2)


def dog_head(canvas: Canvas, cx: float, cy: float, r: float, fill, outline=DARK) -> None:
    """A dog's head: a squarer face with two drooping ears."""
    stamp(canvas, _dog_head, cx, cy, r, tuple(fill), tuple(outline))


def _dog_head(sketch: Sketch, cx: float, cy: float, r: float, fill, outline) -> None:
    draw = sketch.draw
    draw.rounded_rectangle(
        (cx - r * 0.85, cy - r * 0.8, cx + r * 0.85, cy + r * 0.85),
        radius=r * 0.4,
        fill=fill,
        outline=outline,
        width=2,
    )
    for side in (-1, 1):
        x = cx + side * r * 0.85
        draw.ellipse((x - r * 0.35, cy - r * 0.85, x + r * 0.35, cy + r * 0.35), fill=DARK, outline=outline)


def ribbon(canvas: Canvas, cx: float, cy: float, r: float, fill=SKY) -> None:
    """A prize ribbon: a rosette with two tails."""
    stamp(canvas, _ribbon, cx, cy, r, tuple(fill))


def _ribbon(sketch: Sketch, cx: float, cy: float, r: float, fill) -> None:
    draw = sketch.draw
    draw.polygon(
        [(cx - r * 0.6, cy), (cx - r * 0.9, cy + r * 1.6), (cx - r * 0.3, cy + r * 1.25), (cx, cy + r * 0.2)],
        fill=fill,
        outline=DARK,
    )
    draw.polygon(
        [(cx + r * 0.6, cy), (cx + r * 0.9, cy + r * 1.6), (cx + r * 0.3, cy + r * 1.25), (cx, cy + r * 0.2)],
        fill=fill,
        outline=DARK,
    )
    draw.polygon(star_points(cx, cy, r, points=8, inner=0.75), fill=fill, outline=DARK)
    draw.ellipse((cx - r * 0.45, cy - r * 0.45, cx + r * 0.45, cy + r * 0.45), fill=INK, outline=DARK)


def heart(canvas: Canvas, cx: float, cy: float, r: float, fill=WARNING) -> None:
    stamp(canvas, _heart, cx, cy, r, tuple(fill))


def _heart(sketch: Sketch, cx: float, cy: float, r: float, fill) -> None:
    draw = sketch.draw
    draw.ellipse((cx - r, cy - r * 0.7, cx, cy + r * 0.3), fill=fill)
    draw.ellipse((cx, cy - r * 0.7, cx + r, cy + r * 0.3), fill=fill)
    draw.polygon([(cx - r * 0.97, cy - r * 0.05), (cx + r * 0.97, cy - r * 0.05), (cx, cy + r)], fill=fill)


def crown(canvas: Canvas, cx: float, cy: float, r: float, fill=YELLOW) -> None:
    stamp(canvas, _crown, cx, cy, r, tuple(fill))


def _crown(sketch: Sketch, cx: float, cy: float, r: float, fill) -> None:
    sketch.draw.polygon(
        [
            (cx - r, cy + r * 0.6),
            (cx - r, cy - r * 0.5),
            (cx - r * 0.5, cy),
            (cx, cy - r * 0.8),
            (cx + r * 0.5, cy),
            (cx + r, cy - r * 0.5),
            (cx + r, cy + r * 0.6),
        ],
        fill=fill,
        outline=DARK,
        width=2,
    )
