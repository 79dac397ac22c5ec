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
from collections.abc import Sequence
from dataclasses import dataclass
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
    if "<" in text:  # both a mention and a timestamp start with one
        text = _TIMESTAMP.sub("in 5 minutes", text)
        text = _MENTION.sub("@Player", text)
    return _MARKS.sub("", text)


@lru_cache(maxsize=2048)
def wrapped_lines(line: str, width: int = PHONE_COLUMNS) -> int:
    """How many phone lines one line of text fills, wrapped at word breaks (an empty line is one).

    Cached: a table's lines mostly repeat from one move to the next, and every table is measured each
    time it is shown (the cache's size when full is in docs/performance.md)."""
    if "<" not in line and len(line.encode()) <= width:
        return 1  # fits: marks only take room away, and a character over 1 wide takes 2 bytes or more
    plain = shown(line)
    ascii_only = plain.isascii()
    count, used = 1, 0
    for word in plain.split(" "):
        size = len(word) if ascii_only or word.isascii() else _wide_columns(word)  # `columns`, inlined
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
    if "\n" not in text:
        return wrapped_lines(text, width)
    return sum([wrapped_lines(line, width) for line in text.split("\n")])


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


SCREEN = 630
"""Pixels of a phone's first screen a message can count on (390 px wide, under Discord's bars)."""
PANEL_BUDGET = 30
"""Lines a private panel keeps within, like the table's text."""
PICTURE_WIDTH = 286
"""How wide a phone 390 px wide shows an embed's image: the screen less the message's margins, the
avatar, the embed's border and padding."""

_TOP = 42.0  # message padding, author line, the embed's margin and padding
_TITLE = 22.0, 8.0, 28  # a title line, its margins, its columns (16 px bold)
LINE_PIXELS = 19.25  # a line of the embed's 14 px text
FIELD_GAP_PIXELS = 8.0
_PICTURE_GAP = 12.0
_FOOTER = 8.0 + 16.5
_EMBED_BOTTOM = 12.0
_CONTENT_LINE = 22.0
_ROW_GAP = 8.0
_BUTTON = 35.25
_SELECT = 41.25
_ROW_WIDTH = 314.0  # the message's body beside the avatar
_BUTTON_PADDING, _BUTTON_SPACING, _BUTTON_COLUMN = 28.0, 8.0, 7.4


@dataclass(frozen=True)
class Screen:
    """Where a message's parts stand on a phone, in pixels from the top of the message."""

    now: float
    """The bottom of the embed's first description line (the table's "Now:" / a panel's decision)."""
    height: float
    buttons: dict[str, float]
    """Each control's bottom, by custom_id."""

    def highest_bottom(self, custom_ids: list[str]) -> float | None:
        """The bottom of the highest of these controls on the message (None if it has none of them)."""
        bottoms = [self.buttons[c] for c in custom_ids if c in self.buttons]
        return min(bottoms) if bottoms else None


def screen_of(
    content: str | None, embed: dict | None, components: list[dict], picture: tuple[int, int] | None = None
) -> Screen:
    """Lay a message out as a phone 390 px wide shows it in Discord's dark theme (the layout
    `bench.phone_view` screenshots): text wrapped at `PHONE_COLUMNS`, the embed's image (`picture`:
    its width and height) at `PICTURE_WIDTH`, and each row of controls, buttons wrapping as they do
    on a phone."""
    y = _TOP + (_CONTENT_LINE * text_lines(content) if content else 0.0)
    now = y
    if embed is not None:
        fields = [(embed_field["name"], embed_field["value"]) for embed_field in embed.get("fields", [])]
        now, y, _ = _embed_layout(y, embed.get("title"), embed.get("description") or "", fields)
        if picture is not None and "image" in embed:
            y += _PICTURE_GAP + PICTURE_WIDTH * picture[1] / picture[0]
        if (embed.get("footer") or {}).get("text"):
            y += _FOOTER
        y += _EMBED_BOTTOM
    buttons, y = _controls_layout(y, components)
    return Screen(now=now, height=y, buttons=buttons)


def first_control(
    title: str | None, description: str, fields: Sequence[tuple[str, str]], components: list[dict]
) -> tuple[int, float]:
    """For a message of one embed (a title, a description and `fields`, no footer nor picture) and
    these rows of controls: the lines its text fills (`phone_lines`) and the bottom of its first
    control (the message's bottom if it has none), as `screen_of` lays it out. Only the first row
    of controls is needed; each line is measured once."""
    _, y, lines = _embed_layout(_TOP, title, description, fields)
    buttons, y = _controls_layout(y + _EMBED_BOTTOM, components[:1])
    first = buttons[components[0]["components"][0]["custom_id"]] if components else y
    return lines + text_lines(title), first


def _embed_layout(
    y: float, title: str | None, description: str, fields: Sequence[tuple[str, str]]
) -> tuple[float, float, int]:
    """An embed's text from `y` down: the bottom of its first description line, the bottom of its
    last field, and the lines its description and fields fill."""
    if title:
        y += _TITLE[1] + _TITLE[0] * text_lines(title, _TITLE[2])
    lines = text_lines(description)
    if description:
        now = y + LINE_PIXELS * wrapped_lines(description.split("\n")[0])
        y += LINE_PIXELS * lines
    else:
        now = y
    for name, value in fields:
        field_lines = text_lines(name) + text_lines(value)
        y += FIELD_GAP_PIXELS + LINE_PIXELS * field_lines
        lines += field_lines
    return now, y, lines


def _controls_layout(y: float, components: list[dict]) -> tuple[dict[str, float], float]:
    """Each control's bottom, rows laid out from `y` down, and the bottom of the last."""
    buttons: dict[str, float] = {}
    for row in components:
        line_top = y + _ROW_GAP
        used = 0.0
        for item in row["components"]:
            if item["type"] != 2:
                text = _BUTTON_COLUMN * (columns(item.get("placeholder") or "Make a selection") + 2)
                lines = max(1, -(-text // (_ROW_WIDTH - _BUTTON_PADDING)))
                y = line_top + _SELECT + LINE_PIXELS * (lines - 1)
                buttons[item["custom_id"]] = y
                continue
            label = f"{(item.get('emoji') or {}).get('name', '')} {item.get('label') or ''}".strip()
            text = _BUTTON_COLUMN * columns(label)
            width = min(_ROW_WIDTH, _BUTTON_PADDING + text)
            if used and used + _BUTTON_SPACING + width > _ROW_WIDTH:
                line_top, used = y + _BUTTON_SPACING, 0.0
            used += (_BUTTON_SPACING if used else 0.0) + width
            lines = max(1, -(-text // (_ROW_WIDTH - _BUTTON_PADDING)))
            bottom = line_top + _BUTTON + LINE_PIXELS * (lines - 1)
            buttons[item["custom_id"]] = bottom
            y = max(y, bottom)
    return buttons, y
