"""A drawing that takes longer than a refresh would wait for it, as on a loaded machine.

Tests put `timed_slow_draw` in place of `pictures.process.timed_draw`: the drawing process runs the
function the bot hands it (named, and imported there), so the pictures are drawn slowly in the real
drawing process, not only in the test's."""

from __future__ import annotations

import time

import pictures.process

DELAY = 0.1


def timed_slow_draw(game: str, scene: tuple) -> tuple[bytes, float]:
    time.sleep(DELAY)
    return pictures.process.timed_draw(game, scene)
