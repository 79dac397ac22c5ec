"""A shard has one owner: the process that claimed it in the shared database, for as long as it keeps
saying so (storage/coordination.py, `ShardOwners`).

Two processes running the same shard would both answer every click of its servers. So before its
shards connect, a process claims them, all or none: each one free, or held by nobody any more (its
hold ran out, or its process is gone: on the same machine, a pid no longer running). A shard held by
another process is watched for up to one hold (`HOLD_SECONDS`): if that process renews its hold
meanwhile, it is alive and this process refuses to start (`ShardsTaken`, exit code 4, one line naming
the other process); if it lets the hold run out or gives it up (a process stopping), this one takes
over then. While running, a process renews its hold every `RENEW_EVERY_SECONDS`; should it find
another process has taken one of its shards (its own hold ran out while its event loop or the
database was stuck), it stops the same way, so that a shard never has two owners for longer than
one renewal. A clean stop gives the shards up at once.

The owner is a process: an earlier bot of this very process (as a test restarts one in place) counts
as gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable, Sequence

from bot.sharding import ShardPlan, describe_ids
from bot.storage import GameStore, StoreUnavailable
from bot.storage.coordination import ShardHolder

log = logging.getLogger("catnip.shards")

HOLD_SECONDS = 10.0
"""How long a process's claim on its shards lasts unless it renews it."""
RENEW_EVERY_SECONDS = 2.0
"""How often a running process renews its claim: several times within one hold."""
LOOK_EVERY_SECONDS = 0.5
"""How often a process waiting for a shard held by another process looks again."""


def this_machine() -> str:
    """What tells this machine's processes from others': its host name, and on Linux its process-id
    namespace (containers on one host may share a host name, never a pid namespace)."""
    host = socket.gethostname()
    with contextlib.suppress(OSError):
        return f"{host}/{os.stat('/proc/self/ns/pid').st_ino}"
    return host


def running_here(pid: int) -> bool:
    """Whether process `pid` of this machine still runs (a zombie, dead but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    with contextlib.suppress(OSError, IndexError), open(f"/proc/{pid}/stat") as stat:
        return stat.read().rpartition(")")[2].split()[0] != "Z"
    return True


class ShardsTaken(Exception):
    """Another live process runs some of this process's shards; `str(error)` says which and what to do."""

    def __init__(self, plan: ShardPlan, holders: Sequence[ShardHolder], *, here: str, running: bool) -> None:
        self.plan = plan
        self.holders = list(holders)
        ids = [holder.shard_id for holder in holders] or list(plan.shard_ids)
        shards = f"shard{'s' if len(ids) > 1 else ''} {describe_ids(ids)} of {plan.shard_count}"
        other = "another Catnip process"
        if holders:
            where = "this machine" if holders[0].machine == here else holders[0].machine.split("/")[0]
            other += f" (pid {holders[0].pid} on {where})"
        what = "took over" if running else "runs"
        super().__init__(
            f"SHARD_IDS: {other} {what} {shards}: stop it, or give each process its own SHARD_IDS "
            "(one fleet per SHARD_COUNT)"
        )


class ShardOwner:
    """Claims, keeps and gives up this process's shards."""

    def __init__(
        self,
        store: GameStore,
        plan: ShardPlan,
        *,
        wall: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        pid: int | None = None,
        machine: str | None = None,
    ) -> None:
        self.store = store
        self.plan = plan
        self.wall = wall
        self.sleep = sleep
        self.pid = os.getpid() if pid is None else pid
        self.machine = this_machine() if machine is None else machine
        self.held = False

    def _gone(self, holder: ShardHolder) -> bool:
        """Whether `holder`'s process is known to be gone: one of this machine no longer running, or
        this very process (an earlier bot of it)."""
        if holder.machine != self.machine:
            return False
        return holder.pid == self.pid or not running_here(holder.pid)

    async def claim(self) -> None:
        """Hold every shard of the plan, waiting up to one hold for a holder that may be gone; raise
        `ShardsTaken` if another process keeps renewing its hold on any of them."""
        first_seen: dict[str, float] = {}
        gone: set[str] = set()
        said = False
        while True:
            try:
                holders = await self._claim(gone)
            except StoreUnavailable:  # the store tells of the outage
                await self.sleep(LOOK_EVERY_SECONDS)
                continue
            if not holders:
                self.held = True
                return
            newly_gone = {holder.token for holder in holders if self._gone(holder)} - gone
            if newly_gone:
                gone |= newly_gone
                log.info("%s: the process that ran them is gone; taking them over", self.plan)
                continue
            renewed = [h for h in holders if h.held_until > first_seen.setdefault(h.token, h.held_until)]
            if renewed:
                raise ShardsTaken(self.plan, holders, here=self.machine, running=False)
            if not said:
                said = True
                log.info(
                    "%s: held by pid %d for %.1f s more; waiting to see whether it still runs",
                    self.plan, holders[0].pid, max(0.0, holders[0].held_until - self.wall()),
                )  # fmt: skip
            await self.sleep(LOOK_EVERY_SECONDS)

    async def _claim(self, gone: set[str]) -> list[ShardHolder]:
        return await self.store.coordination.claim_shards(
            self.plan.shard_count,
            self.plan.shard_ids,
            machine=self.machine,
            pid=self.pid,
            now=self.wall(),
            for_seconds=HOLD_SECONDS,
            gone=sorted(gone),
        )

    async def keep(self) -> None:
        """Until cancelled, renew the hold every `RENEW_EVERY_SECONDS`; raise `ShardsTaken` once another
        process has taken a shard of this one's."""
        while True:
            await self.sleep(RENEW_EVERY_SECONDS)
            try:
                lost = await self.store.coordination.renew_shards(
                    self.plan.shard_count, self.plan.shard_ids, now=self.wall(), for_seconds=HOLD_SECONDS
                )
            except StoreUnavailable:
                continue  # the store tells of the outage; renewed at the next round
            if lost:
                self.held = False
                holders = await self.store.coordination.shard_holders(self.plan.shard_count, lost)
                raise ShardsTaken(self.plan, holders, here=self.machine, running=True)

    async def release(self) -> None:
        """Give the shards up (a clean stop), so that the next process of them starts at once."""
        if self.held:
            self.held = False
            with contextlib.suppress(StoreUnavailable):  # else the hold runs out by itself
                await self.store.coordination.release_shards(self.plan.shard_count, self.plan.shard_ids)
