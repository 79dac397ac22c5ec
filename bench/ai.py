"""Computer players: strength (win rates between levels) and decision time per level.

    python -m bench.ai --game catsdogs --games 1000 [--players 4] [--jobs 2]
    python -m bench.ai --game catsdogs --players 1 --games 1000     # solo: each level's success rate

With N players, "A vs B" seats one A player and N-1 B players (the A seat moves round the table
from game to game) and reports A's share of the wins, ties shared: chance is 1/N. Decision times
count only decisions with more than one legal action.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Sequence
from contextlib import nullcontext
from multiprocessing import Pool

from bench.machine import describe_machine
from engine import GAMES
from engine.ai import LEVELS

MATCHES = (("hard", "easy"), ("hard", "normal"), ("normal", "easy"))


def play_game(job: tuple[str, Sequence[str], int, object]) -> tuple[tuple[int, ...], dict[str, list[float]]]:
    """One seeded game between the given levels; the winners and each level's decision times."""
    key, lineup, seed, options = job
    rules = GAMES[key].rules
    players = [GAMES[key].computer(level) for level in lineup]
    state = rules.setup(len(lineup), seed, options)
    times: dict[str, list[float]] = defaultdict(list)
    step = 0
    while (outcome := rules.outcome(state)) is None:
        seat = rules.to_act(state)[0]
        legal = rules.legal_actions(state, seat)
        start = time.perf_counter()
        action = players[seat].choose(rules, rules.view(state, seat), seat, legal, seed * 100_003 + step)
        if len(legal) > 1:
            times[lineup[seat]].append(time.perf_counter() - start)
        state, _ = rules.apply(state, seat, action)
        step += 1
    return outcome.winners, dict(times)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def run(pool, jobs: list) -> tuple[list[tuple[int, ...]], dict[str, list[float]]]:
    results = pool.map(play_game, jobs, chunksize=1) if pool else list(map(play_game, jobs))
    times: dict[str, list[float]] = defaultdict(list)
    for _, game_times in results:
        for level, values in game_times.items():
            times[level] += values
    return [winners for winners, _ in results], times


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), required=True)
    parser.add_argument("--games", type=int, default=200, help="games per match")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--full-powers", action="store_true", help="Nine Lives with every power")
    parser.add_argument(
        "--matches",
        default=",".join(f"{a}-{b}" for a, b in MATCHES),
        help="which matches to play, as tested-field pairs (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    matches = [tuple(pair.split("-")) for pair in args.matches.split(",")]
    if any(len(pair) != 2 or not set(pair) <= set(LEVELS) for pair in matches):
        parser.error(f"--matches takes pairs of levels ({', '.join(LEVELS)}) such as hard-normal")
    rules = GAMES[args.game].rules
    options = rules.Options(limited_powers=False) if args.full_powers else None
    print(describe_machine())
    print(f"{rules.title}, {args.players} players, {args.games} games per match")
    all_times: dict[str, list[float]] = defaultdict(list)
    with Pool(args.jobs) if args.jobs > 1 else nullcontext() as pool:
        if args.players == 1:
            for level in LEVELS:
                jobs = [(args.game, [level], seed, options) for seed in range(args.games)]
                winners, times = run(pool, jobs)
                for name, values in times.items():
                    all_times[name] += values
                print(f"solo success rate, {level}: {sum(1 for w in winners if w) / len(winners):.1%}")
        else:
            for tested, field in matches:
                jobs = []
                for seed in range(args.games):
                    lineup = [field] * args.players
                    lineup[seed % args.players] = tested
                    jobs.append((args.game, lineup, seed, options))
                winners, times = run(pool, jobs)
                share = sum(
                    1 / len(w)
                    for (_, lineup, _, _), w in zip(jobs, winners, strict=True)
                    for seat in w
                    if lineup[seat] == tested
                )
                for name, values in times.items():
                    all_times[name] += values
                rate, chance = share / len(jobs), 1 / args.players
                print(f"{tested} vs {args.players - 1} {field}: {rate:.1%} wins (chance {chance:.0%})")
    for level in LEVELS:
        values = all_times.get(level)
        if values:
            print(
                f"decision time {level}: p50 {percentile(values, 0.5) * 1e3:.2f} ms, "
                f"p99 {percentile(values, 0.99) * 1e3:.2f} ms, max {max(values) * 1e3:.1f} ms "
                f"({len(values)} decisions)"
            )


if __name__ == "__main__":
    main()
