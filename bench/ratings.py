"""What rating a game adds to its end (`python -m bench.ratings`).

    python -m bench.ratings [--games 1000] [--postgres | --url postgresql://...]

Games of 2 and 4 seats on one server end one after the other, each result written in one
transaction as a finishing move writes it (`write_results`: the seats read, the result written and
the game rated), timed inside the transaction (the commit's own sync is the same with or without
rating, and is left out). Three kinds of end take turns:

- rated: a member in every seat (from a pool of 40, so ratings already exist for most);
- unrated: one member, computers in the other seats, which rates nobody (the store still reads the
  member's rating with the seats);
- result alone: the same seats read and the same result written as a store that rates nobody
  would (`result_alone`), the reference.

What rating adds is the rated end less the result alone. The ends are timed on a database with a
history: as many games of every kind and size end first, untimed, and PostgreSQL then gathers its
statistics on the tables (`ANALYZE`, as its autovacuum does on a server), without which it plans for
empty tables and scans them whole as they grow; a few more then end untimed (`WARM_UP`). SQLite by
default; `--postgres` measures a throw-away PostgreSQL server of its own instead (from the
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
from bot.storage.commits import OUTCOMES_UPSERT, write_results
from bot.storage.dialects import Connection

KINDS = ("rated", "unrated", "alone")
MEMBERS = 40
WARM_UP = 10
"""Untimed ends of each kind after `ANALYZE`, which has PostgreSQL plan each statement again: the
first end after it is slower by that, as a server's are once, not at each end."""


RESULTS_ALONE = (
    "INSERT INTO results (game_id, seat, user_id, score, won) SELECT * FROM {rows} WHERE true "
    "ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id, score = excluded.score, "
    "won = excluded.won"
)
"""The results as a store that rates nobody writes them: without the seats' rating changes."""


async def result_alone(db: Connection, game_id: int, result: FinalResult, now: float) -> None:
    """A game's end as a store that rates nobody writes it: its seats read, its results (`RESULTS_ALONE`)
    and outcome written."""
    seats = await db.fetch("SELECT seat, user_id FROM seats WHERE game_id = ? ORDER BY seat", game_id)
    scores = [
        (game_id, seat, user, score, int(seat in result.winners))
        for (seat, user), score in zip(seats, result.scores, strict=True)
    ]
    await db.execute_rows_together(
        (RESULTS_ALONE, ("id", "int", "id", "int", "int"), scores),
        (OUTCOMES_UPSERT, ("id", "text", "time"), [(game_id, result.reason, now)]),
    )


async def measure(store: GameStore, games: int, players: int) -> dict[float, dict[str, float]]:
    """p50 and p99 in ms of each kind of end (`KINDS`), `games` of each, and what rating adds."""
    chooser = random.Random(players)
    times: dict[str, list[float]] = {kind: [] for kind in KINDS}
    for n in range(len(KINDS) * games):
        kind = KINDS[n % len(KINDS)]
        users = chooser.sample(range(1, MEMBERS + 1), 1 if kind == "unrated" else players)
        seats = [SeatRecord(seat=s, user_id=u, name=f"m{u}") for s, u in enumerate(users)]
        computers = range(len(users), players)
        seats += [SeatRecord(seat=s, user_id=None, computer="normal", name=f"c{s}") for s in computers]
        lobby = await store.games.create_lobby(
            guild_id=1, channel_id=2, thread_id=None, game="catsdogs", options={}, host=seats[0], now=1.0,
            seats=seats,
        )  # fmt: skip
        await store.games.start_game(lobby.id, seed=n, seats=seats, state_json="{}", now=1.0)
        scores = tuple(chooser.randrange(10) for _ in seats)
        result = FinalResult(scores, (scores.index(max(scores)),), "done")

        async def body(db, game_id=lobby.id, result=result, kind=kind) -> None:
            start = time.perf_counter()
            if kind == "alone":
                await result_alone(db, game_id, result, 2.0)
            else:
                await write_results(db, [(game_id, result, 2.0)])
            times[kind].append(time.perf_counter() - start)

        await store.database.transaction(body)
    figures = {}
    for share in (0.5, 0.99):
        shares = {kind: percentile(times[kind], share) * 1000 for kind in KINDS}
        figures[share] = {**shares, "adds": shares["rated"] - shares["alone"]}
    return figures


async def run(games: int, url: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = PostgresGameStore(url) if url else SqliteGameStore(Path(folder) / "bench.sqlite3")
        await store.open()
        try:
            print(describe_machine())
            kind = "PostgreSQL" if url else "SQLite"
            print(f"store: {kind}, {games} ends of each kind and size")
            columns = ("alone ms", 10), ("unrated ms", 12), ("rated ms", 10), ("rating adds ms", 16)
            print(f"{'seats':>6}{'':>5}" + "".join(f"{name:>{width}}" for name, width in columns))
            for players in (2, 4):
                await measure(store, games, players)
            if url:
                await store.database.transaction(lambda db: db.execute("ANALYZE"))
                for players in (2, 4):
                    await measure(store, WARM_UP, players)
            for players in (2, 4):
                for share, at in (await measure(store, games, players)).items():
                    print(
                        f"{players:>6}{f'p{round(share * 100)}':>5}{at['alone']:>10.3f}{at['unrated']:>12.3f}"
                        f"{at['rated']:>10.3f}{at['adds']:>16.3f}"
                    )
        finally:
            await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ratings", description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
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
