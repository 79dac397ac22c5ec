"""The tables of `bench.load_members` as its simulated members see them: the table message, the turn
ping, who is asked to act, and the sizes of what the bot shows (for the floor bot to match)."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bench.floor_bot import Sizes
from emulator.model import StoredMessage
from emulator.users import SimulatedMember

TABLE_TITLE = re.compile(r"table #(\d+)")
MENTION = re.compile(r"<@(\d+)>")
SAME_PING_AFTER = 1.0
"""Seconds a member who acted on a ping waits, once the table shows a new move under that same
ping, for a new one before taking it that the turn is theirs again (Catnip posts the next ping
with the table's edit, not after it)."""


@dataclass(frozen=True)
class TableKind:
    """A table to open: its game, how many members sit at it and how many computer players."""

    game: str
    humans: int
    computers: int = 0
    level: str = "normal"


class PayloadSizes:
    """Mean JSON size and shape (embed fields, buttons and selects) of the tables and panels the bot
    shows in play, for the floor bot to match: discord.py's cost of a message grows with its parts.
    With pictures, also the mean size of a picture a table showing uploads (`picture`, bytes) and how
    many of 100 showings upload a new one (`pictures_per_100`; the others keep the one shown)."""

    KEYS = Sizes.MEASURED

    def __init__(self, file_size: Callable[[int], int] = lambda _id: 0) -> None:
        """`file_size`: the bytes of an uploaded attachment, by its id."""
        self.totals = {key: [0, 0] for key in self.KEYS}
        self.file_size = file_size
        self._uploads_seen: set[str] = set()

    @staticmethod
    def size(message: StoredMessage) -> int:
        return len(json.dumps(message.embeds)) + len(json.dumps(message.components)) + len(message.content)

    def _add(self, key: str, value: int) -> None:
        self.totals[key][0] += value
        self.totals[key][1] += 1

    @staticmethod
    def fields(message: StoredMessage) -> int:
        return sum(len(embed.get("fields", [])) for embed in message.embeds)

    def table(self, message: StoredMessage) -> None:
        self._add("table", self.size(message))
        self._add("table_buttons", len(message.interactive()))
        self._add("table_fields", self.fields(message))
        new = [a for a in message.attachments if a["id"] not in self._uploads_seen]
        self._uploads_seen.update(a["id"] for a in new)
        for attachment in new:
            self._add("picture", self.file_size(int(attachment["id"])))
        self._add("pictures_per_100", 100 if new else 0)

    def panel(self, message: StoredMessage) -> None:
        """A panel as "My hand" shows it: its size and how many choices it offers."""
        self._add("panel", self.size(message))
        self._add("panel_buttons", len(message.interactive()))
        self._add("panel_fields", self.fields(message))

    def means(self) -> dict[str, int]:
        return {key: round(total / count) for key, (total, count) in self.totals.items() if count}


@dataclass
class Table:
    """One thread with one Catnip table in it, as its members see it."""

    thread_id: int
    rematch: str = "Rematch"  # the Rematch button's label, in the table's language
    members: list[SimulatedMember] = field(default_factory=list)
    game: str = ""  # the game's key (catsdogs, madcat, …)
    table: StoredMessage | None = None  # the newest table message in the thread
    game_id: int = 0
    ping: StoredMessage | None = None  # the current turn ping
    acted_on: tuple[int, str] = (0, "")  # the ping already acted on, and the table's footer then
    rematched: int = 0  # the finished game a rematch was asked for
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    last_move: float = 0.0
    moved_at: float | None = None  # when the last card click was answered (emulator time)
    edit_due_since: float | None = None  # the earliest card click the table has not shown yet
    ping_due_since: float | None = None  # the latest card click not followed by a ping yet

    moved_on_at: float = 0.0  # when the table last showed a new move (its footer changed), driver time
    moved_on_world: float = 0.0  # the same, emulator time
    last_footer: str = ""

    @property
    def pinged(self) -> set[int]:
        """Who the current ping asks to act: none once they acted on it, unless the table has shown a
        new move since and no new ping followed within `SAME_PING_AFTER` (Catnip keeps the ping of
        a member who acts twice in a row)."""
        if self.ping is None or self.ping.deleted:
            return set()
        if self.ping.id == self.acted_on[0] and (
            self.footer() == self.acted_on[1] or time.perf_counter() - self.moved_on_at < SAME_PING_AFTER
        ):
            return set()
        return {int(user) for user in MENTION.findall(self.ping.content)}

    def same_ping_due(self) -> bool:
        """The table moved on under a ping already acted on: its members may have to act again."""
        return (
            self.ping is not None
            and not self.ping.deleted
            and self.ping.id == self.acted_on[0]
            and self.footer() != self.acted_on[1]
        )

    def footer(self) -> str:
        """The table's footer, which counts its moves ("Game #12 · move 7")."""
        embeds = self.table.embeds if self.table is not None else []
        return (embeds[0].get("footer") or {}).get("text", "") if embeds else ""

    def over(self) -> bool:
        return self.table is not None and any(b.get("label") == self.rematch for b in self.table.buttons())
