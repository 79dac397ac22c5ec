"""Pictures of the public table, drawn with Pillow from the public view only.

Each game's module turns the public view (and, once the game is over, its public outcome) into a
`scene`: plain, hashable data holding exactly what the picture shows. The picture is drawn from the
scene alone, so no hidden card can reach it, and the scene's hash tells whether it changed. Each
module paints the scene as an image (`paint`); `draw` encodes that image as the PNG the table shows.

A picture speaks a language: its scene holds it, so the words it shows are those of its table (the
drawing runs in a process of its own, which knows nothing else of the table).

Which module draws a game is the game's own word: its `Game.picture` names it (engine/game.py says why
by name), and `PAINTERS` imports each one here, with this package, so a misnamed drawing fails at start-up
and no table waits for Pillow to load.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image

import lang
from engine import GAMES, Frozen, Outcome
from pictures.kit import HEIGHT, WIDTH, to_png

FILENAME = "table.png"
MAX_BYTES = 30_000
"""The largest a picture may be, in bytes."""
SIZE = (WIDTH, HEIGHT)
"""Every picture's width and height in pixels."""


@dataclass(frozen=True)
class Painter:
    scene: Callable[[Frozen, Sequence[str], Outcome | None], tuple]
    paint: Callable[[tuple], Image.Image]


def _painter(module_name: str) -> Painter:
    module = importlib.import_module(module_name)
    return Painter(module.scene, module.paint)


PAINTERS: dict[str, Painter] = {key: _painter(game.picture) for key, game in GAMES.items()}
"""What draws each game, by its key in `GAMES`."""


def scene_of(
    game: str, view: Frozen, names: Sequence[str], outcome: Outcome | None, language: str | None = None
) -> tuple:
    """What `game`'s picture of this public view shows (`view` must be the public one, seat None), in
    `language` (by default the one speaking now)."""
    if getattr(view, "seat", None) is not None:
        raise ValueError("A table picture is drawn from the public view only.")
    language = lang.current() if language is None else language
    with lang.speaking(language):
        return (language, PAINTERS[game].scene(view, names, outcome))


def scene_key(scene: tuple) -> str:
    return hashlib.blake2b(repr(scene).encode(), digest_size=12).hexdigest()


def paint(game: str, scene: tuple) -> Image.Image:
    """The picture of a scene, as pixels (what a test that looks at pixels only needs: no PNG)."""
    language, content = scene
    with lang.speaking(language):
        return PAINTERS[game].paint(content)


def draw(game: str, scene: tuple) -> bytes:
    """The PNG of a scene (slow-ish: run it off the event loop)."""
    return to_png(paint(game, scene))
