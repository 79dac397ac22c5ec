"""Simulated members playing Catnip over the emulated Discord (bench/members.py), and what the tests read
from the messages they see."""

from __future__ import annotations

from bench.members import (
    ACTION,
    DEFERRED_UPDATE,
    FAST_DISCORD,
    MEMBERS,
    EmulatorClock,
    Table,
    catnip,
    open_table,
    opened_panel,
    settings_for,
    start_catnip,
    start_enabled,
    table_of,
)

__all__ = [
    "ACTION",
    "DEFERRED_UPDATE",
    "FAST_DISCORD",
    "MEMBERS",
    "EmulatorClock",
    "Table",
    "catnip",
    "open_table",
    "opened_panel",
    "settings_for",
    "start_catnip",
    "start_enabled",
    "table_of",
]

NARRATION = {"What happened", "Recently"}
SECRET_FIELDS = ("Your hand", "Your pick", "Your life stack", "Your recall", "Your mooch")


def fields(message, *, skip=NARRATION) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", []) if f["name"] not in skip]
    return "\n".join(parts)


def secret_items(message) -> set[str]:
    """The private items a panel shows: each line of its secret fields (your hand, your pick …)."""
    items = set()
    for embed in message.embeds:
        for f in embed.get("fields", []):
            if f["name"].startswith(SECRET_FIELDS):
                items |= {line.strip() for line in f["value"].split("\n") if len(line.strip()) > 2}
    return items
