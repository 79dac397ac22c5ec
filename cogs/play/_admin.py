"""Commands for a server's managers: Discord shows them only to members with Manage Server.

Discord lets a server limit who sees a command only for a whole top-level command, so what only
managers may do lives in its own `/admin` group rather than inside `/game`. Each command still
checks the permission itself: a server may grant the command to others in its integration settings.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str
from discord.ext import commands

from bot.errors import Refusal
from cogs.play._cog import answer_command_error
from cogs.play._components import reply
from lang import _

if TYPE_CHECKING:
    from bot.app import CatnipBot

MANAGE_SERVER = discord.Permissions(manage_guild=True)


class AdminCog(commands.Cog, name="Admin"):
    """What a server's managers may do to any Catnip game on their server."""

    admin = app_commands.Group(
        name=locale_str("admin"),
        description=locale_str("Catnip tools for server managers"),
        guild_only=True,
        default_permissions=MANAGE_SERVER,
    )

    def __init__(self, bot: CatnipBot) -> None:
        self.bot = bot

    async def cog_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        await answer_command_error(interaction, error, self.bot.metrics)

    @admin.command(
        name=locale_str("end"), description=locale_str("End a game in this channel, whoever hosts it")
    )
    @app_commands.describe(
        table=locale_str("The table number (#) to end; the newest game here if left out")
    )
    @app_commands.rename(table=locale_str("table"))
    async def end(self, interaction: discord.Interaction, table: int | None = None) -> None:
        permissions = getattr(interaction.user, "guild_permissions", None)
        if not (permissions and permissions.manage_guild):
            raise Refusal(_("Only members with Manage Server may end other people's games."))
        games = self.bot.service.games.in_channel(interaction.channel_id)
        chosen = [game for game in games if table is None or game.id == table]
        if not chosen:
            raise Refusal(_("There is no such game running in this channel."))
        game = chosen[-1]
        await self.bot.service.end(game.id, interaction.user.id, True)
        await reply(interaction, _("Table #{id} was ended.", id=game.id))
