"""Direct messages from the bot: opening a DM channel with a member, and who refuses them.

"Create DM: Create a new DM channel with a user. Returns a DM channel object (if one already exists, it
will be returned instead)" (docs: resources/user#create-dm), which warns that "DMs should generally be
initiated by a user action. If you open a significant amount of DMs too quickly, your bot may be rate
limited or blocked from opening new ones". Opening the channel succeeds whoever the recipient is; it is
the message sent there that a member who closed their direct messages to server members, or blocked the
bot, refuses with 403, 50007 "Cannot send messages to this user" (python-discord/bot#1640, from
discord.py's `User.send`; Together-Java/TJ-Bot#748) — as it does for a user who shares no server with
the bot. Being a 403, that refusal counts toward the ban (`emulator.usage`), though the bot could not
have known: it is Discord's answer, not a broken rule.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from emulator.entities import Channel
from emulator.guilds import DM_CHANNEL, dm_channel
from emulator.model import World
from emulator.responses import Refused, error, json_response, read_payload

CANNOT_SEND_TO_USER = (403, 50007, "Cannot send messages to this user")
UNKNOWN_USER = (404, 10013, "Unknown User")


class DirectMessages:
    """``POST /users/@me/channels``, and the refusal of a message to a member who takes none."""

    def __init__(self, world: World) -> None:
        self.world = world

    def routes(self) -> list[tuple[str, str, Any]]:
        return [("POST", "/users/@me/channels", self.create_dm)]

    async def create_dm(self, request: web.Request) -> web.Response:
        payload = await read_payload(request)
        user = self.world.members.get(int(payload.get("recipient_id") or 0))
        if user is None or user.bot:
            raise Refused(error(*UNKNOWN_USER))
        return json_response(self.world.channel_payload(dm_channel(self.world, user)))

    def check_send(self, channel: Channel) -> None:
        """Refuses (403, 50007) a message in a DM channel whose member takes no DMs from the bot: they
        closed them, or share no server with it."""
        if channel.type != DM_CHANNEL:
            return
        user = self.world.members[channel.owner_id or 0]
        shared = any(user.id in guild.member_ids for guild in self.world.guilds.values())
        if not user.accepts_direct_messages or not shared:
            raise Refused(error(*CANNOT_SEND_TO_USER))
