"""How a click is answered: the clicked message replaced, a silent acknowledgement, a private sentence."""

from __future__ import annotations

import discord

from discord_door import respond

UNKNOWN_INTERACTION = 10062
"""Discord's code for a click whose 3 s to answer have passed: the token is gone, no reply can go."""
UPDATE = discord.InteractionResponseType.message_update
MESSAGE = discord.InteractionResponseType.channel_message


def too_late(error: BaseException) -> bool:
    """Whether `error` is Discord refusing an answer because the click's 3 s had passed."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


async def show(interaction: discord.Interaction, message) -> None:
    """Replace the clicked message with `message`, whether or not the click was acknowledged already."""
    if interaction.response.is_done():
        await interaction.edit_original_response(embed=message.embed, view=message.view)
    else:
        await respond(interaction, UPDATE, embed=message.embed, view=message.view)


POSTED_AGAIN = "Done. The table was posted again, further down."
"""The answer to a click on a table deleted meanwhile: no update of it can acknowledge the click."""


async def defer_update(interaction: discord.Interaction, *, message_gone: bool) -> bool:
    """Acknowledge the click as an update of the clicked message that leaves it as it is; False, with
    the click still unanswered, when that message is gone: `message_gone` (Catnip deleted it), or
    Discord refusing the update for a reason other than the click's 3 s being over."""
    if message_gone:
        return False
    try:
        await interaction.response.defer()
    except discord.HTTPException as error:
        if too_late(error):
            raise
        return False
    return True


async def acknowledge(interaction: discord.Interaction, *, message_gone: bool = False) -> None:
    """Acknowledge the click silently (`defer_update`), or with a private sentence when the clicked
    message is gone."""
    if not interaction.response.is_done() and not await defer_update(interaction, message_gone=message_gone):
        await interaction.response.send_message(POSTED_AGAIN, ephemeral=True)


REPLY_LIMIT = 2000
"""Discord's longest message: a longer answer would be refused and the click left unanswered."""


async def reply(interaction: discord.Interaction, text: str) -> None:
    """A short ephemeral answer, whether or not the interaction was answered already."""
    if len(text) > REPLY_LIMIT:
        text = text[: REPLY_LIMIT - 1] + "…"
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await respond(interaction, MESSAGE, content=text, ephemeral=True)
