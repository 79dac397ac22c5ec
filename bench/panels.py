"""How long the private panels of whole games take to build (`python -m bench.panels`).

Every seat's panel is built after every move of seeded games played by the easy computer players: the
work a click on "My hand" and every refresh of an open panel cost the bot, with no Discord involved.
Then what the bot renders for each move, as the JSON discord.py sends: the table, the mover's panel
showing the result, the next player's panel ("My hand") and the turn ping's button.
"""

from __future__ import annotations

import argparse
import time

from bench.machine import describe_machine
from bench.table_in_memory import TableCase, commit, computer_move, new_table
from cogs.components import Controls
from cogs.messages import Message, table_message
from cogs.panel import private_panel
from cogs.seat_controls import hand_button


def measure(game: str, players: int, games: int) -> tuple[int, float]:
    """Panels built and their mean cost in ms over `games` seeded games of `game`."""
    built, spent = 0, 0.0
    for seed in range(1, games + 1):
        table = new_table(TableCase(game, players, seed))
        while table.rules.outcome(table.state) is None:
            commit(table, computer_move(table))
            start = time.perf_counter()
            for seat in range(players):
                private_panel(table, seat)
            spent += time.perf_counter() - start
            built += players
    return built, spent / built * 1000


def sent(message: Message) -> tuple:
    """The parts of a message discord.py turns into JSON."""
    embed = message.embed.to_dict() if message.embed is not None else None
    return embed, message.view.to_components() if message.view is not None else None


def measure_moves(game: str, players: int, games: int) -> tuple[int, float]:
    """Moves made and the mean µs of rendering each as the bot does, over `games` seeded games."""
    moves, spent = 0, 0.0
    for seed in range(1, games + 1):
        table = new_table(TableCase(game, players, seed))
        while table.rules.outcome(table.state) is None:
            move = computer_move(table)
            commit(table, move)
            start = time.perf_counter()
            sent(private_panel(table, move.seat, fresh=1))
            sent(table_message(table))
            for seat in table.to_act()[:1]:
                sent(private_panel(table, seat))
            sent(Message(view=Controls([hand_button(table)])))
            spent += time.perf_counter() - start
            moves += 1
    return moves, spent / moves * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5, help="games per game kind")
    args = parser.parse_args()
    print(describe_machine())
    print(f"{'game':<12}{'players':>8}{'panels':>8}{'ms/panel':>10}")
    for game, players in (("catsanity", 4), ("madcat", 4), ("catsdogs", 4), ("ninelives", 4)):
        built, ms = measure(game, players, args.games)
        print(f"{game:<12}{players:>8}{built:>8}{ms:>10.3f}")
    print(f"\n{'game':<12}{'players':>8}{'moves':>8}{'µs/move':>10}  (table, two panels and a ping, as JSON)")
    for game, players in (("catsanity", 4), ("madcat", 4), ("catsdogs", 4), ("ninelives", 4)):
        moves, us = measure_moves(game, players, args.games)
        print(f"{game:<12}{players:>8}{moves:>8}{us:>10.0f}")


if __name__ == "__main__":
    main()
