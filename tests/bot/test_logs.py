"""LOG_FORMAT: a fleet's lines, as text or one JSON object a line, each naming its process's shards."""

from __future__ import annotations

import json
import re

from emulator import Emulator
from tests.bot.test_fleet import bot_environment, fleet_process, stop_cleanly


async def fleet_lines(tmp_path, log_format: str) -> list[str]:
    """The stderr lines of `catnip fleet --processes 2 --shard-count 2` until both processes resumed
    their games, and of its clean stop."""
    async with Emulator.start(max_concurrency=16, rate_limits=None) as emu:
        env = {**bot_environment(emu.url, tmp_path), "LOG_FORMAT": log_format}
        arguments = ["--processes", "2", "--shard-count", "2"]
        async with fleet_process(arguments, env, tmp_path) as (fleet, output):
            await output.wait_for(lambda _: output.count("resumed 0 games") == 2)
            await output.wait_for(lambda _: output.count("has connected to Gateway") == 2)
            await stop_cleanly(fleet, output)
    return output.lines


async def test_json_logs_are_one_object_a_line_naming_the_shards_of_their_process(tmp_path):
    entries = [json.loads(line) for line in await fleet_lines(tmp_path, "json")]  # every line is JSON
    assert {entry["shards"] for entry in entries} <= {"fleet", "starting", "shard 0 of 2", "shard 1 of 2"}
    resumed = {entry["shards"] for entry in entries if entry["message"].endswith("resumed 0 games")}
    assert resumed == {"shard 0 of 2", "shard 1 of 2"}
    assert {entry["shards"] for entry in entries if "started" in entry["message"]} == {"fleet"}
    assert all({"time", "level", "logger", "message"} <= entry.keys() for entry in entries)
    assert all(entry["time"].endswith("+00:00") and entry["time"][10] == "T" for entry in entries)


async def test_text_logs_name_the_shards_of_their_process_on_every_line(tmp_path):
    lines = await fleet_lines(tmp_path, "text")
    named = [re.search(r" \[([^\]]+)\] ", line) for line in lines]
    assert all(named), [line for line, name in zip(lines, named, strict=True) if not name]
    assert {name[1] for name in named} <= {"fleet", "starting", "shard 0 of 2", "shard 1 of 2"}
    assert sum("[shard 1 of 2] catnip: shard 1 of 2: resumed 0 games" in line for line in lines) == 1
