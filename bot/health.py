"""`METRICS_PORT`: each process says how it is, over HTTP on its own event loop, on `METRICS_HOST`.

- `/livez` answers 200 whenever the event loop runs, outages or not: a process that does not answer
  is hung, which is what `catnip fleet` (and a container's health check) restarts it for. Its
  `Catnip-Process` header repeats the word the fleet gave the process (`PROCESS_WORD`), so that the
  fleet knows it hears its own process and not another program on that port.
- `/readyz` answers 200 only while every shard of the process is connected and its store answers,
  503 and the reason otherwise (as while the database is away): whether to send it work, never a
  reason to restart it.
- `/metrics` is the Prometheus text format (`prometheus_client`), from a registry of the process's
  own, with the library's process, platform and garbage-collection collectors, and without the
  `_created` series (`disable_created_metrics`).
"""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from bot.fleet import FLEET_RESTARTS, PROCESS_HEADER, PROCESS_WORD, RESTART_CAUSES

if TYPE_CHECKING:
    from discord.shard import ShardInfo

    from bot.discord_budget import GlobalBudget
    from bot.metrics import Metrics
    from bot.sessions import GameService
    from bot.storage import GameStore


class Watched(Protocol):
    """What the health server reads of the bot (`bot.app.CatnipBot`, which starts it)."""

    service: GameService
    store: GameStore
    metrics: Metrics
    budget: GlobalBudget

    @property
    def latencies(self) -> list[tuple[int, float]]: ...
    @property
    def shards(self) -> dict[int, ShardInfo]: ...
    def is_ready(self) -> bool: ...


log = logging.getLogger("catnip.health")

STORE_ANSWER_SECONDS = 2.0
"""How long `/readyz` waits for the store to answer before saying it does not."""


class FleetRestarts(Collector):
    """`catnip fleet`'s restarts of the processes of these shards before this one, by cause, as the
    fleet told this process at its start (`FLEET_RESTARTS`; 0 for a process no fleet started)."""

    def __init__(self, told: str) -> None:
        self.counts = {cause: 0 for cause in RESTART_CAUSES} | json.loads(told)

    def collect(self) -> Iterator[CounterMetricFamily]:
        restarts = CounterMetricFamily(
            "catnip_fleet_restarts", "Times catnip fleet started this process's shards again, by why.",
            labels=["cause"],
        )  # fmt: skip
        for cause, count in self.counts.items():
            restarts.add_metric([cause], count)
        yield restarts


class BotState(Collector):
    """What is read from the bot when scraped: games live, leases held, each shard's latency, and the
    share of Discord's global rate limit in use."""

    def __init__(self, bot: Watched) -> None:
        self.bot = bot

    def collect(self) -> Iterator[GaugeMetricFamily]:
        bot = self.bot
        yield GaugeMetricFamily("catnip_games_live", "Games this process runs.", value=len(bot.service.live))
        leased = len(bot.service.live) if bot.service.leases.leasing else 0
        yield GaugeMetricFamily("catnip_leases_held", "Game leases this process holds.", value=leased)
        latency = GaugeMetricFamily(
            "catnip_shard_latency_seconds", "Heartbeat latency of each shard.", labels=["shard"]
        )
        for shard_id, seconds in bot.latencies if bot.is_ready() else []:
            if seconds == seconds and seconds != float("inf"):  # discord.py says nan/inf before an ack
                latency.add_metric([str(shard_id)], seconds)
        yield latency
        budget = bot.budget
        yield GaugeMetricFamily(
            "catnip_discord_budget_in_use",
            "Requests counted against the global rate limit within its last window (of "
            "catnip_discord_budget_size).",
            value=budget.in_use(),
        )
        yield GaugeMetricFamily(
            "catnip_discord_budget_size",
            "Requests this process may send within the window: its share of DISCORD_GLOBAL_RATE_LIMIT.",
            value=budget.limit,
        )
        yield GaugeMetricFamily(
            "catnip_discord_budget_waiting", "Requests waiting for room in the budget.",
            value=budget.waiting(),
        )  # fmt: skip


class MetricsRefused(Exception):
    """METRICS_HOST:METRICS_PORT cannot be served on; `str(error)` names the setting to change."""


def refusal_of(error: OSError, host: str, port: int) -> MetricsRefused:
    if error.errno == errno.EADDRINUSE:
        return MetricsRefused(
            f"METRICS_PORT: port {port} on {host} is in use by another program: choose another port "
            "(under catnip fleet, process i serves on METRICS_PORT + i)"
        )
    if error.errno == errno.EADDRNOTAVAIL:
        return MetricsRefused(
            f"METRICS_HOST: {host} is not an address of this machine: use 127.0.0.1 or 0.0.0.0"
        )
    if error.errno == errno.EACCES:
        return MetricsRefused(f"METRICS_PORT: port {port} needs privileges this process lacks: use 1024+")
    return MetricsRefused(f"METRICS_PORT: cannot serve on {host} port {port} ({error.strerror})")


class HealthServer:
    """`/livez`, `/readyz` and `/metrics` of `bot` on `host`:`port`."""

    def __init__(self, bot: Watched, port: int, host: str = "127.0.0.1") -> None:
        self.bot = bot
        self.port = port
        self.host = host
        self.word = os.environ.get(PROCESS_WORD, "")
        bot.metrics.registry.register(BotState(bot))
        bot.metrics.registry.register(FleetRestarts(os.environ.get(FLEET_RESTARTS, "{}")))
        app = web.Application()
        app.router.add_get("/livez", self.livez)
        app.router.add_get("/readyz", self.readyz)
        app.router.add_get("/metrics", self.metrics)
        self._runner = web.AppRunner(app, access_log=None)

    async def start(self) -> None:
        """Serve, or raise MetricsRefused (the port taken, the address not this machine's)."""
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, self.host, self.port).start()
        except OSError as error:
            await self._runner.cleanup()
            raise refusal_of(error, self.host, self.port) from None
        log.info("health and metrics on %s port %d (/livez, /readyz, /metrics)", self.host, self.port)

    async def close(self) -> None:
        await self._runner.cleanup()

    async def livez(self, _request: web.Request) -> web.Response:
        return web.Response(text="ok\n", headers={PROCESS_HEADER: self.word})

    async def readyz(self, _request: web.Request) -> web.Response:
        problems = self.problems() or await self._store_problem()
        if problems:
            return web.Response(status=503, text=f"{problems}\n")
        return web.Response(text="ok\n")

    def problems(self) -> str:
        bot = self.bot
        if not bot.is_ready():
            return "not connected to Discord yet"
        down = [shard_id for shard_id, shard in bot.shards.items() if shard.is_closed()]
        return f"shards {down} are not connected" if down else ""

    async def _store_problem(self) -> str:
        try:
            await asyncio.wait_for(self.bot.store.ping(), STORE_ANSWER_SECONDS)
        except Exception as error:
            return f"the store does not answer ({type(error).__name__})"
        return ""

    async def metrics(self, _request: web.Request) -> web.Response:
        return web.Response(body=generate_latest(self.bot.metrics.registry), headers={
            "Content-Type": CONTENT_TYPE_LATEST
        })  # fmt: skip
