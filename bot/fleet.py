"""`catnip fleet --processes N [--shard-count M]`: N bot processes on this machine, one shard range each.

Each process is `python -m bot` with its own `SHARD_IDS` and the fleet's `SHARD_COUNT` in its
environment, so it runs the games of its shards' guilds only. A process that dies is started
again after a pause that doubles while it keeps dying (up to half a minute); one refusing its
settings (exit code 2) or refused its token by Discord (3) stops the fleet instead, since a restart
would meet the same refusal. A process waiting for the database or Discord at start does not exit
(bot.outages): the fleet keeps it. Ctrl-C or
SIGTERM stops every process: each is asked to stop (SIGTERM), given time to finish what it is
doing, then killed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import secrets
import signal
import sys
import tempfile
from dataclasses import dataclass, field

from bot.config import Settings
from bot.exit_codes import METRICS_REFUSED, SETTINGS_REFUSED, SHARDS_TAKEN, TOKEN_REFUSED
from bot.logs import fatal
from bot.outages import OutageLog, is_discord_outage, wait_until_up
from bot.parent_watch import FLEET_PID
from bot.sharding import describe_ids, split_shards

log = logging.getLogger("catnip.fleet")
FLEET = "catnip fleet"

TOKEN_REFUSED_LINE = (
    "DISCORD_TOKEN: Discord refused the token (401 Unauthorized): copy the bot's token again from the "
    "developer portal"
)
STOPS_THE_FLEET = {
    SETTINGS_REFUSED: "refused its settings",
    TOKEN_REFUSED: "was refused its DISCORD_TOKEN",
    SHARDS_TAKEN: "found its shards run by another process",
    METRICS_REFUSED: "could not serve on its METRICS_PORT",
}
"""Exit codes a restart cannot mend: the fleet stops instead, with the same code."""

PROCESS_WORD = "CATNIP_PROCESS_WORD"
"""The environment variable in which `catnip fleet` gives each process it starts a word of its own."""
PROCESS_HEADER = "Catnip-Process"
"""The header of `/livez`'s answer that repeats it."""
FLEET_RESTARTS = "CATNIP_FLEET_RESTARTS"
"""The environment variable in which `catnip fleet` tells a process how often it restarted the
processes of its shards before, by cause (JSON), for `catnip_fleet_restarts_total`, bot/health.py."""
RESTART_CAUSES = ("exited", "killed", "hung")
"""Why the fleet started a process of these shards again: it exited with an error, a signal killed it
(out of memory, `kill -9`), or the fleet killed it for not answering `/livez`."""
MAX_RESTART_DELAY = 30.0
START_GRACE = 60.0
"""Seconds a process just started may take to answer /livez a first time (it imports, then serves)."""
STEADY_AFTER = 60.0
"""Seconds a process must have run for its next restart to wait the first, shortest pause again."""


@dataclass
class Member:
    """One bot process of the fleet and its shards."""

    index: int
    shard_ids: tuple[int, ...]
    shard_count: int
    process: asyncio.subprocess.Process | None = None
    port: int | None = None
    """Its METRICS_PORT, where the fleet asks /livez whether it still answers."""
    word: str = ""
    """The word its current process repeats in /livez's answer (bot/health.py), new at each start."""
    restarts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(RESTART_CAUSES, 0))
    """How often the fleet started it again, by why (`RESTART_CAUSES`)."""
    hung: bool = False
    """Whether the fleet killed its current process for not answering /livez."""

    def __str__(self) -> str:
        pid = f", pid {self.process.pid}" if self.process is not None else ""
        return f"process {self.index} (shards {describe_ids(self.shard_ids)} of {self.shard_count}{pid})"


class Fleet:
    """Starts, restarts and stops the fleet's processes."""

    def __init__(
        self,
        shard_count: int,
        processes: int,
        *,
        command: list[str],
        env: dict[str, str],
        restart_delay: float = 1.0,
        stop_timeout: float = 15.0,
        metrics_port: int | None = None,
        metrics_host: str = "127.0.0.1",
        hang_timeout: float = 60.0,
    ) -> None:
        self.members = [
            Member(index, ids, shard_count, port=None if metrics_port is None else metrics_port + index)
            for index, ids in enumerate(split_shards(shard_count, processes))
        ]
        self.hang_timeout = hang_timeout
        self.metrics_host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(metrics_host, metrics_host)
        """Where the fleet asks its processes /livez: METRICS_HOST, or this machine for every address."""
        self.command = command
        self.env = env
        self.restart_delay = restart_delay
        self.stop_timeout = stop_timeout
        self.stopping = asyncio.Event()
        self.exit_code = 0

    async def run(self) -> int:
        """Run until a signal (or a process refusing its settings); return the fleet's exit code."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, self.stopping.set)
        with tempfile.TemporaryDirectory(prefix="catnip-fleet-") as shared:
            # The processes pace their IDENTIFYs together (see bot.sharding.IdentifyGate).
            self.env = {**self.env, "CATNIP_IDENTIFY_LOCKS": shared}
            keepers = [asyncio.create_task(self._keep(member)) for member in self.members]
            await self.stopping.wait()
            log.info("stopping %d processes", len(self.members))
            await self._stop_all()
            for keeper in keepers:
                keeper.cancel()
            await asyncio.gather(*keepers, return_exceptions=True)
        return self.exit_code

    async def _keep(self, member: Member) -> None:
        """Keep `member` running until the fleet stops."""
        delay = self.restart_delay
        loop = asyncio.get_running_loop()
        while not self.stopping.is_set():
            env = {
                **self.env,
                "SHARD_COUNT": str(member.shard_count),
                "SHARD_IDS": describe_ids(member.shard_ids),
                FLEET_PID: str(os.getpid()),  # it ends with the fleet (bot/parent_watch.py)
                FLEET_RESTARTS: json.dumps(member.restarts),
            }
            if member.port is not None:
                member.word = secrets.token_hex(8)
                env["METRICS_PORT"] = str(member.port)
                env[PROCESS_WORD] = member.word
            member.hung = False
            member.process = await asyncio.create_subprocess_exec(*self.command, env=env)
            started = loop.time()
            log.info("%s started", member)
            watcher = None
            if member.port is not None and self.hang_timeout > 0:
                watcher = asyncio.create_task(self._kill_when_hung(member, member.process))
            code = await member.process.wait()
            if watcher is not None:
                watcher.cancel()
            if self.stopping.is_set():
                return
            if code in STOPS_THE_FLEET:
                log.error("%s %s; stopping the fleet", member, STOPS_THE_FLEET[code])
                self.exit_code = code
                self.stopping.set()
                return
            if loop.time() - started >= STEADY_AFTER:
                delay = self.restart_delay
            member.restarts["hung" if member.hung else "killed" if code < 0 else "exited"] += 1
            log.warning("%s exited with code %s; starting it again in %g s", member, code, delay)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), delay)
            delay = min(delay * 2, MAX_RESTART_DELAY)

    async def _kill_when_hung(self, member: Member, process: asyncio.subprocess.Process) -> None:
        """SIGKILL `process` once its /livez has not answered for `hang_timeout` seconds. Only an answer
        repeating the process's own word counts (another program on its port is not the process). A
        process just started has `START_GRACE` seconds at least to answer first."""
        import aiohttp  # only a fleet with METRICS_PORT asks: the others never load it

        host = f"[{self.metrics_host}]" if ":" in self.metrics_host else self.metrics_host
        url = f"http://{host}:{member.port}/livez"
        every = min(5.0, self.hang_timeout / 4)
        loop = asyncio.get_running_loop()
        answered = loop.time() + max(0.0, START_GRACE - self.hang_timeout)
        heard = False
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=every)) as session:
            while process.returncode is None:
                await asyncio.sleep(every)
                try:
                    async with session.get(url) as response:
                        await response.read()
                    if response.headers.get(PROCESS_HEADER) != member.word:
                        log.debug("%s: another program answers on its port", member)
                    else:
                        if not heard:
                            heard = True
                            log.info("%s answers /livez; restarted if it stops answering for %g s", member,
                                     self.hang_timeout)  # fmt: skip
                        answered = loop.time()
                except (aiohttp.ClientError, TimeoutError) as error:
                    log.debug("%s: /livez did not answer (%r)", member, error)
                if loop.time() - answered >= self.hang_timeout:
                    log.warning(
                        "%s has not answered /livez for %g s; killing it", member, loop.time() - answered
                    )
                    member.hung = True
                    with contextlib.suppress(ProcessLookupError):
                        process.kill()
                    return

    async def _stop_all(self) -> None:
        running = [m for m in self.members if m.process is not None and m.process.returncode is None]
        for member in running:
            with contextlib.suppress(ProcessLookupError):
                member.process.send_signal(signal.SIGTERM)
        waiting = [asyncio.create_task(m.process.wait()) for m in running]
        if waiting:
            await asyncio.wait(waiting, timeout=self.stop_timeout)
        for member in running:
            if member.process.returncode is None:
                log.warning("%s did not stop within %g s; killing it", member, self.stop_timeout)
                with contextlib.suppress(ProcessLookupError):
                    member.process.kill()
                await member.process.wait()
        log.info("all processes stopped")


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="catnip fleet", description="Run several Catnip processes on this machine, one shard range each."
    )
    parser.add_argument("--processes", type=int, required=True, help="how many bot processes to run")
    parser.add_argument(
        "--shard-count",
        type=int,
        default=None,
        help="gateway shards of the whole bot (default: SHARD_COUNT, else Discord's recommendation)",
    )
    parser.add_argument(
        "--restart-delay", type=float, default=1.0, help="seconds before a dead process starts again"
    )
    parser.add_argument(
        "--stop-timeout", type=float, default=15.0, help="seconds a process may take to stop before a kill"
    )
    parser.add_argument(
        "--hang-timeout",
        type=float,
        default=60.0,
        help="with METRICS_PORT: seconds a process may leave /livez unanswered before it is restarted "
        "(0: never); process i of the fleet serves on METRICS_PORT + i",
    )
    args = parser.parse_args(argv)
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if args.shard_count is not None and args.shard_count < args.processes:
        parser.error(f"--shard-count {args.shard_count} is fewer than the {args.processes} processes")
    return args


def fleet_shard_count(chosen: int | None, processes: int, recommended: int | None) -> int:
    """The fleet's shard count: the one chosen, else Discord's recommendation, and never fewer shards
    than processes (each process runs at least one)."""
    return chosen if chosen is not None else max(recommended or 1, processes)


async def run_fleet(argv: list[str], settings: Settings) -> int:
    args = parse(argv)
    if not settings.discord_token:
        fatal("DISCORD_TOKEN is not set (the fleet runs the real bot)", FLEET)
        return SETTINGS_REFUSED
    chosen = args.shard_count if args.shard_count is not None else settings.shard_count
    if chosen is not None and chosen < args.processes:
        fatal(f"SHARD_COUNT={chosen} is fewer than the {args.processes} processes", FLEET)
        return SETTINGS_REFUSED
    if settings.shard_ids is not None:
        log.info("SHARD_IDS is ignored: the fleet gives each process its own shards")
    recommended = None
    if chosen is None:  # only then is Discord asked, and discord.py loaded
        from discord import LoginFailure

        from bot.endpoint import discord_endpoint
        from discord_door import recommended_shard_count

        token = settings.discord_token.get_secret_value()
        with discord_endpoint():
            try:
                recommended = await wait_until_up(
                    lambda: recommended_shard_count(token),
                    OutageLog("Discord", log),
                    is_outage=is_discord_outage,
                    sleep=asyncio.sleep,
                )
            except LoginFailure:
                fatal(TOKEN_REFUSED_LINE, FLEET)
                return TOKEN_REFUSED
    count = fleet_shard_count(chosen, args.processes, recommended)
    log.info("a fleet of %d processes over %d shards", args.processes, count)
    env = {k: v for k, v in os.environ.items() if k not in ("SHARD_IDS", "SHARD_COUNT")}
    fleet = Fleet(
        count,
        args.processes,
        command=[sys.executable, "-m", "bot"],
        env=env,
        restart_delay=args.restart_delay,
        stop_timeout=args.stop_timeout,
        metrics_port=settings.metrics_port,
        metrics_host=settings.metrics_host,
        hang_timeout=args.hang_timeout,
    )
    return await fleet.run()
