"""`python -m bench.pictures`: its figures come from pictures really drawn, and its samples are written."""

from __future__ import annotations

import pictures
from bench import pictures as bench_pictures
from engine import GAMES


def test_the_figures_count_only_pictures_drawn_each_within_the_size_budget():
    every: dict[str, list[float]] = {"cpu": [], "size": []}
    figures = bench_pictures.measure("ninelives", 1, every)
    assert figures["drawn"] == len(every["cpu"]) == len(every["size"]) > 0
    assert 0 < figures["new"] <= 1, "moves whose scene the table already shows draw nothing"
    assert max(every["size"]) <= pictures.MAX_BYTES
    assert 0 < figures["cpu50"] <= figures["cpu99"]


def test_the_samples_are_three_pictures_of_each_game(tmp_path):
    bench_pictures.save_samples(tmp_path)
    written = sorted(path.name for path in tmp_path.iterdir())
    assert written == sorted(f"{key}-{label}.png" for key in GAMES for label in ("early", "late", "results"))
    assert all((tmp_path / name).read_bytes().startswith(b"\x89PNG\r\n\x1a\n") for name in written)
