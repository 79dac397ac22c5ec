"""Changing a fleet's shard count while its games go on, as the README's "Changing the shard count" says:
`catnip fleet` with two processes over four shards, and the README's `catnip fleet --processes 3
--shard-count 3` started beside it, then the old fleet stopped.

The new processes stand by (connected, running no game) until all three shards are connected, then take
the games over at the moment the database names; members play throughout. Every click is answered
exactly once (the emulator records a second answer or a missed deadline as a broken rule), every game
ends up on exactly one new process, the one whose shard holds its guild, nothing a member saw is lost or
applied twice, and the buttons of tables shown before the move keep working.
"""

from __future__ import annotations

import random
import re
import shlex

import asyncpg

from bench.postgres_server import fresh_schema_url
from bot.sharding import shard_of
from bot.storage import PostgresGameStore
from emulator import Emulator
from tests.bot.test_fleet import REPO, bot_environment, fleet_process, stop_cleanly
from tests.e2e.driver import FAST_DISCORD
from tests.e2e.processes import (
    NO_PICTURES,
    Witness,
    answered_action_clicks,
    check_saved,
    old_buttons_answer,
    unanswered,
)
from tests.e2e.test_fleet import game_of, open_tables, play

GUILDS = (1, 2, 4, 7)
"""The emulator's guilds "Guild 1" … (their ids are the same in every run): on old shards 1, 2, 0, 3
and new shards 0, 1, 0, 2."""
OLD_FLEET = ["--processes", "2", "--shard-count", "4"]
NEW_SHARDS = 3


def readme_command(starting: str) -> list[str]:
    """The README's shell command that starts with `starting` (in a list item: indented), as words."""
    found = re.search(rf"^ *({re.escape(starting)}.*)$", (REPO / "README.md").read_text(), re.MULTILINE)
    assert found, f"the README has no command starting {starting!r}"
    return shlex.split(found[1])


async def owners(url: str) -> dict[int, tuple[int, str | None]]:
    """Each lobby and active game: its guild, and the role of the process holding its lease."""
    db = await asyncpg.connect(url)
    try:
        rows = await db.fetch("SELECT id, guild_id, owner FROM games WHERE status IN ('lobby', 'active')")
    finally:
        await db.close()
    return {row["id"]: (row["guild_id"], row["owner"]) for row in rows}


async def test_two_processes_over_four_shards_become_three_over_three_while_the_games_go_on(
    tmp_path, postgres_server
):
    url = await fresh_schema_url(postgres_server.get_uri())
    rng = random.Random(5)
    witness = Witness()
    written = readme_command(".venv/bin/catnip fleet --processes 3")
    assert written[:2] == [".venv/bin/catnip", "fleet"] and f"--shard-count {NEW_SHARDS}" in " ".join(written)
    async with Emulator.start(members=["Host"], rate_limits=FAST_DISCORD, max_concurrency=16) as emu:
        emu.on_message(witness)
        guilds = [
            emu.add_guild(f"Guild {n}", channels=(f"games-{n}",), members=[f"P{n}{x}" for x in "abc"])
            for n in GUILDS
        ]
        assert {shard_of(g.id, 4) for g in guilds} == {0, 1, 2, 3}, "the guilds cover the old shards"
        assert {shard_of(g.id, NEW_SHARDS) for g in guilds} == {0, 1, 2}, "and the new ones"
        env = {
            **bot_environment(emu.url, tmp_path),
            "DATABASE_URL": url,
            "COMPUTER_DELAY_SECONDS": "0",
            **NO_PICTURES,
        }
        store = PostgresGameStore(url)
        async with fleet_process(OLD_FLEET, env, tmp_path) as (old, old_output):
            await old_output.wait_for(lambda _: old_output.count(": resumed 0 games") == 2)
            await old_output.wait_for(lambda _: old_output.count("has connected to Gateway") == 4)
            await store.open()
            try:
                tables = await open_tables(emu, list(GUILDS))
                await play(tables, rng, 8)
                before = {id(t): t.table() for t in tables}

                async with fleet_process(written[2:], env, tmp_path) as (new, new_output):
                    # The new fleet connects beside the old one and stands by, running no game, while
                    # members play on; then it takes over, and the old one lets every game go.
                    await new_output.wait_for(lambda _: new_output.count("standing by while") == NEW_SHARDS)
                    while new_output.count("runs every game of its shards") < NEW_SHARDS:
                        await play(tables, rng, 1)
                    await old_output.wait_for(lambda _: old_output.count("handed its games over") == 2)
                    await play(tables, rng, 8)

                    # The old fleet answers nothing any more and stops cleanly; the new one plays on alone.
                    await stop_cleanly(old, old_output)
                    await emu.settle(idle=0.05)
                    await old_buttons_answer(tables, before)
                    await play(tables, rng, 8)
                    for game_id, (guild_id, owner) in (await owners(url)).items():
                        shard = shard_of(guild_id, NEW_SHARDS)
                        assert owner == f"shard {shard} of {NEW_SHARDS}", (game_id, owner)
                    await stop_cleanly(new, new_output)

                assert emu.take_violations() == [], "every click answered once, in time"
                assert not unanswered(emu)
                logged = await check_saved(store, witness, answered_action_clicks(emu))
                assert sum(logged.values()) > 40, "the games hardly moved"
                assert {game_of(t) for t in tables} <= set(logged)
                for lines in (old_output.lines, new_output.lines):
                    assert not [line for line in lines if " ERROR " in line], "\n".join(lines)
                # How long the games waited, as the processes tell it (docs/performance.md; `-s` shows it).
                print(
                    *(line for line in old_output.lines + new_output.lines if "after the handover" in line),
                    sep="\n",
                )
            finally:
                await store.close()
