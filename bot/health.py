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
import re
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import aiohttp
import prometheus_client
from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from bot.discord_budget import bound_by_global_limit
from bot.fleet import FLEET_RESTARTS, PROCESS_HEADER, PROCESS_WORD, RESTART_CAUSES

if TYPE_CHECKING:
    from bot.app import CatnipBot

log = logging.getLogger("catnip.health")

RATE_LIMIT_SCOPES = ("user", "global", "shared")
"""Discord's `X-RateLimit-Scope` of a 429 (topics/rate-limits, "Header Format")."""
TRY_AGAIN_REASONS = {"NotOwned": "moving", "RunElsewhere": "moving", "StoreUnavailable": "store_away"}
"""The refusals that ask a member to try again in a moment, by why: their server's games moving to
another process, or the store away."""
STORE_ANSWER_SECONDS = 2.0
"""How long `/readyz` waits for the store to answer before saying it does not."""
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
        prometheus_client.disable_created_metrics()  # each counter's start time doubled the page
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        ProcessCollector(registry=r)
        PlatformCollector(registry=r)
        GCCollector(registry=r)
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
            "catnip_discord_429", "Requests Discord answered 429, by its X-RateLimit-Scope.", ["scope"],
            registry=r,
        )  # fmt: skip
        self.budgeted = Counter(
            "catnip_discord_requests_budget",
            "Requests to Discord, counted against the token's global rate limit or exempt from it.",
            ["budget"],
            registry=r,
        )
        self.try_again = Counter(
            "catnip_try_again_refusals",
            "Clicks and commands refused with a 'try again in a moment', by why.",
            ["reason"],
            registry=r,
        )
        for scope in RATE_LIMIT_SCOPES:  # 0 before the first, so that a rate of them can be asked
            self.rate_limited.labels(scope)
        for kind in ("counted", "exempt"):
            self.budgeted.labels(kind)
        for reason in sorted(set(TRY_AGAIN_REASONS.values())):
            self.try_again.labels(reason)
        self._arrivals: dict[int, float] | None = None
        """When each interaction waiting for its answer came (perf_counter), by id; None while
        Discord's requests are not counted (no answer would take it off)."""

    def committed(self, *, human: bool, seconds: float) -> None:
        self.moves.labels("member" if human else "computer").inc()
        self.commit_seconds.observe(seconds)

    def not_committed(self, error: Exception) -> None:
        self.commit_errors.labels(type(error).__name__).inc()

    def refused(self, error: Exception) -> None:
        """A click or command was refused with `error`: counted if it asks to try again in a moment."""
        reason = TRY_AGAIN_REASONS.get(type(error).__name__)
        if reason is not None:
            self.try_again.labels(reason).inc()

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

    def count_requests(self, trace: aiohttp.TraceConfig, application_id: Callable[[], int | None]) -> None:
        """Count every request to Discord through `trace`, the aiohttp trace given to discord.py's
        `http_trace` (it takes one: the bot's global budget hooks into the same), against the global
        rate limit or not (`application_id`: the bot's, once known), and time each interaction's first
        answer, which travels on the same session."""
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
            counted = bound_by_global_limit(params.method.upper(), path, application_id())
            if counted is not None:
                self.budgeted.labels("counted" if counted else "exempt").inc()
            if params.response.status == 429:
                scope = params.response.headers.get("X-RateLimit-Scope", "user")
                self.rate_limited.labels(scope if scope in RATE_LIMIT_SCOPES else "user").inc()

        trace.on_request_end.append(on_request_end)


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

    def __init__(self, bot: CatnipBot, port: int, host: str = "127.0.0.1") -> None:
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
