"""Readable text of what a Discord user sees: messages with embeds and components, as a transcript."""

from __future__ import annotations

import datetime as dt
import re
import sys
from collections.abc import Callable
from typing import Any

from emulator.limits import walk_components
from emulator.model import StoredMessage, World

_STYLES = {1: "", 2: "", 3: "✓ ", 4: "✗ ", 5: "↗ "}


def _emoji(component: dict[str, Any]) -> str:
    emoji = component.get("emoji") or {}
    return f"{emoji['name']} " if emoji.get("name") and not emoji.get("id") else ""


def render_components(components: list[dict[str, Any]]) -> list[str]:
    """One line per action row: ``[Join] [Start]`` buttons and ``▾ placeholder (options)`` selects."""
    lines = []
    for row in components:
        parts = []
        for component in walk_components([row]):
            kind = component.get("type")
            if kind == 2:
                style = _STYLES.get(component.get("style", 1), "")
                label = f"{style}{_emoji(component)}{component.get('label') or ''}"
                parts.append(f"[{label.strip()}]" + (" (disabled)" if component.get("disabled") else ""))
            elif kind in (3, 5, 6, 7, 8):
                options = ", ".join(o.get("label", "") for o in component.get("options") or [])
                placeholder = component.get("placeholder") or "choose"
                parts.append(f"▾ {placeholder}" + (f" ({options})" if options else ""))
            elif kind == 10:
                parts.append(str(component.get("content", "")))
        if parts:
            lines.append(" ".join(parts))
    return lines


def render_embed(embed: dict[str, Any]) -> list[str]:
    lines = []
    if (embed.get("author") or {}).get("name"):
        lines.append(embed["author"]["name"])
    if embed.get("title"):
        lines.append(f"**{embed['title']}**")
    if embed.get("description"):
        lines += str(embed["description"]).splitlines()
    for field in embed.get("fields") or []:
        name, *rest = f"{field.get('name')}: {field.get('value')}".splitlines() or [""]
        lines += [name, *(f"  {line}" for line in rest)]
    if (embed.get("footer") or {}).get("text"):
        lines.append(f"— {embed['footer']['text']}")
    return lines


_MENTION = re.compile(r"<(@!?|@&|#)(\d+)>")
_TIMESTAMP = re.compile(r"<t:(-?\d+)(?::([tTdDfFR]))?>")


def _when(world: World, match: re.Match[str]) -> str:
    moment, style = int(match[1]), match[2] or "f"
    if style != "R":
        return dt.datetime.fromtimestamp(moment, tz=dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    delta = round(moment - world.now())
    size = abs(delta)
    amount = f"{size} s" if size < 120 else f"{size // 60} min" if size < 7200 else f"{size // 3600} h"
    return f"in {amount}" if delta >= 0 else f"{amount} ago"


def resolve_mentions(world: World, text: str) -> str:
    """Mentions (``<@id>``, ``<@&id>``, ``<#id>``) and timestamps (``<t:…:R>``) as a user sees them."""

    def name(match: re.Match[str]) -> str:
        kind, key = match[1], int(match[2])
        if kind == "#":
            channel = world.channels.get(key)
            return f"#{channel.name}" if channel else match[0]
        if kind == "@&":
            role = world.roles.get(key)
            return f"@{role.name}" if role else match[0]
        member = world.members.get(key)
        return f"@{member.name}" if member else match[0]

    return _TIMESTAMP.sub(lambda match: _when(world, match), _MENTION.sub(name, text))


def render_message(world: World, message: StoredMessage, kind: str = "create") -> str:
    """A message as a Discord user would read it, with where it is, who wrote it, and who sees it."""
    channel = world.channels.get(message.channel_id)
    where = (
        f"#{channel.name}" if channel and not channel.is_thread else f"🧵 {channel.name if channel else '?'}"
    )
    author = world.members.get(message.author_id)
    name = author.name if author else "?"
    audience = ""
    if message.visible_to is not None:
        reader = world.members.get(message.visible_to)
        audience = f" → only {reader.name if reader else '?'} sees this"
    if kind == "delete":
        return f"{where} · {name}: (message deleted)"
    mark = " (edited)" if kind == "update" else ""
    if message.loading:
        return f"{where} · {name}{audience}{mark}: {name} is thinking…"
    lines = [f"{where} · {name}{audience}{mark}:" + (f" {message.content}" if message.content else "")]
    for embed in message.embeds:
        lines += [f"  │ {line}" for line in render_embed(embed)]
    lines += [f"  {line}" for line in render_components(message.components)]
    if message.attachments:
        lines.append("  📎 " + ", ".join(a.get("filename", "file") for a in message.attachments))
    return resolve_mentions(world, "\n".join(lines))


def transcript_printer(
    world: World, write: Callable[[str], Any] | None = None, *, ephemeral: bool = True
) -> Callable[[str, StoredMessage], None]:
    """A listener for :meth:`Emulator.on_message` that writes each change as readable text."""
    out = write or (lambda text: print(text, file=sys.stdout, flush=True))

    def listener(kind: str, message: StoredMessage) -> None:
        if ephemeral or message.visible_to is None:
            out(render_message(world, message, kind))

    return listener
