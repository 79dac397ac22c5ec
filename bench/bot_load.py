"""The whole bot under load: N concurrent games over the local Discord emulator, the emulator elsewhere.

    python -m bench.bot_load [--games 10,100,500] [--seconds 20] [--warmup 5] [--resume 1000]
                             [--pictures on|off]

For each N, a fresh bot process (so peak memory is that run's own) starts the emulator in a
separate process (`python -m bench.load_members`, which also runs the simulated members, so
their cost stays out of the bot's figures) and runs the Catnip bot against it: database in a
temporary directory, computer delay 0, durable SQLite exactly as in production, and the same
garbage-collector tuning as `python -m bot`.

1. Setup: N tables of Cats & Dogs, 4 players each, opened through /play, Join and Start.
2. Play: every member acts as soon as the table pings them ("My hand", then a random card on
   their private panel); finished tables start a rematch, so N games stay live. The first
   `--warmup` seconds, when every table's first turn comes at once, are reported apart; then
   `--seconds` are measured.
3. Figures: initial-response latency of every interaction (dispatch to initial response, as the
   emulator records it) p50/p95/p99/max, and how many missed Discord's 3 s deadline (warm-up
   included); committed moves per second (from the database); the bot process's CPU
   (getrusage, all its threads) and peak RSS (ru_maxrss); memory per active game (RSS with N
   live games minus the RSS before any game, / N; also the growth from N/2 to N games, / N/2).
   Also: how long after a card is answered the next player is pinged (the table's lag), and the
   RSS every 5 s of play (a long `--seconds` shows whether memory levels off).
4. `--resume M`: M active games are created the same way and played a little, the bot is
   stopped and a new one started on the same database; time to load the games, to READY
   (deadlines re-armed) and until every table has been re-rendered and its player pinged.

The emulator's per-route rate limit is set to 100,000 requests/s per bucket (`--rate-limit`):
Discord's real limits would throttle /play's thread creation in one channel during setup; the
figures are the bot's own pace. Its 3 s deadline watch waits once per interaction instead of
polling (see bench/load_members.py), so the emulator keeps up with hundreds of pending clicks.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import logging
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.machine import describe_machine

DEADLINE = 3.0
RSS_EVERY = 5.0
DEFERRED_UPDATE = 6  # the interaction response type of an acknowledgement without a message


# ---------------------------------------------------------------------------------------------- figures


def rss_kb() -> int:
    """Current resident set size of this process, in KB."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() // 1024


def peak_rss_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def latency_summary(latencies: list[float]) -> dict[str, float]:
    return {
        "count": len(latencies),
        "p50_ms": percentile(latencies, 0.50) * 1000,
        "p95_ms": percentile(latencies, 0.95) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        "max_ms": max(latencies, default=float("nan")) * 1000,
    }


class Background:
    """A sampling loop run in the background between `start` and `stop`."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self._task: asyncio.Task | None = None

    async def _run(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> list[float]:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        return self.samples


class LoopLag(Background):
    """Samples how late the bot's event loop wakes a 20 ms sleep (how busy the loop is)."""

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(0.02)
            self.samples.append(loop.time() - before - 0.02)

    async def summary(self) -> dict[str, float]:
        samples = await self.stop()
        return {
            "p50_ms": percentile(samples, 0.5) * 1000,
            "p99_ms": percentile(samples, 0.99) * 1000,
            "max_ms": max(samples, default=0.0) * 1000,
        }


class RssSeries(Background):
    """The bot process's RSS in MB every `RSS_EVERY` seconds of play: does memory level off?"""

    async def _run(self) -> None:
        while True:
            self.samples.append(rss_kb() / 1024)
            await asyncio.sleep(RSS_EVERY)


class ErrorCount(logging.Handler):
    """Counts ERROR records of discord.py and Catnip during a run (each is a bug under load)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.name}: {record.getMessage()}")


# ---------------------------------------------------------------------------------------------- the bot


class EmulatorProcess:
    """`python -m bench.load_members` in its own process, and a control client for it."""

    def __init__(self, members: int, rate_limit: int) -> None:
        self.members = members
        self.rate_limit = rate_limit
        self.process: subprocess.Popen | None = None
        self.remote = None

    async def __aenter__(self):
        from emulator.remote import RemoteEmulator

        command = [sys.executable, "-m", "bench.load_members", "--members", str(self.members)]
        command += ["--rate-limit", str(self.rate_limit)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        line = await asyncio.to_thread(self.process.stdout.readline)
        if not line.startswith("EMULATOR "):
            raise RuntimeError(f"the emulator did not start: {line!r}")
        self.remote = RemoteEmulator(line.split()[1])
        await self.remote.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.remote is not None:
            await self.remote.__aexit__(*exc)
        if self.process is not None:
            self.process.terminate()
            await asyncio.to_thread(self.process.wait, 10)

    async def call(self, path: str, body: dict[str, Any]) -> Any:
        import aiohttp

        timeout = aiohttp.ClientTimeout(total=3600)
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.post(self.remote.url + path, json=body) as response,
        ):
            response.raise_for_status()
            return await response.json()


async def start_catnip(emulator: EmulatorProcess, database: Path, seed: int = 1, pictures: bool = True):
    """A Catnip bot on `database`, started against the emulator; returns (bot, task, seconds to ready).
    `pictures`: whether its tables show pictures (the PICTURES setting)."""
    from bot.app import create_bot, tune_runtime
    from bot.config import Settings
    from emulator import TOKEN
    from emulator.harness import start_bot

    settings = Settings(
        discord_token=TOKEN,
        database_path=database,
        computer_delay_seconds=0,
        pictures=pictures,
        _env_file=None,
    )
    counter = itertools.count(seed * 1_000_000)
    guild_id = (await emulator.remote.state())["guild_id"]
    bot = create_bot(settings, guild_ready_timeout=0.05, seed_source=lambda: next(counter))
    started = time.perf_counter()
    task = await start_bot(
        bot,
        TOKEN,
        is_ready=lambda: bot.is_ready() and bot.get_guild(guild_id) is not None,
        timeout=600,
    )
    ready = time.perf_counter() - started
    tune_runtime()  # as `python -m bot` does once the bot is ready
    return bot, task, ready


async def stop_catnip(bot, task) -> None:
    await bot.close()
    with contextlib.suppress(BaseException):
        await task


def moves_between(database: Path, start: float, end: float) -> int:
    with contextlib.closing(sqlite3.connect(database)) as db:
        return db.execute("SELECT COUNT(*) FROM moves WHERE at >= ? AND at < ?", (start, end)).fetchone()[0]


def live_games(bot) -> int:
    return sum(1 for game in bot.service.live.values() if game.state is not None)


async def open_tables(emulator: EmulatorProcess, bot, args: argparse.Namespace, first: int, count: int):
    """Opens `count` tables (member groups from `first` on) and waits until the bot has shown them."""
    opened = await emulator.call(
        "/_bench/open",
        {"game": args.game, "players": args.players, "games": count, "first": first, "concurrency": 25},
    )
    await bot.presenter.settle()
    gc.collect()
    return opened


async def after_warmup(seconds: float, samplers: list[Background]) -> tuple[float, float, float]:
    """Once the warm-up is over: start the samplers; the CPU, clock and time the figures start from."""
    await asyncio.sleep(seconds)
    for sampler in samplers:
        sampler.start()
    return cpu_seconds(), time.perf_counter(), time.time()


@contextlib.asynccontextmanager
async def emulated_discord(games: int, args: argparse.Namespace, prefix: str):
    """The emulator process with members for `games` tables, discord.py pointed at it, a database
    path in a temporary directory, and a count of the errors logged meanwhile."""
    errors = ErrorCount()
    for name in ("discord", "catnip"):
        logging.getLogger(name).addHandler(errors)
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        async with EmulatorProcess(games * args.players, args.rate_limit) as emulator:
            with emulator.remote.point_discord_py():
                yield emulator, Path(tmp) / "catnip.sqlite3", errors


async def run_load(games: int, args: argparse.Namespace) -> dict[str, Any]:
    """One N: set up N tables, play for `args.seconds`, and measure the bot process."""
    async with emulated_discord(games, args, "catnip-load-") as (emulator, database, errors):
        bot, task, _ = await start_catnip(emulator, database, pictures=args.pictures == "on")
        try:
            gc.collect()
            baseline = rss_kb()
            half = games // 2
            opened = await open_tables(emulator, bot, args, 0, half)
            with_half = rss_kb()
            more = await open_tables(emulator, bot, args, half, games - half)
            opened = {
                "opened": opened["opened"] + more["opened"],
                "seconds": opened["seconds"] + more["seconds"],
                "failed": opened["failed"] + more["failed"],
            }
            with_games, active = rss_kb(), live_games(bot)
            lag, rss = LoopLag(), RssSeries()
            mark = asyncio.create_task(after_warmup(args.warmup, [lag, rss]))
            played = await emulator.call(
                "/_bench/play",
                {"seconds": args.warmup + args.seconds, "rematch": True, "seed": games},
            )
            cpu, wall, started = await mark
            cpu, wall, ended = cpu_seconds() - cpu, time.perf_counter() - wall, time.time()
            loop_lag, rss_during_play = await lag.summary(), await rss.stop()
            await bot.presenter.settle()
            # The last sample of play: the run's results, just passed back to this process
            # (tens of MB in a long run), are the benchmark's memory, not the bot's.
            after = round(rss_during_play[-1] * 1024) if rss_during_play else rss_kb()
            active_after = live_games(bot)
        finally:
            await stop_catnip(bot, task)
        moves = moves_between(database, started, ended)
    everything = played.pop("interactions")
    play = [(kind, latency, failed) for kind, latency, failed, at, _ in everything if at >= args.warmup]
    deferred = [
        kind_of == DEFERRED_UPDATE
        for kind, _, _, at, kind_of in everything
        if at >= args.warmup and kind == "play card"
    ]
    warmup = [latency for _, latency, _, at, _ in everything if at < args.warmup and latency is not None]
    handoff = latency_summary([seconds for at, seconds in played.pop("handoffs") if at >= args.warmup])
    shown = latency_summary([seconds for at, seconds in played.pop("shown") if at >= args.warmup])
    answered = [latency for _, latency, _ in play if latency is not None]
    by_kind: dict[str, list[float]] = {}
    for kind, latency, _ in play:
        if latency is not None:
            by_kind.setdefault(kind, []).append(latency)
    return {
        "games": games,
        "players": args.players,
        "game": args.game,
        "setup": opened,
        "active_games": active,
        "active_games_after": active_after,
        "seconds": wall,
        "latency": latency_summary(answered),
        "latency_by_kind": {kind: latency_summary(values) for kind, values in sorted(by_kind.items())},
        "latency_warmup": latency_summary(warmup),
        "over_deadline": sum(
            1 for _, latency, _, _, _ in everything if latency is None or latency > DEADLINE
        ),
        "unanswered": [failed for _, latency, failed, _, _ in everything if latency is None][:10],
        "acknowledged_first": sum(deferred) / max(len(deferred), 1),
        "handoff": handoff,
        "shown": shown,
        "moves": moves,
        "moves_per_second": moves / wall,
        "interactions_per_second": len(play) / wall,
        "bot_cpu_seconds": cpu,
        "bot_cpu_percent": 100 * cpu / wall,
        "emulator_cpu_percent": 100 * played["emulator_cpu_seconds"] / played["seconds"],
        "emulator_loop_lag_p99_ms": played["emulator_loop_lag_ms"],
        "emulator_loop_lag_max_ms": played["emulator_loop_lag_max_ms"],
        "loop_lag": loop_lag,
        "rss_baseline_kb": baseline,
        "rss_with_games_kb": with_games,
        "rss_after_kb": after,
        "rss_during_play_mb": rss_during_play,
        "peak_rss_kb": peak_rss_kb(),
        "kb_per_game": (with_games - baseline) / max(active, 1),
        "kb_per_game_marginal": (with_games - with_half) / max(games - half, 1),
        "kb_per_game_after": (after - baseline) / max(active_after, 1),
        "bot_errors": errors.messages[:20],
        "driver": {k: played[k] for k in ("moves_clicked", "stalls", "rematches", "error_count", "errors")},
        "violations": played["violations"],
        "rate_limited": played["rate_limited"],
    }


async def run_resume(games: int, args: argparse.Namespace) -> dict[str, Any]:
    """M active games in the database, then a fresh bot: time to READY and until every table is shown."""
    async with emulated_discord(games, args, "catnip-resume-") as (emulator, database, errors):
        bot, task, _ = await start_catnip(emulator, database, pictures=args.pictures == "on")
        try:
            opened = await emulator.call(
                "/_bench/open",
                {"game": args.game, "players": args.players, "games": games, "concurrency": 50},
            )
            played = await emulator.call("/_bench/play", {"seconds": 12, "stagger": 12, "rematch": False})
            await bot.presenter.settle()
            active = live_games(bot)
        finally:
            await stop_catnip(bot, task)
        gc.collect()
        loading = _time_resume()
        bot, task, ready = await start_catnip(emulator, database, seed=2, pictures=args.pictures == "on")
        try:
            loaded = live_games(bot)
            started = time.perf_counter()
            await asyncio.gather(*bot._background[:1])  # _after_ready: tables refreshed, timers armed
            await bot.presenter.settle()
            shown = time.perf_counter() - started
        finally:
            await stop_catnip(bot, task)
    return {
        "games": games,
        "opened": opened["opened"],
        "moves_before_restart": played["moves_clicked"],
        "active": active,
        "loaded": loaded,
        "seconds_to_load": loading[0],
        "seconds_to_ready": ready,
        "seconds_to_tables_shown": ready + shown,
        "errors": errors.messages[:20],
        "error_count": len(errors.messages),
    }


def _time_resume() -> list[float]:
    """Times the next `GameService.resume` (every lobby and active game read and its state loaded)."""
    from bot.sessions import GameService

    timed: list[float] = []
    original = GameService.resume

    async def resume(self):
        started = time.perf_counter()
        try:
            return await original(self)
        finally:
            timed.append(time.perf_counter() - started)
            GameService.resume = original

    GameService.resume = resume
    return timed


# ---------------------------------------------------------------------------------------------- report


def row(result: dict[str, Any]) -> str:
    latency = result["latency"]
    return (
        f"{result['games']:>5} {latency['p50_ms']:>7.1f} {latency['p95_ms']:>7.1f} {latency['p99_ms']:>7.1f} "
        f"{latency['max_ms']:>8.1f} {result['over_deadline']:>5} {result['moves_per_second']:>8.1f} "
        f"{result['bot_cpu_percent']:>6.0f}% {result['emulator_cpu_percent']:>6.0f}% "
        f"{result['peak_rss_kb'] / 1024:>7.1f} {result['kb_per_game']:>7.1f}"
    )


def details(result: dict[str, Any]) -> str:
    """The figures behind one row of the table, a few lines of them."""
    kinds = ", ".join(
        f"{kind} p50 {figures['p50_ms']:.0f} / p99 {figures['p99_ms']:.0f} ms (n={figures['count']})"
        for kind, figures in result["latency_by_kind"].items()
    )
    warmup, handoff, driver = result["latency_warmup"], result["handoff"], result["driver"]
    shown, acknowledged = result["shown"], result["acknowledged_first"]
    cpu_per_move = 1000 * result["bot_cpu_seconds"] / max(result["moves"], 1)
    return "\n".join(
        [
            f"N={result['games']}: {result['moves']} moves in {result['seconds']:.1f} s "
            f"({result['interactions_per_second']:.0f} interactions/s, "
            f"bot CPU {cpu_per_move:.1f} ms a move); "
            f"setup of the tables {result['setup']['seconds']:.1f} s",
            f"  by kind: {kinds}",
            f"  a card's result on its panel p50 {shown['p50_ms']:.0f} / p99 {shown['p99_ms']:.0f} / "
            f"max {shown['max_ms']:.0f} ms after the click; {acknowledged:.0%} of the clicks acknowledged "
            "first and their result edited in",
            f"  warm-up (every table's first turn at once): p99 {warmup['p99_ms']:.0f} ms, "
            f"max {warmup['max_ms']:.0f} ms; next player pinged p50 {handoff['p50_ms']:.0f} / "
            f"p99 {handoff['p99_ms']:.0f} ms after a card's result is shown",
            f"  event loop lag p99: bot {result['loop_lag']['p99_ms']:.0f} ms, "
            f"emulator {result['emulator_loop_lag_p99_ms']:.0f} ms "
            f"(max {result['emulator_loop_lag_max_ms']:.0f}); KB a game: "
            f"{result['kb_per_game_marginal']:.1f} from N/2 to N games, {result['kb_per_game_after']:.1f} "
            f"after play; errors logged {len(result['bot_errors'])}, "
            f"driver stalls {driver['stalls']}, driver errors {driver['error_count']}, "
            f"violations {len(result['violations'])}, 429s {result['rate_limited']}",
            f"  RSS during play, MB every {RSS_EVERY:g} s: "
            + " ".join(f"{mb:.1f}" for mb in result["rss_during_play_mb"]),
        ]
    )


HEADER = "games  p50 ms  p95 ms  p99 ms   max ms  >3 s  moves/s  botCPU  emuCPU peakMB KB/game\n" + "-" * 86


def child(arguments: list[str]) -> dict[str, Any]:
    """Runs one measurement in a fresh process and returns its JSON result (the last stdout line)."""
    output = subprocess.run(
        [sys.executable, "-m", "bench.bot_load", *arguments], check=True, stdout=subprocess.PIPE, text=True
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bot_load", description=__doc__)
    parser.add_argument("--games", default="10,100,500", help="comma-separated numbers of concurrent games")
    parser.add_argument("--seconds", type=float, default=20.0, help="play time measured per N")
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="play first, unmeasured (every table's first turn at once)"
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", default="catsdogs")
    parser.add_argument("--resume", type=int, default=0, help="also time a restart with this many games")
    parser.add_argument("--rate-limit", type=int, default=100_000, help="emulator requests/s per bucket")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--pictures", choices=("on", "off"), default="on", help="tables show pictures")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--one-resume", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one is not None:
        print(json.dumps(asyncio.run(run_load(args.one, args))), flush=True)
        return
    if args.one_resume is not None:
        print(json.dumps(asyncio.run(run_resume(args.one_resume, args))), flush=True)
        return
    print(describe_machine())
    print(
        f"{args.game}, {args.players} players per game, {args.seconds:g} s of play measured per N after "
        f"{args.warmup:g} s of warm-up, emulator rate limit {args.rate_limit}/s per bucket, "
        f"pictures {args.pictures}"
    )
    common = ["--seconds", str(args.seconds), "--warmup", str(args.warmup), "--players", str(args.players)]
    common += ["--game", args.game]
    common += ["--rate-limit", str(args.rate_limit), "--pictures", args.pictures]
    results = []
    print(HEADER, flush=True)
    for games in [int(n) for n in args.games.split(",") if n]:
        result = child(["--one", str(games), *common])
        results.append(result)
        print(row(result), flush=True)
    for result in results:
        print(details(result))
    resume = None
    if args.resume:
        resume = child(["--one-resume", str(args.resume), *common])
        print(
            f"resume with {resume['loaded']} active games: loaded in {resume['seconds_to_load']:.2f} s; "
            f"READY (login, games loaded, deadlines re-armed) {resume['seconds_to_ready']:.2f} s "
            f"after start; every table re-rendered and its player pinged "
            f"{resume['seconds_to_tables_shown']:.2f} s after start; errors logged {resume['error_count']}"
        )
    if args.json:
        args.json.write_text(json.dumps({"load": results, "resume": resume}, indent=2))


if __name__ == "__main__":
    main()
