"""Which gateway shards, and so which guilds and games, this process runs; and the pace of IDENTIFYs.

Discord sends each guild's events to one shard, `(guild_id >> 22) % shard_count`, and direct
messages to shard 0. A game belongs to the process running its guild's shard: only that process
resumes it, runs its timers, computer players and table refreshes, and applies clicks on it.
"""

from __future__ import annotations

import asyncio
import fcntl
import time
from dataclasses import dataclass
from pathlib import Path

IDENTIFY_WINDOW = 5.5
"""Seconds between two IDENTIFYs of one identify bucket: Discord's 5 s, and half a second so that
network jitter never makes two of them arrive closer than that."""


GATEWAY_REFUSALS = {
    4010: "Discord refused a shard: SHARD_IDS must lie within SHARD_COUNT",
    4011: "Discord requires more shards: raise SHARD_COUNT, or leave it unset for Discord's recommendation",
}
"""Gateway close codes that no reconnect can mend, and what to change."""


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends a guild's events to; direct messages (no guild) go to shard 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """`"0,2,5-7"` → (0, 2, 5, 6, 7): shard ids and inclusive ranges, comma-separated, sorted."""
    ids: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        first, dash, last = part.partition("-")
        if not first.strip().isdigit() or (dash and not last.strip().isdigit()):
            raise ValueError(f"{part!r} is not a shard id or a range like 0-3")
        low, high = int(first), int(last) if dash else int(first)
        if high < low:
            raise ValueError(f"the range {part!r} runs backwards")
        ids.update(range(low, high + 1))
    return tuple(sorted(ids))


def describe_ids(ids: tuple[int, ...] | list[int]) -> str:
    """(0, 1, 2, 5) → "0-2,5": the form `SHARD_IDS` takes."""
    runs: list[list[int]] = []
    for shard_id in sorted(ids):
        if runs and runs[-1][1] == shard_id - 1:
            runs[-1][1] = shard_id
        else:
            runs.append([shard_id, shard_id])
    return ",".join(str(low) if low == high else f"{low}-{high}" for low, high in runs)


@dataclass(frozen=True)
class ShardPlan:
    """The shards this process runs, out of `shard_count`."""

    shard_ids: tuple[int, ...]
    shard_count: int
    lease_seconds: float = 60.0
    """How long the leases of this process's games last between renewals (storage/coordination.py)."""

    @classmethod
    def everything(cls) -> ShardPlan:
        """One shard, all guilds: a process that is the whole bot."""
        return cls((0,), 1)

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of `guild_id`, and so that guild's games."""
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    def __str__(self) -> str:
        ids = describe_ids(self.shard_ids)
        return f"shard{'s' if len(self.shard_ids) > 1 else ''} {ids} of {self.shard_count}"


def split_shards(shard_count: int, processes: int) -> list[tuple[int, ...]]:
    """`shard_count` shards in `processes` contiguous, disjoint ranges as even as they can be."""
    if not 1 <= processes <= shard_count:
        raise ValueError(f"{processes} processes cannot share {shard_count} shards")
    size, extra = divmod(shard_count, processes)
    ranges, start = [], 0
    for index in range(processes):
        end = start + size + (1 if index < extra else 0)
        ranges.append(tuple(range(start, end)))
        start = end
    return ranges


class IdentifyGate:
    """Paces IDENTIFYs as Discord allows: `max_concurrency` buckets (`shard_id % max_concurrency`),
    one IDENTIFY per bucket every `window` seconds.

    discord.py's own default waits 5 s before every IDENTIFY but the first, whatever the bot's
    `max_concurrency`; a large bot with a concurrency of 16 starts 16 shards at a time with this.
    With a `folder`, the processes of one machine share the buckets: each bucket's last IDENTIFY
    is a timestamp in a file there, read and written under a lock (`catnip fleet` gives its
    processes one folder).
    """

    def __init__(
        self, max_concurrency: int, window: float = IDENTIFY_WINDOW, folder: Path | None = None
    ) -> None:
        self.max_concurrency = max(1, max_concurrency)
        self.window = window
        self.folder = folder
        self._free_at: dict[int, float] = {}

    async def wait(self, shard_id: int | None) -> None:
        """Return once shard `shard_id` may IDENTIFY; its bucket's next slot is taken meanwhile."""
        bucket = (shard_id or 0) % self.max_concurrency
        if self.folder is not None:
            await asyncio.to_thread(self._take_shared_slot, self.folder / f"identify-{bucket}")
            return
        now = asyncio.get_running_loop().time()
        start = max(now, self._free_at.get(bucket, now))
        self._free_at[bucket] = start + self.window
        if start > now:
            await asyncio.sleep(start - now)

    def _take_shared_slot(self, path: Path) -> None:
        with path.open("a+") as file:
            fcntl.flock(file, fcntl.LOCK_EX)  # released when the file closes
            file.seek(0)
            text = file.read().strip()
            delay = (float(text) if text else 0.0) + self.window - time.time()
            if delay > 0:
                time.sleep(delay)
            file.seek(0)
            file.truncate()
            file.write(repr(time.time()))
