"""The pictures' colours and their one palette, and the pieces drawn on it once and kept.

Colours come from the Okabe–Ito palette, which stays distinct for the common kinds of colour
blindness. Every picture is a palette image of `COLOURS`: the kit's colours and two blends of every
pair of them (the smooth edges of letters). A drawing that is made the same again and again — a
rounded corner, a word in its colours, a shape — is drawn once on a small sheet of the palette and
kept with the mask of the pixels it sets (`sheet`, `drawn_mask`); pictures paste it through that
mask (`Piece`), which costs a fraction of drawing it again.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from pictures.letters import lettering

BACKGROUND = (34, 38, 46)
PANEL = (52, 58, 70)
PANEL_LIGHT = (72, 80, 96)
INK = (245, 245, 240)
MUTED = (196, 201, 212)
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
WARNING = (255, 140, 90)
"""A vermillion light enough to be read on the dark panels (words that warn: "over!"), and the colour
of the red things drawn there (flames, triangles, hearts): 3.5:1 or more against every panel, where
`VERMILLION` is 2.1–2.95:1."""


def luminance(colour: Sequence[int]) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    channels = [c / 255 for c in colour[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: Sequence[int], second: Sequence[int]) -> float:
    """WCAG 2 contrast ratio of two colours, 1 to 21."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@dataclass(frozen=True)
class Piece:
    """A kept drawing ready to paste: its pixels and the mask of the pixels it sets, as Pillow's core
    images (taken once: `Image.im` and `Image.paste` check and load both images on every use, which
    costs more than pasting the few hundred pixels of a corner or a word), and its size."""

    pixels: Any
    mask: Any
    width: int
    height: int

    @classmethod
    def of(cls, pixels: Image.Image, mask: Image.Image) -> Piece:
        return cls(pixels.im, mask.im, pixels.width, pixels.height)

    def paste(self, image: Any, at: tuple[int, int]) -> None:
        """Paste onto `image` (a core image of the palette, `Canvas.core`) with its top left at `at`."""
        image.paste(self.pixels, (at[0], at[1], at[0] + self.width, at[1] + self.height), self.mask)


@lru_cache(maxsize=256)
def corners(radius: float, fill, outline, width: int) -> tuple[Piece, ...]:
    """The four corners of a rounded rectangle (top left, top right, bottom left, bottom right), each
    with the mask of its pixels: cut from one Pillow draws just big enough to hold them."""
    side = math.ceil(radius) + max(width, 1) + 1
    drawing = sheet((2 * side, 2 * side))
    ImageDraw.Draw(drawing).rounded_rectangle(
        (0, 0, 2 * side - 1, 2 * side - 1), radius=radius, fill=fill, outline=outline, width=width
    )
    mask = drawn_mask(drawing)
    cuts = [(0, 0), (side, 0), (0, side), (side, side)]
    return tuple(
        Piece.of(drawing.crop((x, y, x + side, y + side)), mask.crop((x, y, x + side, y + side)))
        for x, y in cuts
    )


SENTINEL = 255
"""A palette index no colour uses: a sheet is filled with it before drawing, so what stays
`SENTINEL` is what the drawing left untouched."""
_UNTOUCHED = bytes(0 if index == SENTINEL else 255 for index in range(256))


def sheet(size: tuple[int, int]) -> Image.Image:
    """A palette image of `size` to draw on, every pixel `SENTINEL`."""
    return blank(size, SENTINEL)


def drawn_mask(sheet: Image.Image) -> Image.Image:
    """255 where a drawing on `sheet` set a pixel, 0 where it left `SENTINEL`."""
    return Image.frombytes("L", sheet.size, sheet.tobytes().translate(_UNTOUCHED))


@lru_cache(maxsize=8192)
def lettered_tile(
    words: str, size: int, anchor: str, bold: bool, fill: tuple[int, int, int], under: tuple[int, int, int]
) -> Piece:
    """`words` in `fill` on `under`, on the kit's palette, and the mask of the pixels they touch:
    pasted through that mask, the lettering keeps its smooth edges (mapped once, here, to the
    palette's blends of the two colours) and leaves the rest of its box as it was."""
    mask, _ = lettering(words, size, anchor, bold)
    indices = mask.tobytes().translate(edges(fill, under))
    pixels = Image.frombytes("P", mask.size, indices)
    return Piece.of(pixels, mask.point(SOLID))


SOLID = [0] + [255] * 255
"""A mask's levels made solid: every pixel a letter touches is pasted whole (its colour blended)."""


def _off_the_way(colour, fill, under) -> float:
    """How far (squared) `colour` lies from the blends of `fill` and `under`: the palette's colours a
    blend can be nearest to lie close to that line (the two colours themselves on it)."""
    line = [f - u for f, u in zip(fill, under, strict=True)]
    length = sum(d * d for d in line) or 1
    share = sum((c - u) * d for c, u, d in zip(colour, under, line, strict=True)) / length
    share = max(0.0, min(1.0, share))
    return sum((c - (u + share * d)) ** 2 for c, u, d in zip(colour, under, line, strict=True))


@lru_cache(maxsize=256)
def edges(fill: tuple[int, int, int], under: tuple[int, int, int]) -> bytes:
    """For each level of a lettering's mask (0 to 255), the palette index of `fill` over `under` at
    that coverage: the nearest of the palette's colours to the exact blend (what Pillow's quantizing
    the blended pixels would give, for a 256-entry table made once for the pair)."""
    near = [(*colour, INDEX[colour]) for colour in COLOURS if _off_the_way(colour, fill, under) <= 16**2]
    (fr, fg, fb), (ur, ug, ub) = fill, under
    table = bytearray()
    for level in range(256):
        s = level / 255
        r, g, b = ur + (fr - ur) * s, ug + (fg - ug) * s, ub + (fb - ub) * s
        table.append(min(near, key=lambda c: (c[0] - r) ** 2 + (c[1] - g) ** 2 + (c[2] - b) ** 2)[3])
    return bytes(table)


def _colours() -> list[tuple[int, int, int]]:
    """The pictures' one palette: the kit's colours and two blends of every pair of them (the edges
    of letters), so lettering keeps smooth edges on any of the kit's colours."""
    base = [
        BACKGROUND,
        PANEL,
        PANEL_LIGHT,
        INK,
        MUTED,
        DARK,
        WARNING,
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
                blend = tuple(round(a * share + b * (1 - share)) for a, b in mixed)
                if blend not in colours:
                    colours.append(blend)
    return colours


COLOURS = _colours()
"""The palette's colours, by index; `BACKGROUND` first."""
INDEX = {colour: index for index, colour in enumerate(COLOURS)}
"""Each colour's index in the palette (a colour outside it is an error, not a new entry)."""


FLAT = [channel for colour in COLOURS for channel in colour] + [0] * (768 - 3 * len(COLOURS))
"""The palette as Pillow takes it: 256 colours of three channels, the unused ones black."""


def blank(size: tuple[int, int], index: int = 0) -> Image.Image:
    """A palette image of `size`, every pixel the palette's colour `index`."""
    image = Image.new("P", size, index)
    image.putpalette(FLAT)
    image.palette.colors = dict(INDEX)  # Pillow would index the palette anew when drawing on it
    return image


TILE_AREA = 60_000
"""The largest rounded box, in pixels, kept whole by `tile`: a card, a seat, most panels."""


@lru_cache(maxsize=256)
def tile(width: int, height: int, radius: float, fill, outline, line: int, under: int) -> Any:
    """A rounded box as Pillow draws it, `width` × `height` with its corners on the palette's colour
    `under`, as Pillow's core image: where the box's corners are on that one colour, pasting it whole
    (a copy of its rows, no mask) gives what drawing it would, for less than its four corners cost."""
    drawing = blank((width, height), under)
    ImageDraw.Draw(drawing).rounded_rectangle(
        (0, 0, width - 1, height - 1), radius=radius, fill=fill, outline=outline, width=line
    )
    return drawing.im


class KeptDrawings:
    """The drawings `Canvas.kept` keeps, within a budget of pixels (a byte each): the least recently
    pasted go first."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.entries: OrderedDict[Hashable, tuple[Any, Any]] = OrderedDict()
        self.pixels = 0

    def get(self, key: Hashable) -> tuple[Any, Any] | None:
        found = self.entries.get(key)
        if found is not None:
            self.entries.move_to_end(key)
        return found

    def put(self, key: Hashable, pixels: Any, result: Any) -> None:
        self.entries[key] = (pixels, result)
        self.pixels += pixels.size[0] * pixels.size[1]
        while self.pixels > self.budget:
            old, _ = self.entries.popitem(last=False)[1]
            self.pixels -= old.size[0] * old.size[1]


KEPT = KeptDrawings(48_000_000)
"""The seats, cards and rows of a few hundred tables (a drawing process draws every table of its bot)."""
