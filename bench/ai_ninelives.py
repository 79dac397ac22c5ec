"""Strength and speed of the Nine Lives computer players: `python -m bench.ai_ninelives --games N`.

Prints the machine, 4-player win rates (the tested player's seat rotates; a shared win counts as
a fraction) with the limited powers and the full set, decision times per level, and random complete
4-player games per second for both power sets.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from engine.ninelives import RULES, heuristics
from engine.ninelives.ai import EasyPlayer, HardPlayer, NormalPlayer
from engine.ninelives.model import Options
from engine.testing import random_playout


def make(level: str):
    """A fresh player of `level`; hard gets the wall clock as its deadline guard."""
    if level == "hard":
        return HardPlayer(clock=time.perf_counter)
    return {"easy": EasyPlayer, "normal": NormalPlayer}[level]()


def searched(view, legal) -> bool:
    """Whether hard runs its search for this decision (its own turn, a real choice, no heuristic wager)."""
    if view.phase != "play" or len(legal) < 2:
        return False
    return not (view.step == "play" and legal[0].verb == "w" and heuristics.choose(view, legal).verb == "w")


def play_game(args: tuple[Sequence[str], bool, int]) -> tuple[tuple[int, ...], dict[str, list[float]]]:
    """One seeded game with the given levels per seat: (winners, decision times per level)."""
    levels, limited, seed = args
    seats = [make(level) for level in levels]
    times: dict[str, list[float]] = {}
    state = RULES.setup(len(levels), seed, Options(limited_powers=limited))
    step = 0
    while RULES.outcome(state) is None:
        seat = RULES.to_act(state)[0]
        view = RULES.view(state, seat)
        legal = RULES.legal_actions(state, seat)
        start = time.perf_counter()
        action = seats[seat].choose(RULES, view, seat, legal, seed * 1009 + step)
        spent = time.perf_counter() - start
        times.setdefault(levels[seat], []).append(spent)
        if levels[seat] == "hard" and searched(view, legal):
            times.setdefault("hard (searched)", []).append(spent)
        state, _ = RULES.apply(state, seat, action)
        step += 1
    return RULES.outcome(state).winners, times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def match(pool, tested: str, others: str, limited: bool, games: int, times: dict) -> float:
    """The tested level's share of wins against `others` in the other three seats."""
    jobs = []
    for game in range(games):
        levels = [others] * 4
        levels[game % 4] = tested
        jobs.append((tuple(levels), limited, 400_000 + game))
    wins = 0.0
    for (levels, _, _), (winners, spent) in zip(jobs, pool.map(play_game, jobs), strict=True):
        if levels.index(tested) in winners:
            wins += 1 / len(winners)
        for level, values in spent.items():
            times.setdefault(level, []).extend(values)
    return wins / games


def games_per_second(limited: bool, seconds: float = 3.0) -> float:
    start = time.perf_counter()
    count = 0
    while time.perf_counter() - start < seconds:
        random_playout(RULES, 4, seed=count, options=Options(limited_powers=limited))
        count += 1
    return count / (time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pairing and power set")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args(argv)
    print(f"machine: {platform.platform()} · {os.cpu_count()} CPUs · Python {sys.version.split()[0]}")
    print(f"processor: {platform.processor() or platform.machine()} · {args.jobs} worker process(es)")
    times: dict[str, list[float]] = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for limited in (True, False):
            powers = "limited" if limited else "full"
            for tested, others in (("hard", "easy"), ("hard", "normal"), ("normal", "easy")):
                rate = match(pool, tested, others, limited, args.games, times)
                print(f"4 players, {powers} powers: {tested} vs 3× {others}: {rate:.1%} wins (chance 25%)")
    for level in ("easy", "normal", "hard", "hard (searched)"):
        values = times.get(level, [])
        if values:
            print(
                f"decision time {level}: p50 {percentile(values, 0.5) * 1e3:.1f} ms, "
                f"p99 {percentile(values, 0.99) * 1e3:.1f} ms, max {max(values) * 1e3:.1f} ms "
                f"over {len(values)} decisions"
            )
    for limited in (True, False):
        powers = "limited" if limited else "full"
        print(f"random complete 4-player games per second, {powers} powers: {games_per_second(limited):.0f}")


if __name__ == "__main__":
    main()
