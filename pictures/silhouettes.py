"""The outlines of the kit's shapes: regular polygons and stars (`polygon`, `star_points`), and the
emoji made of several parts — 🔥 a flame, 💧 a drop, 🐾 a paw, ☀️ a sun and 🌙 a moon — drawn as masks
(`silhouette`) the kit fills in a colour."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter


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
