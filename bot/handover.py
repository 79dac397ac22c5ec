"""Changing a fleet's shard count while its games go on: a fleet of the new count stands by beside the
old one, then takes the games over at a moment every process knows beforehand.

Discord routes each guild's events, clicks and commands included, to every gateway session whose shard
covers the guild by that session's own shard count, so while a new fleet connects beside the old one
both hear every click. The database holds the fleet's layout (`ShardLayout`, storage/coordination.py): the
shard count in charge, the one before it, and since when; and the shards each fleet has connected, as
its processes say every `POLL_SECONDS` (for `CONNECTED_FOR` seconds: a process gone without a word is
forgotten after that). A process of a fleet whose count is not in charge stands by: connected, it
answers nothing and runs no game. When every shard of its count is connected, the layout changes hands
`TAKE_OVER_AFTER` seconds ahead, so that every process, reading the layout every `POLL_SECONDS`, knows
the moment before it comes. When the fleet in charge has no shard connected any more (it was stopped
before the new one started, or died), the new one takes over at once, at its start if it can.

Each click or command is answered by exactly one process: by the old fleet if it was made before the
moment (its id carries Discord's time), by the new one if after.
At the moment the old processes stop running games (the clicks they are answering are answered, table
updates and pings finished and noted, leases released), and the new ones take each game as soon as its
lease is free; a click on a game not taken yet is told to try again in a moment. The old processes
stay connected, answering nothing, until they are stopped. Standing by and stopped processes make no
requests to Discord, so the fleets share its global rate limit as if only the one in charge ran.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from bot.sharding import ShardPlan
from bot.storage import GameStore, StoreUnavailable
from bot.storage.coordination import ShardLayout

log = logging.getLogger("catnip.handover")

POLL_SECONDS = 1.0
"""How often each process of a fleet reads the layout (and says its shards are still connected)."""
TAKE_OVER_AFTER = 3.0
"""Seconds between the layout changing hands in the database and the moment it takes effect: every
process reads it within `POLL_SECONDS`, with time to spare for a slow read."""
CONNECTED_FOR = 10.0
"""Seconds a process's word that its shards are connected lasts unless it says it again."""


class Handover:
    """This process's part in its fleet's layout: whether it answers a click, runs games, or stands by."""

    def __init__(self, store: GameStore, plan: ShardPlan, *, wall: Callable[[], float] = time.time) -> None:
        self.store = store
        self.plan = plan
        self.wall = wall
        self.layout: ShardLayout | None = None
        """None until `join` (a process that is not part of a fleet never joins): in charge of everything."""
        self.handed_over = False
        """Whether this process has handed its games over to a fleet of another count (then it no longer
        says its shards are connected: only a fleet started anew could take the games back)."""

    async def join(self) -> None:
        """Read the fleet's layout (recording this process's count as in charge if none is yet, or if the
        fleet in charge has no shard connected any more)."""
        self.layout = await self.store.coordination.join_layout(self.plan.shard_count, now=self.wall())

    async def leave(self) -> None:
        """Say this process's shards are no longer connected (it stops)."""
        await self.store.coordination.say_disconnected(self.plan.shard_count, self.plan.shard_ids)

    def in_charge(self, at: float) -> bool:
        """Whether this process answers a click or command made at `at` (Discord's time)."""
        return self.layout is None or self.layout.in_charge(self.plan.shard_count, at)

    def running(self) -> bool:
        """Whether this process runs its shards' games now (its count is in charge)."""
        return self.in_charge(self.wall())

    def describe(self) -> str:
        """Who runs the games, for the logs."""
        layout = self.layout
        return "nobody yet" if layout is None else f"the fleet of {layout.shard_count} shards"

    async def follow(
        self,
        *,
        connected: Callable[[], bool],
        take_over: Callable[[], Awaitable[None]],
        hand_over: Callable[[], Awaitable[None]],
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        """Until cancelled: every `POLL_SECONDS`, say whether this process's shards are all `connected`
        and read the layout; at the moment this process's count takes charge, `take_over`; at the
        moment another count does, `hand_over`."""
        running = self.running()
        while True:
            try:
                if connected() and not self.handed_over:
                    self.layout = await self.store.coordination.say_connected(
                        self.plan.shard_count,
                        self.plan.shard_ids,
                        now=self.wall(),
                        for_seconds=CONNECTED_FOR,
                        take_over_after=TAKE_OVER_AFTER,
                        standing_by=not running,
                    )
                else:
                    self.layout = await self.store.coordination.shard_layout() or self.layout
            except StoreUnavailable:
                pass  # the store tells of the outage; the layout is read again at the next round
            except Exception:
                log.exception("could not read the fleet's shard layout; trying again in a moment")
            wait = POLL_SECONDS
            if self.layout is not None and self.layout.since > self.wall():
                wait = min(wait, self.layout.since - self.wall())
            await sleep(max(wait, 0.0))
            now_running = self.running()
            if now_running and not running:
                self.handed_over = False
                await take_over()
            elif running and not now_running:
                self.handed_over = True
                await hand_over()
                await self._leave_quietly()
            running = now_running

    async def _leave_quietly(self) -> None:
        with contextlib.suppress(StoreUnavailable):  # else its word runs out by itself (`CONNECTED_FOR`)
            await self.leave()
