"""`catnip fleet` as a real process over a real emulator process: it starts its bot processes with
disjoint shard ranges, starts again one that is killed, and stops them all on SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.fleet import fleet_shard_count, parse
from emulator.remote import RemoteEmulator
from tests.bytecode import bytecode_settings

REPO = Path(__file__).resolve().parents[2]
STARTED = re.compile(r"process (\d) \(shards ([\d,-]+) of (\d+), pid (\d+)\) started")


class Output:
    """The lines a process writes to stderr, collected as they come."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.lines: list[str] = []
        self._reader = asyncio.create_task(self._read(process))

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stderr is not None
        async for line in process.stderr:
            self.lines.append(line.decode(errors="replace").rstrip())

    async def wait_for(self, predicate, timeout: float = 60.0):
        """`predicate`'s first true answer about the lines so far; on a timeout, the lines are the
        failure's message (what the process said instead)."""
        try:
            async with asyncio.timeout(timeout):
                while not (found := predicate(self.lines)):
                    await asyncio.sleep(0.05)
        except TimeoutError:
            raise AssertionError("waited in vain; the process said:\n" + "\n".join(self.lines)) from None
        return found

    def started(self) -> dict[int, list[tuple[str, int]]]:
        """Process index → (shard range, pid) of each of its starts."""
        found: dict[int, list[tuple[str, int]]] = {}
        for line in self.lines:
            if match := STARTED.search(line):
                found.setdefault(int(match[1]), []).append((f"{match[2]} of {match[3]}", int(match[4])))
        return found

    def count(self, text: str) -> int:
        return sum(text in line for line in self.lines)


@contextlib.asynccontextmanager
async def emulator_process(*options: str) -> AsyncIterator[str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "emulator", "--max-concurrency", "16", *options,
        cwd=REPO, stdout=asyncio.subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(REPO)},
    )  # fmt: skip
    try:
        first = (await asyncio.wait_for(process.stdout.readline(), 20)).decode()
        assert first.startswith("EMULATOR "), first
        yield first.split()[1]
    finally:
        process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(process.wait(), 10)


@contextlib.asynccontextmanager
async def catnip_process(
    arguments: list[str], env: dict[str, str], cwd: Path
) -> AsyncIterator[tuple[asyncio.subprocess.Process, Output]]:
    """`catnip …` as a process and its stderr lines; at the end, if it still runs, killed with any
    bot processes it started (its own process group: none is left to hold the emulator's connections)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *arguments,
        cwd=cwd, env=env, stderr=asyncio.subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    try:
        yield process, Output(process)
    finally:
        if process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            await process.wait()


def fleet_process(arguments: list[str], env: dict[str, str], cwd: Path):
    """`catnip fleet …`, as `catnip_process`."""
    return catnip_process(["fleet", *arguments], env, cwd)


async def stop_cleanly(fleet: asyncio.subprocess.Process, output: Output) -> None:
    """SIGTERM: every process stopped, exit code 0, no traceback on the way."""
    fleet.send_signal(signal.SIGTERM)
    assert await asyncio.wait_for(fleet.wait(), 30) == 0
    await output.wait_for(lambda _: output.count("all processes stopped") == 1)
    assert not [line for line in output.lines if "Traceback" in line], "\n".join(output.lines)


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


async def connected(emulator: RemoteEmulator) -> int:
    return (await emulator.state())["gateway"]["connected"]


async def wait_connected(emulator: RemoteEmulator, count: int, timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while await connected(emulator) != count:
            await asyncio.sleep(0.05)


def bot_environment(url: str, tmp_path: Path) -> dict[str, str]:
    """A bot process's environment: the emulator at `url` for Discord, a fresh database, no .env file."""
    return {
        "PATH": os.environ.get("PATH", ""),
        **bytecode_settings(),
        "PYTHONPATH": str(REPO),
        "DISCORD_TOKEN": "emulator-token",
        "CATNIP_EMULATOR_URL": url,
        "DATABASE_PATH": str(tmp_path / "catnip.sqlite3"),
    }


async def test_the_fleet_runs_disjoint_shard_ranges_restarts_a_killed_process_and_stops_on_sigterm(tmp_path):
    async with emulator_process() as url, RemoteEmulator(url) as emulator:
        env = bot_environment(url, tmp_path)
        fleet = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "fleet", "--processes", "2", "--shard-count", "4",
            "--restart-delay", "0.2", cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        output = Output(fleet)
        try:
            await output.wait_for(lambda _: output.count("resumed 0 games") == 2)
            started = output.started()
            assert {i: [r for r, _ in runs] for i, runs in started.items()} == {
                0: ["0-1 of 4"],
                1: ["2-3 of 4"],
            }, "\n".join(output.lines)
            assert output.count("shards 0-1 of 4: resumed 0 games") == 1
            assert output.count("shards 2-3 of 4: resumed 0 games") == 1
            await wait_connected(emulator, 4)  # one gateway session a shard

            (_, killed), (_, other) = started[0][0], started[1][0]
            os.kill(killed, signal.SIGKILL)
            await output.wait_for(lambda _: len(output.started().get(0, [])) == 2)
            await output.wait_for(lambda _: output.count("shards 0-1 of 4: resumed 0 games") == 2)
            assert output.count("exited with code -9") == 1
            (_, again) = output.started()[0][1]
            assert again != killed and gone(killed)
            await wait_connected(emulator, 4)

            fleet.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(fleet.wait(), 30) == 0
            assert output.count("all processes stopped") == 1 and output.count("did not stop") == 0
            assert gone(again) and gone(other)
            await wait_connected(emulator, 0)
        finally:
            if fleet.returncode is None:
                fleet.kill()
                await fleet.wait()


async def test_a_bot_with_too_few_shards_for_its_servers_stops_with_a_line_saying_what_to_change(tmp_path):
    async with emulator_process("--max-guilds-per-session", "0") as url:  # even one server needs a shard
        env = {**bot_environment(url, tmp_path), "SHARD_COUNT": "1"}
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
        )
        _, err = await asyncio.wait_for(bot.communicate(), 30)
    assert bot.returncode == 2
    text = err.decode()
    assert "Traceback" not in text
    assert text.strip().splitlines()[-1] == (
        "catnip: Discord requires more shards: raise SHARD_COUNT, or leave it unset for Discord's "
        "recommendation (gateway close code 4011)"
    )


def test_the_fleet_takes_discords_recommendation_but_never_fewer_shards_than_processes():
    assert fleet_shard_count(None, 2, recommended=5) == 5
    assert fleet_shard_count(None, 3, recommended=1) == 3
    assert fleet_shard_count(6, 3, recommended=None) == 6


def test_the_fleet_refuses_fewer_shards_than_processes(capsys):
    with pytest.raises(SystemExit) as stopped:
        parse(["--processes", "3", "--shard-count", "2"])
    assert stopped.value.code == 2
    assert "--shard-count 2 is fewer than the 3 processes" in capsys.readouterr().err
