"""The floor: a minimal discord.py bot that makes the Discord calls Catnip makes for a move, and nothing else.

`bench.bot_load` runs it under the same load as Catnip, in the same run, so the difference between
the two is Catnip's own work (game, store, rendering) and the floor is what discord.py itself costs.

It plays a pretend game the load driver cannot tell from a Catnip table: /play opens a thread
with a lobby (Join, Start); once started, the table shows "My hand" and the player to act is
pinged. "My hand" answers with a private panel of buttons; a click on one answers by editing the
panel (the interaction callback), then, as Catnip's presenter does, edits the table and posts the
next player's ping together, and deletes the previous ping once the new one is up. Payloads are
padded to the sizes Catnip's tables and panels had in the same run (`Sizes`), with as many embed
fields and buttons (discord.py's cost of sending, receiving and parsing a message grows with its
parts, not only its bytes), and the ping carries a "My hand" button as Catnip's does. No game, no
store, no rendering: every payload is a template filled with a counter.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from dataclasses import dataclass, field

import discord
from discord import app_commands

TITLE = "Cats & Dogs"


@dataclass(frozen=True)
class Sizes:
    """The mean JSON size (bytes) of a table and a panel, and their buttons and embed fields."""

    MEASURED = ("table", "panel", "panel_buttons", "table_buttons", "table_fields", "panel_fields")

    table: int = 1200
    panel: int = 1500
    panel_buttons: int = 5
    table_buttons: int = 1
    table_fields: int = 0
    panel_fields: int = 0


@dataclass
class FloorTable:
    id: int
    channel: discord.abc.Messageable
    message_id: int = 0
    players: list[int] = field(default_factory=list)
    turn: int = 0
    ping: int | None = None


def _padded(size: int, title: str, buttons: int, fields: int) -> int:
    """Characters of text that bring an embed with `buttons` buttons and `fields` fields to about
    `size` bytes."""
    overhead = 50 + len(title) + 100 * buttons + 60 * fields
    return max(size - overhead, 0)


def _embed(title: str, first_line: str, filler: str, fields: int) -> discord.Embed:
    """An embed whose text, `filler`, is shared between its description and `fields` fields."""
    share = len(filler) // (fields + 1)
    embed = discord.Embed(title=title, description=f"{first_line}\n{filler[: max(share, 1)]}")
    for n in range(fields):
        embed.add_field(name=f"Part {n + 1}", value=filler[: min(max(share, 1), 1024)], inline=False)
    return embed


def _view(buttons: list[discord.ui.Button]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(button)
    view.stop()  # clicks are routed by custom_id in `on_interaction`, never by stored views
    return view


class FloorBot(discord.Client):
    """Answers the load driver's clicks with Catnip's Discord calls for a move and counts the moves."""

    def __init__(self, sizes: Sizes, **options) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True
        options.setdefault("max_messages", None)
        super().__init__(intents=intents, **options)
        self.sizes = Sizes(
            sizes.table,
            sizes.panel,
            max(sizes.panel_buttons, 1),
            max(sizes.table_buttons, 1),
            sizes.table_fields,
            sizes.panel_fields,
        )
        self.tree = app_commands.CommandTree(self)
        self.tables: dict[int, FloorTable] = {}
        self.moves = 0
        self._ids = itertools.count(1)
        self._background: set[asyncio.Task] = set()
        self._table_filler = "-" * _padded(sizes.table, TITLE, self.sizes.table_buttons, sizes.table_fields)
        self._panel_filler = "-" * _padded(sizes.panel, TITLE, sizes.panel_buttons, sizes.panel_fields)

        @self.tree.command(name="play", description="Open a table")
        async def play(interaction: discord.Interaction, game: str) -> None:
            await self.open_table(interaction)

    async def setup_hook(self) -> None:
        await self.tree.sync()

    # ------------------------------------------------------------------------------------ payloads

    def _table(self, table: FloorTable) -> dict:
        title = f"{TITLE} — table #{table.id}"
        embed = _embed(title, f"move {table.turn}", self._table_filler, self.sizes.table_fields)
        others = [
            discord.ui.Button(label=f"Other {n}", custom_id=f"cn:d:{table.id}:{n}")
            for n in range(1, self.sizes.table_buttons)
        ]
        return {"embed": embed, "view": _view([self._hand_button(table), *others])}

    @staticmethod
    def _hand_button(table: FloorTable) -> discord.ui.Button:
        return discord.ui.Button(label="My hand", custom_id=f"cn:v:{table.id}")

    def _panel(self, table: FloorTable, active: bool) -> dict:
        embed = _embed(f"{TITLE} — your hand", "", self._panel_filler, self.sizes.panel_fields)
        buttons = [
            discord.ui.Button(
                label=f"Card {n}", custom_id=f"cn:a:{table.id}:{table.turn}:{n}", disabled=not active
            )
            for n in range(self.sizes.panel_buttons)
        ]
        return {"embed": embed, "view": _view(buttons)}

    def _lobby(self, table: FloorTable) -> dict:
        embed = discord.Embed(
            title=f"{TITLE} — table #{table.id}", description=f"{len(table.players)} seated"
        )
        buttons = [
            discord.ui.Button(label="Join", custom_id=f"cn:l:{table.id}:join"),
            discord.ui.Button(label="Start", custom_id=f"cn:l:{table.id}:start"),
        ]
        return {"embed": embed, "view": _view(buttons)}

    # ------------------------------------------------------------------------------------ clicks

    async def open_table(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        thread = await interaction.channel.create_thread(
            name="floor table", type=discord.ChannelType.public_thread, auto_archive_duration=1440
        )
        table = FloorTable(next(self._ids), thread, players=[interaction.user.id])
        self.tables[table.id] = table
        sent = await thread.send(**self._lobby(table))
        table.message_id = sent.id
        await interaction.followup.send(f"Your table #{table.id} is open {thread.mention}.", ephemeral=True)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component:
            return
        parts = interaction.data["custom_id"].split(":")
        table = self.tables[int(parts[2])]
        if parts[1] == "l" and parts[3] == "join":
            table.players.append(interaction.user.id)
            await interaction.response.edit_message(**self._lobby(table))
        elif parts[1] == "l":
            await interaction.response.edit_message(**self._table(table))
            self._in_background(self._ping(table))
        elif parts[1] == "v":
            mine = table.players[table.turn % len(table.players)] == interaction.user.id
            await interaction.response.send_message(**self._panel(table, mine), ephemeral=True)
        else:
            table.turn += 1
            self.moves += 1
            await interaction.response.edit_message(**self._panel(table, False))
            self._in_background(self._show(table))

    async def _show(self, table: FloorTable) -> None:
        """The table edit and the next ping together, then the old ping's deletion, as Catnip's presenter."""
        edit = table.channel.get_partial_message(table.message_id).edit(**self._table(table))
        previous = table.ping
        await asyncio.gather(edit, self._ping(table))
        if previous is not None:
            with contextlib.suppress(discord.HTTPException):
                await table.channel.get_partial_message(previous).delete()

    async def _ping(self, table: FloorTable) -> None:
        user = table.players[table.turn % len(table.players)]
        sent = await table.channel.send(
            f"🔔 <@{user}> — your move in {TITLE} #{table.id}. Use the buttons on the table or **My hand**.",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(user)]),
            view=_view([self._hand_button(table)]),
        )
        table.ping = sent.id

    def _in_background(self, work) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def settle(self) -> None:
        while pending := [t for t in self._background if not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)
