"""How long the table pictures take to draw and how large they are (`python -m bench.pictures`).

    python -m bench.pictures [--games 3] [--samples docs/pictures]

Random games of every kind at every player count, the players named as real members are (accents,
a Cyrillic and a Chinese name, a long name); after every move the public table's picture is made as
the bot makes it: its scene read from the public view (which the table's text is made from anyway),
then drawn and encoded as a PNG (what the bot's drawing process does), results pictures included. A
move that leaves the scene as the table shows it draws nothing (the bot neither draws nor uploads
it): "new" is the share of moves that draw. Reports per game: pictures drawn, time p50/p99/max (wall
clock, and CPU time, which other work on the machine disturbs less), PNG size p50/max; and over every
picture, the CPU p50 and p99 and the largest PNG against the targets.

A bot's drawing process lives as long as the bot and keeps the pieces its pictures are made of (the
panels, labels, cards and shapes every table has). So the measured games come after one unmeasured
game of each kind at each player count with other names (`WARM_NAMES`) and seeds, as in a process
that has drawn a few other tables: each measured table's own names, and whatever its games bring that
those did not, are still drawn anew the first time. `--cold` measures a process's very first
pictures instead.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pictures
from bench.machine import describe_machine
from engine import GAMES
from engine.testing import random_playout
from pictures import letters

NAMES = [  # what members are called: accents, Cyrillic, Chinese, a long name (tests/pictures too)
    "Zoë Ångström",
    "José Álvarez-Núñez",
    "Łukasz Wiśniewski",
    "Маша",
    "王小明",
    "Bartholomew-Alexander Vanderbilt",
]


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


WARM_NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def warm_up() -> None:
    """Draw one game of each kind at each player count, with `WARM_NAMES`, unmeasured."""
    for key, game in sorted(GAMES.items()):
        rules = game.rules
        for players in range(rules.min_players, rules.max_players + 1):
            for state in random_playout(rules, players, 1000 + players, keep_states=True).states:
                view, outcome = rules.view(state, None), rules.outcome(state)
                pictures.draw(key, pictures.scene_of(key, view, WARM_NAMES[:players], outcome))


def measure(key: str, games: int, every: dict[str, list[float]] | None = None) -> dict:
    """The figures of `key`'s pictures; each picture's CPU time and size are added to `every` too."""
    rules = GAMES[key].rules
    times, cpus, sizes, unchanged = [], [], [], 0
    for players in range(rules.min_players, rules.max_players + 1):
        for seed in range(games):
            playout = random_playout(rules, players, seed * 7 + players, keep_states=True)
            names = NAMES[:players]
            shown = None
            for state in playout.states:
                view, outcome = rules.view(state, None), rules.outcome(state)  # the text's too
                start, cpu = time.perf_counter(), time.thread_time()
                scene = pictures.scene_of(key, view, names, outcome)
                if scene == shown:  # the table shows this picture already: none is drawn
                    unchanged += 1
                    continue
                png = pictures.draw(key, scene)
                times.append(time.perf_counter() - start)
                cpus.append(time.thread_time() - cpu)
                sizes.append(len(png))
                shown = scene
    if every is not None:
        every["cpu"] += cpus
        every["size"] += sizes
    return {
        "drawn": len(times),
        "p50": percentile(times, 0.5) * 1000,
        "p99": percentile(times, 0.99) * 1000,
        "max": max(times) * 1000,
        "cpu50": percentile(cpus, 0.5) * 1000,
        "cpu99": percentile(cpus, 0.99) * 1000,
        "size50": percentile(sizes, 0.5) / 1000,
        "size_max": max(sizes) / 1000,
        "new": len(times) / (len(times) + unchanged),
    }


SAMPLES = {"catsanity": (4, 2), "catsdogs": (4, 1), "madcat": (3, 4), "ninelives": (4, 2)}
"""The game each sample set comes from: players and seed."""


ON_THE_TABLE = {
    "catsanity": lambda scene: True,
    "catsdogs": lambda scene: bool(scene[4]),  # a trick under way
    "madcat": lambda scene: bool(scene[4] or scene[5]),  # dice set aside or rolled
    "ninelives": lambda scene: bool(scene[7]),  # cards on the table
}
"""Whether a table scene shows something on the table: the samples skip empty tables."""


def save_samples(folder: Path) -> None:
    """Three pictures of one game of each kind (early, late, the results) into `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    for key, (players, seed) in SAMPLES.items():
        rules = GAMES[key].rules
        states = random_playout(rules, players, seed, keep_states=True).states
        scenes = [
            pictures.scene_of(key, rules.view(state, None), NAMES[:players], rules.outcome(state))
            for state in states
        ]
        for label, start in (("early", len(scenes) // 4), ("late", len(scenes) * 3 // 4), ("results", -1)):
            shown = (s for s in scenes[start:] if s[1][0] == "results" or ON_THE_TABLE[key](s[1]))
            scene = next(shown, scenes[start])
            (folder / f"{key}-{label}.png").write_bytes(pictures.draw(key, scene))


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.pictures", description=__doc__)
    parser.add_argument("--games", type=int, default=3, help="random games per game kind and player count")
    parser.add_argument("--samples", type=Path, help="also save a sample set of pictures in this folder")
    parser.add_argument("--cold", action="store_true", help="measure a drawing process's first pictures")
    args = parser.parse_args()
    if args.samples:
        save_samples(args.samples)
    print(describe_machine())
    if not args.cold:
        letters.preload()  # read once in a process's life: its cost is no picture's
        warm_up()
    print(
        f"{'game':<11}{'pictures':>9}{'p50 ms':>8}{'p99 ms':>8}{'max ms':>8}{'cpu p50':>8}{'cpu p99':>8}"
        f"{'p50 KB':>8}{'max KB':>8}{'new':>6}"
    )
    every: dict[str, list[float]] = {"cpu": [], "size": []}
    for key in sorted(GAMES):
        r = measure(key, args.games, every)
        print(
            f"{key:<11}{r['drawn']:>9}{r['p50']:>8.2f}{r['p99']:>8.2f}{r['max']:>8.2f}"
            f"{r['cpu50']:>8.2f}{r['cpu99']:>8.2f}"
            f"{r['size50']:>8.1f}{r['size_max']:>8.1f}{r['new']:>6.0%}"
        )
    cpu, size = every["cpu"], every["size"]
    print(
        f"every picture ({len(cpu)}): CPU p50 {percentile(cpu, 0.5) * 1000:.2f} ms, "
        f"p99 {percentile(cpu, 0.99) * 1000:.2f} ms, largest {max(size) / 1000:.1f} KB "
        f"(targets: p50 ≤ 1.0 ms, p99 ≤ 3 ms, ≤ 30 KB){' — cold' if args.cold else ''}"
    )


if __name__ == "__main__":
    main()
