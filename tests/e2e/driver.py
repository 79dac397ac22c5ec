"""Simulated members playing Catnip over the emulated Discord (bench/members.py), and what the tests read
from the messages they see."""

from __future__ import annotations

from bench import members
from bench.members import (
    ACTION,
    DEFERRED_UPDATE,
    FAST_DISCORD,
    MEMBERS,
    EmulatorClock,
    Table,
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
    "private_reply",
    "settings_for",
    "start_catnip",
    "start_enabled",
    "table_of",
]

LOST_TOKENS = 0.05
"""The share of interaction-token requests Discord answers 404 though the token is valid
(`emulator.lost_tokens.LostTokens`, seeded: a run repeats) in the tests here: on unless a test is about
the routes a working token takes, and then it says so (``lost_tokens=0``)."""


def catnip(tmp_path, *args, **options):
    """`bench.members.catnip`, with Discord losing some valid tokens (`LOST_TOKENS`) unless told."""
    options.setdefault("lost_tokens", LOST_TOKENS)
    return members.catnip(tmp_path, *args, **options)


NARRATION = {"What happened", "Recently"}
SECRET_FIELDS = ("Your hand", "Your pick", "Your life stack", "Your recall", "Your mooch")


async def private_reply(member, message, component: str, *, force: bool = False) -> str:
    """`member` clicks `component` (a label or custom_id) on `message`: the text of the answer only they
    see (`force`: a click the message does not offer, as a forged one)."""
    result = await member.click(message, component, force=force)
    assert result.ok, result.failed
    reply = result.message
    assert reply is not None and reply.ephemeral and reply.visible_to == member.id
    return reply.text()


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
