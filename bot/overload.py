"""`ClicksInFlight`: the clicks the bot is handling, each with when it came: how many are under way, whether
a new one should be turned away, and how long the oldest has waited.

Discord fails a click not answered within 3 s. A bot given more clicks a second than one core can
play falls further behind with every second: each click waits behind the work of the clicks before
it, until every click misses the deadline (docs/performance.md, "Open loop up to 1,000 games").
With more than `MOST_CLICKS_IN_FLIGHT` clicks under way, the play cog answers a new
one at once with a short "try again in a moment" instead of playing it: a refusal costs one request
and no drawing, saving or table, so the bot catches up and the clicks it does take are answered in
time.

Why a count and not a clock: the clicks under way are the work queued ahead of the next one (at a
steady rate, their number is the rate times the wait: Little's law), and a single slow step (a
garbage collection) does not turn anybody away.

The same book tells the table presenter how long the oldest click has waited
(`waited_longest`): it holds the tables back while one waits too long (cogs/play/_presenter.py).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import Gauge

from bot.clock import Clock, MonotonicClock

CLICK_DEADLINE = 3.0
"""Discord's time to answer a click (Receiving and Responding to Interactions: "you must send an
initial response within 3 seconds"); a click waiting longer is past saving."""

MOST_CLICKS_IN_FLIGHT = 96
"""Clicks under way past which a new one is turned away. A bot within its core has a few under way, a
bot playing 100 tables flat out up to about as many (docs/performance.md); at 96 a new click waits
behind well under a second of its core's work."""


class ClicksInFlight:
    """The clicks being handled now, each from its arrival until it is handled, and when each came (by
    `clock`, the monotonic clock unless a test moves one by hand); their number shown by `gauge` when
    given (bot/metrics.py)."""

    def __init__(
        self, gauge: Gauge | None = None, most: int = MOST_CLICKS_IN_FLIGHT, clock: Clock | None = None
    ) -> None:
        self.most = most
        self.clock: Clock = clock or MonotonicClock()
        self._arrivals: dict[int, float] = {}  # oldest first
        self._ids = itertools.count()
        if gauge is not None:
            gauge.set_function(lambda: self.count)

    @property
    def count(self) -> int:
        return len(self._arrivals)

    def arrived(self) -> int:
        """Note a click to handle; the token for `handled`."""
        token = next(self._ids)
        self._arrivals[token] = self.clock.now()
        return token

    def handled(self, token: int) -> None:
        self._arrivals.pop(token, None)

    @contextmanager
    def handling(self) -> Iterator[None]:
        """Count one click while inside."""
        token = self.arrived()
        try:
            yield
        finally:
            self.handled(token)

    def busy(self) -> bool:
        """Whether the click being handled, counted among them, is one too many."""
        return self.count > self.most

    def waited_longest(self, within: float) -> float:
        """How long the oldest click under way that has waited less than `within` seconds has waited;
        0 when there is none. A click past `within` (Discord's deadline) is past saving: it still
        counts as work under way, but nothing waits for it."""
        now = self.clock.now()
        for since in self._arrivals.values():
            waited = now - since
            if waited < within:
                return waited
        return 0.0
