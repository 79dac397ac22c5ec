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
import time
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
ANSWER = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
"""The path of an interaction's first answer (its callback), with the interaction's id."""
ANSWER_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0)
"""Seconds: Discord fails a click or command not answered within 3."""
TABLE_LAG_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
FORGET_UNANSWERED_AFTER = 60.0
"""Seconds after which an interaction still unanswered (its answer never left) is no longer timed."""


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
        self.answer_seconds = Histogram(
            "catnip_click_answer_seconds",
            "Time from a click or command arriving to its first answer reaching Discord.",
            buckets=ANSWER_BUCKETS,
            registry=r,
        )
        self.table_lag_seconds = Histogram(
            "catnip_table_lag_seconds",
            "Time from a change to a game (a move, its start) to its table message showing it.",
            buckets=TABLE_LAG_BUCKETS,
            registry=r,
        )
        self.pings = Counter(
            "catnip_pings_sent", "Turn pings and timer warnings posted, by kind.", ["kind"], registry=r
        )
        self.turn_pings = self.pings.labels("turn")
        self.timer_warnings = self.pings.labels("timer_warning")
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
        self._arrivals: dict[int, float] | None = None
        """When each interaction waiting for its answer came (perf_counter), by id; None while
        Discord's requests are not counted (no answer would take it off)."""

    def committed(self, *, human: bool, seconds: float) -> None:
        self.moves.labels("member" if human else "computer").inc()
        self.commit_seconds.observe(seconds)

    def not_committed(self, error: Exception) -> None:
        self.commit_errors.labels(type(error).__name__).inc()

    def interaction_arrived(self, interaction_id: int) -> None:
        """A click or command came: its answer's time is observed when its callback reaches Discord."""
        self.clicks.inc()
        arrivals = self._arrivals
        if arrivals is None:
            return
        now = time.perf_counter()
        oldest = next(iter(arrivals.items()), None)  # one never answered goes, one each arrival
        if oldest is not None and now - oldest[1] >= FORGET_UNANSWERED_AFTER:
            del arrivals[oldest[0]]
        arrivals[interaction_id] = now

    def table_shown(self, since: float) -> None:
        """A table now shows the changes made since `since` (perf_counter)."""
        self.table_lag_seconds.observe(time.perf_counter() - since)

    def count_requests(self, trace: aiohttp.TraceConfig) -> None:
        """Count every request to Discord through `trace`, the aiohttp trace given to discord.py's
        `http_trace` (it takes one: the bot's global budget hooks into the same), and time each
        interaction's first answer, which travels on the same session."""
        self._arrivals = arrivals = {}

        async def on_request_end(_session, _context, params: aiohttp.TraceRequestEndParams) -> None:
            path = params.url.path
            answer = ANSWER.search(path)
            if answer is not None:
                arrived = arrivals.pop(int(answer[1]), None)
                if arrived is not None:
                    self.answer_seconds.observe(time.perf_counter() - arrived)
            route = route_of(params.method, path)
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
