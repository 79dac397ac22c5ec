"""The pictures' lettering: the fonts, what they can draw, measuring, shortening and names.

The lettering is DejaVu Sans (Book and Bold): Latin-1, Latin Extended-A and B, Greek, Cyrillic and the
punctuation, arrows and signs the games write, so names like Zoë, Łukasz or Маша come out right. The
characters DejaVu lacks (a name in Chinese or Japanese) are drawn in the fallback face, Droid Sans
Fallback, which has those scripts but not Latin: a line that mixes them ("王小明 bids") is drawn run by
run, each run in the face that has it, on one baseline. The fallback has no bold. Both faces are
shipped in `pictures/fonts/` with their licences. What neither face has (emoji, symbols, Korean) is
left out: the text beside the picture has it.
"""

from __future__ import annotations

import bisect
import itertools
import math
import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import Image, ImageFont

WORDS_KEPT = 16_384
"""What is kept of each piece of text met (what the fonts draw of it, its width, how it is shortened):
small entries, enough for the names and numbers of a few hundred tables."""

FONTS = Path(__file__).with_name("fonts")
FONT_FILES = {False: FONTS / "DejaVuSans.ttf", True: FONTS / "DejaVuSans-Bold.ttf"}
FALLBACK_FILE = FONTS / "DroidSansFallbackFull.ttf"
"""The face of words DejaVu cannot draw whole (CJK names); its glyphs' size is measured in
tests/pictures/test_phone.py like every other lettering's."""


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False, fallback: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FALLBACK_FILE if fallback else FONT_FILES[bold]), size)


@lru_cache(maxsize=3)
def _cmap(path: Path) -> frozenset[int]:
    with TTFont(path, lazy=True) as face:
        return frozenset(face["cmap"].getBestCmap())


def characters(bold: bool = False) -> frozenset[int]:
    """The code points DejaVu draws in this weight (its cmap)."""
    return _cmap(FONT_FILES[bold])


def fallback_characters() -> frozenset[int]:
    """The code points the fallback face draws."""
    return _cmap(FALLBACK_FILE)


def preload() -> None:
    """Read both faces' character maps now (the fallback's takes a third of a second). A drawing
    process reads them when a picture first needs them: DejaVu's at its first picture, the
    fallback's at the first name DejaVu cannot draw, once each."""
    _known()
    fallback_characters()


@lru_cache(maxsize=1)
def _known() -> frozenset[int]:
    return characters(False) & characters(True)


@lru_cache(maxsize=WORDS_KEPT)
def drawable(words: str) -> str:
    """`words` as the fonts can draw them: composed (NFC); a character DejaVu lacks is kept if the
    fallback face has it, else becomes its base letter where DejaVu has that; emoji, symbols, joiners
    and marks neither face has are left out (with the space that stood before them)."""
    known = _known()
    out = []
    for char in unicodedata.normalize("NFC", words):
        if ord(char) in known:
            out.append(char)
            continue
        base = unicodedata.normalize("NFKD", char)[:1]
        if base and base != char and ord(base) in known and unicodedata.category(base).startswith("L"):
            out.append(base)
        elif unicodedata.category(char)[0] in "LN" and ord(char) in fallback_characters():
            out.append(char)
    return re.sub(" {2,}", " ", "".join(out)).strip()


@lru_cache(maxsize=WORDS_KEPT)
def runs(words: str) -> tuple[tuple[str, bool], ...]:
    """`words` (already `drawable`) cut where the face changes: (run, drawn in the fallback face)."""
    known = _known()
    if known.issuperset(map(ord, words)):
        return ((words, False),)
    cut: list[tuple[str, bool]] = []
    for char in words:
        fallback = ord(char) not in known and not (cut and char == " ")
        if cut and cut[-1][1] == fallback:
            cut[-1] = (cut[-1][0] + char, fallback)
        else:
            cut.append((char, fallback))
    return tuple(cut)


def face(size: int, bold: bool, fallback: bool) -> ImageFont.FreeTypeFont:
    """The face a run is drawn in: DejaVu in `bold` or not, or the fallback (which has no bold)."""
    return font(size, False, True) if fallback else font(size, bold)


@lru_cache(maxsize=WORDS_KEPT)
def length(words: str, size: int, bold: bool = False) -> float:
    """How wide `words` are drawn at `size`, in pixels: measured once (the same labels, names and
    numbers are measured for every picture, and measuring lays the glyphs out each time)."""
    return _measure(words, size, bold)


@lru_cache(maxsize=WORDS_KEPT)
def fit(words: str, size: int, width: float, bold: bool = False) -> str:
    """`words` shortened with "…" to fit `width` pixels: the longest start that fits by its
    characters' own advances (`_advances`), then measured as drawn."""
    widths = list(itertools.accumulate(_advances(words, size, bold)))
    if not widths or widths[-1] <= width - size / 4 or length(words, size, bold) <= width:
        return words  # well within by its advances (kerning moves a line by a pixel or two): not laid out
    room = width - length("…", size, bold)
    fits = bisect.bisect_right(widths, room)
    while fits and length(words[:fits].rstrip() + "…", size, bold) > width:
        fits -= 1
    return words[:fits].rstrip() + "…"


def _advances(words: str, size: int, bold: bool) -> list[float]:
    """Each character's advance, kerning left out: laying out a whole string costs tens of
    microseconds, and a name is shortened by trying many of its starts and ends."""
    return [_advance(char, size, bold, fallback) for run, fallback in runs(words) for char in run]


@lru_cache(maxsize=8192)
def _advance(char: str, size: int, bold: bool, fallback: bool) -> float:
    return face(size, bold, fallback).getlength(char)


def _measure(words: str, size: int, bold: bool) -> float:
    """How wide `words` are, laid out now (`length` keeps what it measures)."""
    return sum(face(size, bold, fallback).getlength(run) for run, fallback in runs(words))


def _middle_cut(words: str, size: int, width: float, bold: bool) -> str:
    """`words` shortened in the middle ("Barthol…erbilt"): keeps the ends two long names differ in,
    taking characters from the start and the end in turn while they fit."""
    advances = _advances(words, size, bold)
    room = width - 2 - length("…", size, bold)
    head, tail, used = 0, 0, 0.0
    while head + tail < len(words):
        take_head = head <= tail
        step = advances[head] if take_head else advances[len(words) - 1 - tail]
        if used + step > room:
            break
        used += step
        head, tail = (head + 1, tail) if take_head else (head, tail + 1)
    head = max(head, 1)
    return f"{words[:head].rstrip()}…{words[len(words) - tail :].lstrip()}"


def names_shown(names: Sequence[str], size: int, width: float, bold: bool = False) -> list[str]:
    """Each player's name as the picture writes it within `width` (`shortened_names`)."""
    return list(shortened_names(tuple(names), size, width, bold))


@lru_cache(maxsize=2048)
def shortened_names(names: tuple[str, ...], size: int, width: float, bold: bool) -> tuple[str, ...]:
    """Each player's name as the picture writes it within `width`: shortened where it does not fit,
    but never so that two players look the same. Two names that shorten alike are cut in the middle
    instead (their ends shown), and names still alike (or alike to begin with, or with nothing the
    fonts can draw) get their seat number, "#2", as the text's seat order counts it."""
    shown = [fit(drawable(name), size, width, bold) for name in names]
    for seat, words in enumerate(shown):
        twins = [other for other, alike in enumerate(shown) if alike == words]
        if len(twins) > 1 or not words:
            for twin in twins or [seat]:
                full = drawable(names[twin])
                if length(full, size, bold) > width:
                    shown[twin] = _middle_cut(full, size, width, bold)
    for seat, words in enumerate(shown):
        if not words or shown.count(words) > 1:
            mark = f"#{seat + 1}"
            room = width - length(f" {mark}", size, bold)
            shown[seat] = f"{fit(words, size, room, bold)} {mark}".strip() if words else mark
    return tuple(shown)


LETTERINGS_KEPT = 8192
"""Masks kept by `lettering` and `_word` (a few kilobytes each, outside Python's allocator, where
tracemalloc does not see them): enough for every label and number of the four games and the names at
a few hundred tables at once (a drawing process draws every table of its bot)."""


@lru_cache(maxsize=LETTERINGS_KEPT)
def lettering(words: str, size: int, anchor: str, bold: bool) -> tuple[Image.Image, tuple[int, int]]:
    """`words` rendered once as a mask, with its offset from the anchor point: most words of a
    picture (labels, numbers, names) come back in every picture, and pasting a mask is far cheaper
    than rendering the glyphs again. A single word in DejaVu is rendered whole; anything longer is
    set word by word (`_set`)."""
    pieces = runs(words)
    if len(pieces) == 1 and not pieces[0][1] and " " not in words:
        return _rendered(words, font(size, bold), anchor)
    return _set(pieces, size, anchor, bold)


def _rendered(
    words: str, lettered: ImageFont.FreeTypeFont, anchor: str
) -> tuple[Image.Image, tuple[int, int]]:
    """`words` rendered by FreeType in one pass (`getmask2`: laid out once, where measuring the box and
    then drawing into it lays it out twice), as a mask with its offset from the anchor point."""
    rendered, offset = lettered.getmask2(words, mode="L", anchor=anchor)
    mask = Image.new("L", (max(1, rendered.size[0]), max(1, rendered.size[1])), 0)
    if rendered.size[0] and rendered.size[1]:
        mask.im.paste(rendered, (0, 0, *rendered.size))
    return mask, offset


@lru_cache(maxsize=LETTERINGS_KEPT)
def _word(word: str, size: int, bold: bool, fallback: bool) -> tuple[Image.Image, int, int, float]:
    """One word (no space) in one face, rendered on its baseline: its mask, the mask's offset from the
    pen's position on the baseline, and the pen's advance."""
    lettered = face(size, bold, fallback)
    mask, (left, top) = _rendered(word, lettered, "ls")
    return mask, left, top, lettered.getlength(word)


def _set(
    pieces: tuple[tuple[str, bool], ...], size: int, anchor: str, bold: bool
) -> tuple[Image.Image, tuple[int, int]]:
    """Words set one after the other on one baseline, each kept on its own (`_word`: a headline
    that says "trick 3" after one that said "trick 2" renders only the "3"), each run in its face;
    the anchor is read as Pillow reads it for one face (horizontally the start, middle or end of the
    advance; vertically DejaVu's ascender, middle, baseline or descender, or the ink's top or bottom)."""
    ascent, descent = font(size, bold).getmetrics()
    placed, pen = [], 0.0
    for run, fallback in pieces:
        space = face(size, bold, fallback).getlength(" ") if " " in run else 0.0
        for index, word in enumerate(run.split(" ")):
            if index:
                pen += space
            if word:
                mask, left, top, advance = _word(word, size, bold, fallback)
                placed.append((mask, round(pen) + left, top))
                pen += advance
    width = math.ceil(pen)
    sheet = Image.new("L", (width + 2 * size, 3 * size), 0)
    baseline = 2 * size
    for mask, x, y in placed:
        sheet.paste(255, (size + x, baseline + y), mask)
    left, top, right, bottom = sheet.getbbox() or (size, baseline - 1, size + 1, baseline)
    across = {"l": size, "m": size + pen / 2, "r": size + pen}[anchor[0]]
    down = {
        "a": baseline - ascent,
        "m": baseline - (ascent - descent) / 2,
        "s": baseline,
        "d": baseline + descent,
        "t": top,
        "b": bottom,
    }[anchor[1]]
    return sheet.crop((left, top, right, bottom)), (round(left - across), round(top - down))


@lru_cache(maxsize=LETTERINGS_KEPT)
def inked(words: str, size: int, anchor: str, bold: bool) -> tuple[tuple[int, int], ...]:
    """Up to seven points spread along `words`' mask where its letters are solid: where to read what
    the letters will stand on (reading the box's edges would find a frame next to them)."""
    return _inked_mask(lettering(words, size, anchor, bold)[0])


def _inked_mask(mask: Image.Image) -> tuple[tuple[int, int], ...]:
    width, height = mask.size
    pixels = mask.tobytes()
    points = []
    for step in range(7):
        x = min(width - 1, int((step + 0.5) * width / 7))
        column = [pixels[y * width + x] for y in range(height)]
        y = max(range(height), key=column.__getitem__)
        if column[y] >= 128:
            points.append((x, y))
    return tuple(points) or ((width // 2, height // 2),)


@lru_cache(maxsize=WORDS_KEPT)
def laid_out(
    words: str, size: int, anchor: str, bold: bool, width: float | None
) -> tuple[str, tuple[int, int], tuple[int, int], tuple[tuple[int, int], ...]]:
    """All a picture needs to write `words` (shortened to `width` when given), looked up at once: the
    words as drawn, the offset of their mask (`lettering`) from the anchor point, its size, and the
    `inked` points (empty words: nothing to draw)."""
    shown = drawable(words)
    if width is not None:
        shown = fit(shown, size, width, bold)
    if not shown:
        return shown, (0, 0), (0, 0), ()
    mask, offset = lettering(shown, size, anchor, bold)
    return shown, offset, mask.size, inked(shown, size, anchor, bold)
