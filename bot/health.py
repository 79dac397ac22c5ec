"""`METRICS_PORT`: each process says how it is, over HTTP on its own event loop.

`/healthz` answers 200 only while every shard of the process is connected and its store answers,
503 otherwise (as while the database is away); a process whose event loop hangs does not answer at
all, which is what `catnip fleet` restarts it for. `/metrics` is the Prometheus text format
(`prometheus_client`), from a registry of the process's own.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import aiohttp
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from bot.app import CatnipBot

log = logging.getLogger("catnip.health")

STORE_ANSWER_SECONDS = 2.0
"""How long `/healthz` waits for the store to answer before saying it does not."""
IDS = re.compile(r"/\d{5,}")
TOKENS = re.compile(r"(/(?:webhooks|interactions)/\{id\})/[^/]+")


def route_of(method: str, path: str) -> str:
    """A Discord request's route, as metrics label it: ids and interaction tokens left out
    (`POST /api/v10/channels/{id}/messages`)."""
    path = TOKENS.sub(r"\1/{token}", IDS.sub("/{id}", path))
    return f"{method} {path}"


class Metrics:
    """What a process counts, in a registry of its own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.moves = Counter("catnip_moves", "Moves committed, by who made them.", ["by"], registry=r)
        self.clicks = Counter("catnip_clicks", "Clicks and commands received.", registry=r)
        self.commit_seconds = Histogram(
            "catnip_store_commit_seconds", "Time to commit a move to the store.", registry=r
        )
        self.commit_errors = Counter(
            "catnip_store_commit_errors", "Moves the store could not commit, by kind.", ["kind"], registry=r
        )
        self.discord_requests = Counter(
            "catnip_discord_requests", "Requests to Discord, by route and status.", ["route", "status"],
            registry=r,
        )  # fmt: skip
        self.rate_limited = Counter(
            "catnip_discord_429", "Requests Discord answered 429.", ["route"], registry=r
        )

    def committed(self, *, human: bool, seconds: float) -> None:
        self.moves.labels("member" if human else "computer").inc()
        self.commit_seconds.observe(seconds)

    def not_committed(self, error: Exception) -> None:
        self.commit_errors.labels(type(error).__name__).inc()

    def count_requests(self, trace: aiohttp.TraceConfig) -> None:
        """Count every request to Discord through `trace`, the aiohttp trace given to discord.py's
        `http_trace` (it takes one: the bot's global budget hooks into the same)."""

        async def on_request_end(_session, _context, params: aiohttp.TraceRequestEndParams) -> None:
            route = route_of(params.method, params.url.path)
            self.discord_requests.labels(route, str(params.response.status)).inc()
            if params.response.status == 429:
                self.rate_limited.labels(route).inc()

        trace.on_request_end.append(on_request_end)


class BotState(Collector):
    """What is read from the bot when scraped: games live, leases held, each shard's latency."""

    def __init__(self, bot: CatnipBot) -> None:
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


class HealthServer:
    """`/healthz` and `/metrics` of `bot` on 0.0.0.0:`port`."""

    def __init__(self, bot: CatnipBot, port: int) -> None:
        self.bot = bot
        self.port = port
        bot.metrics.registry.register(BotState(bot))
        app = web.Application()
        app.router.add_get("/healthz", self.healthz)
        app.router.add_get("/metrics", self.metrics)
        self._runner = web.AppRunner(app, access_log=None)

    async def start(self) -> None:
        await self._runner.setup()
        await web.TCPSite(self._runner, "0.0.0.0", self.port).start()
        log.info("health and metrics on port %d (/healthz, /metrics)", self.port)

    async def close(self) -> None:
        await self._runner.cleanup()

    async def healthz(self, _request: web.Request) -> web.Response:
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
