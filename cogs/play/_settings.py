"""A choice in a lobby's "⚙️ Settings" select: one option set to one value ("limited_powers=off")."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.errors import Refusal
from bot.live import LANGUAGE_OPTION, TIMER_OPTION
from cogs import custom_ids as ids
from cogs.lobby_settings import setting_value

if TYPE_CHECKING:
    from bot.app import CatnipBot


async def choose_setting(
    bot: CatnipBot, interaction: discord.Interaction, component: ids.ComponentId
) -> None:
    values = ids.chosen_values(interaction.data)
    name, _, chosen = values[0].partition("=") if len(values) == 1 else ("", "", "")
    game = await bot.service.games.get(component.game_id)
    if name not in {*game.record.options, TIMER_OPTION, LANGUAGE_OPTION}:
        raise Refusal(_("That isn't a valid setting."))
    value = setting_value(game, name, chosen)
    await bot.service.lobby.set_option(component.game_id, interaction.user.id, name, value)
