"""Strength and speed of the Cats & Dogs computer players: `python -m bench.ai_catsdogs --games N`.

Prints the machine, win rates at 4 and 2 players (the tested player's seat rotates; a shared win
counts as a fraction), solo success rates, decision times per level, and random games per second.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from engine.catsdogs import RULES
from engine.catsdogs.ai import EasyPlayer, HardPlayer, NormalPlayer
from engine.testing import random_playout


def make(level: str):
    """A fresh player of `level`; hard gets the wall clock as its deadline guard."""
    if level == "hard":
        return HardPlayer(clock=time.perf_counter)
    return {"easy": EasyPlayer, "normal": NormalPlayer}[level]()


def play_game(args: tuple[int, Sequence[str], int]) -> tuple[tuple[int, ...], int, dict[str, list[float]]]:
    """One seeded game with the given levels per seat: (winners, score of seat 0, decision times)."""
    players, levels, seed = args
    seats = [make(level) for level in levels]
    times: dict[str, list[float]] = {}
    state = RULES.setup(players, seed)
    step = 0
    while not state.over:
        seat = RULES.to_act(state)[0]
        view = RULES.view(state, seat)
        legal = RULES.legal_actions(state, seat)
        start = time.perf_counter()
        action = seats[seat].choose(RULES, view, seat, legal, seed * 1009 + step)
        times.setdefault(levels[seat], []).append(time.perf_counter() - start)
        state, _ = RULES.apply(state, seat, action)
        step += 1
    return RULES.outcome(state).winners, state.scores[0], times


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def match(pool, players: int, tested: str, others: str, games: int, times: dict) -> float:
    """The tested level's share of wins against `others` in every other seat."""
    jobs = []
    for game in range(games):
        seat = game % players
        levels = [others] * players
        levels[seat] = tested
        jobs.append((players, tuple(levels), 100_000 * players + game))
    wins = 0.0
    for (_, levels, _), (winners, _, spent) in zip(jobs, pool.map(play_game, jobs), strict=True):
        seat = levels.index(tested)
        if seat in winners:
            wins += 1 / len(winners)
        for level, values in spent.items():
            times.setdefault(level, []).extend(values)
    return wins / games


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pairing (solo: per level)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args(argv)
    print(f"machine: {platform.platform()} · {os.cpu_count()} CPUs · Python {sys.version.split()[0]}")
    print(f"processor: {platform.processor() or platform.machine()} · {args.jobs} worker process(es)")
    times: dict[str, list[float]] = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for players in (4, 2):
            for tested, others in (("hard", "easy"), ("hard", "normal"), ("normal", "easy")):
                rate = match(pool, players, tested, others, args.games, times)
                chance = 1 / players
                pairing = f"{tested} vs {players - 1}× {others}"
                print(f"{players} players: {pairing}: {rate:.1%} wins (chance {chance:.0%})")
        for level in ("easy", "normal", "hard"):
            jobs = [(1, (level,), 7_000 + game) for game in range(args.games)]
            results = list(pool.map(play_game, jobs))
            for _, _, spent in results:
                for name, values in spent.items():
                    times.setdefault(name, []).extend(values)
            rate = sum(1 for winners, _, _ in results if winners) / len(results)
            mean = sum(score for _, score, _ in results) / len(results)
            print(f"solo: {level} reaches 21 in {rate:.1%} of games (mean final total {mean:.1f} ribbons)")
    for level in ("easy", "normal", "hard"):
        values = times.get(level, [])
        if values:
            print(
                f"decision time {level}: p50 {percentile(values, 0.5) * 1e3:.1f} ms, "
                f"p99 {percentile(values, 0.99) * 1e3:.1f} ms, max {max(values) * 1e3:.1f} ms "
                f"over {len(values)} decisions"
            )
    start = time.perf_counter()
    count = 0
    while time.perf_counter() - start < 3.0:
        random_playout(RULES, 4, seed=count)
        count += 1
    print(f"random complete 4-player games per second: {count / (time.perf_counter() - start):.0f}")


if __name__ == "__main__":
    main()
