"""Kinds of failure a launcher tells apart, with real processes: a refused token or a bad setting stops
the bot (and the fleet) with one line and an exit code of its own; a database or a Discord that is
away at start is waited for, said once when the wait begins, and the fleet keeps the waiting process."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import sys

from bench.postgres_server import fresh_schema_url, start_server, stop_server
from emulator import Emulator
from tests.bot.test_fleet import Output, bot_environment

TOKEN_REFUSED = 3
TOKEN_LINE = "DISCORD_TOKEN: Discord refused the token (401 Unauthorized)"


async def run_to_the_end(arguments: list[str], env: dict[str, str], tmp_path) -> tuple[int, list[str]]:
    """`python -m bot …` run until it exits by itself: its exit code and its stderr lines."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *arguments, cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
    )
    try:
        _, err = await asyncio.wait_for(process.communicate(), 60)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    lines = err.decode().strip().splitlines()
    assert not [line for line in lines if "Traceback" in line], "\n".join(lines)
    return process.returncode, lines


async def test_a_refused_token_stops_the_bot_and_the_fleet_with_one_line_and_no_restart(tmp_path):
    async with Emulator.start(max_concurrency=16, rate_limits=None) as emu:
        env = {**bot_environment(emu.url, tmp_path), "DISCORD_TOKEN": "a-token-discord-never-issued"}

        code, lines = await run_to_the_end([], env, tmp_path)
        assert code == TOKEN_REFUSED
        assert lines[-1].startswith(f"catnip: {TOKEN_LINE}"), lines

        # Without --shard-count the fleet asks Discord itself, and is refused before starting anything.
        code, lines = await run_to_the_end(["fleet", "--processes", "2"], env, tmp_path)
        assert code == TOKEN_REFUSED
        assert lines[-1].startswith(f"catnip fleet: {TOKEN_LINE}"), lines
        assert not [line for line in lines if " started" in line]

        arguments = ["fleet", "--processes", "2", "--shard-count", "2", "--restart-delay", "0.1"]
        code, lines = await run_to_the_end(arguments, env, tmp_path)
        assert code == TOKEN_REFUSED
        assert sum(" started" in line for line in lines) <= 2, "no process started twice"
        assert sum(TOKEN_LINE in line for line in lines) <= 2
        assert sum("was refused its DISCORD_TOKEN; stopping the fleet" in line for line in lines) == 1, lines
        assert not [line for line in lines if "starting it again" in line]


async def test_a_bad_setting_stops_the_fleet_with_one_line(tmp_path):
    env = {**bot_environment("http://127.0.0.1:9", tmp_path), "TURN_TIMER_SECONDS": "1"}
    code, lines = await run_to_the_end(["fleet", "--processes", "2"], env, tmp_path)
    assert code == 2
    assert lines == ["catnip: TURN_TIMER_SECONDS: Input should be greater than or equal to 10 (got '1')"]

    # A setting only each process can judge (its SQLite file is a folder): the fleet stops all the same.
    async with Emulator.start(max_concurrency=16, rate_limits=None) as emu:
        env = {**bot_environment(emu.url, tmp_path), "DATABASE_PATH": str(tmp_path)}
        arguments = ["fleet", "--processes", "2", "--shard-count", "2", "--restart-delay", "0.1"]
        code, lines = await run_to_the_end(arguments, env, tmp_path)
    assert code == 2
    assert sum("refused its settings; stopping the fleet" in line for line in lines) == 1, lines
    assert not [line for line in lines if "starting it again" in line]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def ended(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.kill()
        await process.wait()


async def test_a_fleet_started_while_discord_and_the_database_are_away_waits_for_them(
    tmp_path, postgres_server
):
    url = await fresh_schema_url(postgres_server.get_uri())
    port = free_port()  # where the emulator will listen, once it runs
    env = {**bot_environment(f"http://127.0.0.1:{port}", tmp_path), "DATABASE_URL": url}
    arguments = ["fleet", "--processes", "2", "--shard-count", "2", "--restart-delay", "0.1"]
    database = "the database (DATABASE_URL postgresql://postgres:***@/postgres"
    async with contextlib.AsyncExitStack() as stack:
        await asyncio.to_thread(stop_server, postgres_server)
        stack.push_async_callback(asyncio.to_thread, start_server, postgres_server)
        fleet = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", *arguments, cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
        )
        stack.push_async_callback(ended, fleet)
        output = Output(fleet)
        await output.wait_for(lambda _: output.count("Discord cannot be reached") == 2)
        await stack.enter_async_context(Emulator.start(port=port, max_concurrency=16, rate_limits=None))
        stack.push_async_callback(ended, fleet)  # before the emulator stops
        await output.wait_for(lambda _: output.count("Discord is back") == 2)
        await output.wait_for(lambda _: output.count(database) == 2)
        await asyncio.to_thread(start_server, postgres_server)
        await output.wait_for(lambda _: output.count(": resumed 0 games") == 2)
        assert output.count(database) == 4, "each process's outage said when it began and ended"
        assert output.count("cannot be reached") == 4, "Discord's and the database's, once a process"
        assert {index: len(runs) for index, runs in output.started().items()} == {0: 1, 1: 1}
        # Stopped once connected: a stop in the middle of a shard's IDENTIFY is discord.py's to log.
        await output.wait_for(lambda _: output.count("has connected to Gateway") == 2)
        fleet.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(fleet.wait(), 30) == 0
    assert not [line for line in output.lines if "Traceback" in line], "\n".join(output.lines)
