"""Shard settings and plans: which shards a process runs, which guilds' games it owns, how a fleet
splits its shards, and what a process says at start when its shard settings cannot work."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import SettingsError, load_settings
from bot.sharding import ShardPlan, describe_ids, parse_shard_ids, shard_of, split_shards
from tests.bytecode import bytecode_settings

REPO = Path(__file__).resolve().parents[2]


def guild_on_shard(shard: int, count: int) -> int:
    """A guild id whose events Discord sends to `shard` of `count`."""
    return ((1_000_000 * count + shard) << 22) | 12345


def test_shard_ids_take_single_ids_and_ranges():
    assert parse_shard_ids("0-3") == (0, 1, 2, 3)
    assert parse_shard_ids("5, 0,2-3") == (0, 2, 3, 5)
    assert describe_ids((0, 1, 2, 5, 7, 8)) == "0-2,5,7-8"
    for bad in ("", "a", "3-1", "1-", "-2", "0;1"):
        with pytest.raises(ValueError):
            parse_shard_ids(bad)


def test_a_process_owns_the_games_of_its_shards_guilds_and_direct_messages_belong_to_shard_0():
    plan = ShardPlan((1, 2), 4)
    assert [plan.owns(guild_on_shard(shard, 4)) for shard in range(4)] == [False, True, True, False]
    assert not plan.owns(None) and ShardPlan((0,), 4).owns(None)
    assert shard_of(guild_on_shard(3, 4), 4) == 3
    assert ShardPlan.everything().owns(guild_on_shard(3, 4))
    assert str(plan) == "shards 1-2 of 4" and str(ShardPlan((0,), 2)) == "shard 0 of 2"


def test_a_fleet_splits_its_shards_into_disjoint_ranges_covering_all_of_them():
    assert split_shards(4, 2) == [(0, 1), (2, 3)]
    assert split_shards(7, 3) == [(0, 1, 2), (3, 4), (5, 6)]
    assert split_shards(3, 3) == [(0,), (1,), (2,)]
    with pytest.raises(ValueError):
        split_shards(2, 3)


def test_shard_settings_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("SHARD_COUNT", "8")
    monkeypatch.setenv("SHARD_IDS", "4-7")
    settings = load_settings(_env_file=None)
    assert settings.shard_count == 8 and settings.shard_ids == (4, 5, 6, 7)
    monkeypatch.delenv("SHARD_COUNT")
    monkeypatch.delenv("SHARD_IDS")
    defaults = load_settings(_env_file=None)
    assert defaults.shard_count is None and defaults.shard_ids is None  # Discord's count, every shard


@pytest.mark.parametrize(
    ("environment", "complaint"),
    [
        (
            {"SHARD_COUNT": "4", "SHARD_IDS": "2-4"},
            "SHARD_IDS: Value error, shard 4 is outside SHARD_COUNT=4",
        ),
        ({"SHARD_IDS": "0-1"}, "SHARD_IDS: Value error, needs SHARD_COUNT too"),
        ({"SHARD_COUNT": "4", "SHARD_IDS": "one"}, "SHARD_IDS: Value error, 'one' is not a shard id"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT: Input should be greater than or equal to 1"),
    ],
)
def test_unusable_shard_settings_stop_the_bot_with_a_line_naming_the_setting(
    tmp_path, environment, complaint
):
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(REPO), "DISCORD_TOKEN": "x", **environment}
    env.update(bytecode_settings())
    run = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    problems = run.stderr.strip().splitlines()
    assert len(problems) == 1 and problems[0].startswith(f"catnip: {complaint}"), run.stderr


def test_settings_errors_name_shard_ids_without_a_shard_count():
    with pytest.raises(SettingsError) as error:
        load_settings(_env_file=None, shard_ids="0")
    assert str(error.value).startswith("SHARD_IDS:")
