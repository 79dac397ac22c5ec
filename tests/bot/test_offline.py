"""The offline demo a newcomer sees when no Discord token is configured."""

from bot.config import Settings
from bot.offline import run_offline
from emulator.ratelimits import DISCORD


async def test_the_offline_demo_plays_a_game_to_the_end_and_explains_how_to_connect(tmp_path):
    lines: list[str] = []
    settings = Settings(_env_file=None, database_path=tmp_path / "unused.sqlite3", computer_delay_seconds=0)
    # Computers move without a pause here, so Discord's windows are made 100 times shorter to keep pace.
    await run_offline(settings, games=("catsdogs",), write=lines.append, rate_limits=DISCORD.scaled(0.01))
    text = "\n".join(lines)
    assert "Cats & Dogs" in text and "plays" in text
    assert "🏆" in text, "the final table with the winners is printed"
    assert "DISCORD_TOKEN" in text.splitlines()[-1]
    assert not (tmp_path / "unused.sqlite3").exists(), "the demo never touches the configured database"
