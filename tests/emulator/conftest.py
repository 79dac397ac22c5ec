"""A small real discord.py bot and the fixtures that run it against the emulator."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from emulator import Emulator, MemberSpec


class Counter(discord.ui.DynamicItem[discord.ui.Button], template=r"counter:(?P<count>\d+)"):
    """A persistent button that survives restarts: its state lives in the custom_id."""

    def __init__(self, count: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {count}", custom_id=f"counter:{count}"))
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: Any, match: re.Match[str]
    ) -> Counter:
        return cls(int(match["count"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.count + 1))
        await interaction.response.edit_message(content=f"Count: {self.count + 1}", view=view)


class Pick(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.select(
        custom_id="pick:colour",
        placeholder="Pick colours",
        max_values=2,
        options=[discord.SelectOption(label=c.title(), value=c) for c in ("red", "green", "blue")],
    )
    async def colour(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"You picked {', '.join(select.values)}", ephemeral=True)

    @discord.ui.button(label="Refresh", custom_id="pick:refresh")
    async def refresh(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="Refreshed")

    @discord.ui.button(label="Rename", custom_id="pick:rename")
    async def rename(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_modal(Rename())


class Rename(discord.ui.Modal, title="Rename"):
    name = discord.ui.TextInput(label="New name", custom_id="rename:name")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"Renamed to {self.name.value}")


class Feedback(discord.ui.Modal, title="Feedback"):
    text = discord.ui.TextInput(label="What do you think?", custom_id="feedback:text", max_length=200)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Thanks: {self.text.value}")


class Admin(app_commands.Group):
    config = app_commands.Group(name="config", description="Settings")

    @config.command(name="set", description="Change a setting")
    @app_commands.choices(
        key=[
            app_commands.Choice(name="Turn timer", value="timer"),
            app_commands.Choice(name="Language", value="lang"),
        ]
    )
    async def config_set(
        self, interaction: discord.Interaction, key: app_commands.Choice[str], value: int
    ) -> None:
        await interaction.response.send_message(f"{key.value}={value}", ephemeral=True)


def make_bot(gate: asyncio.Event | None = None) -> commands.Bot:
    """The test bot: every interaction path the emulator supports, via the real discord.py."""
    intents = discord.Intents.default()
    intents.members = intents.message_content = True
    bot = commands.Bot(command_prefix="!", intents=intents, guild_ready_timeout=0.05)
    bot.seen: list[str] = []  # type: ignore[attr-defined]
    tree = bot.tree

    @tree.command(description="Say hello")
    @app_commands.describe(name="Who", times="How often")
    async def hello(interaction: discord.Interaction, name: str, times: int = 1, loud: bool = False) -> None:
        text = " ".join([f"Hello {name}"] * times)
        await interaction.response.send_message(text.upper() if loud else text)

    @tree.command(description="Whisper")
    async def secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Only for {interaction.user.display_name}", ephemeral=True)

    @tree.command(description="A table with a persistent button and a select")
    async def table(interaction: discord.Interaction) -> None:
        view = Pick()
        view.add_item(Counter(0))
        await interaction.response.send_message("Count: 0", view=view)

    @tree.command(description="Think, then answer")
    async def slow(interaction: discord.Interaction, private: bool = False) -> None:
        await interaction.response.defer(thinking=True, ephemeral=private)
        await asyncio.sleep(0.01)
        await interaction.followup.send("Done thinking", ephemeral=private)
        extra = await interaction.followup.send("A second note", wait=True, ephemeral=private)
        await interaction.edit_original_response(content="Done thinking (edited)")
        await extra.edit(content="A second note (edited)")

    @tree.command(description="Open a thread")
    async def thread(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"Opening {name}")
        original = await interaction.original_response()
        started = await original.create_thread(name=f"{name} (from message)")
        await started.send("Welcome to the message thread")
        loose = await interaction.channel.create_thread(name=name, type=discord.ChannelType.public_thread)
        await loose.send("Welcome to the thread")

    @tree.command(description="Post, edit and delete channel messages")
    async def post(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        keep = await interaction.channel.send(
            "kept", embed=discord.Embed(title="Table", description="score 1")
        )
        gone = await interaction.channel.send("to be deleted")
        await keep.edit(content="kept (edited)")
        await gone.delete()
        history = [m.content async for m in interaction.channel.history(limit=10)]
        fetched = await interaction.channel.fetch_message(keep.id)
        await interaction.followup.send(f"history={history} fetched={fetched.content}", ephemeral=True)

    @tree.command(description="Give feedback")
    async def feedback(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Feedback())

    @tree.command(description="Answer only when the test allows it")
    async def late(interaction: discord.Interaction) -> None:
        assert gate is not None
        await gate.wait()
        try:
            await interaction.response.send_message("finally")
        except discord.NotFound:
            bot.seen.append("late response refused")  # type: ignore[attr-defined]

    @tree.command(description="Defer and follow up when the test allows it")
    async def later(interaction: discord.Interaction) -> None:
        assert gate is not None
        await interaction.response.defer()
        await gate.wait()
        try:
            await interaction.followup.send("much later")
        except discord.HTTPException as error:
            bot.seen.append(f"followup refused {error.status}")  # type: ignore[attr-defined]

    @tree.command(description="Post a message, then edit it when the test allows it")
    async def note(interaction: discord.Interaction) -> None:
        assert gate is not None
        await interaction.response.send_message("posting", ephemeral=True)
        message = await interaction.channel.send("note v1")
        await gate.wait()
        try:
            await message.edit(content="note v2")
        except discord.HTTPException as error:
            bot.seen.append(f"edit refused {error.status}")  # type: ignore[attr-defined]

    @tree.command(description="Crash")
    async def crash(interaction: discord.Interaction) -> None:
        raise RuntimeError("boom")

    tree.add_command(Admin(name="admin", description="Server settings"))

    @tree.command(description="Reset everything")
    @app_commands.default_permissions(manage_guild=True)
    async def reset(interaction: discord.Interaction) -> None:
        allowed = interaction.permissions.manage_guild
        await interaction.response.send_message(f"reset allowed={allowed}", ephemeral=True)

    @bot.event
    async def on_message(message: discord.Message) -> None:
        bot.seen.append(f"message:{message.content}")  # type: ignore[attr-defined]

    @bot.event
    async def on_thread_create(thread: discord.Thread) -> None:
        bot.seen.append(f"thread:{thread.name}")  # type: ignore[attr-defined]

    async def setup_hook() -> None:
        bot.add_dynamic_items(Counter)
        bot.add_view(Pick())
        await tree.sync()

    async def before_identify_hook(shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before re-identifying; the test bot does not."""

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    bot.before_identify_hook = before_identify_hook  # type: ignore[method-assign]
    return bot


MEMBERS = ["Ann", "Bo", MemberSpec("Mo", ["manage_guild"])]


@pytest.fixture
async def emu():
    async with Emulator.start(channels=["games", "lobby"], members=MEMBERS) as emulator:
        yield emulator


@pytest.fixture
def gate() -> asyncio.Event:
    return asyncio.Event()


@pytest.fixture
async def bot(emu: Emulator, gate: asyncio.Event):
    with emu.point_discord_py():
        client = make_bot(gate)
        await emu.run_bot(client)
        yield client
        gate.set()
        await emu.stop_bot(client)


@pytest.fixture
async def api(emu: Emulator):
    """Bot requests straight to the emulator's HTTP API: `await api(method, path, payload)`."""
    headers = {"Authorization": f"Bot {emu.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:

        async def call(method: str, path: str, payload: Any = None, auth: bool = True) -> tuple[int, Any]:
            extra = {} if auth else {"Authorization": ""}
            async with session.request(method, emu.api_base + path, json=payload, headers=extra) as response:
                body = await response.json() if response.content_type == "application/json" else None
                call.headers = response.headers  # type: ignore[attr-defined]
                return response.status, body

        yield call
