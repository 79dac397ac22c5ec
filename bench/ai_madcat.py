"""Mad Cat Sad Cat computer players: strength and decision time.

    python -m bench.ai_madcat --games 300

Prints the machine, the win rates of hard vs 3 easy, hard vs 3 normal and normal vs 3 easy at
4 players (the tested player's seat rotates; starting players come from the seed), the decision
time p50/p99 per level, and random complete games per second at 4 players.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

from bench.machine import describe_machine
from engine.madcat import RULES
from engine.madcat.ai import PLAYERS
from engine.testing import random_playout

MATCHES = (("hard", "easy"), ("hard", "normal"), ("normal", "easy"))


def play(levels: list[str], seed: int, timings: dict[str, list[float]]) -> tuple[int, ...]:
    """One game with the given level per seat; returns the winners. Times decisions with a choice."""
    state = RULES.setup(len(levels), seed)
    step = 0
    while RULES.outcome(state) is None:
        for seat in RULES.to_act(state):
            legal = RULES.legal_actions(state, seat)
            view = RULES.view(state, seat)
            player = PLAYERS[levels[seat]]
            start = time.perf_counter()
            action = player.choose(RULES, view, seat, legal, seed=seed * 7919 + step * 31 + seat)
            if len(legal) > 1:
                timings[levels[seat]].append(time.perf_counter() - start)
            state, _ = RULES.apply(state, seat, action)
            step += 1
            if RULES.outcome(state) is not None:
                break
    return RULES.outcome(state).winners


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per match")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(describe_machine())
    timings: dict[str, list[float]] = defaultdict(list)
    for tested, others in MATCHES:
        wins = 0
        for game in range(args.games):
            seat = game % 4
            levels = [others] * 4
            levels[seat] = tested
            winners = play(levels, args.seed * 1_000_003 + game, timings)
            wins += seat in winners
        print(
            f"{tested} vs 3 {others} (4 players, {args.games} games): {tested} wins {wins / args.games:.1%}"
        )
    for level in ("easy", "normal", "hard"):
        values = timings[level]
        print(
            f"decision time {level}: p50 {percentile(values, 0.5) * 1000:.2f} ms, "
            f"p99 {percentile(values, 0.99) * 1000:.2f} ms, max {max(values) * 1000:.1f} ms "
            f"over {len(values)} decisions with a choice"
        )
    start = time.perf_counter()
    games = 0
    while time.perf_counter() - start < 3.0:
        random_playout(RULES, 4, seed=games)
        games += 1
    print(f"random complete games at 4 players: {games / (time.perf_counter() - start):.0f} per second")


if __name__ == "__main__":
    main()
