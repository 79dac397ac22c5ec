"""`cog_extensions`: the Discord front's extensions the bot loads, found by name (bot never imports cogs)."""

from __future__ import annotations

from pathlib import Path

COGS_DIR = Path(__file__).resolve().parents[1] / "cogs"


def cog_extensions() -> list[str]:
    """Every extension under cogs/: a package whose __init__ defines `setup`."""
    return sorted(
        f"cogs.{path.parent.name}"
        for path in COGS_DIR.glob("*/__init__.py")
        if "async def setup(" in path.read_text()
    )
