"""How a click is answered: the clicked message replaced, a silent acknowledgement, a private sentence."""

from __future__ import annotations

import logging

import discord

from discord_door import respond
from lang import N_, _

log = logging.getLogger("catnip.components")

UNKNOWN_INTERACTION = 10062
"""Discord's code for a click whose 3 s to answer have passed: the token is gone, no reply can go."""
UNKNOWN_WEBHOOK = 10015
"""Discord's code for a token it lost although it is valid (discord/discord-api-docs#6851): the click
was answered, but nothing more reaches the member through it."""
UPDATE = discord.InteractionResponseType.message_update
MESSAGE = discord.InteractionResponseType.channel_message


def too_late(error: BaseException) -> bool:
    """Whether `error` is Discord refusing an answer because the click's 3 s had passed."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


def token_lost(error: BaseException) -> bool:
    """Whether `error` is Discord refusing a followup of an answered click with a token it lost."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_WEBHOOK


def note_lost_token(interaction: discord.Interaction) -> None:
    log.info(
        "Discord lost the token of a click by user %s in guild %s (404 Unknown Webhook); the member "
        "sees the click answered, and their next click works",
        interaction.user.id,
        interaction.guild_id,
    )


async def show(interaction: discord.Interaction, message) -> None:
    """Replace the clicked message with `message`, whether or not the click was acknowledged already."""
    if interaction.response.is_done():
        await interaction.edit_original_response(embed=message.embed, view=message.view)
    else:
        await respond(interaction, UPDATE, embed=message.embed, view=message.view)


POSTED_AGAIN = N_("Done. The table was posted again, further down.")
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
        await interaction.response.send_message(_(POSTED_AGAIN), ephemeral=True)


REPLY_LIMIT = 2000
"""Discord's longest message: a longer answer would be refused and the click left unanswered."""


async def reply(interaction: discord.Interaction, text: str) -> None:
    """A short ephemeral answer, whether or not the interaction was answered already."""
    if len(text) > REPLY_LIMIT:
        text = text[: REPLY_LIMIT - 1] + "…"
    if interaction.response.is_done():
        try:
            await interaction.followup.send(text, ephemeral=True)
        except discord.NotFound as error:
            if not token_lost(error):
                raise
            note_lost_token(interaction)
    else:
        await respond(interaction, MESSAGE, content=text, ephemeral=True)
