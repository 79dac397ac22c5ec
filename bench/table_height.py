"""How tall each game's public table stands on a phone, over whole games.

    python -m bench.table_height [--games 20] [--players max|N]

Plays whole games with the easy computer player in every seat (seeds 1..N), renders the public table
after every move, final results included, and prints each game's median and worst height in lines
wrapped at 40 columns (`cogs.phone.phone_lines`); the budget is `cogs.phone.TABLE_BUDGET`.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Iterator

from bench.table_in_memory import TableCase, commit, computer_move, new_table
from cogs.messages import table_message
from cogs.phone import phone_lines
from engine import GAMES


def table_heights(game: str, players: int, seed: int) -> Iterator[tuple[int, str]]:
    """Each table of one whole game as (its height on a phone, its text) from the start to the end."""
    live = new_table(TableCase(game, players, seed))
    while True:
        message = table_message(live, due=1_700_000_000)
        embed = message.embed
        text = "\n".join(
            [embed.title or "", embed.description or ""]
            + [f"{f.name}\n{f.value}" for f in embed.fields]
            + [embed.footer.text or ""]
        )
        yield phone_lines(message.content, embed), text
        if live.rules.outcome(live.state) is not None:
            return
        commit(live, computer_move(live))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", default="max")
    args = parser.parse_args()
    for key, game in GAMES.items():
        players = game.rules.max_players if args.players == "max" else int(args.players)
        players = max(game.rules.min_players, min(players, game.rules.max_players))
        heights = [h for seed in range(1, args.games + 1) for h, _ in table_heights(key, players, seed)]
        print(
            f"{key:10} {players} players: median {statistics.median(heights):.0f}, "
            f"worst {max(heights)} lines over {len(heights)} tables"
        )


if __name__ == "__main__":
    main()
