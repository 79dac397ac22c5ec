"""The deploy kit (deploy/) names only real commands, settings and paths, and what can run here runs:
the image's command and its health check against a real bot, the systemd unit through
`systemd-analyze verify`, the compose file's fleet command through `catnip fleet`'s own parser. Building
and running the image itself needs a container runtime that answers (`docker info`): where none does,
as on a machine with the docker client but no daemon, that one test is skipped, saying so."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from bot.config import Settings
from bot.fleet import STOPS_THE_FLEET, parse
from emulator import Emulator
from tests.bot.test_fleet import Output
from tests.bot.test_fleet_failures import free_port
from tests.bytecode import bytecode_settings

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
SETTINGS = {name.upper() for name in Settings.model_fields}


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions, (INSTRUCTION, its arguments), continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", (DEPLOY / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def instructions(kind: str) -> list[str]:
    return [arguments for instruction, arguments in dockerfile() if instruction == kind]


def image_environment() -> dict[str, str]:
    env: dict[str, str] = {}
    for arguments in instructions("ENV"):
        env |= dict(re.findall(r"(\w+)=(\S+)", arguments))
    return env


def test_the_image_copies_what_exists_installs_catnip_and_runs_as_a_user_of_its_own():
    (base,) = instructions("FROM")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    python = re.fullmatch(r"python:(\d+)\.(\d+)-slim", base)
    assert python and (int(python[1]), int(python[2])) >= (3, 11), base
    assert project["requires-python"] == ">=3.11"
    copied = {source for arguments in instructions("COPY") for source in arguments.split()[:-1]}
    assert all((ROOT / source).exists() for source in copied), copied
    tool = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    packages = {pattern.rstrip("*") for pattern in tool["packages"]["find"]["include"]}
    needed = {"pyproject.toml", "README.md"} | packages - {"bench"}  # the benchmarks stay out of the image
    assert needed <= copied, needed - copied
    assert any("pip install ." in arguments for arguments in instructions("RUN"))
    (user,) = instructions("USER")
    assert user not in ("root", "0")
    env = image_environment()
    assert {name for name in env if not name.startswith(("PYTHON", "PIP_"))} <= SETTINGS
    Settings(_env_file=None, **{name.lower(): value for name, value in env.items() if name in SETTINGS})
    (command,) = instructions("CMD")
    assert json.loads(command)[0] in project["scripts"]


def healthcheck() -> list[str]:
    (arguments,) = instructions("HEALTHCHECK")
    return json.loads(arguments.split("CMD", 1)[1])


async def run(command: list[str], env: dict[str, str]) -> int:
    process = await asyncio.create_subprocess_exec(*command, env=env, stderr=asyncio.subprocess.DEVNULL)
    return await asyncio.wait_for(process.wait(), 30)


async def test_the_images_command_and_health_check_run_as_written_against_a_real_bot(tmp_path):
    catnip = Path(sys.executable).with_name("catnip")  # the console script `pip install` made
    (command,) = [json.loads(arguments) for arguments in instructions("CMD")]
    probe = healthcheck()
    assert probe[0] == "python" and "/livez" in probe[-1]
    probe[0] = sys.executable
    async with Emulator.start(max_concurrency=16, rate_limits=None) as emu:
        env = {
            **image_environment(),
            "PATH": os.environ.get("PATH", ""),
            **bytecode_settings(),
            "DISCORD_TOKEN": "emulator-token",
            "CATNIP_EMULATOR_URL": emu.url,
            "DATABASE_PATH": str(tmp_path / "catnip.sqlite3"),  # the image's /data is not here
            "METRICS_PORT": str(free_port()),  # its 9100 may be another test's
        }
        bot = await asyncio.create_subprocess_exec(
            str(catnip), *command[1:], cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
        )
        output = Output(bot)
        try:
            await output.wait_for(lambda _: output.count(": resumed 0 games") == 1)
            assert await run(probe, env) == 0, "alive: healthy"
            bot.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(bot.wait(), 30) == 0
            assert await run(probe, env) != 0, "gone: unhealthy"
        finally:
            if bot.returncode is None:
                bot.kill()
                await bot.wait()
    assert all(line.startswith("{") for line in output.lines), "LOG_FORMAT=json, as the image sets"


def test_the_systemd_unit_runs_the_readmes_catnip_fleet_and_systemd_accepts_it(tmp_path):
    unit = (DEPLOY / "catnip.service").read_text()
    values = dict(re.findall(r"^(\w+)=(.*)$", unit, re.MULTILINE))
    executable, *arguments = values["ExecStart"].split()
    assert executable == values["WorkingDirectory"] + "/.venv/bin/catnip"  # the README's install, there
    assert arguments[0] == "fleet"
    fleet = parse(arguments[1:])
    assert int(values["TimeoutStopSec"]) > fleet.stop_timeout, "the fleet stops its processes first"
    assert values["KillMode"] == "mixed"
    assert {int(code) for code in values["RestartPreventExitStatus"].split()} == set(STOPS_THE_FLEET)
    checker = shutil.which("systemd-analyze")
    if checker is None:
        pytest.skip("systemd-analyze is not installed: the unit's syntax is not checked here")
    here = tmp_path / "catnip.service"  # the same unit, pointed at this clone
    here.write_text(unit.replace(values["WorkingDirectory"], str(ROOT)).replace("User=catnip", "User=root")
                    .replace("Group=catnip", "Group=root"))  # fmt: skip
    checked = subprocess.run([checker, "verify", str(here)], capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0 and checked.stderr == "", checked.stderr


def test_the_compose_file_runs_postgresql_and_a_fleet_with_real_settings():
    yaml = pytest.importorskip("yaml", reason="PyYAML comes with the test extra ('.[test]')")
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    postgres, catnip = compose["services"]["postgres"], compose["services"]["catnip"]
    assert postgres["image"].startswith("postgres:") and "pg_isready" in postgres["healthcheck"]["test"]
    build = catnip["build"]
    assert (DEPLOY / build["context"] / build["dockerfile"]).resolve() == DEPLOY / "Dockerfile"
    command = catnip["command"]
    assert command[:2] == ["catnip", "fleet"]
    fleet = parse(command[2:])
    env = catnip["environment"]
    assert set(env) <= SETTINGS, set(env) - SETTINGS
    settings = {name.lower(): re.sub(r"\$\{(\w+)[^}]*\}", "x", str(value)) for name, value in env.items()}
    chosen = Settings(_env_file=None, **settings)
    assert chosen.database_url.get_secret_value().startswith("postgresql://catnip:x@postgres:5432/")
    assert chosen.metrics_host == "0.0.0.0"
    ports = range(chosen.metrics_port, chosen.metrics_port + fleet.processes)  # process i: METRICS_PORT + i
    (published,) = catnip["ports"]
    assert published == f"127.0.0.1:{ports[0]}-{ports[-1]}:{ports[0]}-{ports[-1]}"
    assert catnip["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert int(catnip["stop_grace_period"].rstrip("s")) > fleet.stop_timeout
    assert catnip["init"] is True


def runtime_answers() -> bool:
    docker = shutil.which("docker")
    if docker is None:
        return False
    return subprocess.run([docker, "info"], capture_output=True, timeout=60).returncode == 0


@pytest.mark.skipif(not runtime_answers(), reason="no container runtime answers here (`docker info`)")
def test_the_image_builds_and_its_catnip_answers():
    built = subprocess.run(
        ["docker", "build", "-f", str(DEPLOY / "Dockerfile"), "-t", "catnip-test", str(ROOT)],
        capture_output=True, text=True, timeout=1200,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-3000:]
    ran = subprocess.run(
        ["docker", "run", "--rm", "catnip-test", "catnip", "migrate-db", "--help"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert ran.returncode == 0 and "--to" in ran.stdout
    user = subprocess.run(
        ["docker", "run", "--rm", "catnip-test", "id", "-u"], capture_output=True, text=True, timeout=300
    )
    assert user.stdout.strip() == "10001"
    compose = subprocess.run(
        ["docker", "compose", "-f", str(DEPLOY / "compose.yaml"), "config", "--quiet"],
        capture_output=True, text=True, timeout=120, env={**os.environ, "DISCORD_TOKEN": "a-token"},
    )  # fmt: skip
    assert compose.returncode == 0, compose.stderr
