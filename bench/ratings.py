"""What rating a game adds to its end (`python -m bench.ratings`).

    python -m bench.ratings [--games 300] [--postgres | --url postgresql://...]

Games of 2 and 4 members on one server (from a pool of 40 members, so ratings already exist for
most) end one after the other; each game's result is written in one transaction as a finishing
move writes it, and inside that transaction the time of the result alone and of the rating added
to it are taken apart (the commit's own sync is the same with or without rating, and is left out).
SQLite by default; `--postgres` measures a throw-away PostgreSQL server of its own instead (from the
`pgserver` wheel), `--url` a database given (it must be empty).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from bench.machine import describe_machine
from bench.pictures import percentile
from bot.storage import FinalResult, GameStore, PostgresGameStore, SeatRecord, SqliteGameStore
from bot.storage.commits import write_result
from bot.storage.ratings import rate_games

MEMBERS = 40


async def measure(store: GameStore, games: int, players: int) -> dict:
    chooser = random.Random(players)
    written, rated = [], []
    for n in range(games):
        users = chooser.sample(range(1, MEMBERS + 1), players)
        seats = [SeatRecord(seat=s, user_id=u, name=f"m{u}") for s, u in enumerate(users)]
        lobby = await store.create_lobby(
            guild_id=1, channel_id=2, thread_id=None, game="catsdogs", options={}, host=seats[0], now=1.0,
            seats=seats,
        )  # fmt: skip
        await store.start_game(lobby.id, seed=n, seats=seats, state_json="{}", now=1.0)
        scores = tuple(chooser.randrange(10) for _ in users)
        result = FinalResult(scores, (scores.index(max(scores)),), "done")

        async def body(db, game_id=lobby.id, result=result) -> None:
            start = time.perf_counter()
            end = await write_result(db, game_id, result, 2.0)
            middle = time.perf_counter()
            await rate_games(db, [end], 2.0)
            written.append(middle - start)
            rated.append(time.perf_counter() - middle)

        await store._transaction(body)
    return {
        "written50": percentile(written, 0.5) * 1000,
        "rated50": percentile(rated, 0.5) * 1000,
        "rated99": percentile(rated, 0.99) * 1000,
        "rated_max": max(rated) * 1000,
    }


async def run(games: int, url: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = PostgresGameStore(url) if url else SqliteGameStore(Path(folder) / "bench.sqlite3")
        await store.open()
        try:
            print(describe_machine())
            print(f"store: {'PostgreSQL' if url else 'SQLite'}, {games} games of each size")
            print(f"{'members':>8}{'result p50 ms':>14}{'rating p50 ms':>14}{'p99':>8}{'max':>8}")
            for players in (2, 4):
                r = await measure(store, games, players)
                print(
                    f"{players:>8}{r['written50']:>14.3f}{r['rated50']:>14.3f}{r['rated99']:>8.3f}"
                    f"{r['rated_max']:>8.3f}"
                )
        finally:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ratings", description=__doc__)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--postgres", action="store_true", help="measure a throw-away PostgreSQL server")
    parser.add_argument("--url", help="a PostgreSQL database to measure instead of SQLite")
    args = parser.parse_args()
    if not args.postgres:
        asyncio.run(run(args.games, args.url))
        return
    from bench.postgres_server import start_postgres, stop_postgres

    server, folder = start_postgres(sync_setup=True)
    try:
        asyncio.run(run(args.games, server.get_uri()))
    finally:
        stop_postgres(server, folder)


if __name__ == "__main__":
    main()
