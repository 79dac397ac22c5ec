"""What a replay viewer costs (`python -m bench.replays`).

    python -m bench.replays [--games 2]

Random games of every kind at every player count, stored as the bot stores them (seed and move log);
each is rebuilt as `/game replay` rebuilds it (once per viewer, kept for its clicks), then every step
is shown as a click shows it: the viewer's text and controls for a member who did not play, and its
picture drawn (scene, drawing and PNG encoding). Reports per game: steps, rebuild time per game,
step time p50/p99/max with its picture, and the text alone.
"""

from __future__ import annotations

import argparse
import time

import pictures
from bench.machine import describe_machine
from bench.pictures import NAMES, percentile
from bot.storage.models import GameRecord, MoveRecord, SeatRecord
from cogs.play._replay import rebuild, replay_message
from engine import GAMES
from engine.history import played
from engine.testing import random_playout


def stored(key: str, players: int, seed: int) -> tuple[GameRecord, tuple[MoveRecord, ...]]:
    """A random finished game as the store holds it, each move with its events."""
    rules = GAMES[key].rules
    log = random_playout(rules, players, seed).log
    told = [events for _, events in played(rules, players, seed, None, log)]
    seats = tuple(SeatRecord(seat=s, user_id=100 + s, name=NAMES[s]) for s in range(players))
    record = GameRecord(
        id=1, guild_id=1, channel_id=2, thread_id=None, game=key, options={}, seed=seed, status="finished",
        version=len(log) + 1, host_id=100, table_message_id=None, table_channel_id=None, created_at=0.0,
        updated_at=0.0, seats=seats,
    )  # fmt: skip
    moves = tuple(
        MoveRecord(seq=n, seat=s, action=a, events=[e.model_dump(mode="json") for e in told[n - 1]], at=0.0)
        for n, (s, a) in enumerate(log, 1)
    )
    return record, moves


def measure(key: str, games: int) -> dict:
    rules = GAMES[key].rules
    rebuilds, steps, texts = [], [], []
    for players in range(max(rules.min_players, 2), rules.max_players + 1):
        for seed in range(games):
            record, moves = stored(key, players, seed * 7 + players)
            start = time.perf_counter()
            replay = rebuild(record, moves)
            rebuilds.append(time.perf_counter() - start)
            names = NAMES[:players]
            for step, state in enumerate(replay.states):
                start = time.perf_counter()
                replay_message(replay, step, None)
                texts.append(time.perf_counter() - start)
                scene = pictures.scene_of(key, rules.view(state, None), names, rules.outcome(state))
                pictures.draw(key, scene)
                steps.append(time.perf_counter() - start)
    return {
        "steps": len(steps),
        "rebuild": percentile(rebuilds, 0.5) * 1000,
        "rebuild_max": max(rebuilds) * 1000,
        "p50": percentile(steps, 0.5) * 1000,
        "p99": percentile(steps, 0.99) * 1000,
        "max": max(steps) * 1000,
        "text99": percentile(texts, 0.99) * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.replays", description=__doc__)
    parser.add_argument("--games", type=int, default=2, help="random games per game kind and player count")
    args = parser.parse_args()
    print(describe_machine())
    print(
        f"{'game':<11}{'steps':>7}{'rebuild p50 ms':>15}{'rebuild max':>12}"
        f"{'step p50':>9}{'step p99':>9}{'step max':>9}{'text p99':>9}"
    )
    for key in sorted(GAMES):
        r = measure(key, args.games)
        print(
            f"{key:<11}{r['steps']:>7}{r['rebuild']:>15.1f}{r['rebuild_max']:>12.1f}"
            f"{r['p50']:>9.1f}{r['p99']:>9.1f}{r['max']:>9.1f}{r['text99']:>9.2f}"
        )


if __name__ == "__main__":
    main()
