"""A shard has one owner (bot/shard_owners.py), on both backends: a process whose shards another live
process holds refuses to start, one whose holder is gone takes over, at once when it can tell."""

from __future__ import annotations

import subprocess

import pytest

from bot.shard_owners import HOLD_SECONDS, RENEW_EVERY_SECONDS, ShardOwner, ShardsTaken
from bot.sharding import ShardPlan

HERE = "host-a/1"
THERE = "host-b/1"


class Wall:
    """The wall clock of the processes of a test: moves only when a waiting owner sleeps."""

    def __init__(self) -> None:
        self.now = 1_000_000.0
        self.slept: list[float] = []
        self.meanwhile = None
        """What the other processes do while one waits (a coroutine function), if anything."""

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds
        if self.meanwhile is not None:
            await self.meanwhile()


def owner(store, wall: Wall, ids, count=4, *, pid=100, machine=HERE) -> ShardOwner:
    plan = ShardPlan(tuple(ids), count)
    return ShardOwner(store, plan, wall=wall, sleep=wall.sleep, pid=pid, machine=machine)


def dead_pid() -> int:
    """The pid of a process of this machine that has ended (and been reaped)."""
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


async def test_a_process_whose_shards_a_live_process_renews_refuses_to_start_holding_nothing(store, reopen):
    wall = Wall()
    first = owner(store, wall, [0, 1], pid=100, machine=THERE)
    await first.claim()
    other = reopen(store)
    await other.open()
    try:
        overlapping = owner(other, wall, [1, 2], pid=200)

        async def first_renews() -> None:
            await store.coordination.renew_shards(4, [0, 1], now=wall.now, for_seconds=HOLD_SECONDS)

        wall.meanwhile = first_renews
        with pytest.raises(ShardsTaken) as refused:
            await overlapping.claim()
        assert str(refused.value) == (
            "SHARD_IDS: another Catnip process (pid 100 on host-b) runs shard 1 of 4: stop it, or give "
            "each process its own SHARD_IDS (one fleet per SHARD_COUNT)"
        )
        assert sum(wall.slept) <= RENEW_EVERY_SECONDS, "told as soon as the holder renews"
        # All or none: shard 2, free, was not kept by the process that refused to start.
        wall.meanwhile = None
        await owner(other, wall, [2], pid=300, machine=THERE).claim()
        assert wall.slept == [0.5], "shard 2 taken at its first try, with no wait more"
        # Another shard count is another fleet (a move to a new count): no conflict.
        await owner(other, wall, [0, 1, 2], count=3, pid=400).claim()
    finally:
        await other.close()


async def test_a_hold_no_longer_renewed_is_taken_once_it_runs_out(store, reopen):
    wall = Wall()
    await owner(store, wall, [0, 1], machine=THERE).claim()  # then never renewed: a machine gone
    other = reopen(store)
    await other.open()
    try:
        start = wall.now
        await owner(other, wall, [0, 1], pid=200).claim()
        assert HOLD_SECONDS <= wall.now - start <= HOLD_SECONDS + 1
        assert await store.coordination.shard_holders(4, [0, 1]) != [], "the first instance holds none now"
        with pytest.raises(ShardsTaken) as lost:
            await owner(store, wall, [0, 1], machine=THERE).keep()
        assert "pid 200 on host-a) took over shards 0-1 of 4" in str(lost.value)
    finally:
        await other.close()


async def test_a_holder_of_this_machine_no_longer_running_is_taken_over_at_once(store, reopen):
    wall = Wall()
    await owner(store, wall, [0, 1, 2, 3], pid=dead_pid()).claim()
    other = reopen(store)
    await other.open()
    try:
        await owner(other, wall, [0, 1, 2, 3], pid=200).claim()
        assert wall.slept == []
    finally:
        await other.close()


async def test_a_clean_stop_gives_the_shards_up_at_once(store, reopen):
    wall = Wall()
    first = owner(store, wall, [0, 1], machine=THERE)
    await first.claim()
    await first.release()
    other = reopen(store)
    await other.open()
    try:
        await owner(other, wall, [0, 1], pid=200).claim()
        assert wall.slept == []
        with pytest.raises(ShardsTaken):  # the one that stopped runs nothing any more
            await owner(store, wall, [0], machine=THERE).keep()
    finally:
        await other.close()
