"""The offline demo a newcomer sees when no Discord token is configured, and the file it leaves."""

import logging
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from bench.postgres_server import fresh_schema_url
from bot.config import Settings
from bot.live import LiveGame
from bot.offline import run_offline
from bot.storage import PostgresGameStore
from emulator.ratelimits import DISCORD
from engine import GAMES, Event, events_for
from tests.bytecode import bytecode_settings

MOVE_MARK = "  🐾 "


class Committed:
    """What the bot committed, game by game: each change's version and its public events."""

    def __init__(self) -> None:
        self.versions: dict[int, list[int]] = {}
        self.lines: list[str] = []
        self.told: dict[int, int] = {}
        """Per game, in the order played, how many lines its moves have."""

    async def lobby_changed(self, game: LiveGame) -> None:
        return None

    async def game_changed(self, game: LiveGame, events: Sequence[Event]) -> None:
        self.versions.setdefault(game.id, []).append(game.record.version)
        lines = [f"{MOVE_MARK}{event.render(game.names)}" for event in events_for(events, None)]
        self.lines += lines
        self.told[game.id] = self.told.get(game.id, 0) + len(lines)

    async def game_closed(self, game: LiveGame, reason: str) -> None:
        return None

    async def games_resumed(self, games: Sequence[LiveGame]) -> None:
        return None


@pytest.fixture
def log_levels():
    """The demo quiets the loggers for the rest of its process; put them back for the other tests."""
    loggers = [logging.getLogger(name) for name in ("", "catnip", "discord", "discord.client")]
    levels = [logger.level for logger in loggers]
    yield
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)


REPO = Path(__file__).resolve().parents[2]
README_URL = "postgresql://catnip:password@localhost/catnip"


def readme_command(starting: str) -> list[str]:
    """The README's shell command that starts with `starting`, as words."""
    found = re.search(rf"^({re.escape(starting)}.*)$", (REPO / "README.md").read_text(), re.MULTILINE)
    assert found, f"the README has no command starting {starting!r}"
    return shlex.split(found[1])


async def test_the_offline_demo_tells_every_move_of_every_game_once_in_order_and_leaves_its_database(
    tmp_path, monkeypatch, log_levels, postgres_server
):
    monkeypatch.chdir(tmp_path)
    for variable in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "en_US.UTF-8")  # the terminal's language, which the demo speaks
    lines: list[str] = []
    committed = Committed()
    settings = Settings(_env_file=None, database_path=tmp_path / "unused.sqlite3", computer_delay_seconds=0)
    # Computers move without a pause here, so Discord's windows are made 100 times shorter to keep pace.
    await run_offline(settings, write=lines.append, rate_limits=DISCORD.scaled(0.01), listeners=[committed])
    text = "\n".join(lines)
    lines = text.split("\n")
    for game in GAMES.values():
        assert f"{game.rules.title} — table #" in text
    assert len(committed.versions) == len(GAMES), "one game of each kind"
    for versions in committed.versions.values():
        assert versions == sorted(versions), "told in the order committed"
        assert sorted(set(versions)) == list(range(1, versions[-1] + 1)), "every move was told"
    told = [line for line in lines if line.startswith(MOVE_MARK)]
    assert told == committed.lines, "each move's lines, once, in the order the moves were made"
    told_before = 0
    for game_id, count in committed.told.items():
        table = next(
            index
            for index, line in enumerate(lines)
            if line.startswith("  │ **Now:**") and f"table #{game_id}" in lines[index - 1]
        )
        assert sum(line.startswith(MOVE_MARK) for line in lines[:table]) == told_before, (
            f"game {game_id}: no move is told before the table showing it"
        )
        told_before += count
    assert "You" not in text.replace("Your ", "").split(), "the demo's members have names"
    assert f"{MOVE_MARK}Mia left; a computer player took over the seat." in told
    finals = [line for line in lines if line.startswith("  │ 🏆")]
    assert len(finals) == len(GAMES), "each final table once, with its winners"
    assert all("Round 3 is over" not in line for line in lines if line.startswith("  │")), (
        "the final table does not repeat the moves already told"
    )
    assert "DISCORD_TOKEN" in lines[-1]
    assert not (tmp_path / "unused.sqlite3").exists(), "the demo never touches the configured database"
    assert logging.getLogger("catnip").getEffectiveLevel() == logging.WARNING, "no INFO lines beside it"

    assert "The demo's games are kept in catnip-demo.sqlite3" in text

    # The README's command, as written but for the server's address, moves the demo's game.
    url = await fresh_schema_url(postgres_server.get_uri())
    written = readme_command(".venv/bin/catnip migrate-db --from ./catnip-demo.sqlite3")
    command = [word if word != README_URL else url for word in written]
    catnip = [sys.executable, "-m", "bot"]  # what .venv/bin/catnip runs
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(REPO), **bytecode_settings()}
    moved = subprocess.run(catnip + command[1:], env=env, capture_output=True, text=True, timeout=60)
    assert moved.returncode == 0, moved.stderr
    store = PostgresGameStore(url)
    await store.open()
    try:
        assert (await store.games.get_game(1)).status == "finished"
    finally:
        await store.close()


async def test_the_demo_speaks_the_terminal_s_language(tmp_path, monkeypatch, log_levels):
    monkeypatch.chdir(tmp_path)
    for variable in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")  # as the README says
    lines: list[str] = []
    committed = Committed()
    settings = Settings(_env_file=None, database_path=tmp_path / "unused.sqlite3", computer_delay_seconds=0)
    await run_offline(
        settings,
        games=("catsdogs",),
        players=3,
        write=lines.append,
        rate_limits=DISCORD.scaled(0.01),
        listeners=[committed],
    )
    text = "\n".join(lines)
    lines = text.split("\n")
    assert lines[0].startswith("Aucun DISCORD_TOKEN n'est configuré"), lines[0]
    assert "Cats & Dogs — table #1" in text and "  │ **Maintenant :**" in text, text
    assert "Ce qui s'est passé" not in text, "its moves are told one by one, not as the table's field"
    assert sum(line.startswith("  │ 🏆") for line in lines) == 1, "the final table, once"
    assert "catnip-demo.sqlite3" in text and "DISCORD_TOKEN=" in lines[-1]
    assert committed.versions, "the game was played"


async def test_the_demo_logs_as_asked_when_a_log_level_is_set(tmp_path, log_levels):
    logging.getLogger("catnip").setLevel(logging.INFO)
    settings = Settings(
        _env_file=None, database_path=tmp_path / "unused.sqlite3", computer_delay_seconds=0, log_level="INFO"
    )
    await run_offline(settings, games=("catsdogs",), write=[].append, rate_limits=DISCORD.scaled(0.01))
    assert logging.getLogger("catnip").getEffectiveLevel() == logging.INFO
