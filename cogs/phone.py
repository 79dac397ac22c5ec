"""How tall a message stands on a phone: its lines once wrapped at a phone's width.

A phone shows an embed as one column: the title, the description, then each field's name and value on
lines of their own (inline fields stack too), then the footer. Markdown marks take no room, a mention
or timestamp shows as a short word, and an emoji takes two columns. The public table is kept within
`TABLE_BUDGET` lines at every player count so the action buttons stay on the first screen
(docs/table-budget.md).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import discord

PHONE_COLUMNS = 40
TABLE_BUDGET = 30

_MARKS = re.compile(r"\*\*|__|~~|`+|\|\|")
_TIMESTAMP = re.compile(r"<t:-?\d+(?::[tTdDfFR])?>")
_MENTION = re.compile(r"<@!?\d+>")


def columns(text: str) -> int:
    """Columns `text` takes: wide characters and emoji (also a symbol drawn as emoji, "⚠️", and a
    joined sequence, "🐈‍⬛") two, joiners and variation selectors none."""
    return len(text) if text.isascii() else _wide_columns(text)


@lru_cache(maxsize=1024)
def _wide_columns(text: str) -> int:
    """`columns` of a word with a character past ASCII: an emoji, a name in another script. Cached:
    the same few come back on every table."""
    width = 0
    for index, char in enumerate(text):
        joined = index > 0 and text[index - 1] == "\u200d"
        if joined or unicodedata.combining(char) or char in "\u200d\ufe0f\ufe0e":
            continue
        emoji = text[index + 1 : index + 2] == "\ufe0f"
        wide = emoji or unicodedata.east_asian_width(char) in "WF" or ord(char) >= 0x1F000
        width += 2 if wide else 1
    return width


def shown(text: str) -> str:
    """`text` as a phone draws it: no markdown marks, mentions and timestamps as short words."""
    text = _TIMESTAMP.sub("in 5 minutes", text)
    text = _MENTION.sub("@Player", text)
    return _MARKS.sub("", text)


@lru_cache(maxsize=2048)
def wrapped_lines(line: str, width: int = PHONE_COLUMNS) -> int:
    """How many phone lines one line of text fills, wrapped at word breaks (an empty line is one).

    Cached: a table's lines mostly repeat from one move to the next, and every table is measured each
    time it is shown (the cache's size when full is in docs/benchmarks.md)."""
    count, used = 1, 0
    for word in shown(line).split(" "):
        size = columns(word)
        if used and used + 1 + size > width:
            count, used = count + 1, 0
        elif used:
            used += 1
        while size > width:
            count, size = count + 1, size - width
        used += size
    return count


def text_lines(text: str | None, width: int = PHONE_COLUMNS) -> int:
    return 0 if not text else _text_lines(text, width)


@lru_cache(maxsize=1024)
def _text_lines(text: str, width: int) -> int:
    """Cached like `wrapped_lines`: most of a table's and a panel's fields read the same as at their
    last showing."""
    return sum(wrapped_lines(line, width) for line in text.split("\n"))


def phone_lines(content: str | None, embed: discord.Embed | None, width: int = PHONE_COLUMNS) -> int:
    """Lines a message's text fills on a phone: content, then the embed's title, description, every
    field's name and value, and its footer, each wrapped at `width` columns."""
    total = text_lines(content, width)
    if embed is None:
        return total
    total += text_lines(embed.title, width) + text_lines(embed.description, width)
    for embed_field in embed.fields:
        total += text_lines(embed_field.name, width) + text_lines(embed_field.value, width)
    return total + text_lines(embed.footer.text, width)
