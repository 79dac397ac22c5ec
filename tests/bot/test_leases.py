"""Who runs which game, on both backends: leases claimed per shard, taken over, released, and every
write fenced, so two processes of a fleet never both apply moves to one game."""

from __future__ import annotations

import contextlib

import pytest

from bot.clock import ManualClock
from bot.errors import Refusal
from bot.sessions import GameService
from bot.sharding import ShardPlan
from bot.storage import Deadline, NotOwner, StaleMove
from bot.storage.coordination import shard_of
from tests.bot.test_storage import member, play_move, started_game

LEASE = 60.0


def guild_on(shard: int) -> int:
    """A guild id whose shard is `shard` (of 2, and of 1)."""
    return (shard << 22) | 12345


@contextlib.asynccontextmanager
async def processes(reopen, store, *owners: str):
    """One store per owner, each as another process would open it on the same database; closed after."""
    opened_stores = [await opened(reopen, store, owner=owner) for owner in owners]
    try:
        yield opened_stores
    finally:
        for each in opened_stores:
            await each.close()


async def opened(reopen, store, **options):
    other = reopen(store, **options)
    await other.open()
    return other


async def test_a_store_that_never_claims_writes_every_game_as_before(store, reopen):
    game = await started_game(store, guild_id=guild_on(1))
    other = await opened(reopen, store)
    try:
        assert (await play_move(other, game.id))[0] == 2
        assert (await play_move(store, game.id))[0] == 3
    finally:
        await other.close()


async def test_claims_take_only_the_live_games_of_their_shards_that_nobody_holds(store, reopen):
    on_0 = await started_game(store, guild_id=guild_on(0), seed=1)
    on_1 = await started_game(store, guild_id=guild_on(1), seed=2)
    lobby = await store.games.create_lobby(
        guild_id=guild_on(0), channel_id=5, thread_id=None, game="yarn", options={}, host=member(0, 1),
        now=1.0,
    )  # fmt: skip
    finished = await started_game(store, guild_id=guild_on(0), seed=3)
    await store.games.set_status(finished.id, "finished", now=2.0)
    async with processes(reopen, store, "shards 0 of 2", "shards 0-1 of 2") as (first, second):
        mine = await first.coordination.claim_games(
            shard_ids=[0], shard_count=2, lease_seconds=LEASE, now=100.0
        )
        assert [g.id for g in mine] == [on_0.id, lobby.id]
        assert shard_of(guild_on(1), 2) == 1
        # The other process asks for both shards: it gets only the game nobody holds.
        theirs = await second.coordination.claim_games(
            shard_ids=[0, 1], shard_count=2, lease_seconds=LEASE, now=110.0
        )
        assert [g.id for g in theirs] == [on_1.id]

        with pytest.raises(NotOwner):
            await play_move(second, on_0.id)
        with pytest.raises(NotOwner):
            await second.games.update_lobby(lobby.id, options={"most": 2}, now=111.0)
        with pytest.raises(NotOwner):
            await second.games.set_status(on_0.id, "abandoned", now=111.0)
        assert (
            await store.games.moves(on_0.id) == []
            and (await store.games.get_game(on_0.id)).status == "active"
        )
        assert (await play_move(first, on_0.id))[0] == 2
        assert (await play_move(second, on_1.id))[0] == 2
        # Renewing keeps what is held.
        again = await first.coordination.claim_games(
            shard_ids=[0], shard_count=2, lease_seconds=LEASE, now=150.0
        )
        assert [g.id for g in again] == [on_0.id, lobby.id]


async def test_an_expired_lease_moves_the_game_and_fences_its_old_owner(store, reopen):
    game = await started_game(store, guild_id=guild_on(1))
    async with processes(reopen, store, "old range", "new range") as (old, new):
        await old.coordination.claim_games(shard_ids=[1], shard_count=2, lease_seconds=LEASE, now=100.0)
        assert (
            await new.coordination.claim_games(
                shard_ids=[0, 1], shard_count=2, lease_seconds=LEASE, now=159.0
            )
            == []
        )
        taken = await new.coordination.claim_games(
            shard_ids=[0, 1], shard_count=2, lease_seconds=LEASE, now=161.0
        )
        assert [g.id for g in taken] == [game.id]
        with pytest.raises(NotOwner) as refused:
            await play_move(old, game.id)
        assert isinstance(refused.value, StaleMove), "callers that refuse a stale move refuse this too"
        with pytest.raises(NotOwner):
            await old.timers.set_deadline(game.id, decision="turn", due=5.0)
        await new.timers.set_deadline(game.id, decision="turn", due=6.0)
        await old.timers.save_deadlines(
            [Deadline(game_id=game.id, decision="old", due=7.0)], cleared=[game.id]
        )
        assert [d.decision for d in await store.timers.deadlines()] == ["turn"], "the old owner's are skipped"
        assert (await play_move(new, game.id))[0] == 2
        assert [m.seq for m in await store.games.moves(game.id)] == [1]


async def test_a_restarted_process_of_the_same_shards_takes_over_at_once(store, reopen):
    game = await started_game(store, guild_id=guild_on(0))
    async with processes(reopen, store, "shards 0 of 1", "shards 0 of 1") as (before, after):
        await before.coordination.claim_games(shard_ids=[0], shard_count=1, lease_seconds=LEASE, now=100.0)
        taken = await after.coordination.claim_games(
            shard_ids=[0], shard_count=1, lease_seconds=LEASE, now=101.0
        )
        assert [g.id for g in taken] == [game.id], "no wait for the dead process's lease to run out"
        with pytest.raises(NotOwner):
            await play_move(before, game.id)


async def test_released_games_are_taken_at_once_and_new_lobbies_are_leased_to_their_creator(store, reopen):
    game = await started_game(store, guild_id=guild_on(0))
    async with processes(reopen, store, "a", "b") as (leaving, coming):
        await leaving.coordination.claim_games(shard_ids=[0], shard_count=1, lease_seconds=LEASE, now=100.0)
        created = await leaving.games.create_lobby(
            guild_id=guild_on(0), channel_id=5, thread_id=None, game="yarn", options={},
            host=member(0, 1), now=101.0,
        )  # fmt: skip
        with pytest.raises(NotOwner):
            await coming.games.update_lobby(created.id, options={"most": 1}, now=102.0)
        await leaving.coordination.release_games()
        taken = await coming.coordination.claim_games(
            shard_ids=[0], shard_count=1, lease_seconds=LEASE, now=103.0
        )
        assert [g.id for g in taken] == [game.id, created.id]


async def test_a_shard_plan_outside_its_count_is_refused(store):
    with pytest.raises(ValueError, match=r"within 0\.\.1"):
        await store.coordination.claim_games(shard_ids=[2], shard_count=2, lease_seconds=LEASE, now=1.0)


async def test_a_click_on_a_game_another_process_took_over_is_refused_and_the_game_let_go(store, reopen):
    """During a handover, a click reaching the old process is refused, never applied twice."""
    clock = ManualClock()
    plan = ShardPlan(shard_ids=(0,), shard_count=1, lease_seconds=LEASE)
    old = GameService(await opened(reopen, store, owner="old"), clock, shards=plan)
    live = await old.lobby.open_lobby(
        game_key="catsdogs", guild_id=guild_on(0), channel_id=10, thread_id=None, host_id=101, host_name="Ann"
    )
    await old.lobby.join(live.id, 102, "Bo")
    game = await old.start(live.id, 101, seed=3)
    new_store = await opened(reopen, store, owner="new")
    clock.advance(LEASE + 1)
    new = GameService(new_store, clock, shards=plan)
    try:
        assert [g.id for g in await new.leases.load_all()] == [game.id]
        seat = game.to_act()[0]
        user = game.record.seats[seat].user_id
        action = game.rules.legal_actions(game.state, seat)[0]
        with pytest.raises(Refusal, match="another part of the bot"):
            await old.play(game.id, user, game.record.version, action.encode())
        assert game.id not in old.live
        assert await store.games.moves(game.id) == []
        moved = new.live[game.id]
        await new.play(game.id, user, moved.record.version, action.encode())
        assert [m.seq for m in await store.games.moves(game.id)] == [1]
    finally:
        await old.shutdown()
        await new.shutdown()
        await old.store.close()
        await new_store.close()


async def test_renewing_leases_takes_over_a_dead_processs_games_and_lets_go_of_lost_ones(store, reopen):
    clock = ManualClock()
    plan = ShardPlan(shard_ids=(0, 1), shard_count=2, lease_seconds=LEASE)
    first = GameService(await opened(reopen, store, owner="first"), clock, shards=plan)
    second = GameService(await opened(reopen, store, owner="second"), clock, shards=plan)
    try:
        lobby = await first.lobby.open_lobby(
            game_key="catsdogs",
            guild_id=guild_on(1),
            channel_id=10,
            thread_id=None,
            host_id=101,
            host_name="A",
        )
        await first.leases.load_all()
        assert await second.leases.renew() == [], "held by a live process: not taken"
        clock.advance(LEASE / 2)
        assert [g.id for g in await first.leases.renew()] == [], "renewed, nothing new"
        assert lobby.id in first.live
        clock.advance(LEASE + 1)  # the first process stops renewing (it died): its lease runs out
        taken = await second.leases.renew()
        assert [g.id for g in taken] == [lobby.id] and lobby.id in second.live
        assert await first.leases.renew() == [] and lobby.id not in first.live, "lost, let go"
    finally:
        await first.shutdown()
        await second.shutdown()
        await first.store.close()
        await second.store.close()
