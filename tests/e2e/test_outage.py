"""A fleet over PostgreSQL rides out the server going away, and a death during it.

Two real bot processes (one shard each, their clocks sped up as in tests/e2e/processes.py) play four
games on a real PostgreSQL server. The server is stopped; clicks meanwhile are answered "try again
in a moment"; one process is SIGKILLed and started again, and waits for the server (it says so once
it begins and once each minute of its clock); the server starts again. Then both processes run,
each game on the process of its shard, every acknowledged move is saved once, and each process
told of the outage in a WARNING when it began, one each minute while it lasted and one when it
ended, with no traceback.
"""

from __future__ import annotations

import asyncio
import random
import re
import time

from bench.postgres_server import fresh_schema_url, start_server, stop_server
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
    only_killed_clicks_failed,
    unanswered,
)
from tests.e2e.test_fleet import game_of, guilds_with_players, play

KINDS = (("catsdogs", 3, 0), ("madcat", 2, 1), ("catsanity", 2, 1), ("ninelives", 2, 1))
BEGAN, LASTS, ENDED = "cannot be reached (", "still cannot be reached after", "is back after"
SECONDS = re.compile(r"after (\d+) s")


async def wait_for_line(lines: list[str], text: str, timeout: float = 30.0) -> None:
    async with asyncio.timeout(timeout):
        while not any(text in line for line in lines):
            await asyncio.sleep(0.02)


def told_the_outage_as_an_operator_reads_it(lines: list[str]) -> None:
    """One WARNING when the outage began, one a minute (of the process's clock) while it lasted, one
    when it ended; nothing worse than a warning, and no traceback."""
    told = [line for line in lines if "the database (DATABASE_URL" in line]
    assert sum(BEGAN in line and LASTS not in line for line in told) == 1, told
    assert sum(ENDED in line for line in told) == 1, told
    assert all(line.startswith("WARNING ") for line in told), told
    waited = [int(SECONDS.search(line)[1]) for line in told if LASTS in line or ENDED in line]
    minutes = waited[:-1]
    assert all(later - earlier >= 60 for earlier, later in zip([0, *minutes], minutes, strict=False)), told
    assert len(minutes) <= waited[-1] // 60, f"more than one line a minute: {told}"
    assert not [line for line in lines if "Traceback" in line or line.startswith(("ERROR", "CRITICAL"))], (
        "\n".join(lines)
    )


async def test_a_fleet_rides_out_a_database_outage_and_a_death_during_it(tmp_path, postgres_server):
    url = await fresh_schema_url(postgres_server.get_uri())
    rng = random.Random(32)
    witness = Witness()
    async with Emulator.start(members=["Host"], rate_limits=DISCORD_AT_SPEED) as emu:
        emu.on_message(witness)
        guilds = guilds_with_players(emu, len(KINDS))
        assert {shard_of(g.id, 2) for g in guilds} == {0, 1}, "the guilds cover both shards"
        epoch = time.time()
        processes = [
            BotProcess(
                emu, tmp_path / "unused.sqlite3", epoch=epoch, keep_logs=True,
                DATABASE_URL=url, SHARD_COUNT="2", SHARD_IDS=str(shard), **NO_PICTURES,
            )
            for shard in (0, 1)
        ]  # fmt: skip
        killed, survivor = processes
        store = PostgresGameStore(url)
        restarting: asyncio.Task | None = None
        server_down = False
        try:
            await asyncio.gather(*(p.start() for p in processes))
            await store.open()
            tables: list[Table] = []
            shard_by_game: dict[int, int] = {}
            humans_only: set[int] = set()  # a game of each shard with no computer seat: always a click
            for n, guild in enumerate(guilds):
                key, humans, computers = KINDS[n]
                if shard_of(guild.id, 2) not in humans_only:
                    humans_only.add(shard_of(guild.id, 2))
                    computers = 0
                names = [f"P{n}{x}" for x in "abc"]
                thread, members = await open_table(
                    emu, key, humans, computers=computers, channel=f"games-{n}", names=names
                )
                tables.append(Table(emu, thread, members, Rng.seeded(n)))
                shard_by_game[game_of(tables[-1])] = shard_of(guild.id, 2)
            await play(tables, rng, 30)
            on_survivor = [t for t in tables if shard_by_game[game_of(t)] == 1]

            await asyncio.to_thread(stop_server, postgres_server)
            server_down = True
            # Clicks while the server is away: answered, nothing applied. A random click may be one the
            # rules refuse before the store is asked (a mixed set-aside): click on until one reaches it.
            answers = []
            footers = [t.table().embeds[0]["footer"]["text"] for t in on_survivor]
            for _ in range(10):
                for table in on_survivor:
                    if not table.over() and (result := await table.step()) is not None:
                        message = result.message
                        answers.append((message.content, message.ephemeral) if message else ("", False))
                if any("try again in a moment" in text for text, _ in answers):
                    break
            try_again = [text for text, _ in answers if "try again in a moment" in text]
            # The others are refused before anything is saved: out of turn, or a choice the rules refuse.
            refused = [text for text, private in answers if private and "try again" not in text]
            assert try_again and len(try_again) + len(refused) == len(answers), answers
            assert [t.table().embeds[0]["footer"]["text"] for t in on_survivor] == footers, (
                "no move was applied while the server was away"
            )
            await wait_for_line(survivor.logs[-1], BEGAN)

            # A death during the outage: started again, the process waits for the server.
            await killed.kill()
            died_with = unanswered(emu)
            restarting = asyncio.create_task(killed.start())
            async with asyncio.timeout(30):
                while len(killed.logs) < 2:  # its second start's lines
                    await asyncio.sleep(0.02)
            await wait_for_line(killed.logs[-1], LASTS)  # it has waited a minute of its clock
            assert not restarting.done()
            await asyncio.to_thread(start_server, postgres_server)
            server_down = False
            await restarting

            live = {record.id for record in await store.games.active_games()}
            assert killed.games == {g for g in live if shard_by_game.get(g) == 0}, "its games, on it"
            await play(tables, rng, 30)  # both processes play on, each its own games
            await wait_for_line(survivor.logs[-1], ENDED)
            await asyncio.gather(*(p.stop() for p in processes))
            logged = await check_saved(store, witness, answered_action_clicks(emu))
            assert sum(logged.values()) > 40, "the games hardly moved"
            only_killed_clicks_failed(emu, died_with)
            told_the_outage_as_an_operator_reads_it(survivor.logs[-1])
            told_the_outage_as_an_operator_reads_it(killed.logs[-1])
        finally:
            for index, process in enumerate(processes):  # shown when the test fails
                for start, lines in enumerate(process.logs):
                    print(f"--- process {index}, start {start}:", *lines, sep="\n")
            if server_down:
                await asyncio.to_thread(start_server, postgres_server)
            if restarting is not None and not restarting.done():
                restarting.cancel()
            await asyncio.gather(*(p.ensure_dead() for p in processes))
            await store.close()
