"""One direct message to a game's host when the game ends because Discord took its place away: its
channel or thread is gone, or the bot may no longer post there. The members at the table see that on
the table where it can still be edited; the host, who may not be watching, hears of it once.

The message costs two requests bound by the global limit (opening the DM channel, then the message) and
is sent once, when the game ends, never again. A member who closed their direct messages (or blocked the
bot) refuses it with 403, 50007 "Cannot send messages to this user"; that answer counts toward Discord's
ban on invalid requests, so it is not retried: one INFO line says it was dropped.
"""

from __future__ import annotations

import logging

import discord

from bot.discord_budget import Priority, priority
from bot.live import LiveGame

log = logging.getLogger("catnip.table")

CANNOT_SEND_TO_USER = 50007
CHANNEL_GONE = "its channel is gone"
CANNOT_POST_THERE = "I can no longer post in its channel"


def notice_text(game: LiveGame, server: str | None, channel: str | None, why: str) -> str:
    """What the host is told: which game, where, and why it ended."""
    where = f" in #{channel}" if channel else ""
    where += f" on {server}" if server else ""
    return f"Your game of {game.rules.title} (table #{game.id}){where} has ended: {why}."


class HostNotice:
    """Tells a game's host, by direct message, that the game ended because its place is gone."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot

    async def tell(self, game: LiveGame, why: str) -> None:
        """Send `game`'s host one direct message that it ended for `why`; a refusal is dropped."""
        guild = self.bot.get_guild(game.record.guild_id)
        channel = self.bot.get_channel(game.record.channel_id)
        text = notice_text(game, getattr(guild, "name", None), getattr(channel, "name", None), why)
        try:
            with priority(Priority.PING):
                direct = await self.bot.create_dm(discord.Object(game.record.host_id))
                await direct.send(text)
        except discord.HTTPException as error:
            refused = "closed to the bot" if error.code == CANNOT_SEND_TO_USER else f"HTTP {error.status}"
            log.info("%s the host was not told of the end by DM (%s)", game.log_prefix(), refused)
