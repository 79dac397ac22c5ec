"""`Metrics`: what the process counts and times as it runs (Prometheus, `prometheus_client`), in a
registry of its own, with the library's process, platform and garbage-collection collectors and
without the `_created` series; served at `/metrics` by bot/health.py when METRICS_PORT is set."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import aiohttp
import prometheus_client
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)

from bot.discord_budget import bound_by_global_limit
from bot.overload import MOST_CLICKS_IN_FLIGHT

RATE_LIMIT_SCOPES = ("user", "global", "shared")
"""Discord's `X-RateLimit-Scope` of a 429 (topics/rate-limits, "Header Format")."""
TRY_AGAIN_REASONS = {
    "NotOwned": "moving",
    "RunElsewhere": "moving",
    "StoreUnavailable": "store_away",
    "Busy": "busy",
}
"""The refusals that ask a member to try again in a moment, by why: their server's games moving to
another process, the store away, or the bot behind its clicks."""
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
        self.clicks_in_flight = Gauge(
            "catnip_clicks_in_flight",
            f"Clicks being handled now; past {MOST_CLICKS_IN_FLIGHT} a new one is turned away.",
            registry=r,
        )
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
