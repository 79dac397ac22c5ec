"""The guilds the bot is in, and direct-message channels.

The world's first guild is the one every test uses; more can be added (each with its own
channels and members) to try what a member of another server can do, and a DM channel opens
between the bot and any member.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from emulator.entities import STABLE_EPOCH, Channel, Role, User, iso, stable_snowflake

DM_CHANNEL = 1


class World(Protocol):
    """What the guilds read and change of the world (model.py's `World`, which calls them)."""

    guild_id: int
    bot: User
    owner: User
    roles: dict[int, Role]
    guilds: dict[int, Any]
    members: dict[int, User]
    channels: dict[int, Channel]

    def add_channel(
        self, name: str, *, position: int | None = None, guild_id: int | None = None
    ) -> Channel: ...
    def channel_payload(self, channel: Channel, *, permissions_for: User | None = None) -> dict[str, Any]: ...
    def member_payload(
        self, user: User, *, with_user: bool = True, permissions: bool = False
    ) -> dict[str, Any]: ...


@dataclass
class Guild:
    id: int
    name: str
    owner: User
    member_ids: set[int] = field(default_factory=set)
    locale: str = "en-US"
    """The server's preferred locale: its `preferred_locale` and each interaction's `guild_locale`
    (Discord's Guild object: "defaults to en-US")."""


def first_guild(world: World, name: str, everyone_permissions: int) -> Guild:
    """The world's own guild: its @everyone role, its owner and the bot as members."""
    guild = Guild(world.guild_id, name, world.owner, {world.owner.id, world.bot.id})
    world.roles[guild.id] = Role(guild.id, "@everyone", everyone_permissions)
    world.guilds[guild.id] = guild
    return guild


def guild_snowflake(name: str) -> int:
    """A stable id for an added guild, created up to a quarter second later than `stable_snowflake`
    would say, so that guilds spread over shards (`(id >> 22) % shard_count`) as real ones do."""
    spread_ms = hashlib.sha256(f"shard:{name}".encode()).digest()[0]
    return stable_snowflake("guild", name) + (spread_ms << 22)


def add_guild(world: World, name: str, channels: Iterable[str] = ("games",)) -> Guild:
    """Another guild the bot is in, with its own owner, channels and @everyone permissions."""
    guild_id = guild_snowflake(name)
    owner = User(stable_snowflake("user", f"owner:{name}"), f"{name} Owner")
    world.members[owner.id] = owner
    guild = Guild(guild_id, name, owner, {owner.id, world.bot.id})
    world.roles[guild_id] = Role(guild_id, "@everyone", world.roles[world.guild_id].permissions)
    world.guilds[guild_id] = guild
    for name_ in channels:
        world.add_channel(name_, guild_id=guild_id)
    return guild


def dm_channel(world: World, user: User) -> Channel:
    """The direct-message channel between the bot and `user` (opened on first use)."""
    for channel in world.channels.values():
        if channel.type == DM_CHANNEL and channel.owner_id == user.id:
            return channel
    channel = Channel(stable_snowflake("dm", user.name), f"dm-{user.name}", type=DM_CHANNEL, owner_id=user.id)
    channel.guild_id = None
    world.channels[channel.id] = channel
    return channel


def dm_payload(world: World, channel: Channel) -> dict[str, Any]:
    recipient = world.members[channel.owner_id or 0]
    return {
        "id": str(channel.id),
        "type": DM_CHANNEL,
        "last_message_id": None if channel.last_message_id is None else str(channel.last_message_id),
        "recipients": [recipient.payload()],
        "flags": 0,
    }


def guild_payload(world: World, guild_id: int | None = None, *, all_members: bool = True) -> dict[str, Any]:
    """GUILD_CREATE data; without the members intent only the bot's own member is included."""
    guild = world.guilds[guild_id or world.guild_id]
    members = [world.members[i] for i in guild.member_ids] if all_members else [world.bot]
    mine = [c for c in world.channels.values() if c.guild_id == guild.id]
    roles = [r for r in world.roles.values() if r.id == guild.id or r.id not in world.guilds]
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "owner_id": str(guild.owner.id),
        "unavailable": False,
        "member_count": len(guild.member_ids),
        "large": False,
        "features": [],
        "roles": [r.payload() for r in roles],
        "emojis": [],
        "stickers": [],
        "channels": [world.channel_payload(c) for c in mine if not c.is_thread],
        "threads": [world.channel_payload(t) for t in mine if t.is_thread],
        "members": [world.member_payload(m) for m in members],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "preferred_locale": guild.locale,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "joined_at": iso(STABLE_EPOCH),
    }
