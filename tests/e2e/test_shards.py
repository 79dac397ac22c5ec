"""Sharding over the emulated Discord: one process running two shards, two processes sharing one
store with one shard each, and the pace of IDENTIFYs."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from bot.app import CatnipBot, create_bot
from bot.errors import NotOwned
from bot.sharding import ShardPlan, shard_of
from emulator import Emulator
from engine import Rng
from tests.e2e.driver import MEMBERS, EmulatorClock, Table, open_table, settings_for, table_of

ADDED_GUILDS = 7  # and the emulator's own: 8 guilds
IDENTIFY_WINDOW = 0.3  # the emulator's; the bot waits a little longer, as it does for Discord's 5 s


def players(n: int) -> list[str]:
    return [f"P{n}{letter}" for letter in "abc"]


@contextlib.asynccontextmanager
async def sharded_discord(**options) -> AsyncIterator[Emulator]:
    async with Emulator.start(members=MEMBERS, identify_window=IDENTIFY_WINDOW, **options) as emu:
        for n in range(1, ADDED_GUILDS + 1):
            emu.add_guild(f"Guild {n}", channels=(f"games-{n}",), members=players(n))
        with emu.point_discord_py():
            yield emu


def guild_on(emu: Emulator, shard: int, count: int = 2) -> int:
    """The number n of the first added guild ("Guild n") on `shard`."""
    return next(n for n in range(1, ADDED_GUILDS + 1) if shard_of(guild_id(emu, n), count) == shard)


def guild_id(emu: Emulator, n: int) -> int:
    return next(g.id for g in emu.world.guilds.values() if g.name == f"Guild {n}")


async def start_sharded(
    emu: Emulator, db: Path, *, seed: int = 1, client_options: dict | None = None, **shards
) -> CatnipBot:
    """A Catnip process over `db` running the shards `shards` (shard_count, shard_ids) says; discord.py's
    client takes `client_options` besides."""
    counter = iter(range(seed * 1000, seed * 1000 + 1000))
    bot = create_bot(
        settings_for(db).model_copy(update=shards),
        guild_ready_timeout=0.05,
        seed_source=lambda: next(counter),
        clock=EmulatorClock(emu),
        identify_window=IDENTIFY_WINDOW + 0.1,
        identify_locks=db.parent,  # the processes share the identify buckets, as `catnip fleet`'s do
        **(client_options or {}),
    )
    await emu.run_bot(bot)
    return bot


async def test_one_process_runs_two_shards_and_games_are_played_in_guilds_of_both(tmp_path):
    async with sharded_discord(guilds_per_shard=4) as emu:  # 8 guilds: Discord recommends 2 shards
        bot = await start_sharded(emu, tmp_path / "catnip.sqlite3")
        assert bot.shard_plan == ShardPlan((0, 1), 2)
        assert sorted(s.shard for s in emu.server.gateway.sessions.values()) == [(0, 2), (1, 2)]
        assert {g.id for g in bot.guilds} == set(emu.world.guilds)
        for shard in (0, 1):
            n = guild_on(emu, shard)
            thread, members = await open_table(
                emu, "catsdogs", 2, computers=1, channel=f"games-{n}", names=players(n)
            )
            table = Table(emu, thread, members, Rng.seeded(shard))
            (game,) = [g for g in bot.service.live.values() if g.record.guild_id == guild_id(emu, n)]
            for _ in range(60):
                if {m.seat for m in await bot.store.games.moves(game.id)} == {0, 1, 2}:
                    break
                await table.step()
            moves = await bot.store.games.moves(game.id)
            assert {m.seat for m in moves} == {0, 1, 2}, "both members and the computer player moved"
            assert f"table #{game.id}" in table_of(emu, thread).embeds[0]["title"]
            assert (await members[0].slash("game end", thread)).ok
            await emu.settle()
        assert bot.service.live == {}, "both games ended"


async def test_two_processes_on_one_store_each_play_resume_and_time_only_their_own_shards_games(tmp_path):
    db = tmp_path / "catnip.sqlite3"
    async with sharded_discord() as emu:
        bots = {
            shard: await start_sharded(emu, db, seed=shard + 1, shard_count=2, shard_ids=(shard,))
            for shard in (0, 1)
        }
        tables, games = {}, {}
        for shard in (0, 1):
            n = guild_on(emu, shard)
            thread, members = await open_table(emu, "catsdogs", 3, channel=f"games-{n}", names=players(n))
            tables[shard] = Table(emu, thread, members, Rng.seeded(shard))
            for _ in range(4):
                await tables[shard].step()
            (games[shard],) = bots[shard].service.live
        for shard, bot in bots.items():
            assert set(bot.service.live) == {games[shard]}, "each process runs only its own shard's game"
            assert bot.timers.due(games[shard]) is not None and bot.timers.due(games[1 - shard]) is None

        # B's game's click handed to A (as during a handover) is refused there, and nothing is applied.
        table = tables[1]
        member = table.to_act()[0]
        panel = await table.panel(member)
        move = next(
            c for c in panel.interactive() if c["custom_id"].startswith("cn:a:") and not c.get("disabled")
        )
        before = await bots[0].store.games.get_game(games[1])
        emu.reroute_guild(guild_id(emu, guild_on(emu, 1)), 0)
        refused = await member.click(panel, move["custom_id"])
        assert refused.ok and refused.message.ephemeral and refused.message.text() == str(NotOwned())
        assert (await bots[0].store.games.get_game(games[1])).version == before.version
        assert bots[1].service.live[games[1]].record.version == before.version
        assert games[1] not in bots[0].service.live
        threads = len(emu.threads(f"games-{guild_on(emu, 1)}"))
        play = await member.slash("play", f"games-{guild_on(emu, 1)}", game="madcat")
        assert play.ok and play.message.text() == str(NotOwned())
        assert len(emu.threads(f"games-{guild_on(emu, 1)}")) == threads, "no table was opened"
        emu.reroute_guild(guild_id(emu, guild_on(emu, 1)), None)
        accepted = await member.click(panel, move["custom_id"])
        assert accepted.ok and (await bots[1].store.games.get_game(games[1])).version == before.version + 1

        # After a restart each process resumes only its own game, with its deadline.
        for bot in bots.values():
            await emu.stop_bot(bot)
        bots = {
            shard: await start_sharded(emu, db, seed=shard + 3, shard_count=2, shard_ids=(shard,))
            for shard in (0, 1)
        }
        await emu.settle()
        versions = {}
        for shard, bot in bots.items():
            assert set(bot.service.live) == {games[shard]}
            assert bot.timers.due(games[shard]) is not None and bot.timers.due(games[1 - shard]) is None
            versions[shard] = bot.service.live[games[shard]].record.version

        # Each timer runs out on its owner only: one decision for each game, by the process that runs it.
        emu.advance(bots[0].settings.turn_timer_seconds + 5)
        for shard, bot in bots.items():
            await emu.wait_for(
                lambda bot=bot, shard=shard: bot.service.live[games[shard]].record.version > versions[shard],
                15,
            )
        await emu.settle()
        for shard, bot in bots.items():
            assert set(bot.service.live) == {games[shard]}
            stored = await bot.store.games.get_game(games[shard])
            assert stored.version == bot.service.live[games[shard]].record.version
            moves = await bot.store.games.moves(games[shard])
            assert [m.seq for m in moves] == list(range(1, len(moves) + 1))


async def test_shards_identify_no_faster_than_the_session_start_limit_allows(tmp_path):
    async with sharded_discord(max_concurrency=2) as emu:  # shards 0 and 2, 1 and 3 share a bucket
        await start_sharded(emu, tmp_path / "catnip.sqlite3", shard_count=4)
        assert emu.server.gateway.identifies == 4 and len(emu.server.gateway.connected) == 4
        assert emu.take_violations() == []


async def test_the_emulator_notices_shards_identifying_too_fast(tmp_path):
    async with sharded_discord(max_concurrency=2) as emu:
        bot = create_bot(
            settings_for(tmp_path / "catnip.sqlite3").model_copy(update={"shard_count": 4}),
            guild_ready_timeout=0.05,
            identify_window=0,
        )
        await emu.run_bot(bot)
        assert "gateway.identify_concurrency" in {v.rule for v in emu.take_violations()}
