"""The README's backups, run as written: each store is backed up while the bot plays on it, restored
into a fresh file or database, and a real bot process started on the restore (the README's command)
resumes the game where the backup left it and goes on with it."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg
from pgserver._commands import POSTGRES_BIN_PATH

from bot.fleet import Fleet
from bot.storage import GameStore, PostgresGameStore, SqliteGameStore
from emulator import Emulator
from engine import Rng
from tests.bot.test_fleet import REPO, Output, bot_environment
from tests.bot.test_offline import readme_command
from tests.e2e.driver import FAST_DISCORD, Table, open_table, start_catnip
from tests.e2e.processes import FOOTER, NO_PICTURES, Witness, check_saved, old_buttons_answer

README_URL = re.compile(r"postgresql://catnip:password@localhost/(\w+)")
STEPS_BEFORE = 4
STEPS_DURING = 12
"""At most: the game is far from over after this many (the bot plays on while the backup is made)."""
MAX_STEPS = 30
"""Clicks a member may need to make a move: a click can be a refusal ("not your turn") or open a view."""


def as_run(words: list[str], env: dict[str, str], url: Callable[[str], str] | None) -> tuple[list, dict]:
    """A README command line as a program and its environment: `NAME=value` words in front go into
    the environment, `.venv/bin/catnip` is this Python's `-m bot`, and with `url` each README database
    URL is the test server's database of the same name."""
    env = dict(env)
    while words and re.match(r"^[A-Z_]+=", words[0]):
        name, _, value = words.pop(0).partition("=")
        env[name] = value
    if url is not None:
        words = [README_URL.sub(lambda found: url(found[1]), word) for word in words]
        env = {name: README_URL.sub(lambda found: url(found[1]), value) for name, value in env.items()}
    if words[0] == ".venv/bin/catnip":
        words = [sys.executable, "-m", "bot", *words[1:]]
    return words, env


async def start_written(
    starting: str, cwd: Path, env: dict[str, str], url: Callable[[str], str] | None = None, **options
) -> asyncio.subprocess.Process:
    words, env = as_run(readme_command(starting), env, url)
    return await asyncio.create_subprocess_exec(*words, cwd=cwd, env=env, **options)


async def run_written(starting: str, cwd: Path, env: dict[str, str], url=None) -> str:
    """Run the README's command that starts with `starting` to its end; what it printed."""
    process = await start_written(
        starting, cwd, env, url, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, f"{starting}: {err.decode()}"
    return out.decode()


def tool_environment(tmp_path: Path) -> dict[str, str]:
    """No .env, the emulator's token, and the PostgreSQL programs of the tests' server first on PATH."""
    env = bot_environment("", tmp_path)
    del env["CATNIP_EMULATOR_URL"], env["DATABASE_PATH"]
    env["PATH"] = f"{POSTGRES_BIN_PATH}{os.pathsep}{env['PATH']}"
    return env


async def back_up_and_resume(
    tmp_path: Path,
    *,
    database_url: str | None,
    back_up: Callable[[], Awaitable[asyncio.subprocess.Process]],
    restore: Callable[[], Awaitable[None]],
    start_restored: Callable[[str], Awaitable[asyncio.subprocess.Process]],
    backup_store: Callable[[], GameStore],
    # read once `restore` ran: what the backup holds
    restored_store: Callable[[], GameStore],
) -> None:
    async with Emulator.start(members=["Ann", "Bo", "Cy"], rate_limits=FAST_DISCORD) as emu:
        with emu.point_discord_py():
            bot = await start_catnip(emu, tmp_path / "catnip.sqlite3", database_url=database_url)
            try:
                thread, members = await open_table(emu, "catsdogs", 3)
                table = Table(emu, thread, members, Rng.seeded(3))
                game_id = int(FOOTER.search(table.table().embeds[0]["footer"]["text"])[1])
                for _ in range(STEPS_BEFORE):
                    await table.step()
                committed = bot.service.live[game_id].record.version - 1
                backup = await back_up()
                steps = 0
                while backup.returncode is None and steps < STEPS_DURING:
                    await table.step()
                    steps += 1
                assert await asyncio.wait_for(backup.wait(), 60) == 0
                moved_on = bot.service.live[game_id].record.version
                while bot.service.live[game_id].record.version == moved_on:  # a move the backup lacks
                    await table.step()
                played = bot.service.live[game_id].record.version - 1
                before = table.table()
            finally:
                await emu.stop_bot(bot)

            await restore()
            store = backup_store()
            await store.open()
            try:  # the backup holds the game whole as it stood at one moment of the play
                backed_up = (await check_saved(store, Witness(), []))[game_id]
            finally:
                await store.close()
            assert 1 <= committed <= backed_up < played
            shown = Witness()
            emu.on_message(shown)
            restored = await start_restored(emu.url)
            output = Output(restored)
            try:
                await output.wait_for(lambda lines: any(": resumed 1 games" in line for line in lines))
                # The table shows the game as it stood at the backup again, and its buttons answer.
                await emu.wait_for(lambda: shown.shown.get(game_id) == backed_up, timeout=20)
                await old_buttons_answer([table], {id(table): before})
                for _ in range(MAX_STEPS):
                    if shown.shown[game_id] > backed_up:
                        break
                    await table.step()
                assert shown.shown[game_id] == backed_up + 1, "a move made on the restore"
                restored.terminate()
                assert await asyncio.wait_for(restored.wait(), 30) == 0
            finally:
                if restored.returncode is None:
                    restored.kill()
                    await restored.wait()
            assert not [line for line in output.lines if "Traceback" in line], "\n".join(output.lines)

    store = restored_store()
    await store.open()
    try:
        assert (await check_saved(store, shown, []))[game_id] == backed_up + 1
    finally:
        await store.close()


async def test_a_sqlite_backup_made_during_play_restores_into_a_fresh_file_where_the_game_goes_on(tmp_path):
    env = tool_environment(tmp_path)

    async def back_up() -> asyncio.subprocess.Process:
        # DATABASE_PATH left at its default, ./catnip.sqlite3: the file the bot plays on.
        return await start_written(".venv/bin/catnip backup-db", tmp_path, env)

    async def restore() -> None:
        await run_written("cp ./catnip-backup.sqlite3", tmp_path, env)

    async def start_restored(emulator_url: str) -> asyncio.subprocess.Process:
        started = {**env, "CATNIP_EMULATOR_URL": emulator_url, **NO_PICTURES}
        return await start_written("DATABASE_PATH=", tmp_path, started, stderr=asyncio.subprocess.PIPE)

    await back_up_and_resume(
        tmp_path,
        database_url=None,
        back_up=back_up,
        restore=restore,
        start_restored=start_restored,
        backup_store=lambda: SqliteGameStore(tmp_path / "catnip-backup.sqlite3"),
        restored_store=lambda: SqliteGameStore(tmp_path / "catnip-restored.sqlite3"),
    )


async def test_a_postgresql_dump_made_during_play_restores_into_a_new_database_where_the_game_goes_on(
    tmp_path, postgres_server
):
    def url(database: str) -> str:
        return postgres_server.get_uri(database)

    admin = await asyncpg.connect(url("postgres"))
    try:
        for name in ("catnip", "catnip_restored"):  # the README's names, new on this server
            await admin.execute(f"DROP DATABASE IF EXISTS {name}")
        await admin.execute("CREATE DATABASE catnip")
    finally:
        await admin.close()
    env = tool_environment(tmp_path)

    async def back_up() -> asyncio.subprocess.Process:
        return await start_written("pg_dump ", tmp_path, env, url)

    async def restore() -> None:
        await run_written("psql ", tmp_path, env, url)
        await run_written("pg_restore ", tmp_path, env, url)

    async def start_restored(emulator_url: str) -> asyncio.subprocess.Process:
        started = {**env, "CATNIP_EMULATOR_URL": emulator_url, **NO_PICTURES}
        return await start_written("DATABASE_URL=", tmp_path, started, url, stderr=asyncio.subprocess.PIPE)

    # The dump is read where it was restored, before a bot starts on it.
    await back_up_and_resume(
        tmp_path,
        database_url=url("catnip"),
        back_up=back_up,
        restore=restore,
        start_restored=start_restored,
        backup_store=lambda: PostgresGameStore(url("catnip_restored")),
        restored_store=lambda: PostgresGameStore(url("catnip_restored")),
    )


def test_the_scrape_configuration_names_the_ports_a_fleet_serves_on():
    readme = (REPO / "README.md").read_text()
    said = re.search(r"a fleet of two processes started with `METRICS_PORT=(\d+)`", readme)
    assert said, "the README says which fleet its scrape configuration is for"
    block = re.search(r"```yaml\n(.*?)```", readme, re.DOTALL)[1]
    targets = re.findall(r'"localhost:(\d+)"', block)
    fleet = Fleet(2, 2, command=[], env={}, metrics_port=int(said[1]))
    assert [int(port) for port in targets] == [member.port for member in fleet.members]
    assert "job_name: catnip" in block and "static_configs:" in block
