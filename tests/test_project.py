"""The project's front door: the README's commands, CI, and the settings a newcomer meets first."""

from pathlib import Path

import pytest

from bot.config import THREAD_ARCHIVE_MINUTES, SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[1]


def test_ci_runs_exactly_the_readme_test_command():
    ci_lines = [line for line in (ROOT / ".ci/run").read_text().splitlines() if line and line[0] not in "#"]
    command = ci_lines[-1]
    assert "pytest" in command and "ruff check" in command
    assert f"\n{command}\n" in (ROOT / "README.md").read_text()


def test_env_example_lists_every_setting():
    from bot.config import Settings

    example = (ROOT / ".env.example").read_text()
    for name in Settings.model_fields:
        assert f"\n{name.upper()}=" in example, f"{name.upper()} is missing from .env.example"


def test_a_bad_setting_is_named_in_one_line(monkeypatch):
    monkeypatch.setenv("TURN_TIMER_SECONDS", "soon")
    with pytest.raises(SettingsError) as error:
        load_settings(_env_file=None)
    assert str(error.value).startswith("TURN_TIMER_SECONDS:")
    assert "\n" not in str(error.value)


def test_a_game_may_stay_idle_at_most_until_a_day_before_its_thread_archives(monkeypatch):
    monkeypatch.setenv("ABANDON_AFTER_HOURS", "168")
    with pytest.raises(SettingsError) as error:
        load_settings(_env_file=None)
    assert str(error.value) == "ABANDON_AFTER_HOURS: Input should be less than or equal to 144 (got '168')"
    monkeypatch.setenv("ABANDON_AFTER_HOURS", "144")
    assert load_settings(_env_file=None).abandon_after_hours * 60 < THREAD_ARCHIVE_MINUTES


def test_defaults_need_no_configuration(monkeypatch):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    settings = load_settings(_env_file=None)
    assert settings.discord_token is None
    assert settings.database_path.name == "catnip.sqlite3"


def test_a_copy_of_env_example_leaves_the_offline_demo_quiet(monkeypatch):
    # The demo logs only warnings unless LOG_LEVEL is set (README, bot/offline.py): a copied
    # .env.example sets none.
    monkeypatch.delenv("LOG_LEVEL", raising=False)
    settings = load_settings(_env_file=ROOT / ".env.example")
    assert "log_level" not in settings.model_fields_set and settings.log_level == "INFO"


def test_a_copy_of_env_example_is_a_valid_configuration(monkeypatch):
    for name in ("DISCORD_TOKEN", "DEV_GUILD_ID"):
        monkeypatch.delenv(name, raising=False)
    settings = load_settings(_env_file=ROOT / ".env.example")
    assert settings.dev_guild_id is None and settings.turn_timer_seconds == 120
