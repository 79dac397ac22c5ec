"""The changes `python -m bench.bot_load --compare` may run Catnip with, to measure a speed-up before
and after in the same run (each in a child process of its own)."""

from __future__ import annotations

import asyncio
from typing import Any

VARIANTS = ("stdlib-json", "uvloop", "dynamic-item", "refresh-16", "refresh-4", "no-release", "french")
"""What a Catnip run may be changed by, to measure a speed-up before and after in the same run:
discord.py's JSON through the standard library instead of orjson, the event loop from uvloop, or
clicks routed by a discord.py DynamicItem as they were before the play cog's listener routed them,
at least 16 tables refreshed at once, or always 4 (as before the workers grew with the tables
waiting), or no freed memory handed back to the system (bot/memory.py); or, Catnip unchanged, its
servers and members speaking French (the cost of translation)."""


def use_stdlib_json() -> None:
    """discord.py as it is without orjson installed (its own fallback, as in discord/utils.py)."""
    import discord_door

    discord_door.use_stdlib_json()


def use_dynamic_item_routing() -> None:
    """Clicks routed as before: a DynamicItem matching every custom_id, the listener only for the
    clicks whose id the clicked message does not show."""
    import discord

    from cogs.play import _cog
    from cogs.play._components import handle_click

    class ComponentRouter(discord.ui.DynamicItem[discord.ui.Item], template=r"(?s).+"):
        @classmethod
        async def from_custom_id(cls, interaction, item, match, /):
            return cls(item)

        async def callback(self, interaction: discord.Interaction) -> None:
            await handle_click(
                interaction.client, interaction, self.item.custom_id, interaction.client.presenter.tokens
            )

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component or interaction.message is None:
            return
        clicked = (interaction.data.get("component_type"), interaction.data.get("custom_id", ""))
        shown = {
            (child.type.value, getattr(child, "custom_id", None))
            for row in interaction.message.components
            for child in getattr(row, "children", [row])
        }
        if clicked not in shown:
            await handle_click(self.bot, interaction, str(clicked[1]), self.presenter.tokens)

    async def cog_load(self, original=_cog.PlayCog.cog_load) -> None:
        await original(self)
        self.bot.add_dynamic_items(ComponentRouter)

    _cog.PlayCog.on_interaction = on_interaction
    _cog.PlayCog.cog_load = cog_load


def run_child(coroutine, variant: str) -> Any:
    if variant == "stdlib-json":
        use_stdlib_json()
    if variant == "dynamic-item":
        use_dynamic_item_routing()
    if variant == "no-release":
        from bot import memory

        memory._malloc_trim = None
    if variant == "refresh-16":
        from cogs.play import _presenter

        _presenter.REFRESH_SLOTS = 16
    if variant == "refresh-4":
        from cogs.play import _presenter

        _presenter.REFRESH_SLOTS = _presenter.BACKLOG_SLOTS = 4
    if variant == "uvloop":
        import uvloop

        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            return runner.run(coroutine)
    return asyncio.run(coroutine)
