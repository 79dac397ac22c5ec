"""The whole bot as a fleet: 1 bot process vs 2, SQLite vs PostgreSQL, N saturated games.

    python -m bench.fleet_load [--games 100,500] [--seconds 15] [--warmup 5]
                               [--configs sqlite:1,sqlite:2,postgres:1,postgres:2] [--tables-per-guild 10]
                               [--rate-limits off|discord] [--pictures on|off] [--open-loop [--think 5]]

Every configuration gets a fresh emulator process (`python -m bench.load_members`, which also runs the
simulated members) with the tables' members spread over guilds of their own, as many guilds on each of
the 2 gateway shards, a table in its guild's own channel (its own thread). Then the bot processes
start, each its own OS process (`python -m bench.fleet_load --bot …`, the Catnip subject of
`bench.bot_load`) with `SHARD_COUNT=2`: one process runs shards 0 and 1, or two run one shard each.
The store is one SQLite file in a temporary folder (shared by both processes in `sqlite:2`) or a
fresh database on a throw-away PostgreSQL server the benchmark starts from the `pgserver` wheel
(as `bench.store --backend postgres` does; fsync and synchronous commit on).

The load is `bench.bot_load`'s saturated one: Cats & Dogs tables of 4 members, every member acts as
soon as the table pings them, finished tables start a rematch; or with `--open-loop` its open loop: the
four games mixed, 3 members and 1 computer player a table, the computer's usual pause, members who
think `--think` seconds on average before each decision. The first `--warmup` seconds are
not measured. Figures of the `--seconds` measured: moves/s (committed, from the store, by the
owning process's shards), click latency p50/p99 and Discord's 3 s deadline misses, table-refresh
lag p50/p99 (a card click until the table shows it), the CPU of every bot process, of the
PostgreSQL server (its postmaster and every backend; also its commits/s and WAL bytes a move) and of
the emulator + members process, and the bot's requests per move that count against Discord's global
limit of 50 a second per bot token (interaction callbacks and webhooks are exempt). The 2-process /
1-process ratio of moves/s is given per store and N. Discord's budget, as `bench.bot_load` reports it:
the processes' counted requests a move together, the most of them within one second of the emulator's
clock (against the token's 50), every 429 the emulator answered and the most invalid requests in 10
minutes.

Rate limits are off by default (`--rate-limits off`): the figures are the bots' own pace. With
`--rate-limits discord` the emulator enforces Discord's per-channel buckets and the global limit.

The machine may have fewer cores than processes: the emulator with the members, the PostgreSQL
server and the bots all compete for them, so read the CPU columns with the figures. The output ends
with one line of JSON: every run's figures under `runs` and the ratios under `ratios`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import psutil

from bench.bot_load import OPEN_LOOP_COMPUTER_DELAY, OPEN_LOOP_MIX, OPEN_LOOP_STALL, after
from bench.load_figures import latency_summary
from bench.load_requests import per_move
from bench.load_subjects import Catnip, EmulatorProcess
from bench.machine import describe_machine

SHARD_COUNT = 2
GAME, SEATS = "catsdogs", 4
EXEMPT_FROM_GLOBAL = ("/interactions/", "/webhooks/")
MOVES_BY_SHARD = (
    "SELECT (g.guild_id >> 22) % {count} AS shard, COUNT(*) FROM moves m JOIN games g ON g.id = m.game_id "
    "GROUP BY shard"
)


# one bot process -------------------------------------------------------------------------------------


async def run_bot(args: argparse.Namespace) -> None:
    """A child: the Catnip bot on its shards until SIGTERM; prints READY once its gateway is."""
    from emulator.remote import RemoteEmulator

    shard_ids = tuple(int(n) for n in args.shard_ids.split(","))
    catnip = Catnip(
        Path(args.db),
        computer_delay=args.computer_delay,
        pictures=args.pictures == "on",
        database_url=args.database_url,
        shard_count=SHARD_COUNT,
        shard_ids=shard_ids,
    )
    remote = RemoteEmulator(args.bot)
    with remote.point_discord_py():
        await catnip.start(SimpleNamespace(remote=remote))
        print("READY", flush=True)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()
        await catnip.stop()


class BotProcess:
    """One bot process of the fleet, started by `start` and measured through /proc (psutil)."""

    def __init__(self, shard_ids: tuple[int, ...]) -> None:
        self.shard_ids = shard_ids
        self.process: subprocess.Popen | None = None

    async def start(
        self, url: str, db: Path, database_url: str | None, pictures: str, computer_delay: float
    ) -> None:
        command = [sys.executable, "-m", "bench.fleet_load", "--bot", url, "--db", str(db)]
        command += ["--shard-ids", ",".join(map(str, self.shard_ids))]
        command += ["--computer-delay", str(computer_delay)]
        command += ["--pictures", pictures] + (["--database-url", database_url] if database_url else [])
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        line = await asyncio.to_thread(self.process.stdout.readline)
        if line.strip() != "READY":
            raise RuntimeError(f"bot process for shards {self.shard_ids} did not start: {line!r}")

    def cpu_seconds(self) -> float:
        """The bot process's CPU seconds and its drawing process's (`pictures.process`, its child)."""
        bot = psutil.Process(self.process.pid)
        total = 0.0
        for process in [bot, *bot.children()]:
            with contextlib.suppress(psutil.NoSuchProcess):
                times = process.cpu_times()
                total += times.user + times.system
        return total

    async def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                await asyncio.to_thread(self.process.wait, 30)
            except subprocess.TimeoutExpired:
                self.process.kill()


def fleet(processes: int) -> list[BotProcess]:
    """`processes` bot processes over the shards, each its own range."""
    per = SHARD_COUNT // processes
    return [BotProcess(tuple(range(i * per, (i + 1) * per))) for i in range(processes)]


# the stores ------------------------------------------------------------------------------------------


class Postgres:
    """The throw-away PostgreSQL server: a fresh database per run, and its processes' CPU."""

    def __init__(self) -> None:
        from bench.postgres_server import start_postgres

        self.server, self.folder = start_postgres()
        self.url = self.server.get_uri()
        self.runs = 0

    async def fresh(self) -> str:
        from bench.store_databases import fresh_database

        self.runs += 1
        return await fresh_database(self.url, f"fleet_{self.runs}")

    def cpu_seconds(self) -> float:
        """The postmaster's and all its children's CPU (backends, WAL writer, checkpointer, …)."""
        pid = int((Path(self.server.pgdata) / "postmaster.pid").read_text().split()[0])
        postmaster = psutil.Process(pid)
        total = 0.0
        for process in [postmaster, *postmaster.children(recursive=True)]:
            with contextlib.suppress(psutil.NoSuchProcess):
                times = process.cpu_times()
                total += times.user + times.system
        return total

    def close(self) -> None:
        from bench.postgres_server import stop_postgres

        stop_postgres(self.server, self.folder)


WAL_AND_COMMITS = (
    "SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint, "
    "(SELECT xact_commit FROM pg_stat_database WHERE datname = current_database())"
)


async def store_counts(db: Path, database_url: str | None) -> tuple[dict[int, int], int, int]:
    """Moves by shard; on PostgreSQL also the server's WAL position (bytes) and the database's commits."""
    query = MOVES_BY_SHARD.format(count=SHARD_COUNT)
    if database_url:
        import asyncpg

        connection = await asyncpg.connect(database_url)
        try:
            moves = {int(shard): count for shard, count in await connection.fetch(query)}
            wal, commits = await connection.fetchrow(WAL_AND_COMMITS)
            return moves, int(wal), int(commits)
        finally:
            await connection.close()

    def count() -> dict[int, int]:
        with contextlib.closing(sqlite3.connect(db)) as connection:
            return dict(connection.execute(query).fetchall())

    return await asyncio.to_thread(count), 0, 0


# one run ----------------------------------------------------------------------------------------------


class Sample:
    """CPU of every process and moves by shard at one moment."""

    def __init__(self, bots: list[BotProcess], postgres: Postgres | None, counts: tuple) -> None:
        self.at = time.perf_counter()
        self.bots = [bot.cpu_seconds() for bot in bots]
        self.postgres = postgres.cpu_seconds() if postgres else 0.0
        self.moves, self.wal, self.commits = counts


async def sample(bots, postgres, db, database_url) -> Sample:
    return Sample(bots, postgres, await store_counts(db, database_url))


async def run_config(
    games: int, store: str, processes: int, args: argparse.Namespace, postgres: Postgres | None
) -> dict[str, Any]:
    kinds = OPEN_LOOP_MIX if args.open_loop else [[GAME, SEATS, 0, "normal"]]
    seats = kinds[0][1]
    guilds = max(SHARD_COUNT * 2, -(-games // args.tables_per_guild))
    options = ("--guilds", str(guilds), "--shard-count", str(SHARD_COUNT), "--seats", str(seats))
    options += ("--rate-limits", args.rate_limits)
    bots = fleet(processes)
    with tempfile.TemporaryDirectory(prefix="catnip-fleet-") as tmp:
        db = Path(tmp) / "catnip.sqlite3"
        database_url = await postgres.fresh() if store == "postgres" else None
        async with EmulatorProcess(games * seats, args.rate_limit, options) as emulator:
            try:
                delay = OPEN_LOOP_COMPUTER_DELAY if args.open_loop else 0.0
                for bot in bots:  # one after the other: the first creates the schema
                    await bot.start(emulator.remote.url, db, database_url, args.pictures, delay)
                concurrency = max(25, min(games // 5, 250))
                opened = await emulator.call(
                    "/_bench/open",
                    {"kinds": kinds, "games": games, "concurrency": concurrency},
                )
                await asyncio.sleep(1.0)  # the last tables' refreshes
                play = {"seconds": args.warmup + args.seconds, "rematch": True, "seed": games}
                if args.open_loop:
                    play.update(think=args.think, stall=OPEN_LOOP_STALL)
                playing = asyncio.create_task(emulator.call("/_bench/play", play))
                await asyncio.sleep(args.warmup)
                first = await sample(bots, postgres if database_url else None, db, database_url)
                await asyncio.sleep(args.seconds)
                last = await sample(bots, postgres if database_url else None, db, database_url)
                played = await playing
            finally:
                for bot in bots:
                    await bot.stop()
    return figures(games, store, processes, guilds, bots, opened, played, first, last, args.warmup)


def figures(games, store, processes, guilds, bots, opened, played, first, last, warmup) -> dict[str, Any]:
    wall = last.at - first.at
    moved = {shard: last.moves.get(shard, 0) - first.moves.get(shard, 0) for shard in range(SHARD_COUNT)}
    process_moves = [sum(moved[shard] for shard in bot.shard_ids) for bot in bots]
    moves = sum(process_moves)
    bot_cpu = [b - a for a, b in zip(first.bots, last.bots, strict=True)]
    interactions = played["interactions"]
    answered = [latency for _, latency, _, at, _ in interactions if at >= warmup and latency is not None]
    requests = played["requests"]
    counted = sum(n for label, n in requests.items() if not label.split()[1].startswith(EXEMPT_FROM_GLOBAL))
    moves_played = max(played["moves_clicked"], 1)
    click, lag = latency_summary(answered), after(played["table_lags"], warmup)
    return {
        "games": games,
        "store": store,
        "processes": processes,
        "guilds": guilds,
        "opened": opened["opened"],
        "seconds": wall,
        "moves": moves,
        "moves_per_s": moves / wall,
        "process_moves": process_moves,
        "process_moves_per_s": [m / wall for m in process_moves],
        "click_p50_ms": click["p50_ms"],
        "click_p99_ms": click["p99_ms"],
        "deadline_misses": sum(1 for _, latency, _, _, _ in interactions if latency is None or latency > 3.0),
        "table_lag_p50_ms": lag["p50_ms"],
        "table_lag_p99_ms": lag["p99_ms"],
        "process_cpu_percent": [100 * cpu / wall for cpu in bot_cpu],
        "bot_cpu_ms_per_move": 1000 * sum(bot_cpu) / max(moves, 1),
        "postgres_cpu_percent": 100 * (last.postgres - first.postgres) / wall,
        "postgres_commits_per_s": (last.commits - first.commits) / wall,
        "postgres_wal_bytes_per_move": (last.wal - first.wal) / max(moves, 1),
        "emulator_cpu_percent": 100 * played["emulator_cpu_seconds"] / played["seconds"],
        "global_requests_per_move": counted / moves_played,
        "exempt_requests_per_move": (sum(requests.values()) - counted) / moves_played,
        "requests_by_route": requests,
        "rate_limited": played["rate_limited"],
        "driver_errors": played["error_count"],
        **per_move(played["budget"], played["moves_clicked"]),
        "responses_429": played["rate_limited"],
        "invalid_requests_10min": played["invalid_requests_10min"],
    }


# the report -------------------------------------------------------------------------------------------


def budget_row(run: dict[str, Any]) -> str:
    """Discord's budget in one run: the processes' counted requests together."""
    return (
        f"       counted requests a move {run['counted_requests_per_move']:.2f}, "
        f"most in one second {run['counted_requests_peak_per_second']} (the token's limit: 50); "
        f"429s {run['responses_429']}; invalid requests in 10 min {run['invalid_requests_10min']}"
    )


HEADER = (
    "games  store     procs  moves/s  per process     click p50/p99 ms  >3s  lag p50/p99 ms  "
    "bot CPU % each  PG CPU %  emu CPU %  global req/move\n" + "-" * 150
)


def row(run: dict[str, Any]) -> str:
    each = "/".join(f"{m:.0f}" for m in run["process_moves_per_s"])
    cpus = "/".join(f"{c:.0f}" for c in run["process_cpu_percent"])
    return (
        f"{run['games']:>5}  {run['store']:<9} {run['processes']:>5}  {run['moves_per_s']:>7.1f}  {each:<14}"
        f"{run['click_p50_ms']:>7.0f} /{run['click_p99_ms']:>6.0f}   {run['deadline_misses']:>4}"
        f"{run['table_lag_p50_ms']:>8.0f} /{run['table_lag_p99_ms']:>6.0f}  {cpus:>14}"
        f"{run['postgres_cpu_percent']:>10.0f}{run['emulator_cpu_percent']:>11.0f}"
        f"{run['global_requests_per_move']:>17.2f}"
    )


def ratios(runs: list[dict[str, Any]]) -> dict[str, float]:
    """moves/s of 2 processes over 1, per store and N."""
    by = {(r["games"], r["store"], r["processes"]): r["moves_per_s"] for r in runs}
    return {
        f"{store}@{games}": by[(games, store, 2)] / by[(games, store, 1)]
        for games, store, processes in by
        if processes == 2 and (games, store, 1) in by and by[(games, store, 1)]
    }


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.fleet_load", description=__doc__)
    parser.add_argument("--games", default="100,500", help="comma-separated numbers of concurrent games")
    parser.add_argument("--seconds", type=float, default=15.0, help="play measured per run")
    parser.add_argument("--warmup", type=float, default=5.0, help="play first, unmeasured")
    parser.add_argument(
        "--configs", default="sqlite:1,sqlite:2,postgres:1,postgres:2", help="store:processes, …"
    )
    parser.add_argument("--tables-per-guild", type=int, default=10)
    parser.add_argument("--rate-limits", choices=("off", "discord"), default="off")
    parser.add_argument("--rate-limit", type=int, default=100_000, help="other routes' requests/s")
    parser.add_argument("--pictures", choices=("on", "off"), default="on")
    parser.add_argument("--open-loop", action="store_true", help="the four games mixed, members who think")
    parser.add_argument("--think", type=float, default=5.0, help="open loop: mean seconds a decision takes")
    parser.add_argument("--computer-delay", type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--bot", help=argparse.SUPPRESS)  # a child: the emulator's URL
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--database-url", help=argparse.SUPPRESS)
    parser.add_argument("--shard-ids", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


async def run_all(args: argparse.Namespace) -> dict[str, Any]:
    configs = [(store, int(n)) for store, n in (c.split(":") for c in args.configs.split(",") if c)]
    postgres = Postgres() if any(store == "postgres" for store, _ in configs) else None
    runs = []
    try:
        for games in [int(n) for n in args.games.split(",") if n]:
            for store, processes in configs:
                run = await run_config(games, store, processes, args, postgres)
                runs.append(run)
                print(row(run), flush=True)
                print(budget_row(run), flush=True)
    finally:
        if postgres is not None:
            postgres.close()
    return {"runs": runs, "ratios": ratios(runs)}


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    if args.bot:
        asyncio.run(run_bot(args))
        return
    print(describe_machine())
    print(
        (
            f"open loop, think time mean {args.think:g} s, tables {OPEN_LOOP_MIX}; "
            if args.open_loop
            else f"saturated {GAME} tables of {SEATS}; "
        )
        + f"SHARD_COUNT={SHARD_COUNT}; "
        f"{args.tables_per_guild} tables a guild; "
        f"{args.seconds:g} s measured after {args.warmup:g} s of warm-up; rate limits {args.rate_limits}; "
        f"pictures {args.pictures}"
    )
    print(HEADER, flush=True)
    result = asyncio.run(run_all(args))
    for run in result["runs"]:
        if run["store"] == "postgres":
            print(
                f"{run['games']} games, PostgreSQL, {run['processes']} process(es): "
                f"{run['postgres_commits_per_s']:.0f} commits/s, "
                f"{run['postgres_wal_bytes_per_move'] / 1024:.1f} KB of WAL a move"
            )
    for key, ratio in result["ratios"].items():
        print(f"2 processes / 1 process, {key} games: {ratio:.2f}×")
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
