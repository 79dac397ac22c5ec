"""Pictures of the public table, drawn with Pillow from the public view only.

Each game's module turns the public view (and, once the game is over, its public outcome) into a
`scene`: plain, hashable data holding exactly what the picture shows. The picture is drawn from the
scene alone, so no hidden card can reach it, and the scene's hash tells whether it changed.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import Frozen, Outcome
from pictures import catsanity, catsdogs, madcat, ninelives

FILENAME = "table.png"
MAX_BYTES = 150_000


@dataclass(frozen=True)
class Painter:
    scene: Callable[[Frozen, Sequence[str], Outcome | None], tuple]
    draw: Callable[[tuple], bytes]


PAINTERS: dict[str, Painter] = {
    module.__name__.rsplit(".", 1)[-1]: Painter(module.scene, module.draw)
    for module in (catsanity, catsdogs, madcat, ninelives)
}


def scene_of(game: str, view: Frozen, names: Sequence[str], outcome: Outcome | None) -> tuple:
    """What `game`'s picture of this public view shows (`view` must be the public one, seat None)."""
    if getattr(view, "seat", None) is not None:
        raise ValueError("A table picture is drawn from the public view only.")
    return PAINTERS[game].scene(view, names, outcome)


def scene_key(scene: tuple) -> str:
    return hashlib.blake2b(repr(scene).encode(), digest_size=12).hexdigest()


def draw(game: str, scene: tuple) -> bytes:
    """The PNG of a scene (slow-ish: run it off the event loop)."""
    return PAINTERS[game].draw(scene)
