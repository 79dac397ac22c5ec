"""Every way the README's "Running a fleet" chooses the shard count, run as written: `catnip fleet` with
`--shard-count`, with `SHARD_COUNT` from the environment, and with neither (Discord's recommendation,
which the emulator answers on `GET /gateway/bot`).

Each fleet is one process, which runs every shard of the count chosen: how a fleet splits its shards
between its processes is tests/bot/test_fleet.py's (two processes, disjoint ranges) and
tests/bot/test_sharding.py's (`split_shards`, uneven splits included)."""

from __future__ import annotations

import pytest

from emulator import Emulator
from tests.bot.test_fleet import REPO, bot_environment, fleet_process, stop_cleanly


async def run_fleet_until_ready(
    env: dict[str, str], arguments: list[str], tmp_path, shards: int
) -> dict[int, list[str]]:
    """`catnip fleet --processes 1 …` until its process resumed its games and its `shards` shards are
    connected, then SIGTERM: the shard range its process was started with."""
    async with fleet_process(["--processes", "1", *arguments], env, tmp_path) as (fleet, output):
        await output.wait_for(lambda _: output.count(": resumed 0 games") == 1)
        await output.wait_for(lambda _: output.count("has connected to Gateway") == shards)
        await stop_cleanly(fleet, output)
    return {index: [shards for shards, _ in runs] for index, runs in output.started().items()}


@pytest.mark.parametrize(
    ("how", "arguments", "environment", "ranges"),
    [
        ("--shard-count", ["--shard-count", "4"], {}, {0: ["0-3 of 4"]}),
        ("SHARD_COUNT", [], {"SHARD_COUNT": "5"}, {0: ["0-4 of 5"]}),
        ("recommended", [], {}, {0: ["0-2 of 3"]}),
    ],
)
async def test_catnip_fleet_takes_its_shard_count_from_each_place_the_readme_names(
    tmp_path, how, arguments, environment, ranges
):
    # One shard a server: Discord recommends three shards for the emulator's three servers.
    async with Emulator.start(guilds_per_shard=1, max_concurrency=16, rate_limits=None) as emu:
        emu.add_guild("Second", channels=("games",), members=["Bo"])
        emu.add_guild("Third", channels=("games",), members=["Cy"])
        env = {**bot_environment(emu.url, tmp_path), **environment}
        shards = int(ranges[0][0].split(" of ")[1])
        assert await run_fleet_until_ready(env, arguments, tmp_path, shards) == ranges, how


def test_the_readme_names_each_way_tested_here():
    readme = (REPO / "README.md").read_text()
    assert ".venv/bin/catnip fleet --processes 4 --shard-count 16" in readme
    assert "Without `--shard-count` it uses `SHARD_COUNT`, else Discord's recommendation" in readme
