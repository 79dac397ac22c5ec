"""CatSanity computer players: strength and decision time, plus random games per second.

    python -m bench.ai_catsanity --games 100 [--cheap-games 1000]

At 4 players, over seeded games with the measured player's seat rotating: win rate of hard vs three
easy, hard vs three normal (`--games` each) and normal vs three easy (`--cheap-games`). A shared
win counts as a fraction. Then the decision time per level (median and 99th percentile) and how
many random complete 4-player games the engine plays per second.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench.machine import describe_machine
from engine.catsanity import RULES
from engine.catsanity.ai import PLAYERS
from engine.testing import RandomPlayer

PLAYERS_AT_TABLE = 4


def play(lineup, seed: int, times: dict[str, list[float]]) -> tuple[float, ...]:
    """One game with `lineup[seat]` deciding for each seat; each seat's share of the win."""
    state = RULES.setup(len(lineup), seed)
    step = 0
    while (outcome := RULES.outcome(state)) is None:
        (seat,) = RULES.to_act(state)
        player = lineup[seat]
        legal = RULES.legal_actions(state, seat)
        view = RULES.view(state, seat)
        start = time.perf_counter()
        action = player.choose(RULES, view, seat, legal, seed * 10_007 + step)
        times.setdefault(player.level, []).append(time.perf_counter() - start)
        state, _ = RULES.apply(state, seat, action)
        step += 1
    return tuple(1 / len(outcome.winners) if s in outcome.winners else 0.0 for s in range(len(lineup)))


def match(hero: str, field: str, games: int, times: dict[str, list[float]]) -> float:
    """The win rate of one `hero` player against three `field` players."""
    won = 0.0
    for game in range(games):
        seat = game % PLAYERS_AT_TABLE
        lineup = [PLAYERS[field]] * PLAYERS_AT_TABLE
        lineup[seat] = PLAYERS[hero]
        won += play(lineup, 50_000 + game, times)[seat]
    return won / games


def random_games_per_second(seconds: float = 5.0) -> float:
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        walker = RandomPlayer(RULES, games)
        state = RULES.setup(PLAYERS_AT_TABLE, games)
        while RULES.outcome(state) is None:
            (seat,) = RULES.to_act(state)
            state, _ = RULES.apply(state, seat, walker.choose(state, seat))
        games += 1
    return games / (time.perf_counter() - start)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per match with the hard player")
    parser.add_argument("--cheap-games", type=int, default=1000, help="games of normal vs three easy")
    args = parser.parse_args()
    print(describe_machine())
    times: dict[str, list[float]] = {}
    for hero, field, games in (
        ("hard", "easy", args.games),
        ("hard", "normal", args.games),
        ("normal", "easy", args.cheap_games),
    ):
        start = time.perf_counter()
        rate = match(hero, field, games, times)
        print(
            f"{hero} vs 3 {field}: {rate:.1%} wins over {games} games at 4 players "
            f"(chance 25%; {time.perf_counter() - start:.0f} s)"
        )
    for level in ("easy", "normal", "hard"):
        values = times.get(level, [])
        if values:
            print(
                f"{level:<7} decision time: median {statistics.median(values) * 1000:.2f} ms, "
                f"p99 {percentile(values, 0.99) * 1000:.2f} ms over {len(values)} decisions"
            )
    print(f"random complete 4-player games per second: {random_games_per_second():.0f}")


if __name__ == "__main__":
    main()
