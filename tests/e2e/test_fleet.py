"""A fleet over PostgreSQL: two real bot processes with two shards each, one SIGKILLed mid-move and
restarted, then the whole fleet restarted with three shards.

Eight guilds spread over the four shards each play a game (all four kinds, twice). Throughout,
each game is run by exactly one process (the one whose shards hold its guild, as the READY line
of each process lists), no move a member saw is lost or applied twice (`check_saved`, with the
processes running the checked games dead or stopped), and the buttons of tables posted before a
kill or a restart keep working.
"""

from __future__ import annotations

import asyncio
import random
import re
import time

from bench.postgres_server import fresh_schema_url
from bot.sharding import shard_of
from bot.storage import PostgresGameStore
from emulator import Emulator
from engine import Rng
from tests.e2e.driver import Table, open_table
from tests.e2e.processes import (
    DISCORD_AT_SPEED,
    NO_PICTURES,
    BotProcess,
    Witness,
    answered_action_clicks,
    check_saved,
    old_buttons_answer,
    only_killed_clicks_failed,
    unanswered,
)

GUILDS = 8
TITLE = re.compile(r"table #(\d+)")
KINDS = (("catsdogs", 3, 0), ("madcat", 2, 1), ("catsanity", 2, 1), ("ninelives", 1, 2))


def game_of(table: Table) -> int:
    return int(TITLE.search(table.table().embeds[0]["title"])[1])


async def play(tables: list[Table], rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        table = rng.choice([t for t in tables if not t.over()] or tables)
        if not table.over():
            await table.step()


async def open_tables(emu: Emulator, numbers: list[int]) -> list[Table]:
    """A table in guild n's #games-n for each n of `numbers`: the four games in turn, played by Pna,
    Pnb, Pnc as `KINDS` seats them."""
    tables = []
    for index, n in enumerate(numbers):
        key, humans, computers = KINDS[index % len(KINDS)]
        names = [f"P{n}{x}" for x in "abc"]
        thread, members = await open_table(
            emu, key, humans, computers=computers, channel=f"games-{n}", names=names
        )
        tables.append(Table(emu, thread, members, Rng.seeded(n)))
    return tables


def guilds_with_players(emu: Emulator, count: int) -> list:
    """`count` guilds, each with a #games-n channel and three members Pna, Pnb, Pnc."""
    return [
        emu.add_guild(f"Guild {n}", channels=(f"games-{n}",), members=[f"P{n}{x}" for x in "abc"])
        for n in range(count)
    ]


async def resumed_once(store: PostgresGameStore, live: set[int], *processes: BotProcess) -> None:
    """Each game of `live` (active before `processes` started) runs on exactly one of them, unless
    its computer seats ended it before that process said it was ready."""
    listed = [p.games for p in processes]
    for n, games in enumerate(listed):
        assert not games & set().union(*listed[n + 1 :]), "no game runs on two processes"
    resumed = set().union(*listed)
    assert resumed <= live, "no finished game is resumed"
    still_active = {record.id for record in await store.games.active_games()}
    assert not (live - resumed) & still_active, "every active game runs on one process"


def fleet(emu: Emulator, url: str, epoch: float, shard_count: int, ranges: list[str], tmp_path) -> list:
    return [
        BotProcess(
            emu,
            tmp_path / "unused.sqlite3",
            epoch=epoch,
            DATABASE_URL=url,
            SHARD_COUNT=str(shard_count),
            SHARD_IDS=ids,
            **NO_PICTURES,
        )
        for ids in ranges
    ]


async def test_a_fleet_survives_a_kill_and_a_reshard_each_game_on_one_process(tmp_path, postgres_server):
    url = await fresh_schema_url(postgres_server.get_uri())
    rng = random.Random(17)
    witness = Witness()
    async with Emulator.start(members=["Host"], rate_limits=DISCORD_AT_SPEED) as emu:
        emu.on_message(witness)
        guilds = guilds_with_players(emu, GUILDS)
        assert {shard_of(g.id, 4) for g in guilds} == {0, 1, 2, 3}, "the guilds cover the four shards"
        epoch = time.time()
        processes = fleet(emu, url, epoch, 4, ["0-1", "2-3"], tmp_path)
        store = PostgresGameStore(url)
        try:
            await asyncio.gather(*(p.start() for p in processes))
            await store.open()
            tables = await open_tables(emu, list(range(len(guilds))))
            shard_by_game = {game_of(table): guild.id for table, guild in zip(tables, guilds, strict=True)}
            await play(tables, rng, 40)

            # One process killed mid-move, then restarted: its games come back to it, and only to it.
            killed_process = processes[0]
            mine = [t for t in tables if shard_of(shard_by_game[game_of(t)], 4) in (0, 1) and not t.over()]
            before = {id(t): t.table() for t in tables}
            click = await rng.choice(mine).step(wait=False)
            await asyncio.sleep(rng.uniform(0, 0.03))
            await killed_process.kill()
            killed = unanswered(emu)
            ids_of_killed = {g for g, guild_id in shard_by_game.items() if shard_of(guild_id, 4) in (0, 1)}
            await check_saved(store, witness, answered_action_clicks(emu), ids_of_killed)
            # Read before the restart: computer seats may finish a game as soon as it is resumed.
            live = {record.id for record in await store.games.active_games()}
            await killed_process.start()
            await resumed_once(store, live & ids_of_killed, killed_process)
            await emu.settle()
            await old_buttons_answer(tables, before)
            only_killed_clicks_failed(emu, killed)
            assert click is None or click.ok or click.id in killed
            await play(tables, rng, 30)

            # The whole fleet stopped, and started again with three shards.
            await asyncio.gather(*(p.stop() for p in processes))
            await check_saved(store, witness, answered_action_clicks(emu))
            before = {id(t): t.table() for t in tables}
            processes = fleet(emu, url, epoch, 3, ["0-1", "2"], tmp_path)
            live = {record.id for record in await store.games.active_games()}
            await asyncio.gather(*(p.start() for p in processes))
            await resumed_once(store, live, *processes)
            first = processes[0].games
            for game_id in first:
                assert shard_of(shard_by_game.get(game_id, 0), 3) in (0, 1) or game_id not in shard_by_game
            await emu.settle()
            await old_buttons_answer(tables, before)
            await play(tables, rng, 30)
            await asyncio.gather(*(p.stop() for p in processes))
            logged = await check_saved(store, witness, answered_action_clicks(emu))
            assert sum(logged.values()) > 60, "the games hardly moved"
        finally:
            await asyncio.gather(*(p.ensure_dead() for p in processes))
            await store.close()
