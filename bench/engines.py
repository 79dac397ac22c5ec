"""Engine speed: random complete games per second, and mean time per apply / legal_actions / view.

    python -m bench.engines [--seconds 3] [--game catsdogs]

For each game at 2, 4 and its maximum player count (Nine Lives with both power sets).
"""

from __future__ import annotations

import argparse
import time

from bench.machine import describe_machine
from engine import GAMES, Rules
from engine.testing import RandomPlayer


def configurations(rules: Rules) -> list[tuple[int, object, str]]:
    counts = sorted(
        {max(rules.min_players, 2), 4, rules.max_players}
        & set(range(rules.min_players, rules.max_players + 1))
    )
    options: list[tuple[object, str]] = [(None, "")]
    if "limited_powers" in rules.Options.model_fields:
        options = [
            (rules.Options(limited_powers=True), "limited"),
            (rules.Options(limited_powers=False), "full"),
        ]
    return [(count, option, label) for option, label in options for count in counts]


def measure(rules: Rules, players: int, options, seconds: float) -> dict[str, float]:
    """Play random games for about `seconds`; time whole games, then each verb separately."""
    games = steps = 0
    t_apply = t_legal = t_view = 0.0
    start = time.perf_counter()
    seed = 0
    while time.perf_counter() - start < seconds or games == 0:
        player = RandomPlayer(rules, seed)
        state = rules.setup(players, seed, options)
        while rules.outcome(state) is None:
            seat = player.pick_seat(rules.to_act(state))
            t0 = time.perf_counter()
            actions = rules.legal_actions(state, seat)
            t1 = time.perf_counter()
            action, player.rng = player.rng.choice(actions)
            state, _ = rules.apply(state, seat, action)
            t2 = time.perf_counter()
            rules.view(state, seat)
            t3 = time.perf_counter()
            t_legal += t1 - t0
            t_apply += t2 - t1
            t_view += t3 - t2
            steps += 1
        games += 1
        seed += 1
    elapsed_games = _whole_games(rules, players, options, max(seconds / 2, 0.2))
    return {
        "games_per_s": elapsed_games,
        "moves_per_game": steps / games,
        "apply_us": t_apply / steps * 1e6,
        "legal_us": t_legal / steps * 1e6,
        "view_us": t_view / steps * 1e6,
    }


def _whole_games(rules: Rules, players: int, options, seconds: float) -> float:
    """Random complete games per second, with no per-verb timing overhead."""
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games == 0:
        player = RandomPlayer(rules, 10_000 + games)
        state = rules.setup(players, 10_000 + games, options)
        while rules.outcome(state) is None:
            seat = player.pick_seat(rules.to_act(state))
            state, _ = rules.apply(state, seat, player.choose(state, seat))
        games += 1
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per configuration")
    parser.add_argument("--game", choices=sorted(GAMES), help="only this game")
    args = parser.parse_args()
    print(describe_machine())
    print(
        f"{'game':<12}{'players':>8}{'powers':>9}{'games/s':>10}{'moves/game':>12}"
        f"{'apply µs':>10}{'legal µs':>10}{'view µs':>9}"
    )
    for key, game in GAMES.items():
        if args.game and key != args.game:
            continue
        for players, options, label in configurations(game.rules):
            r = measure(game.rules, players, options, args.seconds)
            print(
                f"{key:<12}{players:>8}{label:>9}{r['games_per_s']:>10.1f}{r['moves_per_game']:>12.1f}"
                f"{r['apply_us']:>10.1f}{r['legal_us']:>10.1f}{r['view_us']:>9.1f}"
            )


if __name__ == "__main__":
    main()
