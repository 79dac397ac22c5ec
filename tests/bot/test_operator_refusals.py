"""What an operator gets wrong, with real processes: each refusal is one line naming what to fix, an exit
code of its own, and no restart loop under `catnip fleet`; with `LOG_FORMAT=json` those lines are JSON
like every other, with times in ISO 8601, UTC."""

from __future__ import annotations

import asyncio
import json
import socket
import sys
from datetime import datetime, timedelta

from aiohttp import web

from emulator import Emulator
from tests.bot.test_fleet import REPO, bot_environment
from tests.bot.test_fleet_failures import free_port, run_to_the_end
from tests.bytecode import bytecode_settings

METRICS_REFUSED = 5
TARGET_UNREACHABLE = 6


async def test_a_metrics_port_in_use_stops_the_bot_and_the_fleet_with_one_line(tmp_path):
    async def other_program(_request):  # answers 200 to anything, as another web server would
        return web.Response(text="ok\n")

    app = web.Application()
    app.router.add_get("/{anything:.*}", other_program)
    runner = web.AppRunner(app)
    await runner.setup()
    port = free_port()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        async with Emulator.start(max_concurrency=16, rate_limits=None) as emu:
            env = {**bot_environment(emu.url, tmp_path), "METRICS_PORT": str(port)}
            code, lines = await run_to_the_end([], env, tmp_path)
            assert code == METRICS_REFUSED
            assert lines[-1] == (
                f"catnip: METRICS_PORT: port {port} on 127.0.0.1 is in use by another program: choose "
                "another port (under catnip fleet, process i serves on METRICS_PORT + i)"
            ), lines

            arguments = ["fleet", "--processes", "1", "--shard-count", "1", "--restart-delay", "0.1"]
            code, lines = await run_to_the_end(arguments, env, tmp_path)
            assert code == METRICS_REFUSED
            stopping = "could not serve on its METRICS_PORT; stopping the fleet"
            assert sum(stopping in line for line in lines) == 1, lines
            assert sum(" started" in line for line in lines) == 1, "started once: no restart loop"
            assert not [line for line in lines if "answers /livez" in line], "the other program is not it"
    finally:
        await runner.cleanup()


async def test_a_metrics_host_that_is_no_address_is_refused_in_one_line(tmp_path):
    env = {**bot_environment("http://127.0.0.1:9", tmp_path), "METRICS_HOST": "localhost"}
    code, lines = await run_to_the_end([], env, tmp_path)
    assert code == 2
    assert lines == [
        "catnip: METRICS_HOST: Value error, must be an IP address of this machine: 127.0.0.1 (this machine "
        "only) or 0.0.0.0 (every network it is on) (got 'localhost')"
    ]


def closed_port() -> int:
    """A port of this machine nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_migrate_db_to_an_unreachable_server_says_so_in_one_line_naming_to(tmp_path):
    target = f"postgresql://catnip:secret@127.0.0.1:{closed_port()}/catnip"
    env = {"PATH": "", "PYTHONPATH": str(REPO), **bytecode_settings()}
    code, lines = await run_to_the_end(
        ["migrate-db", "--from", str(tmp_path / "none.sqlite3"), "--to", target], env, tmp_path
    )
    assert code == TARGET_UNREACHABLE
    assert len(lines) == 1, lines
    said = "catnip migrate-db: --to: the PostgreSQL server of postgresql://catnip:***@"
    assert lines[0].startswith(said), lines
    assert "cannot be reached" in lines[0] and "DATABASE_URL" not in lines[0] and "secret" not in lines[0]


def iso_utc(text: str) -> datetime:
    when = datetime.fromisoformat(text)
    assert text[10] == "T" and when.utcoffset() == timedelta(0), text
    return when


async def test_with_json_logs_every_line_is_json_the_refusals_included(tmp_path):
    env = {**bot_environment("http://127.0.0.1:9", tmp_path), "LOG_FORMAT": "json", "TURN_TIMER_SECONDS": "1"}
    code, lines = await run_to_the_end([], env, tmp_path)
    assert code == 2
    (entry,) = [json.loads(line) for line in lines]
    assert entry["message"] == "TURN_TIMER_SECONDS: Input should be greater than or equal to 10 (got '1')"
    assert entry["level"] == "CRITICAL" and entry["logger"] == "catnip"
    iso_utc(entry["time"])

    target = f"postgresql://catnip:secret@127.0.0.1:{closed_port()}/catnip"
    arguments = ["migrate-db", "--from", str(tmp_path / "none.sqlite3"), "--to", target]
    code, lines = await run_to_the_end(arguments, {**env, "TURN_TIMER_SECONDS": "120"}, tmp_path)
    assert code == TARGET_UNREACHABLE
    (entry,) = [json.loads(line) for line in lines]
    assert entry["logger"] == "catnip migrate-db" and "--to" in entry["message"]

    async with Emulator.start(max_concurrency=16, rate_limits=None) as emu:  # after the bot's own lines
        env = {**bot_environment(emu.url, tmp_path), "LOG_FORMAT": "json", "DISCORD_TOKEN": "not-issued"}
        code, lines = await run_to_the_end(["fleet", "--processes", "1"], env, tmp_path)
    assert code == 3
    entries = [json.loads(line) for line in lines]
    assert all(iso_utc(entry["time"]) for entry in entries)
    assert entries[-1]["logger"] == "catnip fleet" and entries[-1]["message"].startswith("DISCORD_TOKEN: ")


async def test_an_unexpected_error_is_logged_as_json_with_its_traceback(tmp_path):
    script = (
        "import sys; from bot.logs import configure_logging; configure_logging('INFO', 'json', 'starting'); "
        "import warnings; warnings.warn('an old way'); raise RuntimeError('broken')"
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", script, cwd=tmp_path, env={"PYTHONPATH": str(REPO), **bytecode_settings()},
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    _, err = await process.communicate()
    assert process.returncode == 1
    entries = [json.loads(line) for line in err.decode().splitlines()]
    assert [entry["level"] for entry in entries] == ["WARNING", "CRITICAL"]
    assert "an old way" in entries[0]["message"]
    assert entries[1]["message"] == "stopped by an unexpected error"
    assert "RuntimeError: broken" in entries[1]["error"]
