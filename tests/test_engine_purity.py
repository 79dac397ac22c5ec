"""The engine package stays pure: no Discord, no database, no bot, no clock, no global random."""

import ast
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[1] / "engine"
FORBIDDEN_IMPORTS = {"discord", "aiosqlite", "bot", "cogs", "random", "time", "datetime", "asyncio"}
ENGINE_FILES = sorted(ENGINE.rglob("*.py"))


def imported_roots(source: str) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_module_imports_nothing_impure(path):
    relative = path.relative_to(ENGINE)
    if path.name in {"testing.py", "ai.py"} or relative.parts[0] == "ai":
        forbidden = FORBIDDEN_IMPORTS - {"time"}  # computer players keep a time budget per decision
    else:
        forbidden = FORBIDDEN_IMPORTS
    assert not imported_roots(path.read_text()) & forbidden


def test_the_check_sees_a_forbidden_import():
    assert "discord" in imported_roots("import discord.ext.commands\nfrom aiosqlite import connect")


def test_every_game_is_registered_under_its_key():
    from engine import GAMES

    assert set(GAMES) == {"catsanity", "madcat", "catsdogs", "ninelives"}
    assert all(key == game.rules.key == game.key for key, game in GAMES.items())
