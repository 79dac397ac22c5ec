"""`METRICS_PORT`: each process says how it is, over HTTP on its own event loop.

`/healthz` answers 200 only while every shard of the process is connected and its store answers,
503 otherwise (as while the database is away); a process whose event loop hangs does not answer at
all, which is what `catnip fleet` restarts it for. `/metrics` is the Prometheus text format
(`prometheus_client`), from a registry of the process's own.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    import discord

    from bot.metrics import Metrics
    from bot.sessions import GameService
    from bot.storage import GameStore

log = logging.getLogger("catnip.health")

STORE_ANSWER_SECONDS = 2.0
"""How long `/healthz` waits for the store to answer before saying it does not."""


class BotState(Collector):
    """What is read from the process when scraped: games live, leases held, each shard's latency."""

    def __init__(self, client: discord.AutoShardedClient, service: GameService) -> None:
        self.client = client
        self.service = service

    def collect(self) -> Iterator[GaugeMetricFamily]:
        client, service = self.client, self.service
        yield GaugeMetricFamily("catnip_games_live", "Games this process runs.", value=len(service.live))
        leased = len(service.live) if service.leases.leasing else 0
        yield GaugeMetricFamily("catnip_leases_held", "Game leases this process holds.", value=leased)
        latency = GaugeMetricFamily(
            "catnip_shard_latency_seconds", "Heartbeat latency of each shard.", labels=["shard"]
        )
        for shard_id, seconds in client.latencies if client.is_ready() else []:
            if seconds == seconds and seconds != float("inf"):  # discord.py says nan/inf before an ack
                latency.add_metric([str(shard_id)], seconds)
        yield latency


class HealthServer:
    """`/healthz` and `/metrics` of the process on 0.0.0.0:`port`: its Discord `client`, the games
    its `service` runs, its `store` and its `metrics`."""

    def __init__(
        self,
        client: discord.AutoShardedClient,
        service: GameService,
        store: GameStore,
        metrics: Metrics,
        port: int,
    ) -> None:
        self.client, self.store, self.registry = client, store, metrics.registry
        self.port = port
        metrics.registry.register(BotState(client, service))
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
        client = self.client
        if not client.is_ready():
            return "not connected to Discord yet"
        down = [shard_id for shard_id, shard in client.shards.items() if shard.is_closed()]
        return f"shards {down} are not connected" if down else ""

    async def _store_problem(self) -> str:
        try:
            await asyncio.wait_for(self.store.ping(), STORE_ANSWER_SECONDS)
        except Exception as error:
            return f"the store does not answer ({type(error).__name__})"
        return ""

    async def metrics(self, _request: web.Request) -> web.Response:
        return web.Response(body=generate_latest(self.registry), headers={
            "Content-Type": CONTENT_TYPE_LATEST
        })  # fmt: skip
