"""The drawing kit every game's pictures share: the canvas, the palette, the font and the shapes.

Colours come from the Okabe–Ito palette, which stays distinct for the common kinds of colour
blindness; and nothing is told by colour alone: every kind of die, cat or card also has its own shape
and its own letter. The font is the scalable one Pillow carries inside it (`load_default(size=…)`),
so nothing is fetched at run time.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 800, 450
"""Every picture's size: 16:9, read at about half size in a phone's preview, so text is ≥ 22 px here."""

BACKGROUND = (34, 38, 46)
PANEL = (52, 58, 70)
PANEL_LIGHT = (72, 80, 96)
INK = (245, 245, 240)
MUTED = (170, 176, 188)
DARK = (20, 22, 28)

ORANGE = (230, 159, 0)
SKY = (86, 180, 233)
GREEN = (0, 158, 115)
YELLOW = (240, 228, 66)
BLUE = (0, 114, 178)
VERMILLION = (213, 94, 0)
PURPLE = (204, 121, 167)
GREY = (150, 150, 150)
HIGHLIGHT = YELLOW

SMALL, TEXT, LARGE, HUGE = 22, 26, 32, 44


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size=size)


class Canvas:
    """One picture being drawn: a fixed-size image and its drawing context."""

    def __init__(self, title: str, subtitle: str = "") -> None:
        self.image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.text((16, 10), title, LARGE, INK)
        if subtitle:
            self.text((WIDTH - 16, 16), subtitle, TEXT, MUTED, anchor="ra")

    def text(
        self,
        xy: tuple[float, float],
        words: str,
        size: int = TEXT,
        fill: tuple[int, int, int] = INK,
        anchor: str = "la",
        bold: bool = False,
        width: float | None = None,
    ) -> None:
        """Write `words`, shortened with "…" to fit `width` pixels when given."""
        if width is not None:
            words = fit(words, size, width)
        if not words:
            return
        mask, (left, top) = lettering(words, size, anchor, bold)
        self.image.paste(fill, (round(xy[0]) + left, round(xy[1]) + top), mask)

    def panel(self, box: Sequence[float], fill=PANEL, outline=None, width: int = 3, radius: int = 12) -> None:
        self.draw.rounded_rectangle(tuple(box), radius=radius, fill=fill, outline=outline, width=width)

    def png(self) -> bytes:
        return to_png(self.image)


@lru_cache(maxsize=4096)
def fit(words: str, size: int, width: float) -> str:
    face = font(size)
    if face.getlength(words) <= width:
        return words
    while words and face.getlength(words + "…") > width:
        words = words[:-1]
    return words + "…"


LETTERINGS_KEPT = 1024
"""Masks kept by `lettering`. A mask's pixels live outside Python's allocator, where tracemalloc does
not see them, and a larger cache fills over hours of play with every table number, score and name met.
This many hold every word of the four games' random playouts of `bench.pictures`, so the words every
picture has stay cached (the sizes are in docs/benchmarks.md, section 8)."""


@lru_cache(maxsize=LETTERINGS_KEPT)
def lettering(words: str, size: int, anchor: str, bold: bool) -> tuple[Image.Image, tuple[int, int]]:
    """`words` rendered once as a mask, with its offset from the anchor point: most words of a
    picture (labels, numbers, names) come back in every picture, and pasting a mask is far cheaper
    than rendering the glyphs again."""
    face = font(size)
    stroke = 1 if bold else 0
    left, top, right, bottom = face.getbbox(words, anchor=anchor, stroke_width=stroke)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text(
        (-left, -top), words, font=face, fill=255, anchor=anchor, stroke_width=stroke, stroke_fill=255
    )
    return mask, (left, top)


def _palette() -> Image.Image:
    """The pictures' one palette: the kit's colours and two blends of every pair of them (the edges
    of letters and shapes), so every picture maps onto it without choosing colours anew."""
    base = [
        BACKGROUND,
        PANEL,
        PANEL_LIGHT,
        INK,
        MUTED,
        DARK,
        ORANGE,
        SKY,
        GREEN,
        YELLOW,
        BLUE,
        VERMILLION,
        PURPLE,
        GREY,
    ]
    colours = list(base)
    for i, first in enumerate(base):
        for second in base[i + 1 :]:
            for share in (1 / 3, 2 / 3):
                mixed = zip(first, second, strict=True)
                colours.append(tuple(round(a * share + b * (1 - share)) for a, b in mixed))
    palette = Image.new("P", (1, 1))
    flat = [channel for colour in colours for channel in colour]
    palette.putpalette(flat + [0] * (768 - len(flat)))
    return palette


PALETTE = _palette()


def to_png(image: Image.Image) -> bytes:
    """The picture as a small PNG on the kit's fixed palette (flat artwork loses nothing visible)."""
    out = io.BytesIO()
    image.quantize(palette=PALETTE, dither=Image.Dither.NONE).save(out, format="PNG", compress_level=3)
    return out.getvalue()


# ---- shapes -----------------------------------------------------------------------------------------


def polygon(cx: float, cy: float, r: float, sides: int, rotation: float = -90) -> list[tuple[float, float]]:
    return [
        (
            cx + r * math.cos(math.radians(rotation + i * 360 / sides)),
            cy + r * math.sin(math.radians(rotation + i * 360 / sides)),
        )
        for i in range(sides)
    ]


def star_points(
    cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45
) -> list[tuple[float, float]]:
    result = []
    for i in range(points * 2):
        radius = r if i % 2 == 0 else r * inner
        angle = math.radians(-90 + i * 180 / points)
        result.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return result


def shape(canvas: Canvas, kind: str, cx: float, cy: float, r: float, fill, outline=DARK) -> None:
    """One of the kit's marker shapes centred on (cx, cy): circle, square, triangle, star, diamond."""
    draw = canvas.draw
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
    else:
        raise ValueError(f"no shape called {kind!r}")


def cat_head(canvas: Canvas, cx: float, cy: float, r: float, fill, outline=DARK) -> None:
    """A cat's head: a round face with two pointed ears."""
    draw = canvas.draw
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
    draw = canvas.draw
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
    draw = canvas.draw
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


def heart(canvas: Canvas, cx: float, cy: float, r: float, fill=VERMILLION) -> None:
    draw = canvas.draw
    draw.ellipse((cx - r, cy - r * 0.7, cx, cy + r * 0.3), fill=fill)
    draw.ellipse((cx, cy - r * 0.7, cx + r, cy + r * 0.3), fill=fill)
    draw.polygon([(cx - r * 0.97, cy - r * 0.05), (cx + r * 0.97, cy - r * 0.05), (cx, cy + r)], fill=fill)


def crown(canvas: Canvas, cx: float, cy: float, r: float, fill=YELLOW) -> None:
    canvas.draw.polygon(
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


# ---- players ----------------------------------------------------------------------------------------


def seat_rows(
    canvas: Canvas,
    top: float,
    names: Sequence[str],
    values: Sequence[str],
    marked: Sequence[int] = (),
    crowned: Sequence[int] = (),
) -> None:
    """A strip of seats across the picture's width: a name and a value each; `marked` seats are
    framed (whose turn it is), `crowned` ones wear a crown (winners)."""
    count = max(1, len(names))
    gap = 8
    width = (WIDTH - 32 - gap * (count - 1)) / count
    for seat, (name, value) in enumerate(zip(names, values, strict=True)):
        x = 16 + seat * (width + gap)
        mark = seat in marked
        canvas.panel(
            (x, top, x + width, top + 64),
            fill=PANEL_LIGHT if mark else PANEL,
            outline=HIGHLIGHT if mark else None,
            radius=10,
        )
        left = x + 10
        if seat in crowned:
            crown(canvas, left + 12, top + 20, 11)
            left += 28
        canvas.text((left, top + 8), name, SMALL, INK, width=x + width - left - 8)
        canvas.text((x + 10, top + 32), value, TEXT, INK, bold=True, width=width - 20)
