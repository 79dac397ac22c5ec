"""The drawing kit every game's pictures share: the canvas, the palette, the sizes and the shapes.

Colours come from the Okabe–Ito palette, which stays distinct for the common kinds of colour
blindness; and nothing is told by colour alone: every kind of die, cat or card also has its own shape
and its own name or number. Where the text marks a kind with an emoji (🔥 a mad cat die, 🟦 a Nine
Lives cat, 🌙 a Moon Cat), the picture draws that emoji as a shape of its own (`shapes.SYMBOLS`), so text and
picture speak one vocabulary. The lettering is in `pictures/letters.py`.

Pictures are made for the width a phone shows them: 286 px (the embed's image on a 390 px screen).
The canvas is twice that, so every size here is halved there: the smallest lettering is 24 px on the
canvas, 12 px on the phone. Every colour pair that carries words has WCAG AA contrast (`watch` lets a
test collect every word drawn with its colours, its size and whether it stays inside its panel).

A picture is drawn straight onto the kit's one palette (`palette.COLOURS`): shapes are filled with its colours
(Pillow draws them without blending), and each piece of lettering is pasted from a tile quantized once
for its colours, so no picture is quantized as a whole; `to_png` writes it as it is (`pictures/png.py`).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TypeVar

from PIL import Image, ImageDraw

from pictures import png
from pictures.letters import drawable, fit, laid_out, length, names_shown
from pictures.palette import (
    BACKGROUND,
    BLUE,
    COLOURS,
    DARK,
    GREEN,
    GREY,
    HIGHLIGHT,
    INDEX,
    INK,
    KEPT,
    MUTED,
    ORANGE,
    PANEL,
    PANEL_LIGHT,
    PURPLE,
    SKY,
    TILE_AREA,
    VERMILLION,
    WARNING,
    YELLOW,
    blank,
    contrast,
    corners,
    lettered_tile,
    tile,
)
from pictures.silhouettes import polygon, star_points

__all__ = [
    "BACKGROUND",
    "BLUE",
    "COLOURS",
    "DARK",
    "GREEN",
    "GREY",
    "HEIGHT",
    "HIGHLIGHT",
    "HUGE",
    "INDEX",
    "INK",
    "LARGE",
    "MUTED",
    "ORANGE",
    "PANEL",
    "PANEL_LIGHT",
    "PURPLE",
    "SHOWN_WIDTH",
    "SKY",
    "SMALL",
    "TEXT",
    "VERMILLION",
    "WARNING",
    "WIDTH",
    "YELLOW",
    "Canvas",
    "Lettering",
    "Watched",
    "contrast",
    "drawable",
    "fit",
    "length",
    "names_shown",
    "polygon",
    "star_points",
    "to_png",
    "watch",
]

T = TypeVar("T")

WIDTH, HEIGHT = 572, 322
"""Every picture's size: 16:9, twice the 286 px a phone shows it at, so every size below is halved
there (and a phone's screen of two or three pixels a point still gets a sharp picture)."""
SHOWN_WIDTH = 286
"""How wide a phone shows the picture: the width the sizes and contrasts are made for."""

BLANK = blank((WIDTH, HEIGHT))
"""An empty canvas on the kit's palette, copied for every picture."""

SMALL, TEXT, LARGE, HUGE = 24, 28, 34, 44
"""Lettering sizes on the canvas: 12, 14, 17 and 22 px when shown 286 px wide."""


@dataclass(frozen=True)
class Lettering:
    """One piece of text as drawn: its words, size in canvas pixels, colours, and where it lies on
    the canvas (`box`) and in which panel (`within`, the canvas itself outside every panel)."""

    words: str
    size: int
    fill: tuple[int, int, int]
    background: tuple[int, int, int]
    box: tuple[int, int, int, int] = (0, 0, 0, 0)
    within: tuple[float, float, float, float] = (0, 0, WIDTH, HEIGHT)

    @property
    def shown_size(self) -> float:
        """Its size in pixels when the picture is shown `SHOWN_WIDTH` wide."""
        return self.size * SHOWN_WIDTH / WIDTH

    @property
    def contrast(self) -> float:
        return contrast(self.fill, self.background)

    @property
    def inside(self) -> bool:
        """Whether all of it lies inside its panel (or the canvas)."""
        x0, y0, x1, y1 = self.box
        left, top, right, bottom = self.within
        return left <= x0 and top <= y0 and x1 <= right + 1 and y1 <= bottom + 1


@dataclass
class Watched:
    """What pictures drawn under `watch` showed: every piece of text with its colours, every shape
    that carries meaning with its colour and the colour under it (`markings`), and what each picture
    states (`Canvas.record`: who must act, the dice, the cards, the scores), newest last."""

    letterings: list[Lettering] = field(default_factory=list)
    markings: list[tuple[str, tuple[int, int, int], tuple[int, int, int]]] = field(default_factory=list)
    states: list[dict[str, object]] = field(default_factory=list)


_watching: ContextVar[Watched | None] = ContextVar("watching", default=None)


@contextlib.contextmanager
def watch() -> Iterator[Watched]:
    """Collect what every picture drawn (in this thread) while inside shows."""
    seen = Watched()
    token = _watching.set(seen)
    try:
        yield seen
    finally:
        _watching.reset(token)


class Canvas:
    """One picture being drawn: a fixed-size palette image and its drawing context."""

    def __init__(self, title: str, subtitle: str = "") -> None:
        """`title`, the picture's headline, says what happens now (or whose results these are)."""
        self.image = BLANK.copy()
        self.image.palette.colors = dict(INDEX)  # Pillow would index the palette anew for each picture
        self.draw = ImageDraw.Draw(self.image)
        self.pixels = self.image.load()
        self.core = self.image.im
        self.states: dict[str, object] = {}
        self.watched = _watching.get()
        self.panels: list[tuple[float, float, float, float]] = []
        if self.watched is not None:
            self.watched.states.append(self.states)
        room = WIDTH - 24
        if subtitle:
            self.text((WIDTH - 12, 10), subtitle, SMALL, MUTED, anchor="ra")
            room -= length(drawable(subtitle), SMALL) + 20
        self.record("now", self.text((12, 6), title, TEXT, INK, bold=True, width=room))

    def kept(self, key: Hashable, box: tuple[int, int, int, int], draw: Callable[[], T]) -> T:
        """What `draw()` draws inside `box` (whole pixels), kept under `key` and pasted again the next
        time: a seat, a card or a die drawn with the same content (`key` must say all the drawing
        depends on) looks the same in every picture it is in, and one paste of it costs a fraction of
        its panel, words and shapes. The kept pixels are the whole box, so what `draw` does not cover
        is the colour under the box's top left corner, which the key includes. Under `watch` every
        drawing is drawn (what a test collects is what it draws); a test holds the two ways alike."""
        x0, y0, x1, y1 = box
        key = (key, x1 - x0, y1 - y0, self.pixels[x0, y0])
        if self.watched is None:
            found = KEPT.get(key)
            if found is not None:
                self.core.paste(found[0], box)
                return found[1]
        result = draw()
        if self.watched is None and x0 >= 0 and y0 >= 0 and x1 <= WIDTH and y1 <= HEIGHT:
            KEPT.put(key, self.image.crop(box).im, result)
        return result

    def kept_in(self, key: Hashable, box: Sequence[float], draw: Callable[[], T]) -> T:
        """`kept` for a drawing that stays inside `box` (a panel's), where it stands (the box is part
        of the key)."""
        x0, y0, x1, y1 = box
        area = (math.floor(x0) - 1, math.floor(y0) - 1, math.ceil(x1) + 2, math.ceil(y1) + 2)
        return self.kept((key, tuple(box)), area, draw)

    def record(self, key: str, value: object) -> None:
        """Note that this picture states `value` as its `key` (what a test compares with the text)."""
        self.states[key] = value

    def text(
        self,
        xy: tuple[float, float],
        words: str,
        size: int = TEXT,
        fill: tuple[int, int, int] = INK,
        anchor: str = "la",
        bold: bool = False,
        width: float | None = None,
    ) -> str:
        """Write `words`, shortened with "…" to fit `width` pixels when given; returns what was written."""
        words, (left, top), (w, h), points = laid_out(words, size, anchor, bold, width)
        if not words:
            return words
        at = (round(xy[0]) + left, round(xy[1]) + top)
        under = self.background_at(at, (w, h), points)
        lettered_tile(words, size, anchor, bold, tuple(fill), under).paste(self.core, at)
        if self.watched is not None:
            box = (at[0], at[1], at[0] + w, at[1] + h)
            drawn = Lettering(words, size, tuple(fill), under, box, self._panel_of(box))
            self.watched.letterings.append(drawn)
        return words

    def _panel_of(self, box: tuple[int, int, int, int]) -> tuple[float, float, float, float]:
        """The smallest panel drawn so far that holds the middle of `box`, else the whole canvas."""
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        holding = [p for p in self.panels if p[0] <= cx <= p[2] and p[1] <= cy <= p[3]]
        return min(holding, key=lambda p: (p[2] - p[0]) * (p[3] - p[1]), default=(0, 0, WIDTH, HEIGHT))

    def background_at(
        self, at: tuple[int, int], size: tuple[int, int], points: Sequence[tuple[int, int]]
    ) -> tuple[int, int, int]:
        """The colour most of `points` (offsets from `at`, inside a box of `size`) are painted in: what
        a text whose letters cover those points stands on. Reading a few points under the letters
        themselves finds the panel, card or die they stand on, where the box's edges may touch a
        frame beside them."""
        pixels, x0, y0 = self.pixels, at[0], at[1]
        if x0 < 0 or y0 < 0 or x0 + size[0] > WIDTH or y0 + size[1] > HEIGHT:
            points = [
                (min(WIDTH - 1, max(0, x0 + x)) - x0, min(HEIGHT - 1, max(0, y0 + y)) - y0) for x, y in points
            ]
        seen = [pixels[x0 + x, y0 + y] for x, y in points]
        return COLOURS[max(seen, key=seen.count)]

    def panel(self, box: Sequence[float], fill=PANEL, outline=None, width: int = 3, radius: int = 10) -> None:
        """A panel: a rounded box whose lettering `watch` checks stays inside it."""
        self.panels.append(tuple(box))
        self.rounded(box, radius, fill, outline, width)

    def rounded(self, box: Sequence[float], radius: float, fill, outline=None, width: int = 1) -> None:
        """A rounded rectangle, as Pillow draws one, made of kept pieces: its four corners pasted from
        a small kept drawing (`corners`), its straight parts filled as rectangles. A picture draws
        the same boxes again and again, and filling rectangles costs a fraction of Pillow drawing the
        rounded corners anew or pasting a whole panel's pixels through a mask."""
        x0, y0, x1, y1 = (round(v) for v in box)
        if (
            (x1 - x0 + 1) * (y1 - y0 + 1) <= TILE_AREA
            and x0 > 0
            and y0 > 0
            and x1 < WIDTH - 1
            and y1 < HEIGHT - 1
        ):
            pixels = self.pixels
            under = pixels[x0, y0]
            if under == pixels[x1, y0] == pixels[x0, y1] == pixels[x1, y1]:
                kept = tile(x1 - x0 + 1, y1 - y0 + 1, radius, fill, outline, width, under)
                self.core.paste(kept, (x0, y0, x1 + 1, y1 + 1))
                return
        pieces = corners(radius, fill, outline, width)
        side = pieces[0].width
        if x1 - x0 + 1 < 2 * side or y1 - y0 + 1 < 2 * side:
            drawn = (x0, y0, x1, y1)
            self.draw.rounded_rectangle(drawn, radius=radius, fill=fill, outline=outline, width=width)
            return
        draw = self.draw
        draw.rectangle((x0 + side, y0, x1 - side, y1), fill=fill)
        draw.rectangle((x0, y0 + side, x1, y1 - side), fill=fill)
        if outline is not None and width > 0:
            w = width - 1
            draw.rectangle((x0 + side, y0, x1 - side, y0 + w), fill=outline)
            draw.rectangle((x0 + side, y1 - w, x1 - side, y1), fill=outline)
            draw.rectangle((x0, y0 + side, x0 + w, y1 - side), fill=outline)
            draw.rectangle((x1 - w, y0 + side, x1, y1 - side), fill=outline)
        far = (x1 - side + 1, y1 - side + 1)
        for piece, at in zip(pieces, ((x0, y0), (far[0], y0), (x0, far[1]), far), strict=True):
            piece.paste(self.core, at)


PNG_PALETTE = bytes(channel for colour in COLOURS for channel in colour)
"""The palette as a PNG lists it: the colours in use, three bytes each."""


def to_png(image: Image.Image) -> bytes:
    """The picture as a PNG, on the kit's palette as it was drawn (`pictures/png.py`)."""
    return png.encode(image, PNG_PALETTE)
