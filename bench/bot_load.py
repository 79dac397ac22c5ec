"""The whole bot under load: N concurrent games over the local Discord emulator, against the floor.

    python -m bench.bot_load [--games 10,100,500] [--seconds 20] [--warmup 5] [--resume 1000] [--json]
                             [--pictures on|off]
    python -m bench.bot_load --open-loop --games 1000,5000 [--think 5]
    python -m bench.bot_load --open-loop --discord-limits [--no-limiter]   (--no-limiter: the bot's own off)
    python -m bench.bot_load --games 100 --compare stdlib-json,uvloop,dynamic-item,refresh-16
    python -m bench.bot_load --games 100 --compare french   (the same play on French servers)
    python -m bench.bot_load --games 100 --profile /tmp/profile   (pyinstrument over the measured play)
    python -m bench.bot_load --games 100 --rounds 3   (Catnip and the floor in turn, three times)

For each N, a fresh bot process (so peak memory is that run's own) starts the emulator in a
separate process (`python -m bench.load_members`, which also runs the simulated members, so
their cost stays out of the bot's figures) and runs the Catnip bot against it: database in a
temporary directory, durable SQLite exactly as in production, and the same garbage-collector
tuning as `python -m bot`. Then, under the same load, a fresh process runs the floor bot
(`bench/floor_bot.py`): the same Discord calls for a move, with payloads of the sizes Catnip's
had, and no game, store or rendering. Catnip's own cost is the difference.

Saturated (the default): N tables of Cats & Dogs, 4 members each, computer delay 0; every member
acts as soon as the table pings them ("My hand", then a random card on their private panel);
finished tables start a rematch, so N games stay live.

Open loop (`--open-loop`): a mix of all four games, each table 3 members and 1 computer player
(normal), the computer's usual pause before it moves; every member thinks for an exponential
time of mean `--think` seconds before each decision. The floor bot does not play computer seats,
so only Catnip runs.

1. Setup: the tables are opened through /play, Join, the computer players and Start.
2. Play: the first `--warmup` seconds, when every table's first turn comes at once, are reported
   apart; then `--seconds` are measured.
3. Figures: initial-response latency of every interaction (dispatch to initial response, as the
   emulator records it) p50/p95/p99/max, and how many missed Discord's 3 s deadline (warm-up
   included); moves per second; the bot's CPU (getrusage, all its threads, plus its drawing
   process's from /proc) per move, split by what its threads do ("pictures": the drawing process), and
   peak RSS (ru_maxrss); memory per active game (RSS with N live games minus the RSS before any
   game, / N; also the growth from N/2 to N games, / N/2, and after play); the table's lag (a
   card click until the table shows it, and until the next player's ping is posted); the RSS
   every 5 s of play (a long `--seconds` shows whether memory levels off). `--tracemalloc`
   also reports the bot process's traced memory by module at setup and after play.
4. `--resume M`: M active games are created the same way and played a little, the bot is
   stopped and a new one started on the same database; time to load the games, to READY
   (deadlines re-armed) and until every table has been re-rendered and its player pinged; and the
   restart's requests: counted by the global limit, exempt, and answered 429 (with `--discord-limits`,
   `--no-limiter` shows the burst the bot's limiter keeps back).

`--json` ends the output with one line of JSON: the headline figures of the first N, Catnip's
and the floor's (`cpu_ms_per_move`, `floor_cpu_ms_per_move`, `moves_per_s`, `click_p99_ms`,
`table_lag_p50_ms`, `table_lag_p99_ms`, `deadline_misses`, …; Discord's budget: `counted_requests_per_move`
— requests bound by the global limit a move, over the whole play, warm-up included — by kind and by game,
`responses_429` — every 429 the emulator answered in the run, setup included — and
`invalid_requests_10min` — the most invalid requests within any 10 minutes of the run), and every run's
figures under `runs`; `compared`: each `--compare` variant's CPU a move, moves a second and CPU a
move over the unchanged run's (`cpu_vs_unchanged`).
With `--rounds R` Catnip and the floor run in turn R times per N (the machine's load swings a single
pair's ratio): the headline figures are those of the pair with the median CPU ratio, with every
pair's ratio in `cpu_vs_floor_each` and their median in `cpu_vs_floor_median`.

The emulator's per-route rate limit is set to 100,000 requests/s per bucket (`--rate-limit`):
Discord's real limits would throttle /play's thread creation in one channel during setup; the
figures are the bot's own pace. Its 3 s deadline watch waits once per interaction instead of
polling (see bench/load_members.py), so the emulator keeps up with hundreds of pending clicks.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import subprocess
import sys
import time
import tracemalloc
from collections import Counter
from typing import Any

from bench.floor_bot import Sizes
from bench.load_figures import (
    Background,
    LoopLag,
    RssSeries,
    cpu_by_thread,
    cpu_seconds,
    latency_summary,
    peak_rss_kb,
    rss_kb,
    traced_by_module,
)
from bench.load_report import HEADER, details, headline, median_pair, ratios, row
from bench.load_requests import per_move
from bench.load_subjects import Catnip, EmulatorProcess, Floor, discord_state, emulated_discord
from bench.load_variants import VARIANTS, run_child
from bench.machine import describe_machine

DEADLINE = 3.0
DRIVER_FIGURES = ("moves_clicked", "stalls", "rematches", "error_count", "errors")
DEFERRED_UPDATE = 6  # the interaction response type of an acknowledgement without a message
OPEN_LOOP_MIX = [[game, 3, 1, "normal"] for game in ("catsanity", "madcat", "catsdogs", "ninelives")]
OPEN_LOOP_STALL = 120.0  # seconds without a ping before every member looks at their panel
OPEN_LOOP_COMPUTER_DELAY = 1.5  # the pause before a computer player's move is shown (the bot's default)


def table_kinds(args: argparse.Namespace) -> list[list]:
    if args.open_loop:
        return OPEN_LOOP_MIX
    return [[args.game, args.players, 0, "normal"]]


def members_needed(kinds: list[list], games: int) -> int:
    return sum(kinds[index % len(kinds)][1] for index in range(games))


def make_subject(args: argparse.Namespace, database):
    if args.subject == "floor":
        return Floor(Sizes(*(int(n) for n in args.sizes.split(","))) if args.sizes else Sizes())
    delay = OPEN_LOOP_COMPUTER_DELAY if args.open_loop else 0.0
    return Catnip(database, computer_delay=delay, pictures=args.pictures == "on", limiter=args.limiter)


async def open_tables(emulator: EmulatorProcess, subject, kinds: list[list], count: int):
    """Opens `count` tables and waits until the bot has shown them."""
    concurrency = max(25, min(count // 5, 250))  # a computer player moving first delays a table's first ping
    opened = await emulator.call("/_bench/open", {"kinds": kinds, "games": count, "concurrency": concurrency})
    await subject.settle()
    gc.collect()
    return opened


async def after_warmup(
    seconds: float, samplers: list[Background], subject, profile: list | None = None
) -> tuple[float, Counter[str], float, int]:
    """Once the warm-up is over: start the samplers (and the profiler if `profile` is a list to put it in);
    the CPU (in all and by thread), clock and moves the figures start from."""
    await asyncio.sleep(seconds)
    for sampler in samplers:
        sampler.start()
    if profile is not None:
        import pyinstrument  # a benchmark's tool, not Catnip's dependency: pip install pyinstrument

        profiler = pyinstrument.Profiler(interval=0.0005, async_mode="disabled")
        profiler.start()
        profile.append(profiler)
    return cpu_seconds(), cpu_by_thread(), time.perf_counter(), await subject.moves()


def after(records: list, warmup: float) -> dict[str, float]:
    return latency_summary([seconds for at, seconds in records if at >= warmup])


async def run_load(games: int, args: argparse.Namespace) -> dict[str, Any]:
    """One N, one bot: set up N tables, play for `args.seconds`, and measure the bot's process."""
    kinds = table_kinds(args)
    members = members_needed(kinds, games)
    locale = "fr" if args.variant == "french" else "en-US"
    emulated = emulated_discord(members, args.rate_limit, "catnip-load-", args.discord_limits, locale)
    async with emulated as (emulator, database, errors):
        subject = make_subject(args, database)
        await subject.start(emulator)
        traced: dict[str, dict[str, float]] = {}
        top_lines: list[str] = []
        try:
            gc.collect()
            baseline = rss_kb()
            if args.tracemalloc:
                tracemalloc.start(6)
            half = games // 2
            opened = await open_tables(emulator, subject, kinds, half)
            with_half = rss_kb()
            more = await open_tables(emulator, subject, kinds, games - half)
            opened = {
                "opened": opened["opened"] + more["opened"],
                "seconds": opened["seconds"] + more["seconds"],
                "failed": opened["failed"] + more["failed"],
            }
            with_games, active = rss_kb(), subject.live_games()
            if args.tracemalloc:
                traced["with_games"] = traced_by_module()[0]
            lag, rss = LoopLag(), RssSeries()
            profiler: list = [] if args.profile else None
            mark = asyncio.create_task(after_warmup(args.warmup, [lag, rss], subject, profiler))
            play = {"seconds": args.warmup + args.seconds, "rematch": True, "seed": games}
            if args.open_loop:
                play.update(think=args.think, stall=OPEN_LOOP_STALL)
            played = await emulator.call("/_bench/play", play)
            cpu, threads, wall, moves = await mark
            if profiler:
                profiler[0].stop()
                with open(f"{args.profile}-{subject.name}-{games}.txt", "w") as out:
                    out.write(profiler[0].output_text(show_all=False, color=False, unicode=False))
                profiler[0].last_session.save(f"{args.profile}-{subject.name}-{games}.pyisession")
            play_end = wall + args.seconds
            cpu, wall, moves = cpu_seconds() - cpu, time.perf_counter() - wall, await subject.moves() - moves
            threads = cpu_by_thread() - threads
            loop_lag, rss_during_play = await lag.summary(), await rss.stop_at(play_end)
            await subject.settle()
            # The last sample of play: the run's results, passed back to this process once it is
            # over (tens of MB in a long run), are the benchmark's memory, not the bot's.
            rss_after = round(rss_during_play[-1] * 1024) if rss_during_play else rss_kb()
            active_after = subject.live_games()
            kept = discord_state(subject.bot)
            turned_away = subject.turned_away()
            if args.tracemalloc:
                gc.collect()
                traced["after"], top_lines = traced_by_module(25)
                tracemalloc.stop()
        finally:
            await subject.stop()
    everything = played.pop("interactions")
    in_window = [(kind, latency, failed) for kind, latency, failed, at, _ in everything if at >= args.warmup]
    deferred = [
        kind_of == DEFERRED_UPDATE
        for kind, _, _, at, kind_of in everything
        if at >= args.warmup and kind == "play card"
    ]
    warmup = [latency for _, latency, _, at, _ in everything if at < args.warmup and latency is not None]
    answered = [latency for _, latency, _ in in_window if latency is not None]
    by_kind: dict[str, list[float]] = {}
    for kind, latency, _ in in_window:
        if latency is not None:
            by_kind.setdefault(kind, []).append(latency)
    return {
        "subject": subject.name + (f"+{args.variant}" if args.variant else ""),
        "games": games,
        "kinds": kinds,
        "think": args.think if args.open_loop else 0.0,
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
        "turned_away_busy": turned_away,
        "turned_away_in_play": sum(1 for at in played["turned_away"] if at >= args.warmup),
        "turned_away_warmup": sum(1 for at in played["turned_away"] if at < args.warmup),
        "unanswered": [failed for _, latency, failed, _, _ in everything if latency is None][:10],
        "acknowledged_first": sum(deferred) / max(len(deferred), 1),
        "handoff": after(played.pop("handoffs"), args.warmup),
        "shown": after(played.pop("shown"), args.warmup),
        "table_lag": after(played.pop("table_lags"), args.warmup),
        "ping_lag": after(played.pop("ping_lags"), args.warmup),
        "sizes": played["sizes"],
        "moves": moves,
        "moves_per_second": moves / wall,
        "interactions_per_second": len(in_window) / wall,
        "bot_cpu_seconds": cpu,
        "bot_cpu_percent": 100 * cpu / wall,
        "cpu_ms_per_move": 1000 * cpu / max(moves, 1),
        "cpu_ms_per_move_by_thread": {kind: 1000 * s / max(moves, 1) for kind, s in threads.most_common()},
        "emulator_cpu_percent": 100 * played["emulator_cpu_seconds"] / played["seconds"],
        "emulator_loop_lag_p99_ms": played["emulator_loop_lag_ms"],
        "emulator_loop_lag_max_ms": played["emulator_loop_lag_max_ms"],
        "loop_lag": loop_lag,
        "rss_baseline_kb": baseline,
        "rss_with_games_kb": with_games,
        "rss_after_kb": rss_after,
        "rss_during_play_mb": rss_during_play,
        "peak_rss_kb": peak_rss_kb(),
        "kb_per_game": (with_games - baseline) / max(active, 1),
        "kb_per_game_marginal": (with_games - with_half) / max(games - half, 1),
        "kb_per_game_after": (rss_after - baseline) / max(active_after, 1),
        "traced_kb_by_module": {when: dict(totals.most_common(12)) for when, totals in traced.items()},
        "traced_top_after": top_lines,
        "discord_state_after": kept,
        "bot_errors": errors.messages[:20],
        "driver": {k: played[k] for k in DRIVER_FIGURES},
        "violations": played["violations"],
        "rate_limited": played["rate_limited"],
        "requests_per_move": {
            route: count / max(played["moves_clicked"], 1) for route, count in played["requests"].items()
        },
        **per_move(played["budget"], played["moves_clicked"]),
        "responses_429": played["rate_limited"],
        "invalid_requests_10min": played["invalid_requests_10min"],
    }


async def run_resume(games: int, args: argparse.Namespace) -> dict[str, Any]:
    """M active games in the database, then a fresh bot: time to READY and until every table is shown."""
    kinds = table_kinds(args)
    members = members_needed(kinds, games)
    emulated = emulated_discord(members, args.rate_limit, "catnip-resume-", args.discord_limits)
    async with emulated as (emulator, database, errors):
        catnip = Catnip(database, pictures=args.pictures == "on", limiter=args.limiter)
        await catnip.start(emulator)
        try:
            opened = await emulator.call("/_bench/open", {"kinds": kinds, "games": games, "concurrency": 50})
            played = await emulator.call("/_bench/play", {"seconds": 12, "stagger": 12, "rematch": False})
            await catnip.settle()
            active = catnip.live_games()
        finally:
            await catnip.stop()
        gc.collect()
        loading = _time_resume()
        before = await emulator.call("/_bench/usage", {})
        catnip = Catnip(database, pictures=args.pictures == "on", limiter=args.limiter)
        await catnip.start(emulator)
        ready = catnip.seconds_to_ready
        try:
            loaded = catnip.live_games()
            started = time.perf_counter()
            await asyncio.gather(*catnip.bot._background[:1])  # _after_ready: tables refreshed, timers armed
            await catnip.settle()
            shown = time.perf_counter() - started
            restarted = await emulator.call("/_bench/usage", {})
        finally:
            await catnip.stop()
    return {
        "games": games,
        "opened": opened["opened"],
        "moves_before_restart": played["moves_clicked"],
        "active": active,
        "loaded": loaded,
        "seconds_to_load": loading[0],
        "seconds_to_ready": ready,
        "seconds_to_tables_shown": ready + shown,
        "restart_counted_requests": restarted["counted"] - before["counted"],
        "restart_exempt_requests": restarted["exempt"] - before["exempt"],
        "restart_responses_429": restarted["responses_429"] - before["responses_429"],
        "responses_429": restarted["responses_429"],
        "invalid_requests_10min": restarted["invalid_requests_10min"],
        "errors": errors.messages[:20],
        "error_count": len(errors.messages),
    }


def _time_resume() -> list[float]:
    """Times the next `Leases.load_all` (every lobby and active game read and its state loaded)."""
    from bot.leases import Leases

    timed: list[float] = []
    original = Leases.load_all

    async def resume(self):
        started = time.perf_counter()
        try:
            return await original(self)
        finally:
            timed.append(time.perf_counter() - started)
            Leases.load_all = original

    Leases.load_all = resume
    return timed


def child(arguments: list[str]) -> dict[str, Any]:
    """Runs one measurement in a fresh process and returns its JSON result (the last stdout line)."""
    output = subprocess.run(
        [sys.executable, "-m", "bench.bot_load", *arguments], check=True, stdout=subprocess.PIPE, text=True
    ).stdout
    return json.loads(output.strip().splitlines()[-1])


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.bot_load", description=__doc__)
    parser.add_argument("--games", default="10,100,500", help="comma-separated numbers of concurrent games")
    parser.add_argument("--seconds", type=float, default=20.0, help="play time measured per N")
    parser.add_argument(
        "--warmup", type=float, default=5.0, help="play first, unmeasured (every table's first turn at once)"
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", default="catsdogs")
    parser.add_argument("--open-loop", action="store_true", help="a mix of games, members who think")
    parser.add_argument("--think", type=float, default=5.0, help="open loop: mean seconds a decision takes")
    parser.add_argument("--no-floor", action="store_true", help="measure Catnip only")
    parser.add_argument(
        "--rounds", type=int, default=1, help="Catnip and the floor in turn this many times per N (median)"
    )
    parser.add_argument("--tracemalloc", action="store_true", help="the bot's memory by module (slow)")
    parser.add_argument(
        "--profile", help="profile the measured play with pyinstrument into PREFIX-bot-N.txt and .pyisession"
    )
    parser.add_argument("--resume", type=int, default=0, help="also time a restart with this many games")
    parser.add_argument("--rate-limit", type=int, default=100_000, help="emulator requests/s per bucket")
    parser.add_argument("--json", action="store_true", help="end with one JSON line of the figures")
    parser.add_argument("--json-file", help="also write every figure to this file")
    parser.add_argument("--pictures", choices=("on", "off"), default="on", help="tables show pictures")
    parser.add_argument(
        "--discord-limits",
        action="store_true",
        help="the emulator enforces Discord's per-channel and global rate limits (5 pings per 5 s a table …)",
    )
    parser.add_argument(
        "--no-limiter",
        dest="limiter",
        action="store_false",
        help="the bot's own global limiter off (bot/discord_budget.py), to see what Discord would refuse",
    )
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--subject", default="catnip", help=argparse.SUPPRESS)
    parser.add_argument("--sizes", help=argparse.SUPPRESS)
    parser.add_argument("--variant", choices=VARIANTS, help=argparse.SUPPRESS)
    parser.add_argument(
        "--compare", default="", help=f"also run Catnip changed by each of these: {', '.join(VARIANTS)}"
    )
    parser.add_argument("--one-resume", type=int, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    if args.one is not None:
        print(json.dumps(run_child(run_load(args.one, args), args.variant)), flush=True)
        return
    if args.one_resume is not None:
        print(json.dumps(asyncio.run(run_resume(args.one_resume, args))), flush=True)
        return
    print(describe_machine())
    load = f"open loop, think time mean {args.think:g} s" if args.open_loop else "saturated"
    print(
        f"{load}; tables {table_kinds(args)} ([game, members, computers, level]); {args.seconds:g} s of "
        f"play measured per N after {args.warmup:g} s of warm-up; emulator rate limit {args.rate_limit}/s; "
        f"pictures {args.pictures}; Discord's channel limits {'on' if args.discord_limits else 'off'}; "
        f"the bot's own global limiter {'on' if args.limiter else 'off'}"
    )
    common = ["--seconds", str(args.seconds), "--warmup", str(args.warmup), "--players", str(args.players)]
    common += ["--game", args.game, "--think", str(args.think), "--rate-limit", str(args.rate_limit)]
    common += ["--pictures", args.pictures] + ["--discord-limits"] * args.discord_limits
    common += ["--no-limiter"] * (not args.limiter)
    common += ["--open-loop"] * args.open_loop + ["--tracemalloc"] * args.tracemalloc
    common += ["--profile", args.profile] if args.profile else []
    with_floor = not (args.open_loop or args.no_floor)
    results, lines = [], []
    print(HEADER, flush=True)
    for games in [int(n) for n in args.games.split(",") if n]:
        pairs = []
        for _ in range(max(args.rounds, 1) if with_floor else 1):
            catnip = child(["--one", str(games), *common])
            results.append(catnip)
            print(row(catnip), flush=True)
            floor = None
            if with_floor:
                sizes = catnip["sizes"]
                measured = [str(sizes.get(key, 0)) for key in Sizes.MEASURED]
                floor = child(
                    ["--one", str(games), "--subject", "floor", "--sizes", ",".join(measured), *common]
                )
                results.append(floor)
                print(row(floor), flush=True)
                pairs.append((catnip, floor))
        compared = {}
        for variant in [v for v in args.compare.split(",") if v]:
            changed = child(["--one", str(games), "--variant", variant, *common])
            results.append(changed)
            print(row(changed), flush=True)
            compared[variant] = {
                "cpu_ms_per_move": changed["cpu_ms_per_move"],
                "moves_per_s": changed["moves_per_second"],
                "cpu_vs_unchanged": changed["cpu_ms_per_move"] / catnip["cpu_ms_per_move"],
            }
        if pairs:
            catnip, floor = median_pair(pairs)
        figures = headline(catnip, floor) | (ratios(pairs) if len(pairs) > 1 else {})
        figures["compared"] = compared
        lines.append({k: None if v != v else v for k, v in figures.items()})  # NaN: none
    for result in results:
        print(details(result))
    resume = None
    if args.resume:
        resume = child(["--one-resume", str(args.resume), *common])
        print(
            f"resume with {resume['loaded']} active games: loaded in {resume['seconds_to_load']:.2f} s; "
            f"READY (login, games loaded, deadlines re-armed) {resume['seconds_to_ready']:.2f} s "
            f"after start; every table re-rendered and its player pinged "
            f"{resume['seconds_to_tables_shown']:.2f} s after start; errors logged {resume['error_count']}\n"
            f"  the restart's requests: {resume['restart_counted_requests']} counted by the global limit, "
            f"{resume['restart_exempt_requests']} exempt, {resume['restart_responses_429']} answered 429; "
            f"429s in the whole run {resume['responses_429']}, "
            f"invalid requests in 10 min {resume['invalid_requests_10min']}"
        )
    if args.json_file:
        with open(args.json_file, "w") as out:
            json.dump({"load": results, "resume": resume}, out, indent=2)
    if args.json:
        print(json.dumps({**lines[0], "runs": lines, "resume": resume}), flush=True)


if __name__ == "__main__":
    main()
