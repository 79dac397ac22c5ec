"""Discord's global rate limit, kept by the bot before Discord has to answer 429.

Discord lets a bot token make `DISCORD_GLOBAL_RATE_LIMIT` requests a second (50 unless Discord granted
more), shared by every process of the bot; the interaction endpoints are not bound by it (the callback
and the interaction-token webhook routes, listed below). Every 429 counts toward a temporary ban, so a
429 must never be the way the bot learns it went too fast.

:class:`GlobalBudget` lets at most ``limit`` requests leave within any ``window`` seconds: a sliding
window, so that whichever way Discord's own one-second windows fall, none of them holds more than the
limit. The window is stretched by ``slack`` seconds because a request reaches Discord a little later
than it leaves, by a delay that varies from one request to the next. A request that finds no room waits
its turn, the most important first (:class:`Priority`): tables of games waiting on a human, then tables
only computers play, then turn pings, then clean-up (deletions). Requests of one priority go in the
order they came.

A fleet shares one budget by giving each process a share (:func:`share`) in proportion to its shards:
every process of a bot runs with the same ``SHARD_COUNT``, so the shares add up to the budget without
the processes talking to each other.

Wiring: :func:`trace_config` is an :class:`aiohttp.TraceConfig` for discord.py's documented
``http_trace`` option (``discord.Client(http_trace=...)``). aiohttp awaits its request-start hook
before each request is sent — every REST request, every retry, and the interaction answers that
travel on the same session — so the budget sees exactly what Discord counts. A request may still wait
after its turn (a name lookup, a new connection's set-up, a busy event loop): its slot is counted again
from the moment its headers are sent (:meth:`GlobalBudget.left`), when it truly leaves.
What a request is for is said around it with :func:`priority` (a context variable, so it follows the
request into discord.py); without it, a deletion is clean-up and anything else a table's.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
import re
from collections import deque
from collections.abc import Callable, Iterator
from enum import IntEnum
from typing import Any

import aiohttp

from bot.clock import Clock, MonotonicClock


class Priority(IntEnum):
    """Which requests go first when there is no room for all: the lower, the sooner."""

    HUMAN_TABLE = 0
    """A table (or lobby) whose game waits on a human, and anything not said otherwise."""
    COMPUTER_TABLE = 1
    """A table only computer players are moving on."""
    PING = 2
    """A turn ping or a timer warning."""
    CLEAN_UP = 3
    """Deleting what is no longer needed: old pings, warnings, reposted tables."""


SLACK = 0.25
"""Seconds added to Discord's one-second window (see the module's docstring): a request that waits on
a busy event loop on either side arrives that much later than the one sent after it."""
MIN_WAIT = 0.001
"""The shortest wait for a slot, so that rounding can never make it a wait of no time at all."""


def share(budget: float, shard_ids: tuple[int, ...] | None, shard_count: int | None) -> float:
    """This process's part of the bot's budget: all of it alone, else in proportion to its shards."""
    if not shard_ids or not shard_count:
        return budget
    return budget * len(shard_ids) / shard_count


class Slot:
    """One request's place in the window: when it left."""

    __slots__ = ("at",)

    def __init__(self, at: float) -> None:
        self.at = at


class GlobalBudget:
    """At most ``per_second`` requests a second, as a sliding window; waiting requests by priority."""

    def __init__(
        self, per_second: float, *, clock: Clock | None = None, window: float = 1.0, slack: float = SLACK
    ) -> None:
        if per_second <= 0:
            raise ValueError("a budget needs more than 0 requests a second")
        self.clock = clock or MonotonicClock()
        self.window = window + slack
        self.limit = max(1, int(per_second * window))
        self._sent: deque[Slot] = deque()  # the requests within the window, oldest first
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._dispatcher: asyncio.Task[None] | None = None
        self.waited = 0  # requests that found no room and waited their turn

    def _room(self, now: float) -> float:
        """0 if a request may leave now, else the seconds until one may."""
        sent = self._sent
        while sent and sent[0].at + self.window <= now:
            sent.popleft()
        return 0.0 if len(sent) < self.limit else max(sent[0].at + self.window - now, MIN_WAIT)

    async def acquire(self, priority: Priority = Priority.HUMAN_TABLE) -> Slot:
        """Return once the request may leave, and count it as sent; its slot, for :meth:`left`."""
        now = self.clock.now()
        if not self._waiting and self._room(now) == 0.0:
            slot = Slot(now)
            self._sent.append(slot)
            return slot
        self.waited += 1
        turn: asyncio.Future[Slot] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, (priority, next(self._order), turn))
        if self._dispatcher is None or self._dispatcher.done():
            self._dispatcher = asyncio.create_task(self._dispatch())
        return await turn

    def left(self, slot: Slot) -> None:
        """The request of ``slot`` left only now: it holds its slot a window from now, as the newest."""
        now = self.clock.now()
        if now <= slot.at:
            return
        with contextlib.suppress(ValueError):  # ValueError: its window was over already
            self._sent.remove(slot)
        slot.at = now
        self._sent.append(slot)

    async def _dispatch(self) -> None:
        """Hand out each slot as it frees to the most important waiting request."""
        while self._waiting:
            now = self.clock.now()
            wait = self._room(now)
            if wait > 0:
                await self.clock.sleep(wait)
                continue
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done():  # a request cancelled while it waited takes no slot
                slot = Slot(now)
                self._sent.append(slot)
                turn.set_result(slot)

    def in_use(self) -> int:
        """How many requests left within the last window (the budget is `limit` of them)."""
        self._room(self.clock.now())
        return len(self._sent)

    def waiting(self) -> int:
        return sum(1 for _, _, turn in self._waiting if not turn.done())


_priority: contextvars.ContextVar[Priority | None] = contextvars.ContextVar("discord_priority", default=None)


@contextlib.contextmanager
def priority(level: Priority) -> Iterator[None]:
    """The requests made within (in this task and the tasks it starts) are of ``level``."""
    token = _priority.set(level)
    try:
        yield
    finally:
        _priority.reset(token)


_API = re.compile(r"^/api(?:/v\d+)?(/.*)$")
_CALLBACK = re.compile(r"^/interactions/\d+/[^/]+/callback$")
_INTERACTION_WEBHOOK = re.compile(r"^/webhooks/(\d+)/[^/]+(/messages/(?:@original|\d+))?$")


def bound_by_global_limit(method: str, path: str, application_id: int | None) -> bool | None:
    """Whether a request to ``path`` counts toward the global limit; None: not a REST request at all
    (the gateway, the CDN). Exempt, as Discord documents (interactions/receiving-and-responding,
    "Endpoints"): the interaction callback, and the interaction-token webhook routes of the bot's own
    application — create a followup, get, edit or delete the original response or a followup. A
    channel's webhook has the same path with its own id instead of the application's: it counts."""
    api = _API.match(path)
    if api is None:
        return None
    route = api[1].rstrip("/")
    if method == "POST" and _CALLBACK.match(route):
        return False
    webhook = _INTERACTION_WEBHOOK.match(route)
    if webhook is not None and application_id is not None and int(webhook[1]) == application_id:
        followup = webhook[2] is None
        return not (
            (followup and method == "POST") or (not followup and method in ("GET", "PATCH", "DELETE"))
        )
    return True


def priority_of(method: str) -> Priority:
    """A request's priority: as said with :func:`priority`, else clean-up for a deletion, else a table's."""
    said = _priority.get()
    if said is not None:
        return said
    return Priority.CLEAN_UP if method == "DELETE" else Priority.HUMAN_TABLE


def trace_config(budget: GlobalBudget, application_id: Callable[[], int | None]) -> aiohttp.TraceConfig:
    """The hook for ``discord.Client(http_trace=...)``: every REST request bound by the global limit
    waits for ``budget`` before it leaves; ``application_id`` tells the bot's own interaction webhooks
    (``lambda: client.application_id``: known once logged in)."""

    async def on_request_start(session: Any, context: Any, params: aiohttp.TraceRequestStartParams) -> None:
        method = params.method.upper()
        context.budget_slot = None
        if bound_by_global_limit(method, params.url.path, application_id()):
            context.budget_slot = await budget.acquire(priority_of(method))

    async def on_request_headers_sent(session: Any, context: Any, params: Any) -> None:
        slot = getattr(context, "budget_slot", None)
        if slot is not None:
            budget.left(slot)

    config = aiohttp.TraceConfig()
    config.on_request_start.append(on_request_start)
    config.on_request_headers_sent.append(on_request_headers_sent)
    return config
