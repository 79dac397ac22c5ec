"""How tall each game's public table and private panels stand on a phone, over whole games.

    python -m bench.table_height [--games 20] [--players max|all|N] [--no-picture]
                                 [--panels | --replays | --results]

Plays whole games with the easy computer player in every seat (seeds 1..N), renders the public table
after every move, final results included, and prints for each game and player count: the text's
height in lines wrapped at 40 columns (`cogs.phone.phone_lines`, budget `TABLE_BUDGET`), and, laid out
as a phone 390 px wide shows it (`cogs.phone.screen_of`, picture included unless --no-picture), the
bottom of the acting player's first control and the whole message's height in pixels (median, p90,
worst; the first screen is `cogs.phone.SCREEN`). With --panels, the private panel of every seat that
must decide, the same way (budget `PANEL_BUDGET` lines). With --replays, `/game replay`'s viewer at
every step of random finished games at the fewest and most players, seen by the first seat's member:
the bottom of its first control, and how far that control moves from step to step (worst); with
--no-picture too, the viewer of a table whose pictures were off, which shows the table's text. With
--results, the final table of each game: the bottom of its 🔁 Rematch button.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, field

import pictures
from bench.machine import describe_machine
from bench.replays import stored
from bench.table_in_memory import TableCase, commit, computer_move, new_table
from cogs import custom_ids as ids
from cogs.messages import table_message, table_screen
from cogs.panel import panel_screen, private_panel
from cogs.phone import phone_lines, screen_of
from cogs.play._replay import rebuild, replay_message
from engine import GAMES


@dataclass
class Heights:
    lines: list[int] = field(default_factory=list)
    first: list[float] = field(default_factory=list)
    height: list[float] = field(default_factory=list)


def positions(game: str, players: int, seed: int) -> Iterator:
    """Each position of one whole game of the easy computer player, as a live table."""
    live = new_table(TableCase(game, players, seed))
    while True:
        yield live
        if live.rules.outcome(live.state) is not None:
            return
        commit(live, computer_move(live))


def measure_tables(game: str, players: int, seeds: range, picture: bool) -> Heights:
    heights = Heights()
    for seed in seeds:
        for live in positions(game, players, seed):
            message = table_message(live, due=1_700_000_000, picture=picture)
            screen, first = table_screen(live, message, picture)
            heights.lines.append(phone_lines(message.content, message.embed))
            heights.height.append(screen.height)
            if first is not None:
                heights.first.append(first)
    return heights


def measure_panels(game: str, players: int, seeds: range) -> Heights:
    heights = Heights()
    for seed in seeds:
        for live in positions(game, players, seed):
            if live.rules.outcome(live.state) is not None:
                continue
            for seat in live.to_act():
                panel = private_panel(live, seat)
                screen, first = panel_screen(panel)
                heights.lines.append(phone_lines(None, panel.embed))
                heights.height.append(screen.height)
                heights.first.append(first)
    return heights


def measure_replays(game: str, players: int, seeds: range, picture: bool) -> tuple[Heights, float]:
    """The viewer's first control at every step, and the most it moves within one game."""
    heights, moved = Heights(), 0.0
    for seed in seeds:
        replay = rebuild(*stored(game, players, seed))
        bottoms = []
        for step in range(replay.last + 1):
            message = replay_message(replay, step, 0, picture)
            embed = message.embed.to_dict()
            if picture:
                embed["image"] = {"url": "attachment://table.png"}
            components = message.view.to_components()
            screen = screen_of(None, embed, components, pictures.SIZE if picture else None)
            bottoms.append(screen.buttons[components[0]["components"][0]["custom_id"]])
            heights.lines.append(phone_lines(None, message.embed))
            heights.height.append(screen.height)
        heights.first += bottoms
        moved = max(moved, max(bottoms) - min(bottoms))
    return heights, moved


def measure_results(game: str, players: int, seeds: range, picture: bool) -> Heights:
    """The final table's Rematch button and height, one game a seed."""
    heights = Heights()
    for seed in seeds:
        *_, live = positions(game, players, seed)
        message = table_message(live, picture=picture)
        screen, _ = table_screen(live, message, picture)
        heights.first.append(screen.buttons[ids.rematch_id(live.id)])
        heights.lines.append(phone_lines(message.content, message.embed))
        heights.height.append(screen.height)
    return heights


def p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.9 * (len(ordered) - 1))]


def figures(values: list[float]) -> str:
    return f"{statistics.median(values):5.0f} / {p90(values):5.0f} / {max(values):5.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", default="max")
    parser.add_argument("--no-picture", action="store_true", help="tables whose host turned pictures off")
    parser.add_argument("--panels", action="store_true", help="the private panels instead of the table")
    parser.add_argument("--replays", action="store_true", help="the replay viewer instead of the table")
    parser.add_argument("--results", action="store_true", help="the final table's Rematch button")
    args = parser.parse_args()
    seeds = range(1, args.games + 1)
    if args.results:
        print(describe_machine())
        print("game        players  Rematch px med/p90/worst   height px med/p90/worst")
        for key, game in GAMES.items():
            for players in sorted({game.rules.min_players, game.rules.max_players}):
                heights = measure_results(key, players, seeds, picture=not args.no_picture)
                print(f"{key:11} {players:7}  {figures(heights.first):>25}   {figures(heights.height):>24}")
        return
    if args.replays:
        print(describe_machine())
        print(f"the replay viewer, pictures {'off' if args.no_picture else 'on'}")
        print("game        players  first control px med/p90/worst   moves px   height px med/p90/worst")
        for key, game in GAMES.items():
            for players in sorted({game.rules.min_players, game.rules.max_players}):
                heights, moved = measure_replays(key, players, seeds, picture=not args.no_picture)
                print(
                    f"{key:11} {players:7}  {figures(heights.first):>31}   {moved:8.0f}   "
                    f"{figures(heights.height):>24}"
                )
        return
    print(
        "game        players  lines med/p90/worst   first control px med/p90/worst   height px med/p90/worst"
    )
    for key, game in GAMES.items():
        rules = game.rules
        if args.players == "all":
            counts = range(rules.min_players, rules.max_players + 1)
        else:
            wanted = rules.max_players if args.players == "max" else int(args.players)
            counts = range(max(rules.min_players, min(wanted, rules.max_players)), 0, -1)[:1]
        for players in counts:
            if args.panels:
                heights = measure_panels(key, players, seeds)
            else:
                heights = measure_tables(key, players, seeds, picture=not args.no_picture)
            print(
                f"{key:11} {players:7}  {figures(heights.lines):>21}   {figures(heights.first):>31}   "
                f"{figures(heights.height):>24}"
            )


if __name__ == "__main__":
    main()
