"""How long the private panels of whole games take to build (`python -m bench.panels`).

Every seat's panel is built after every move of seeded games played by the easy computer players: the
work a click on "My hand" and every refresh of an open panel cost the bot, with no Discord involved.
"""

from __future__ import annotations

import argparse
import time

from bench.machine import describe_machine
from cogs.messages import private_panel
from tests.golden.playthrough import Case, commit, computer_move, new_table


def measure(game: str, players: int, games: int) -> tuple[int, float]:
    """Panels built and their mean cost in ms over `games` seeded games of `game`."""
    built, spent = 0, 0.0
    for seed in range(1, games + 1):
        table = new_table(Case(game, players, seed))
        while table.rules.outcome(table.state) is None:
            commit(table, computer_move(table))
            start = time.perf_counter()
            for seat in range(players):
                private_panel(table, seat)
            spent += time.perf_counter() - start
            built += players
    return built, spent / built * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5, help="games per game kind")
    args = parser.parse_args()
    print(describe_machine())
    print(f"{'game':<12}{'players':>8}{'panels':>8}{'ms/panel':>10}")
    for game, players in (("catsanity", 4), ("madcat", 4), ("catsdogs", 4), ("ninelives", 4)):
        built, ms = measure(game, players, args.games)
        print(f"{game:<12}{players:>8}{built:>8}{ms:>10.3f}")


if __name__ == "__main__":
    main()
