"""Buttons and selects as the data Discord takes, and `Controls`, the view discord.py sends them in.

Catnip never stores a view: every message's view is sent once and clicks are routed by custom_id
(`cogs/custom_ids.py`). discord.ui builds, for each button, an item, its underlying component and a
parsed emoji, all tied to their View in reference cycles that only the garbage collector frees, for
a view nobody ever dispatches to. These are small frozen records instead, laid out in rows as
discord.ui lays them out, and `Controls` is what discord.py's send and edit calls accept as a view
(an `UnstoredView`, discord_door/).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import discord

from discord_door import UnstoredView

ROWS = 5
ROW_WIDTH = 5


@dataclass(frozen=True, slots=True)
class Button:
    """A button: `row` None takes the first row with room, as in discord.ui."""

    label: str
    custom_id: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    emoji: str | None = None
    disabled: bool = False
    row: int | None = None

    width: ClassVar[int] = 1

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "type": 2,
            "style": self.style.value,
            "disabled": self.disabled,
            "label": self.label,
            "custom_id": self.custom_id,
        }
        if self.emoji:
            data["emoji"] = {"id": None, "name": self.emoji}
        return data


@dataclass(frozen=True, slots=True)
class Select:
    """A string select; it fills a row of its own."""

    custom_id: str
    options: Sequence[discord.SelectOption]
    placeholder: str | None = None
    min_values: int = 1
    max_values: int = 1
    disabled: bool = False
    row: int | None = None

    width: ClassVar[int] = ROW_WIDTH

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "type": 3,
            "custom_id": self.custom_id,
            "min_values": self.min_values,
            "max_values": self.max_values,
            "disabled": self.disabled,
            "required": True,
            "options": [option.to_dict() for option in self.options],
        }
        if self.placeholder:
            data["placeholder"] = self.placeholder
        return data


Item = Button | Select


class Controls(UnstoredView):
    """A message's buttons and selects, in the shape discord.py sends as a view (never stored).

    Raises ValueError, as discord.ui does, when an item does not fit its row or no row has room.
    """

    def __init__(self, items: Sequence[Item] = ()) -> None:
        self.children: list[Item] = list(items)
        self._rows = _laid_out(self.children)

    def to_components(self, rows: int | None = None) -> list[dict[str, Any]]:
        """The rows of controls as Discord takes them (only the first `rows` of them, if given)."""
        laid_out = [row for row in self._rows if row][:rows]
        return [{"type": 1, "components": [item.to_dict() for item in row]} for row in laid_out]


def _laid_out(items: Sequence[Item]) -> list[list[Item]]:
    """Items by row, in the order given; an item without a row goes to the first row with room for
    it among those filled so far (discord.ui's way)."""
    rows: list[list[Item]] = [[] for _ in range(ROWS)]
    used = [0] * ROWS
    for item in items:
        if item.row is not None:
            index = item.row
            if used[index] + item.width > ROW_WIDTH:
                raise ValueError(f"item would not fit at row {index} ({used[index] + item.width} > 5 width)")
        else:
            index = next((i for i in range(ROWS) if used[i] + item.width <= ROW_WIDTH), -1)
            if index < 0:
                raise ValueError("could not find open space for item")
        used[index] += item.width
        rows[index].append(item)
    return rows
