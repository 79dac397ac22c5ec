"""PostgreSQL store speed: durable moves per second, commit latency, and resume of 1,000 active games.

    python -m bench.store_pg [--seconds 3] [--quick] [--url postgresql://…] [--writers 2]

Without `--url` it starts a throw-away server of its own from the `pgserver` wheel (on a Unix
socket, fsync and synchronous_commit on, as shipped). The moves are the same recorded real
payloads as `python -m bench.store`, committed through the store exactly as the bot does.

1. Throughput: N games (1, 10, 100, 1,000) each commit moves back to back, each holding its
   game's lock like the session does; moves/s and commit latency (asking for the lock to the
   durable commit). Plus 1,000 games each moving once every 2 s.
2. Resume: a database with 10,000 finished and 1,000 active games; time to open the store,
   list the live games (`active_games`, and `claim_games` as a fleet process does) and load
   every active game's state.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import time
from importlib.metadata import version as package_version

import asyncpg

from bench.machine import describe_machine
from bench.postgres_server import start_postgres, stop_postgres
from bench.store import (
    THROUGHPUT_HEADER,
    THROUGHPUT_RUNS,
    Script,
    moves_at_once,
    recorded_pools,
    seats_for,
    throughput_row,
)
from bot.storage import PostgresGameStore
from engine import GAMES


async def fresh_database(server_url: str, name: str) -> str:
    """The URL of a new, empty database `name` on the server (dropped first if it exists)."""
    db = await asyncpg.connect(server_url)
    try:
        await db.execute(f"DROP DATABASE IF EXISTS {name}")
        await db.execute(f"CREATE DATABASE {name}")
    finally:
        await db.close()
    base, _, query = server_url.partition("?")
    return f"{base.rsplit('/', 1)[0]}/{name}" + (f"?{query}" if query else "")


async def throughput(url: str, games: int, seconds: float, script: Script, writers: int, pace: float = 0.0):
    store = PostgresGameStore(url, writers=writers)
    await store.open()
    try:
        return await moves_at_once(store, games, seconds, script, pace)
    finally:
        await store.close()


async def build_resume_database(url: str, pool: list[Script], finished: int, active: int) -> None:
    """Write `finished` + `active` games straight into the store's schema with COPY (set-up, not measured)."""
    store = PostgresGameStore(url)
    await store.open()
    await store.close()
    games, seats, moves, snapshots, results, deadlines = [], [], [], [], [], []
    now = time.time()
    for number in range(finished + active):
        script = pool[number % len(pool)]
        done = number < finished
        cut = len(script.steps) if done else len(script.steps) // 2
        steps = script.steps[:cut]
        game_id = number + 1
        games.append((
            game_id, (1 + number % 20) << 22, 100 + number, None, script.game, json.dumps(script.options),
            script.seed, "finished" if done else "active", cut + 1, 1000 + number % 500, now, now,
        ))  # fmt: skip
        players = seats_for(script, 1000 + number % 500)
        seats += [(game_id, s.seat, s.user_id, s.name, None) for s in players]
        moves += [(game_id, i + 1, s.seat, s.action, json.dumps(s.events), now) for i, s in enumerate(steps)]
        snapshots.append((game_id, cut, cut + 1, steps[-1].state_json if steps else script.initial_json))
        if done:
            scores, won = script.scores, script.winners
            results += [(game_id, s.seat, s.user_id, scores[s.seat], int(s.seat in won)) for s in players]
        else:
            deadlines.append((game_id, "turn", now + 300))
    db = await asyncpg.connect(url)
    try:
        columns = (
            "id", "guild_id", "channel_id", "thread_id", "game", "options", "seed", "status", "version",
            "host_id", "created_at", "updated_at",
        )  # fmt: skip
        await db.copy_records_to_table("games", records=games, columns=columns)
        for table, rows in (("seats", seats), ("moves", moves), ("snapshots", snapshots)):
            await db.copy_records_to_table(table, records=rows)
        await db.copy_records_to_table("results", records=results)
        await db.copy_records_to_table("deadlines", records=deadlines)
        await db.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), MAX(id)) FROM games")
        await db.execute("VACUUM ANALYZE")
    finally:
        await db.close()


async def resume(url: str, *, claim: bool) -> dict[str, float]:
    """Seconds to open the store, list (or claim) the live games and load each active game's state."""
    began = time.perf_counter()
    store = PostgresGameStore(url, owner="bench")
    await store.open()
    opened = time.perf_counter()
    if claim:
        games = await store.coordination.claim_games(
            shard_ids=[0], shard_count=1, lease_seconds=60, now=time.time()
        )
    else:
        games = await store.games.active_games()
    listed = time.perf_counter()
    for game in games:
        if game.status == "active":
            await store.games.load_state(game, GAMES[game.game].rules)
    loaded = time.perf_counter()
    if claim:
        await store.coordination.release_games()
    await store.close()
    return {
        "games": len(games),
        "open": opened - began,
        "list": listed - opened,
        "load_state": loaded - listed,
        "total": loaded - began,
    }


async def server_facts(url: str) -> str:
    db = await asyncpg.connect(url)
    try:
        version = await db.fetchval("SHOW server_version")
        settings = [f"{name}={await db.fetchval(f'SHOW {name}')}" for name in ("fsync", "synchronous_commit")]
    finally:
        await db.close()
    return f"PostgreSQL {version} ({', '.join(settings)}), asyncpg {package_version('asyncpg')}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="duration of each throughput run")
    parser.add_argument("--quick", action="store_true", help="shorter runs and a 10x smaller resume database")
    parser.add_argument("--url", help="a server to use (its user may create databases); default: start one")
    parser.add_argument("--writers", type=int, default=2, help="batches of moves written at the same time")
    args = parser.parse_args()
    seconds = 1.0 if args.quick else args.seconds
    scale = 10 if args.quick else 1

    server = folder = None
    url = args.url
    if url is None:
        server, folder = start_postgres(sync_setup=True)
        url = server.get_uri()
    try:
        print(describe_machine())
        print(f"{asyncio.run(server_facts(url))}, {platform.python_implementation()}; writers={args.writers}")
        print(
            "server: " + ("local pgserver on a Unix socket" if server else "given by --url")
            + "; load average at start: " + ", ".join(f"{load:.2f}" for load in os.getloadavg())
        )  # fmt: skip
        pools = recorded_pools()
        key = max(pools, key=lambda k: len(pools[k][0].steps[-1].state_json))
        script = max(pools[key], key=lambda s: len(s.steps))
        state_bytes = len(script.steps[0].state_json)
        print(f"\n1. Durable commits, {key} moves ({state_bytes} B state), {seconds:g} s a run")
        print(THROUGHPUT_HEADER)
        for number, (games, pace) in enumerate(THROUGHPUT_RUNS):
            database = asyncio.run(fresh_database(url, f"catnip_bench_{number}"))
            rate, latencies = asyncio.run(
                throughput(database, games, seconds * (2 if pace else 1), script, args.writers, pace)
            )
            print(throughput_row(games, pace, rate, latencies))

        finished, active = 10_000 // scale, 1_000 // scale
        database = asyncio.run(fresh_database(url, "catnip_bench_resume"))
        began = time.perf_counter()
        pool = [s for scripts in pools.values() for s in scripts]
        asyncio.run(build_resume_database(database, pool, finished, active))
        print(
            f"\n2. Resume with {finished:,} finished and {active:,} active games "
            f"(built in {time.perf_counter() - began:.0f} s; mean state "
            f"{statistics.mean(len(s.steps[-1].state_json) for s in pool):.0f} B)"
        )
        for claim in (False, True):
            figures = asyncio.run(resume(database, claim=claim))
            label = "claim_games (a fleet process)" if claim else "active_games (one process)"
            print(
                f"   {label:30} total {figures['total']:.3f} s = open {figures['open']:.3f} + "
                f"list {figures['list']:.3f} ({figures['games']:.0f} games) + "
                f"load_state {figures['load_state']:.3f}"
            )
    finally:
        if server is not None and folder is not None:
            stop_postgres(server, folder)


if __name__ == "__main__":
    main()
