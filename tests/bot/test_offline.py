"""The offline demo a newcomer sees when no Discord token is configured."""

import logging
from collections.abc import Sequence

import pytest

from bot.config import Settings
from bot.live import LiveGame
from bot.offline import run_offline
from emulator.ratelimits import DISCORD
from engine import GAMES, Event, events_for

MOVE_MARK = "  🐾 "


class Committed:
    """What the bot committed, game by game: each change's version and its public events."""

    def __init__(self) -> None:
        self.versions: dict[int, list[int]] = {}
        self.lines: list[str] = []

    async def lobby_changed(self, game: LiveGame) -> None:
        return None

    async def game_changed(self, game: LiveGame, events: Sequence[Event]) -> None:
        self.versions.setdefault(game.id, []).append(game.record.version)
        self.lines += [f"{MOVE_MARK}{event.render(game.names)}" for event in events_for(events, None)]

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


async def test_the_offline_demo_tells_every_move_of_every_game_once_in_order(tmp_path, log_levels):
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
    finals = [line for line in lines if line.startswith("  │ 🏆")]
    assert len(finals) == len(GAMES), "each final table once, with its winners"
    assert all("Round 3 is over" not in line for line in lines if line.startswith("  │")), (
        "the final table does not repeat the moves already told"
    )
    assert "DISCORD_TOKEN" in lines[-1]
    assert not (tmp_path / "unused.sqlite3").exists(), "the demo never touches the configured database"
    assert logging.getLogger("catnip").getEffectiveLevel() == logging.WARNING, "no INFO lines beside it"


async def test_the_demo_logs_as_asked_when_a_log_level_is_set(tmp_path, log_levels):
    logging.getLogger("catnip").setLevel(logging.INFO)
    settings = Settings(
        _env_file=None, database_path=tmp_path / "unused.sqlite3", computer_delay_seconds=0, log_level="INFO"
    )
    await run_offline(settings, games=("catsdogs",), write=[].append, rate_limits=DISCORD.scaled(0.01))
    assert logging.getLogger("catnip").getEffectiveLevel() == logging.INFO
