"""How a click is answered: the clicked message replaced, a silent acknowledgement, a private sentence."""

from __future__ import annotations

import discord


async def show(interaction: discord.Interaction, message) -> None:
    """Replace the clicked message with `message`, whether or not the click was acknowledged already."""
    if interaction.response.is_done():
        await interaction.edit_original_response(embed=message.embed, view=message.view)
    else:
        await interaction.response.edit_message(embed=message.embed, view=message.view)


async def acknowledge(interaction: discord.Interaction) -> None:
    if not interaction.response.is_done():
        await interaction.response.defer()


REPLY_LIMIT = 2000
"""Discord's longest message: a longer answer would be refused and the click left unanswered."""


async def reply(interaction: discord.Interaction, text: str) -> None:
    """A short ephemeral answer, whether or not the interaction was answered already."""
    if len(text) > REPLY_LIMIT:
        text = text[: REPLY_LIMIT - 1] + "…"
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)
