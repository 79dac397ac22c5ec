"""What rating a game adds to its end (`python -m bench.ratings`).

    python -m bench.ratings [--games 300] [--postgres | --url postgresql://...]

Games of 2 and 4 seats on one server end one after the other, each result written in one
transaction as a finishing move writes it (`write_results`: the seats read, the result written and
the game rated), timed inside the transaction (the commit's own sync is the same with
or without rating, and is left out). Rated and unrated games alternate: a rated game has a member in every
seat (from a pool of 40, so ratings already exist for most); an unrated one has one member and
computers in the other seats, which rates nobody. What rating adds is the difference.
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
from bot.storage.commits import write_results

MEMBERS = 40


async def measure(store: GameStore, games: int, players: int) -> dict:
    chooser = random.Random(players)
    times: dict[bool, list[float]] = {True: [], False: []}
    for n in range(2 * games):
        rated = n % 2 == 0
        users = chooser.sample(range(1, MEMBERS + 1), players if rated else 1)
        seats = [SeatRecord(seat=s, user_id=u, name=f"m{u}") for s, u in enumerate(users)]
        computers = range(len(users), players)
        seats += [SeatRecord(seat=s, user_id=None, computer="normal", name=f"c{s}") for s in computers]
        lobby = await store.create_lobby(
            guild_id=1, channel_id=2, thread_id=None, game="catsdogs", options={}, host=seats[0], now=1.0,
            seats=seats,
        )  # fmt: skip
        await store.start_game(lobby.id, seed=n, seats=seats, state_json="{}", now=1.0)
        scores = tuple(chooser.randrange(10) for _ in seats)
        result = FinalResult(scores, (scores.index(max(scores)),), "done")

        async def body(db, game_id=lobby.id, result=result, rated=rated) -> None:
            start = time.perf_counter()
            await write_results(db, [(game_id, result, 2.0)])
            times[rated].append(time.perf_counter() - start)

        await store._transaction(body)
    figures = {}
    for share in (0.5, 0.99):
        alone, with_rating = (percentile(times[rated], share) * 1000 for rated in (False, True))
        figures[share] = (alone, with_rating, with_rating - alone)
    return figures


async def run(games: int, url: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = PostgresGameStore(url) if url else SqliteGameStore(Path(folder) / "bench.sqlite3")
        await store.open()
        try:
            print(describe_machine())
            kind = "PostgreSQL" if url else "SQLite"
            print(f"store: {kind}, {games} rated and {games} unrated games of each size")
            print(f"{'seats':>6}{'':>5}{'unrated ms':>11}{'rated ms':>10}{'rating adds ms':>16}")
            for players in (2, 4):
                figures = await measure(store, games, players)
                for share, (alone, with_rating, added) in figures.items():
                    at = f"p{round(share * 100)}"
                    print(f"{players:>6}{at:>5}{alone:>11.3f}{with_rating:>10.3f}{added:>16.3f}")
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
