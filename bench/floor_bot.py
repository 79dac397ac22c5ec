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
parts, not only its bytes), and the ping carries a "My hand" button as Catnip's does. With pictures,
a table edit uploads a PNG of the mean size Catnip's uploaded, on as many edits as Catnip's did (the
others name the picture the message holds, as Catnip's do): the upload is discord.py's and aiohttp's
work, the drawing Catnip's. No game, no store, no rendering: every payload is a template filled with
a counter.

Each call is made the way Catnip makes it (cogs/play/_tokens.py, cogs/play/_writer.py,
`discord_door`), so that the two differ by Catnip's own work only: the table is edited through the
`@original` of the click that updated it (Start), the ping posted as a followup of the latest click
on the table and deleted through the token that posted it (the members' tokens; the bot's counted
routes only open the lobby); a click is answered without reading the resulting message back
(`respond`); buttons are sent as component JSON, never as stored views; and the gateway's echo of
the bot's own messages and edits is not read into discord.py's objects (`parse_only_when`), as
Catnip does not read it.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import random
from dataclasses import dataclass, field

import discord
from discord import app_commands
from PIL import Image

from discord_door import UnstoredView, parse_only_when, post_followup, release_response, respond

UPDATE = discord.InteractionResponseType.message_update
MESSAGE = discord.InteractionResponseType.channel_message

TITLE = "Cats & Dogs"
PICTURE = "table.png"


@dataclass(frozen=True)
class Sizes:
    """The mean JSON size (bytes) of a table and a panel, and their buttons and embed fields."""

    MEASURED = (
        "table",
        "panel",
        "panel_buttons",
        "table_buttons",
        "table_fields",
        "panel_fields",
        "picture",
        "pictures_per_100",
    )

    table: int = 1200
    panel: int = 1500
    panel_buttons: int = 5
    table_buttons: int = 1
    table_fields: int = 0
    panel_fields: int = 0
    picture: int = 0
    """The mean size of a picture a table edit uploads (bytes; 0: no pictures)."""
    pictures_per_100: int = 0
    """How many of 100 table edits upload a new picture (the others keep the one shown)."""


@dataclass
class FloorTable:
    id: int
    channel: discord.abc.Messageable
    message_id: int = 0
    players: list[int] = field(default_factory=list)
    turn: int = 0
    ping: tuple[int, discord.Interaction] | None = None  # the ping's id and the click that posted it
    held: discord.Attachment | None = None  # the picture the table message holds
    updated_by: discord.Interaction | None = None  # the click answered by updating the table (@original)
    clicked_by: discord.Interaction | None = None  # the latest click on the table: the pings' poster


def noise_png(size: int) -> bytes:
    """A PNG of about `size` bytes: grey noise, which does not compress."""
    side = max(int(size**0.5), 1)
    pixels = random.Random(size).randbytes(side * side)
    buffer = io.BytesIO()
    Image.frombytes("L", (side, side), pixels).save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


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


class Components(UnstoredView):
    """Buttons as Catnip sends them: their JSON, never a stored view."""

    def __init__(self, buttons: list[dict]) -> None:
        self.buttons = buttons

    def to_components(self) -> list[dict]:
        return [
            {"type": 1, "components": self.buttons[row : row + 5]} for row in range(0, len(self.buttons), 5)
        ]


def _button(label: str, custom_id: str, disabled: bool = False) -> dict:
    return {"type": 2, "style": 2, "label": label, "custom_id": custom_id, "disabled": disabled}


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
            sizes.picture,
            sizes.pictures_per_100,
        )
        self._picture = noise_png(sizes.picture) if sizes.picture and sizes.pictures_per_100 else None
        self.tree = app_commands.CommandTree(self)
        parse_only_when(self, "MESSAGE_UPDATE", lambda _data: False)
        parse_only_when(self, "MESSAGE_CREATE", self._not_its_own)
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

    def _not_its_own(self, message: dict) -> bool:
        return self.user is None or message.get("author", {}).get("id") != str(self.user.id)

    # ------------------------------------------------------------------------------------ payloads

    def _table(self, table: FloorTable) -> dict:
        title = f"{TITLE} — table #{table.id}"
        embed = _embed(title, f"move {table.turn}", self._table_filler, self.sizes.table_fields)
        others = [_button(f"Other {n}", f"cn:d:{table.id}:{n}") for n in range(1, self.sizes.table_buttons)]
        return {"embed": embed, "view": Components([self._hand_button(table), *others])}

    def _with_picture(self, table: FloorTable, fields: dict) -> dict:
        """A table edit's picture as Catnip's (cogs/play/_pictures.py): a new upload on as many edits
        as Catnip's uploaded one, else the picture the message holds, named by its attachment."""
        if self._picture is None:
            return fields
        share = self.sizes.pictures_per_100
        if table.held is None or table.turn * share // 100 != (table.turn - 1) * share // 100:
            attachments = [discord.File(io.BytesIO(self._picture), filename=PICTURE)]
        else:
            attachments = [table.held]
        fields["embed"].set_image(url=f"attachment://{PICTURE}")
        return {**fields, "attachments": attachments}

    @staticmethod
    def _hand_button(table: FloorTable) -> dict:
        return _button("My hand", f"cn:v:{table.id}")

    def _panel(self, table: FloorTable, active: bool) -> dict:
        embed = _embed(f"{TITLE} — your hand", "", self._panel_filler, self.sizes.panel_fields)
        buttons = [
            _button(f"Card {n}", f"cn:a:{table.id}:{table.turn}:{n}", disabled=not active)
            for n in range(self.sizes.panel_buttons)
        ]
        return {"embed": embed, "view": Components(buttons)}

    def _lobby(self, table: FloorTable) -> dict:
        embed = discord.Embed(
            title=f"{TITLE} — table #{table.id}", description=f"{len(table.players)} seated"
        )
        buttons = [
            _button("Join", f"cn:l:{table.id}:join"),
            _button("Start", f"cn:l:{table.id}:start"),
        ]
        return {"embed": embed, "view": Components(buttons)}

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
        try:
            await self._answer(interaction)
        finally:
            release_response(interaction)

    async def _answer(self, interaction: discord.Interaction) -> None:
        parts = interaction.data["custom_id"].split(":")
        table = self.tables[int(parts[2])]
        if parts[1] == "l" and parts[3] == "join":
            table.players.append(interaction.user.id)
            await respond(interaction, UPDATE, **self._lobby(table))
        elif parts[1] == "l":
            table.updated_by = table.clicked_by = interaction
            await respond(interaction, UPDATE, **self._table(table))
            self._in_background(self._ping(table))
        elif parts[1] == "v":
            if interaction.message is not None and interaction.message.id == table.message_id:
                table.clicked_by = interaction
            mine = table.players[table.turn % len(table.players)] == interaction.user.id
            await respond(interaction, MESSAGE, ephemeral=True, **self._panel(table, mine))
        else:
            table.turn += 1
            self.moves += 1
            await respond(interaction, UPDATE, **self._panel(table, False))
            self._in_background(self._show(table))

    async def _show(self, table: FloorTable) -> None:
        """The table edit and the next ping together, then the old ping's deletion, as Catnip's presenter."""
        edit = table.updated_by.edit_original_response(**self._with_picture(table, self._table(table)))
        previous = table.ping
        edited, _ = await asyncio.gather(edit, self._ping(table))
        table.held = next((a for a in edited.attachments if a.filename == PICTURE), None)
        if previous is not None:
            message_id, poster = previous
            with contextlib.suppress(discord.HTTPException):
                await poster.followup.delete_message(message_id)

    async def _ping(self, table: FloorTable) -> None:
        user = table.players[table.turn % len(table.players)]
        click = table.clicked_by
        sent = await post_followup(
            click,
            content=f"🔔 <@{user}> — your move in {TITLE} #{table.id}. "
            "Use the buttons on the table or **My hand**.",
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(user)]),
            view=Components([self._hand_button(table)]),
        )
        table.ping = (sent, click)

    def _in_background(self, work) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def settle(self) -> None:
        while pending := [t for t in self._background if not t.done()]:
            await asyncio.gather(*pending, return_exceptions=True)
