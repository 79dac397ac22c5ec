"""Store speed on either database: durable moves per second, commit latency, size and resume time.

    python -m bench.store [--backend sqlite] [--seconds 3] [--quick] [--game KEY]
                          [--dir DIR] [--synchronous FULL]          (SQLite, the default)
    python -m bench.store --backend postgres [--url postgresql://…] [--writers 2]

Moves carry real payloads: states, actions and events recorded from random games of the real
engines (`--game` picks the one used for the throughput runs; default the game with the largest
state), committed through the store exactly as the bot does. SQLite's databases are files in DIR
(default: a temporary directory); PostgreSQL's, databases on the server at `--url`, or without it
on a throw-away server of its own from the `pgserver` wheel (a Unix socket, fsync and
synchronous_commit on, as shipped).

1. Throughput: N games (1, 10, 100, 1,000) each commit moves back to back, each holding its
   game's lock like the session does; moves/s and commit latency (from asking for the game's lock
   to the durable commit). Saturated: every game moves as fast as the store allows, so latency
   grows with N. Plus one paced run: 1,000 games each moving once every 2 s, closer to real play.
2. Size (SQLite): complete random games of every engine played through the store, then the
   database file growth per finished game.
3. Resume: a database with 10,000 finished and 1,000 active games; time to open it, list the live
   games (`active_games`, and `claim_games` as a fleet process does) and load every active game's
   state; on SQLite also with the file evicted from the page cache.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.machine import describe_machine
from bench.postgres_server import start_postgres, stop_postgres
from bench.store_databases import Backend, PostgresBackend, SqliteBackend
from bot.storage import GameRecord, GameStore, SeatRecord, SqliteGameStore
from engine import GAMES, Rules
from engine.testing import RandomPlayer


@dataclass
class Step:
    seat: int
    action: str
    events: list[dict]
    state_json: str


@dataclass
class Script:
    """One complete random game, recorded as the store would receive it."""

    game: str
    players: int
    seed: int
    options: dict
    initial_json: str
    steps: list[Step]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str


def record_game(rules: Rules, players: int, seed: int) -> Script:
    options = rules.Options()
    player = RandomPlayer(rules, seed ^ 0x5EED)
    state = rules.setup(players, seed, options)
    initial, steps = state.model_dump_json(), []
    while rules.outcome(state) is None:
        seat = player.pick_seat(rules.to_act(state))
        action = player.choose(state, seat)
        state, events = rules.apply(state, seat, action)
        events = [event.model_dump(mode="json") for event in events]
        steps.append(Step(seat, action.encode(), events, state.model_dump_json()))
    outcome = rules.outcome(state)
    return Script(
        rules.key,
        players,
        seed,
        options.model_dump(mode="json"),
        initial,
        steps,
        outcome.scores,
        outcome.winners,
        outcome.reason,
    )


def seats_for(script: Script, first_user: int) -> list[SeatRecord]:
    return [SeatRecord(seat=s, user_id=first_user + s, name=f"Player {s}") for s in range(script.players)]


async def start(store: GameStore, script: Script, number: int) -> GameRecord:
    seats = seats_for(script, 1000 + number % 500)
    lobby = await store.games.create_lobby(
        guild_id=1 + number % 20,
        channel_id=100 + number,
        thread_id=None,
        game=script.game,
        options=script.options,
        host=seats[0],
        now=time.time(),
    )
    return await store.games.start_game(
        lobby.id, seed=script.seed, seats=seats, state_json=script.initial_json, now=time.time()
    )


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


# --------------------------------------------------------------------------- 1. throughput


async def throughput(store: GameStore, games: int, seconds: float, script: Script, pace: float = 0.0):
    """Commits/s and latencies with `games` games moving at once (every `pace` s each, or flat out)."""
    await store.open()
    try:
        return await moves_at_once(store, games, seconds, script, pace)
    finally:
        await store.close()


async def moves_at_once(store: GameStore, games: int, seconds: float, script: Script, pace: float = 0.0):
    """Commits/s and latencies on the open `store`, `games` games moving at once."""
    records = await asyncio.gather(*(start(store, script, n) for n in range(games)))
    latencies: list[float] = []
    stop = asyncio.Event()

    async def mover(game: GameRecord, phase: float) -> None:
        version, index = game.version, 0
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), phase)
        next_move = time.perf_counter()
        while not stop.is_set():
            step = script.steps[index % len(script.steps)]
            began = time.perf_counter()
            async with store.lock(game.id):
                version = await store.games.commit_move(
                    game.id,
                    expected_version=version,
                    seat=step.seat,
                    action=step.action,
                    events=step.events,
                    state_json=step.state_json,
                    now=time.time(),
                )
            latencies.append(time.perf_counter() - began)
            index += 1
            if pace:
                next_move += pace
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), max(0.0, next_move - time.perf_counter()))

    began = time.perf_counter()
    rng = random.Random(games)
    tasks = [asyncio.create_task(mover(game, rng.uniform(0, pace))) for game in records]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - began
    return len(latencies) / elapsed, latencies


THROUGHPUT_RUNS = [(games, 0.0) for games in (1, 10, 100, 1000)] + [(1000, 2.0)]
"""(games moving, seconds between each game's moves; 0 = flat out)."""
THROUGHPUT_HEADER = f"   {'games moving':24} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}"


def throughput_row(games: int, pace: float, rate: float, latencies: list[float]) -> str:
    label = f"{games:,}" + (f", each 1 move / {pace:.0f} s" if pace else ", flat out")
    return (
        f"   {label:24} {rate:9.0f} {percentile(latencies, 0.5) * 1000:8.2f} "
        f"{percentile(latencies, 0.99) * 1000:8.2f} {max(latencies) * 1000:8.2f}"
    )


def recorded_pools() -> dict[str, list[Script]]:
    """Twenty complete random games of each engine, at its most players."""
    return {
        key: [record_game(game.rules, game.rules.max_players, seed) for seed in range(20)]
        for key, game in GAMES.items()
    }


# --------------------------------------------------------------------------- 2. size


async def size_per_game(path: Path, scripts: list[Script], sync: str) -> tuple[float, float]:
    """Bytes the SQLite file grows by per finished game, and per move (after a checkpoint)."""
    store = SqliteGameStore(path, synchronous=sync)
    await store.open()
    await store.close()
    empty = path.stat().st_size
    await store.open()

    async def play(script: Script, number: int) -> None:
        game = await start(store, script, number)
        version = game.version
        for index, step in enumerate(script.steps):
            last = index == len(script.steps) - 1
            async with store.lock(game.id):
                version = await store.games.commit_move(
                    game.id,
                    expected_version=version,
                    seat=step.seat,
                    action=step.action,
                    events=step.events,
                    state_json=step.state_json,
                    now=time.time(),
                    status="finished" if last else None,
                )
        await store.games.record_result(
            game.id, scores=script.scores, winners=script.winners, reason=script.reason, now=time.time()
        )

    await asyncio.gather(*(play(script, n) for n, script in enumerate(scripts)))
    await store.close()
    grown = path.stat().st_size - empty
    return grown / len(scripts), grown / sum(len(s.steps) for s in scripts)


# --------------------------------------------------------------------------- 3. resume


async def build_resume_database(
    backend: Backend, location: str, pool: list[Script], finished: int, active: int
) -> None:
    """`finished` + `active` games written straight into the store's schema in bulk (set-up, not measured)."""
    store = backend.store(location)
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
    game_columns = (
        "id", "guild_id", "channel_id", "thread_id", "game", "options", "seed", "status", "version",
        "host_id", "created_at", "updated_at",
    )  # fmt: skip
    await backend.load(
        location,
        {
            "games": (game_columns, games),
            "seats": (("game_id", "seat", "user_id", "name", "computer"), seats),
            "moves": (("game_id", "seq", "seat", "action", "events", "at"), moves),
            "snapshots": (("game_id", "seq", "version", "state"), snapshots),
            "results": (("game_id", "seat", "user_id", "score", "won"), results),
            "deadlines": (("game_id", "decision", "due"), deadlines),
        },
    )


def evict_from_page_cache(path: Path) -> None:
    for file in (path, path.with_name(path.name + "-wal")):
        if file.exists() and hasattr(os, "posix_fadvise"):
            fd = os.open(file, os.O_RDONLY)
            try:
                os.fsync(fd)
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


async def resume(store: GameStore, *, claim: bool) -> dict[str, float]:
    """Seconds to open the store, list (or claim) the live games and load each active game's state."""
    began = time.perf_counter()
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


# --------------------------------------------------------------------------- report


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", default="sqlite", choices=["sqlite", "postgres"])
    parser.add_argument("--seconds", type=float, default=3.0, help="duration of each throughput run")
    parser.add_argument("--quick", action="store_true", help="shorter runs and a 10x smaller resume database")
    parser.add_argument("--game", choices=sorted(GAMES), help="engine whose moves feed the throughput runs")
    parser.add_argument(
        "--dir", help="SQLite: where to create the databases (default: a temporary directory)"
    )
    parser.add_argument("--synchronous", default="FULL", choices=["FULL", "NORMAL"], help="SQLite's")
    parser.add_argument(
        "--url", help="PostgreSQL: a server whose user may create databases; default: start one"
    )
    parser.add_argument("--writers", type=int, default=2, help="PostgreSQL: batches of moves written at once")
    args = parser.parse_args()
    with contextlib.ExitStack() as cleanup:
        if args.backend == "sqlite":
            workdir = Path(tempfile.mkdtemp(prefix="catnip-bench-", dir=args.dir))
            cleanup.callback(_remove_folder, workdir)
            backend: Backend = SqliteBackend(workdir, args.synchronous)
        else:
            url = args.url
            if url is None:
                server, folder = start_postgres(sync_setup=True)
                cleanup.callback(stop_postgres, server, folder)
                url = server.get_uri()
            backend = PostgresBackend(url, args.writers)
        report(backend, args)


def report(backend: Backend, args: argparse.Namespace) -> None:
    seconds = 1.0 if args.quick else args.seconds
    scale = 10 if args.quick else 1
    print(describe_machine())
    print(asyncio.run(backend.describe()))
    print("load average at start: " + ", ".join(f"{load:.2f}" for load in os.getloadavg()))

    pools = recorded_pools()
    for key, pool in pools.items():
        moves = statistics.mean(len(s.steps) for s in pool)
        state = statistics.mean(len(step.state_json) for s in pool for step in s.steps)
        print(
            f"  {key:10} random games, {pool[0].players} players: {moves:.0f} moves, state JSON {state:.0f} B"
        )
    key = args.game or max(pools, key=lambda k: len(pools[k][0].steps[-1].state_json))
    script = max(pools[key], key=lambda s: len(s.steps))

    print(
        f"\n1. Durable commits, {key} moves ({len(script.steps[0].state_json)} B state), {seconds:g} s a run"
    )
    print(THROUGHPUT_HEADER)
    for number, (games, pace) in enumerate(THROUGHPUT_RUNS):
        store = backend.store(asyncio.run(backend.fresh(f"throughput-{number}")))
        rate, latencies = asyncio.run(throughput(store, games, seconds * (2 if pace else 1), script, pace))
        print(throughput_row(games, pace, rate, latencies))

    if isinstance(backend, SqliteBackend):
        print("\n2. Database size per finished game (complete random games, after a checkpoint)")
        for key, pool in pools.items():
            path = backend.workdir / f"size-{key}.sqlite3"
            per_game, per_move = asyncio.run(
                size_per_game(path, pool * (2 if args.quick else 5), args.synchronous)
            )
            moves = statistics.mean(len(s.steps) for s in pool)
            print(
                f"   {key:10} {per_game / 1024:6.1f} KiB a game ({moves:.0f} moves), "
                f"{per_move:5.0f} B a move -> a 60-move game ~ {per_move * 60 / 1024:.1f} KiB"
            )

    finished, active = 10_000 // scale, 1_000 // scale
    location = asyncio.run(backend.fresh("resume"))
    began = time.perf_counter()
    pool = [s for scripts in pools.values() for s in scripts]
    asyncio.run(build_resume_database(backend, location, pool, finished, active))
    print(
        f"\n3. Resume with {finished:,} finished and {active:,} active games "
        f"(built in {time.perf_counter() - began:.0f} s; mean state "
        f"{statistics.mean(len(s.steps[-1].state_json) for s in pool):.0f} B)"
    )
    runs: list[tuple[str, bool, Callable[[], None] | None]] = [
        ("active_games (one process)", False, None),
        ("claim_games (a fleet process)", True, None),
    ]
    if isinstance(backend, SqliteBackend):
        runs.append(("evicted from page cache", False, lambda: evict_from_page_cache(Path(location))))
    for label, claim, before in runs:
        if before is not None:
            before()
        figures = asyncio.run(resume(backend.store(location, owner="bench"), claim=claim))
        print(
            f"   {label:30} total {figures['total']:.3f} s = open {figures['open']:.3f} + "
            f"list {figures['list']:.3f} ({figures['games']:.0f} games) + "
            f"load_state {figures['load_state']:.3f}"
        )


def _remove_folder(folder: Path) -> None:
    for file in folder.iterdir():
        file.unlink()
    folder.rmdir()


if __name__ == "__main__":
    main()
