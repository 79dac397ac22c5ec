"""`ClicksInFlight`: how many clicks the bot is handling at once, and whether a new one should be turned
away.

Discord fails a click not answered within 3 s. A bot given more clicks a second than one core can
play falls further behind with every second: each click waits behind the work of the clicks before
it, until every click misses the deadline (docs/performance.md, "Open loop up to 1,000 games").
With more than `MOST_CLICKS_IN_FLIGHT` clicks under way, the play cog answers a new
one at once with a short "try again in a moment" instead of playing it: a refusal costs one request
and no drawing, saving or table, so the bot catches up and the clicks it does take are answered in
time.

Why a count and not a clock: the clicks under way are the work queued ahead of the next one (at a
steady rate, their number is the rate times the wait: Little's law), they need no clock that tests
move by hand, and a single slow step (a garbage collection) does not turn anybody away.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from prometheus_client import Gauge

MOST_CLICKS_IN_FLIGHT = 96
"""Clicks under way past which a new one is turned away. A bot within its core has a few under way, a
bot playing 100 tables flat out up to about as many (docs/performance.md); at 96 a new click waits
behind well under a second of its core's work."""


class ClicksInFlight:
    """The clicks being handled now (`count`), each from its arrival until it is handled; shown by
    `gauge` when given (bot/metrics.py)."""

    def __init__(self, gauge: Gauge | None = None, most: int = MOST_CLICKS_IN_FLIGHT) -> None:
        self.most = most
        self.count = 0
        if gauge is not None:
            gauge.set_function(lambda: self.count)

    @contextmanager
    def handling(self) -> Iterator[None]:
        """Count one click while inside."""
        self.count += 1
        try:
            yield
        finally:
            self.count -= 1

    def busy(self) -> bool:
        """Whether the click being handled, counted among them, is one too many."""
        return self.count > self.most
