"""The drawing kit every game's pictures share: the canvas, the palette, the font and the shapes.

Colours come from the Okabe–Ito palette, which stays distinct for the common kinds of colour
blindness; and nothing is told by colour alone: every kind of die, cat or card also has its own shape
and its own name or number. Where the text marks a kind with an emoji (🔥 a mad cat die, 🟦 a Nine
Lives cat, 🌙 a Moon Cat), the picture draws that emoji as a shape of its own (`SYMBOLS`), so text and
picture speak one vocabulary. The lettering is DejaVu Sans, shipped in `pictures/fonts/` with its licence: it
draws Latin-1, Latin Extended-A and B, Greek, Cyrillic, the punctuation and the arrows the games write,
so names like Zoë, Łukasz or Dvořák come out right; `drawable` says what stands in for the rest.

Pictures are made to be read on a phone, where Discord shows them about 400 px wide: every size here
is at least twice 12 px on the 800 px canvas, and every colour pair that carries words has WCAG AA
contrast (`watch` lets a test collect every word drawn with its colours).
"""

from __future__ import annotations

import contextlib
import io
import math
import re
import unicodedata
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFilter, ImageFont

WIDTH, HEIGHT = 800, 450
"""Every picture's size: 16:9, shown about 400 px wide on a phone, so every size below is halved there."""
SHOWN_WIDTH = 400
"""How wide a phone shows the picture: the width the sizes and contrasts are made for."""

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
"""A vermillion light enough to be read on the dark panels (words that warn: "over!")."""

SMALL, TEXT, LARGE, HUGE = 26, 30, 38, 52
"""Lettering sizes on the 800 px canvas: 13, 15, 19 and 26 px when shown 400 px wide."""

FONTS = Path(__file__).with_name("fonts")
FONT_FILES = {False: FONTS / "DejaVuSans.ttf", True: FONTS / "DejaVuSans-Bold.ttf"}
DROPPED = "?"
"""What stands in for a letter the font cannot draw (a name in a script it lacks); symbols and emoji
it cannot draw are left out: the text beside the picture has them."""


@lru_cache(maxsize=32)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_FILES[bold]), size)


@lru_cache(maxsize=4096)
def length(words: str, size: int, bold: bool = False) -> float:
    """How wide `words` are drawn at `size`, in pixels: measured once (the same labels, names and
    numbers are measured for every picture, and measuring lays the glyphs out each time)."""
    return font(size, bold).getlength(words)


@lru_cache(maxsize=2)
def characters(bold: bool = False) -> frozenset[int]:
    """The code points the font draws (its cmap)."""
    with TTFont(FONT_FILES[bold], lazy=True) as face:
        return frozenset(face["cmap"].getBestCmap())


@lru_cache(maxsize=4096)
def drawable(words: str) -> str:
    """`words` as the font can draw them: composed (NFC), a letter the font lacks as its base letter
    when it has one, else `DROPPED`; emoji, symbols, joiners and marks it lacks are left out (with the
    space that stood before them)."""
    known = characters(False) & characters(True)
    out = []
    for char in unicodedata.normalize("NFC", words):
        if ord(char) in known:
            out.append(char)
            continue
        base = unicodedata.normalize("NFKD", char)[:1]
        if base and base != char and ord(base) in known and unicodedata.category(base).startswith("L"):
            out.append(base)
        elif unicodedata.category(char)[0] in "LN":
            out.append(DROPPED)
    return re.sub(" {2,}", " ", "".join(out)).strip()


@dataclass(frozen=True)
class Lettering:
    """One piece of text as drawn: its words, size in canvas pixels, and colours."""

    words: str
    size: int
    fill: tuple[int, int, int]
    background: tuple[int, int, int]

    @property
    def shown_size(self) -> float:
        """Its size in pixels when the picture is shown `SHOWN_WIDTH` wide."""
        return self.size * SHOWN_WIDTH / WIDTH

    @property
    def contrast(self) -> float:
        return contrast(self.fill, self.background)


@dataclass
class Watched:
    """What pictures drawn under `watch` showed: every piece of text with its colours, and what each
    picture states (`Canvas.record`: who must act, the dice, the cards, the scores), newest last."""

    letterings: list[Lettering] = field(default_factory=list)
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


def luminance(colour: Sequence[int]) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    channels = [c / 255 for c in colour[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: Sequence[int], second: Sequence[int]) -> float:
    """WCAG 2 contrast ratio of two colours, 1 to 21."""
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


class Canvas:
    """One picture being drawn: a fixed-size image and its drawing context."""

    def __init__(self, title: str, subtitle: str = "") -> None:
        """`title`, the picture's headline, says what happens now (or whose results these are)."""
        self.image = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.states: dict[str, object] = {}
        seen = _watching.get()
        if seen is not None:
            seen.states.append(self.states)
        room = WIDTH - 32
        if subtitle:
            self.text((WIDTH - 16, 12), subtitle, SMALL, MUTED, anchor="ra")
            room -= length(drawable(subtitle), SMALL) + 24
        self.record("now", self.text((16, 8), title, TEXT, INK, bold=True, width=room))

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
        words = drawable(words)
        if width is not None:
            words = fit(words, size, width, bold)
        if not words:
            return words
        mask, (left, top) = lettering(words, size, anchor, bold)
        at = (round(xy[0]) + left, round(xy[1]) + top)
        seen = _watching.get()
        if seen is not None:
            seen.letterings.append(Lettering(words, size, tuple(fill), self.background_at(at, mask.size)))
        self.image.paste(fill, at, mask)
        return words

    def background_at(self, at: tuple[int, int], size: tuple[int, int]) -> tuple[int, int, int]:
        """The colour most of a box is painted in (what a text drawn there stands on)."""
        box = self.image.crop((at[0], at[1], at[0] + size[0], at[1] + size[1]))
        # Most boxes hold a few colours: counting up to 256 is quicker, and counting them all is left
        # for a box with more.
        colours = box.getcolors(256) or box.getcolors(box.width * box.height + 1) or [(1, BACKGROUND)]
        return max(colours)[1]

    def panel(self, box: Sequence[float], fill=PANEL, outline=None, width: int = 3, radius: int = 12) -> None:
        self.rounded(box, radius, fill, outline, width)

    def rounded(self, box: Sequence[float], radius: float, fill, outline=None, width: int = 1) -> None:
        """Pillow's rounded rectangle, pasted from a kept `tile` where one fits: a picture draws the
        same boxes at the same places (panels, cards, counters), most on a plain colour, and pasting
        them is several times quicker than drawing them again. Elsewhere it is drawn."""
        x0, y0, x1, y1 = box
        region = (math.floor(x0) - 1, math.floor(y0) - 1, math.ceil(x1) + 2, math.ceil(y1) + 2)
        small = (region[2] - region[0]) * (region[3] - region[1]) <= TILE_AREA
        inside = region[0] >= 0 and region[1] >= 0 and region[2] <= WIDTH and region[3] <= HEIGHT
        under = self.image.crop(region).getcolors(1) if small and inside else None
        if under is None:  # too big to keep, or not on one plain colour
            self.draw.rounded_rectangle(tuple(box), radius=radius, fill=fill, outline=outline, width=width)
        else:
            self.image.paste(tile(tuple(box), radius, fill, outline, width, under[0][1], region), region[:2])


@lru_cache(maxsize=4096)
def fit(words: str, size: int, width: float, bold: bool = False) -> str:
    if length(words, size, bold) <= width:
        return words
    face = font(size, bold)
    while words and face.getlength(words + "…") > width:
        words = words[:-1]
    return words + "…"


TILE_AREA = 16_000
"""The largest box, in pixels, whose rounded rectangle is kept as a tile (a card, a counter, a seat's
panel; not the wide panels, whose tiles would take most of the memory for few pastes)."""
TILES_KEPT = 512
"""Tiles kept by `tile`: at most this many times `TILE_AREA` pixels of 3 bytes; the 312 boxes of the
four games' pictures at every player count (5.6 MB) fit, with room for more (docs/benchmarks.md,
section 6)."""


@lru_cache(maxsize=TILES_KEPT)
def tile(
    box: tuple[float, ...], radius: float, fill, outline, width: int, background, region: tuple[int, ...]
) -> Image.Image:
    """The pixels of `region` once Pillow draws this rounded rectangle at `box` on `background`: drawn
    where it stands on a whole canvas (so every pixel is Pillow's own), then cut out. Drawing sets
    pixels and blends none, so on a canvas whose `region` is `background` the tile is what drawing
    there would give."""
    canvas = Image.new("RGB", (WIDTH, HEIGHT), background)
    ImageDraw.Draw(canvas).rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
    return canvas.crop(region)


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
    face = font(size, bold)
    left, top, right, bottom = face.getbbox(words, anchor=anchor)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), words, font=face, fill=255, anchor=anchor)
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
    """One of the kit's marker shapes centred on (cx, cy): circle, square, triangle, star, diamond, and
    the `SILHOUETTES` (flame, drop, paw, sun, moon)."""
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
    elif kind in SILHOUETTES:
        edge, inside = silhouette(kind, r)
        at = (round(cx - inside.width / 2), round(cy - inside.height / 2))
        canvas.image.paste(outline, at, edge)
        canvas.image.paste(fill, at, inside)
    else:
        raise ValueError(f"no shape called {kind!r}")


@lru_cache(maxsize=64)
def silhouette(kind: str, r: float) -> tuple[Image.Image, Image.Image]:
    """The masks of a shape made of several parts (`SILHOUETTES[kind](draw, cx, cy, r)` paints them
    white, black cuts them), drawn as one: its outline (2 px around the whole) and its inside. Made
    once for each size (a picture draws the same few shapes at the same few sizes)."""
    size = math.ceil(r * 2.4) + 8
    inside = Image.new("L", (size, size), 0)
    SILHOUETTES[kind](ImageDraw.Draw(inside), size / 2, size / 2, r)
    return inside.filter(ImageFilter.MaxFilter(5)), inside


def _flame(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """🔥: a round base rising into three tongues of fire, the middle one highest."""
    base = [(cx + 0.7 * r * math.cos(a), cy + 0.3 * r + 0.7 * r * math.sin(a)) for a in _arc(0, 180, 9)]
    tongues = [(-0.72, -0.45), (-0.3, -0.02), (-0.05, -1.05), (0.28, -0.28), (0.62, -0.62), (0.7, 0.3)]
    draw.polygon(base + [(cx + x * r, cy + y * r) for x, y in tongues], fill=255)


def _drop(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """💧: a round body narrowing to one point at the top."""
    body, centre = 0.68 * r, cy + 0.28 * r
    turn = math.degrees(math.acos(body / (centre - (cy - r))))
    arc = [(cx + body * math.cos(a), centre + body * math.sin(a)) for a in _arc(-90 + turn, 270 - turn, 16)]
    draw.polygon([(cx, cy - r), *arc], fill=255)


def _paw(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """🐾: a paw print, a pad and four toes."""
    draw.ellipse((cx - 0.52 * r, cy - 0.05 * r, cx + 0.52 * r, cy + 0.8 * r), fill=255)
    for x, y in ((-0.66, -0.12), (-0.25, -0.62), (0.25, -0.62), (0.66, -0.12)):
        t = 0.24 * r
        draw.ellipse((cx + x * r - t, cy + y * r - t, cx + x * r + t, cy + y * r + t), fill=255)


def _sun(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """☀️: a round sun with eight rays."""
    draw.ellipse((cx - 0.55 * r, cy - 0.55 * r, cx + 0.55 * r, cy + 0.55 * r), fill=255)
    for a in _arc(0, 315, 8):
        tip = (cx + r * 1.1 * math.cos(a), cy + r * 1.1 * math.sin(a))
        sides = [(cx + 0.62 * r * math.cos(a + d), cy + 0.62 * r * math.sin(a + d)) for d in (-0.28, 0.28)]
        draw.polygon([tip, *sides], fill=255)


def _moon(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """🌙: a crescent moon, its horns to the right."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=255)
    draw.ellipse((cx - 0.25 * r, cy - 1.05 * r, cx + 1.45 * r, cy + 0.75 * r), fill=0)


def _arc(start: float, end: float, points: int) -> list[float]:
    """`points` angles in radians, evenly from `start` to `end` degrees (both included)."""
    return [math.radians(start + (end - start) * i / (points - 1)) for i in range(points)]


SILHOUETTES = {"flame": _flame, "drop": _drop, "paw": _paw, "sun": _sun, "moon": _moon}

SYMBOLS: dict[str, tuple[str, tuple[int, int, int]]] = {
    "🔥": ("flame", VERMILLION),  # Mad Cat Sad Cat: a mad cat die
    "💧": ("drop", SKY),  # a sad cat die
    "🐾": ("paw", YELLOW),  # a wild die
    "⚪": ("circle", INK),  # Nine Lives' four cats
    "🟦": ("square", SKY),
    "🔺": ("triangle", VERMILLION),
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
    names: Sequence[str],
    values: Sequence[str],
    marked: Sequence[int] = (),
    crowned: Sequence[int] = (),
    icon=None,
) -> None:
    """A strip of seats along the picture's foot: a name and a value each; `marked` seats are framed
    (whoever must act), `crowned` ones wear a crown (winners); `icon(canvas, x, y)` draws a small mark
    before each value (Nine Lives' heart)."""
    count = max(1, len(names))
    gap, top = 8, HEIGHT - 82
    width = (WIDTH - 32 - gap * (count - 1)) / count
    shown = []
    for seat, (name, value) in enumerate(zip(names, values, strict=True)):
        x = 16 + seat * (width + gap)
        mark = seat in marked
        canvas.panel(
            (x, top, x + width, top + 76),
            fill=PANEL_LIGHT if mark else PANEL,
            outline=HIGHLIGHT if mark else None,
            width=4,
            radius=10,
        )
        left = x + 10
        if seat in crowned:
            crown(canvas, left + 12, top + 20, 11)
            left += 28
        name_shown = canvas.text((left, top + 6), name, SMALL, INK, width=x + width - left - 8)
        left, size = _value_room(value, x + 10, x + width - 8, icon is not None)
        if left > x + 10:
            icon(canvas, x + 21, top + 54)
        value_shown = canvas.text((left, top + 38), value, size, INK, bold=True, width=x + width - 8 - left)
        shown.append((name_shown, value_shown, mark))
    canvas.record("seats", tuple(shown))


def _value_room(value: str, left: float, right: float, icon: bool) -> tuple[float, int]:
    """Where a seat's value starts and its size: large with its icon if it fits, else small, else
    small without the icon (the icon only repeats what the picture's other seats show)."""
    words = drawable(value)
    large = length(words, TEXT, True)
    if icon and large <= right - left - 28:
        return left + 28, TEXT
    if icon and length(words, SMALL, True) <= right - left - 28:
        return left + 28, SMALL
    return left, TEXT if large <= right - left else SMALL
