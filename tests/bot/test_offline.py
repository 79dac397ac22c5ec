"""The offline demo a newcomer sees when no Discord token is configured, and the file it leaves."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from bot.config import Settings
from bot.offline import run_offline
from bot.storage import PostgresGameStore
from emulator.ratelimits import DISCORD
from tests.postgres_server import fresh_schema_url

REPO = Path(__file__).resolve().parents[2]
README_URL = "postgresql://catnip:password@localhost/catnip"


def readme_command(starting: str) -> list[str]:
    """The README's shell command that starts with `starting`, as words."""
    found = re.search(rf"^({re.escape(starting)}.*)$", (REPO / "README.md").read_text(), re.MULTILINE)
    assert found, f"the README has no command starting {starting!r}"
    return shlex.split(found[1])


async def test_the_offline_demo_plays_a_game_leaves_its_database_for_migrate_db_and_explains_how_to_connect(
    tmp_path, monkeypatch, postgres_server
):
    monkeypatch.chdir(tmp_path)
    lines: list[str] = []
    settings = Settings(_env_file=None, database_path=tmp_path / "unused.sqlite3", computer_delay_seconds=0)
    # Computers move without a pause here, so Discord's windows are made 100 times shorter to keep pace.
    await run_offline(settings, games=("catsdogs",), write=lines.append, rate_limits=DISCORD.scaled(0.01))
    text = "\n".join(lines)
    assert "Cats & Dogs" in text and "plays" in text
    assert "🏆" in text, "the final table with the winners is printed"
    assert "DISCORD_TOKEN" in text.splitlines()[-1]
    assert "The demo's games are kept in catnip-demo.sqlite3" in text
    assert not (tmp_path / "unused.sqlite3").exists(), "the demo never touches the configured database"

    # The README's command, as written but for the server's address, moves the demo's game.
    url = await fresh_schema_url(postgres_server.get_uri())
    written = readme_command(".venv/bin/catnip migrate-db --from ./catnip-demo.sqlite3")
    command = [word if word != README_URL else url for word in written]
    catnip = [sys.executable, "-m", "bot"]  # what .venv/bin/catnip runs
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(REPO)}
    moved = subprocess.run(catnip + command[1:], env=env, capture_output=True, text=True, timeout=60)
    assert moved.returncode == 0, moved.stderr
    store = PostgresGameStore(url)
    await store.open()
    try:
        assert (await store.get_game(1)).status == "finished"
    finally:
        await store.close()
