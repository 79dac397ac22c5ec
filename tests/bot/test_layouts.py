"""The fleet's shard layout on both backends: recorded by the first fleet, handed to a fleet of another
shard count once all its shards are connected (at once when the fleet in charge has none connected any
more), and who answers a click on either side of the moment (bot/handover.py)."""

from __future__ import annotations

from bot.storage.coordination import ShardLayout
from tests.bot.test_leases import LEASE, guild_on, processes
from tests.bot.test_storage import started_game

ALIVE = 10.0


async def connected(store, count, shards, now, *, standing_by=True):
    return await store.coordination.say_connected(
        count, shards, now=now, for_seconds=ALIVE, take_over_after=3.0, standing_by=standing_by
    )


async def test_a_fleet_takes_over_from_a_running_one_once_all_its_shards_are_connected(store):
    assert await store.coordination.shard_layout() is None
    assert await store.coordination.join_layout(4, now=90.0) == ShardLayout(4, None, 0.0)
    assert await connected(store, 4, [0, 1, 2, 3], 95.0, standing_by=False) == ShardLayout(4, None, 0.0)
    assert await store.coordination.join_layout(3, now=96.0) == ShardLayout(4, None, 0.0), (
        "the old fleet is connected"
    )

    # Two of three shards connected, one whose word ran out: the old count stays in charge.
    assert await connected(store, 3, [0], 95.0) == ShardLayout(4, None, 0.0)
    assert (await connected(store, 3, [1], 100.0)).shard_count == 4
    await connected(store, 4, [0, 1, 2, 3], 104.0, standing_by=False)
    assert (await connected(store, 3, [2], 106.0)).shard_count == 4
    # Shard 0 says it again: all three are connected, and take over three seconds later.
    taken = await connected(store, 3, [0], 107.0)
    assert taken == ShardLayout(3, 4, 110.0)
    assert await connected(store, 3, [1], 108.0) == taken, "once"
    assert await connected(store, 4, [0, 1, 2, 3], 108.0, standing_by=False) == taken, "the old fleet runs on"
    # A fleet of the old count started anew (the old one stopped): it takes the games back.
    assert await connected(store, 4, [0, 1, 2, 3], 109.0) == ShardLayout(4, 3, 112.0)


async def test_a_fleet_takes_over_at_once_from_one_that_has_no_shard_connected(store):
    await store.coordination.join_layout(4, now=90.0)
    await connected(store, 4, [0, 1], 91.0, standing_by=False)
    await connected(store, 4, [2, 3], 91.0, standing_by=False)
    await store.coordination.say_disconnected(4, [0, 1])
    assert (await store.coordination.join_layout(3, now=92.0)).shard_count == 4, (
        "shards 2-3 are still connected"
    )
    await store.coordination.say_disconnected(4, [2, 3])
    assert await store.coordination.join_layout(3, now=93.0) == ShardLayout(3, 4, 93.0), (
        "a restart with a new count"
    )
    # Gone without a word: after its word ran out.
    await connected(store, 3, [0], 94.0, standing_by=False)
    assert await connected(store, 5, [0], 95.0) == ShardLayout(3, 4, 93.0)
    assert await connected(store, 5, [0], 104.5) == ShardLayout(5, 3, 104.5)


def test_each_click_is_answered_by_one_count_the_old_before_the_moment_the_new_after():
    layout = ShardLayout(3, 4, 116.0)
    assert [layout.in_charge(4, at) for at in (115.9, 116.0)] == [True, False]
    assert [layout.in_charge(3, at) for at in (115.9, 116.0)] == [False, True]
    assert not layout.in_charge(5, 115.0) and not layout.in_charge(5, 117.0), "a third count never answers"


async def test_the_games_held_elsewhere_are_counted_until_released_or_expired(store, reopen):
    on_0 = await started_game(store, guild_id=guild_on(0), seed=1)
    await started_game(store, guild_id=guild_on(1), seed=2)
    async with processes(reopen, store, "shards 0-1 of 2", "shard 0 of 1") as (old, new):
        await old.coordination.claim_games(shard_ids=[0, 1], shard_count=2, lease_seconds=LEASE, now=100.0)
        assert await new.coordination.held_elsewhere([0], 1, now=120.0) == 2
        assert await old.coordination.held_elsewhere([0, 1], 2, now=120.0) == 0, "its own are not elsewhere"
        assert await new.coordination.held_elsewhere([0], 1, now=161.0) == 0, "an expired lease holds nothing"
        await old.coordination.release_games()
        assert await new.coordination.held_elsewhere([0], 1, now=120.0) == 0
        taken = await new.coordination.claim_games(
            shard_ids=[0], shard_count=1, lease_seconds=LEASE, now=121.0
        )
        assert on_0.id in [game.id for game in taken]
