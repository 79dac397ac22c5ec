"""What a process says while something it cannot run without (the database, Discord) is away, and how
it waits for it to come back.

An outage is expected: a database restarts, a network drops. It is logged as an operator wants to
read it: one WARNING when it begins, one a minute while it lasts, one when it ends, each one line
and never a traceback, however many calls failed meanwhile.

discord.py and aiohttp are imported only to tell a Discord outage (`is_discord_outage`): the store and
the fleet's own process wait for outages here without loading them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

SAY_EVERY_SECONDS = 60.0
FIRST_RETRY_SECONDS = 1.0
LONGEST_RETRY_SECONDS = 30.0


class OutageLog:
    """The outages of one dependency (`what`, as an operator knows it, e.g. "the database
    (DATABASE_URL postgresql://catnip:***@db/catnip)"), told on `logger` by the clock `now`."""

    def __init__(
        self,
        what: str,
        logger: logging.Logger,
        *,
        now: Callable[[], float] = time.time,
        every: float = SAY_EVERY_SECONDS,
    ) -> None:
        self.what = what
        self.logger = logger
        self.now = now
        self.every = every
        self.since: float | None = None
        """When the current outage began; None while the dependency answers."""
        self._said_at = 0.0
        self.outages = 0
        """How many outages began since the process started."""

    @property
    def down(self) -> bool:
        return self.since is not None

    def failed(self, reason: BaseException | str) -> None:
        """A call failed because the dependency is away: said when the outage begins and each minute."""
        now = self.now()
        text = reason if isinstance(reason, str) else describe(reason)
        if self.since is None:
            self.since = self._said_at = now
            self.outages += 1
            self.logger.warning("%s cannot be reached (%s); waiting for it", self.what, text)
        elif now - self._said_at >= self.every:
            self._said_at = now
            waited = now - self.since
            self.logger.warning("%s still cannot be reached after %d s (%s)", self.what, waited, text)

    def answered(self) -> None:
        """A call went through: the end of the outage, if there was one, is said."""
        if self.since is not None:
            self.logger.warning("%s is back after %d s", self.what, self.now() - self.since)
            self.since = None


def is_discord_outage(error: BaseException) -> bool:
    """Whether `error` says Discord (or the way to it) is away, rather than refusing the request."""
    import aiohttp
    import discord

    return isinstance(
        error, aiohttp.ClientConnectionError | OSError | asyncio.TimeoutError | discord.DiscordServerError
    )


def describe(error: BaseException) -> str:
    """An error in one line: its text, else its kind."""
    text = " ".join(str(error).split())
    return text or type(error).__name__


async def wait_until_up(
    attempt: Callable[[], Awaitable[T]],
    outage: OutageLog,
    *,
    is_outage: Callable[[BaseException], bool],
    sleep: Callable[[float], Awaitable[None]],
) -> T:
    """`attempt()`'s result, retried after 1 s, 2 s, 4 s … (at most 30 s) for as long as it fails with an
    outage (`is_outage`); any other error is raised at once."""
    delay = FIRST_RETRY_SECONDS
    while True:
        try:
            result = await attempt()
        except Exception as error:
            if not is_outage(error):
                raise
            outage.failed(error.__cause__ or error)
            await sleep(delay)
            delay = min(delay * 2, LONGEST_RETRY_SECONDS)
            continue
        outage.answered()
        return result
