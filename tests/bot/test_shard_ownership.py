"""One owner per shard, with real `catnip` processes: a process (or a fleet) started on shards another
live process runs stops with one line and exit code 4, the running one untouched; a fleet killed with
`kill -9` takes its processes with it, so the fleet a supervisor starts next runs at once."""

from __future__ import annotations

import asyncio
import os
import signal

from bench.postgres_server import fresh_schema_url
from bot.shard_owners import running_here
from emulator import Emulator
from tests.bot.test_fleet import bot_environment, catnip_process, fleet_process, stop_cleanly
from tests.bot.test_fleet_failures import run_to_the_end

SHARDS_TAKEN = 4
REFUSAL = "SHARD_IDS: another Catnip process (pid {pid} on this machine) runs {shards}: stop it, or give "


async def test_a_process_started_on_shards_another_process_runs_stops_with_one_line(
    tmp_path, postgres_server
):
    url = await fresh_schema_url(postgres_server.get_uri())
    async with Emulator.start(max_concurrency=16, rate_limits=None) as emu:
        env = {**bot_environment(emu.url, tmp_path), "DATABASE_URL": url, "SHARD_COUNT": "4"}
        async with catnip_process([], {**env, "SHARD_IDS": "0-1"}, tmp_path) as (first, output):
            await output.wait_for(lambda _: output.count("shards 0-1 of 4: resumed 0 games") == 1)
            await emu.wait_for(lambda: len(emu.server.gateway.connected) == 2)

            code, lines = await run_to_the_end([], {**env, "SHARD_IDS": "1-2"}, tmp_path)
            assert code == SHARDS_TAKEN
            refusal = REFUSAL.format(pid=first.pid, shards="shard 1 of 4")
            assert lines[-1].startswith(f"catnip: {refusal}"), lines
            assert not [line for line in lines if "has connected to Gateway" in line], "it never connected"
            assert len(emu.server.gateway.connected) == 2

            # Its shard 2 was not kept: a process of shards 2-3 starts at once.
            async with catnip_process([], {**env, "SHARD_IDS": "2-3"}, tmp_path) as (second, other):
                await other.wait_for(lambda _: other.count("shards 2-3 of 4: resumed 0 games") == 1)
                assert other.count("waiting to see whether it still runs") == 0
                second.send_signal(signal.SIGTERM)
                assert await asyncio.wait_for(second.wait(), 30) == 0
            first.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(first.wait(), 30) == 0
    assert not [line for line in output.lines if "Traceback" in line], "\n".join(output.lines)


async def test_a_second_fleet_on_the_same_shards_stops_with_one_line_and_the_first_runs_on(tmp_path):
    async with Emulator.start(max_concurrency=16, rate_limits=None) as emu:
        env = bot_environment(emu.url, tmp_path)  # one machine's SQLite file
        arguments = ["--processes", "2", "--shard-count", "4", "--restart-delay", "0.1"]
        async with fleet_process(arguments, env, tmp_path) as (fleet, output):
            await output.wait_for(lambda _: output.count(": resumed 0 games") == 2)
            await emu.wait_for(lambda: len(emu.server.gateway.connected) == 4)

            code, lines = await run_to_the_end(["fleet", *arguments], env, tmp_path)
            assert code == SHARDS_TAKEN
            stopping = "found its shards run by another process; stopping the fleet"
            assert sum(stopping in line for line in lines) == 1, lines
            assert sum(REFUSAL.split("(")[0] in line for line in lines) in (1, 2), lines
            assert not [line for line in lines if "starting it again" in line], "no restart loop"
            assert len(emu.server.gateway.connected) == 4
            assert fleet.returncode is None
            await stop_cleanly(fleet, output)


async def test_a_fleet_killed_with_kill_9_takes_its_processes_along_and_the_next_fleet_runs_at_once(
    tmp_path, postgres_server
):
    url = await fresh_schema_url(postgres_server.get_uri())
    async with Emulator.start(max_concurrency=16, rate_limits=None) as emu:
        env = {**bot_environment(emu.url, tmp_path), "DATABASE_URL": url}
        arguments = ["--processes", "2", "--shard-count", "4", "--restart-delay", "0.1"]
        async with fleet_process(arguments, env, tmp_path) as (fleet, output):
            await output.wait_for(lambda _: output.count(": resumed 0 games") == 2)
            await emu.wait_for(lambda: len(emu.server.gateway.connected) == 4)
            children = [runs[0][1] for runs in output.started().values()]
            os.kill(fleet.pid, signal.SIGKILL)
            await fleet.wait()
            await output.wait_for(lambda _: not any(running_here(pid) for pid in children), timeout=30)
            await emu.wait_for(lambda: len(emu.server.gateway.connected) == 0)
            assert output.count("shutting down") == 2, "each stopped cleanly, giving its shards up"

        async with fleet_process(arguments, env, tmp_path) as (fleet, output):
            await output.wait_for(lambda _: output.count(": resumed 0 games") == 2)
            assert output.count("waiting to see whether it still runs") == 0
            await emu.wait_for(lambda: len(emu.server.gateway.connected) == 4)
            await stop_cleanly(fleet, output)


async def test_a_process_that_stalled_past_its_hold_stops_once_another_has_taken_its_shards(tmp_path):
    async with Emulator.start(max_concurrency=16, rate_limits=None) as emu:
        env = {**bot_environment(emu.url, tmp_path), "SHARD_COUNT": "2", "SHARD_IDS": "0-1"}
        async with catnip_process([], env, tmp_path) as (stalled, before):
            await before.wait_for(lambda _: before.count("shards 0-1 of 2: resumed 0 games") == 1)
            stalled.send_signal(signal.SIGSTOP)  # its event loop stuck: it renews nothing
            try:
                async with catnip_process([], env, tmp_path) as (taking, after):
                    await after.wait_for(lambda _: after.count("waiting to see whether it still runs") == 1)
                    await after.wait_for(lambda _: after.count("shards 0-1 of 2: resumed 0 games") == 1)
                    stalled.send_signal(signal.SIGCONT)
                    assert await asyncio.wait_for(stalled.wait(), 30) == SHARDS_TAKEN
                    refusal = (
                        f"catnip: SHARD_IDS: another Catnip process (pid {taking.pid} on this machine) "
                        "took over shards 0-1 of 2: stop it"
                    )
                    await before.wait_for(lambda lines: lines and lines[-1].startswith(refusal))
                    assert taking.returncode is None, "the process that took over runs on"
                    taking.send_signal(signal.SIGTERM)
                    assert await asyncio.wait_for(taking.wait(), 30) == 0
            finally:
                if stalled.returncode is None:
                    stalled.send_signal(signal.SIGCONT)
