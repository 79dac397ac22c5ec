"""What each command loads: a command that needs no Discord, no database server or no pictures
does not pay for importing them (docs/performance.md, "The suite's processes")."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("discord", "aiohttp", "asyncpg", "PIL", "emulator", "jsonschema")

LOADED = """
import sys
{code}
print(" ".join(sorted({{name.split(".")[0] for name in sys.modules}} & set(sys.argv[1:]))))
"""


def loaded(code: str) -> set[str]:
    """Which of `HEAVY` a fresh interpreter has loaded after running `code`."""
    done = subprocess.run(
        [sys.executable, "-c", LOADED.format(code=code), *HEAVY], capture_output=True, text=True, check=True
    )
    return set(done.stdout.split())


@pytest.mark.parametrize(
    ("command", "module"),
    [
        ("catnip (what every command imports first)", "bot.__main__"),
        ("catnip fleet", "bot.fleet"),
        ("catnip backup-db", "bot.storage.sqlite"),
    ],
)
def test_the_commands_that_do_not_talk_to_discord_load_none_of_it(command, module):
    assert loaded(f"import {module}") == set(), command


def test_a_bot_on_sqlite_loads_no_postgresql_driver_and_no_emulator(tmp_path):
    database = str(tmp_path / "c.sqlite3")
    made = loaded(
        "from bot.app import create_bot; from bot.config import Settings; "
        f"create_bot(Settings(discord_token='t', database_path={database!r}, _env_file=None))"
    )
    assert "discord" in made and not made & {"asyncpg", "emulator", "jsonschema"}
