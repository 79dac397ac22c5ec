"""What whole games cost against Discord's global limit: counted requests a move, game by game.

    python -m bench.request_budget [--tokens on|off] [--pictures on|off] [--seeds 1]

Plays whole games of every game and player count through the emulator, as members click (the
members of `bench/members.py`: /play, Join, Start, a random choice on the table or their panel for
every move, then Rematch; then the rematch game the same way), and counts the bot's requests from the
emulator's log: those the global
limit counts, those it exempts (the interaction callback and the interaction-token webhook routes),
and, by any route, the edits of the table message, the new messages (lobby, tables, pings, warnings)
and the deletions, each a move. `--tokens off` has the bot use no interaction token for its table,
pings and deletions (how it was before it used them), for the before/after figures.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile
from pathlib import Path

from bench.game_costs import PLAYER_COUNTS, GameCost, play_whole_games
from bench.machine import describe_machine
from bench.members import catnip


async def games(key: str, players: int, seed: int, *, tokens: bool, pictures: bool) -> list[GameCost]:
    """A whole game and its rematch game."""
    with tempfile.TemporaryDirectory() as folder:
        async with catnip(Path(folder), pictures=pictures) as (emu, bot):
            if not tokens:
                bot.presenter.tokens.use_within = 0
            return await play_whole_games(emu, key, players, seed, rematches=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tokens", choices=["on", "off"], default="on")
    parser.add_argument("--pictures", choices=["on", "off"], default="on")
    parser.add_argument("--seeds", type=int, default=1, help="games of each kind and player count")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    print(describe_machine())
    print(f"interaction tokens {args.tokens}, pictures {args.pictures}")
    print("| game | players | which | moves | counted a move | table edits | posts | deletions | exempt |")
    print("|---|---|---|---|---|---|---|---|---|")
    worst = 0.0
    for key, counts in PLAYER_COUNTS.items():
        for players in counts:
            played = [
                asyncio.run(
                    games(key, players, seed, tokens=args.tokens == "on", pictures=args.pictures == "on")
                )
                for seed in range(1, args.seeds + 1)
            ]
            for which, costs in (("first", [p[0] for p in played]), ("rematch", [p[1] for p in played])):
                moves = sum(c.moves for c in costs)
                counted = sum(sum(c.counted.values()) for c in costs) / moves
                exempt = sum(sum(c.exempt.values()) for c in costs) / moves
                kinds = [
                    sum(c.by_kind()[kind] for c in costs) / moves for kind in ("edit", "post", "deletion")
                ]
                worst = max(worst, counted)
                figures = " | ".join(f"{figure:.2f}" for figure in (counted, *kinds, exempt))
                print(f"| {key} | {players} | {which} | {moves} | {figures} |")
    print(f"worst counted requests a move: {worst:.2f}")


if __name__ == "__main__":
    main()
