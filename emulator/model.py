"""The emulated guild in memory: clock, snowflakes, members, channels, threads, messages, commands.

Everything here is plain data plus the builders of the JSON payloads discord.py parses.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from emulator import guilds, limits
from emulator.entities import (
    ADMINISTRATOR,
    ALL_PERMISSIONS,
    BOT_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    Channel,
    Role,
    User,
    VirtualClock,
    iso,
    snowflake_at,
    stable_snowflake,
)
from emulator.lost_tokens import LostTokens


@dataclass
class StoredMessage:
    id: int
    channel_id: int
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created_at: float = 0.0
    edited_at: float | None = None
    visible_to: int | None = None  # the member who alone sees an ephemeral message
    interaction_id: int | None = None
    webhook_id: int | None = None
    thread_id: int | None = None
    deleted: bool = False

    @property
    def ephemeral(self) -> bool:
        return self.visible_to is not None

    @property
    def loading(self) -> bool:
        """True while this is a deferred reply's "thinking…" placeholder."""
        return bool(self.flags & limits.LOADING_FLAG)

    def interactive(self) -> list[dict[str, Any]]:
        """Buttons and selects, in display order."""
        return limits.interactive_components(self.components)

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in self.interactive() if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in self.interactive() if c.get("type") != 2]

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.interactive() if c.get("custom_id")]

    def text(self) -> str:
        """Everything a reader sees: content, embeds and component labels, one piece per line."""
        parts = [self.content] if self.content else []
        for embed in self.embeds:
            parts += [str((embed.get("author") or {}).get("name") or ""), str(embed.get("title") or "")]
            parts.append(str(embed.get("description") or ""))
            for f in embed.get("fields") or []:
                parts += [str(f.get("name") or ""), str(f.get("value") or "")]
            parts.append(str((embed.get("footer") or {}).get("text") or ""))
        for component in limits.walk_components(self.components):
            parts += [str(component.get(k)) for k in ("label", "placeholder", "content") if component.get(k)]
            for option in component.get("options") or []:
                parts += [str(option.get("label") or ""), str(option.get("description") or "")]
        return "\n".join(p for p in parts if p)

    @classmethod
    def from_snapshot(cls, data: dict[str, Any]) -> StoredMessage:
        return cls(**data)

    def snapshot(self) -> dict[str, Any]:
        """Plain JSON data (for the control API and for test assertions)."""
        return {
            "id": self.id,
            "channel_id": self.channel_id,
            "author_id": self.author_id,
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": self.attachments,
            "flags": self.flags,
            "type": self.type,
            "created_at": self.created_at,
            "edited_at": self.edited_at,
            "visible_to": self.visible_to,
            "interaction_id": self.interaction_id,
            "webhook_id": self.webhook_id,
            "thread_id": self.thread_id,
            "deleted": self.deleted,
        }


@dataclass
class Command:
    id: int
    name: str
    type: int
    description: str
    options: list[dict[str, Any]]
    guild_id: int | None
    payload: dict[str, Any]

    @property
    def default_member_permissions(self) -> int | None:
        value = self.payload.get("default_member_permissions")
        return None if value is None else int(value)


@dataclass
class Interaction:
    id: int
    token: str
    type: int  # 2 command, 3 component, 5 modal submit
    member_id: int
    channel_id: int
    data: dict[str, Any]
    label: str
    created_at: float
    message_id: int | None = None  # the message a component belongs to
    parent: Interaction | None = None  # for a modal submit: the interaction that opened the modal
    response_type: int | None = None
    responded_at: float | None = None
    offered: tuple[str, ...] = ()  # the custom_ids of the initial response's components, as sent
    failed: str | None = None
    original_id: int | None = None  # the message @original names
    followup_ids: list[int] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the initial response (None while unanswered)."""
        return None if self.responded_at is None else self.responded_at - self.created_at


@dataclass
class Violation:
    rule: str
    detail: str
    where: str = ""

    def __str__(self) -> str:
        return f"[{self.rule}] {self.detail}" + (f" ({self.where})" if self.where else "")


class World:
    """One guild, its channels, members and messages, and the bot's application."""

    def __init__(
        self,
        *,
        guild_name: str = "Catnip Test",
        channels: Iterable[str] = ("games",),
        bot_name: str = "Catnip",
        bot_permissions: int = BOT_PERMISSIONS,
        everyone_permissions: int = EVERYONE_PERMISSIONS,
        clock: VirtualClock | None = None,
        response_deadline: float = limits.RESPONSE_DEADLINE,
        token_lifetime: float = limits.TOKEN_LIFETIME,
        edit_window: float | None = limits.EDIT_WINDOW,
    ) -> None:
        self.clock = clock or VirtualClock()
        self.response_deadline = response_deadline
        self.token_lifetime = token_lifetime
        self.edit_window = edit_window
        self.guild_id = stable_snowflake("guild", guild_name)
        self.guild_name = guild_name
        self.bot = User(stable_snowflake("user", f"bot:{bot_name}"), bot_name, bot=True)
        self.owner = User(stable_snowflake("user", f"owner:{guild_name}"), "Server Owner")
        self.roles: dict[int, Role] = {}
        self.guilds: dict[int, Any] = {}
        guilds.first_guild(self, guild_name, everyone_permissions)
        bot_role = Role(stable_snowflake("role", f"bot:{bot_name}"), bot_name, bot_permissions, position=1)
        self.roles[bot_role.id] = bot_role
        self.bot.role_ids.append(bot_role.id)
        self.members: dict[int, User] = {self.owner.id: self.owner, self.bot.id: self.bot}
        self.channels: dict[int, Channel] = {}
        self.bot_denied: dict[int, int] = {}  # channel id -> permission bits an overwrite denies the bot
        for position, name in enumerate(channels):
            self.add_channel(name, position=position)
        self.messages: dict[int, StoredMessage] = {}
        self.files: dict[int, bytes] = {}  # attachment id -> the uploaded bytes
        self.kept_files: Counter[int] = Counter()
        """By message id, the edits whose embed showed a file the edit kept by naming it, not uploading
        it again (one keeping a shown file without naming it is refused: limits.check_embedded_files)."""
        self.by_channel: dict[int, list[StoredMessage]] = {}
        self.commands: dict[int, Command] = {}
        self.interactions: dict[int, Interaction] = {}
        self.tokens: dict[str, Interaction] = {}
        self.violations: list[Violation] = []
        self.archive_check_at = float("inf")  # no open thread archives before then
        self.lost_tokens = LostTokens()
        self.listeners: list[Callable[[str, StoredMessage], None]] = []
        self.dispatch: Callable[[str, dict[str, Any]], None] = lambda name, data: None
        self._last_id = 0
        self._counter = itertools.count(1)

    # ids and time -----------------------------------------------------------------------------------

    def now(self) -> float:
        return self.clock.time()

    def new_id(self) -> int:
        """A fresh snowflake encoding the emulator's current time."""
        candidate = snowflake_at(self.now(), next(self._counter) & 0xFFF)
        self._last_id = max(candidate, self._last_id + 1)
        return self._last_id

    def archive_idle_threads(self) -> None:
        """Archives each thread idle for its `auto_archive_duration` (THREAD_UPDATE), as Discord does:
        "Threads will automatically archive after a period of inactivity" (topics/threads), counted from
        its latest message or its latest archive change (``archive_timestamp``, "used for calculating
        recent activity", resources/channel#thread-metadata-object). Called before each request and each
        time a test moves the clock."""
        now = self.now()
        if now < self.archive_check_at:
            return
        due = float("inf")
        for channel in list(self.channels.values()):
            if not channel.is_thread or channel.archived:
                continue
            if channel.archives_at() <= now:
                self.set_archived(channel, True)
            else:
                due = min(due, channel.archives_at())
        self.archive_check_at = due

    def set_archived(self, thread: Channel, archived: bool, *, locked: bool | None = None) -> None:
        """Archives or unarchives (and locks or unlocks) a thread, and tells the bot (THREAD_UPDATE)."""
        thread.archived = archived
        if locked is not None:
            thread.locked = locked
        thread.archive_timestamp = self.now()
        if not archived:
            self.archive_check_at = min(self.archive_check_at, thread.archives_at())
        self.dispatch("THREAD_UPDATE", self.channel_payload(thread))

    def thread_active(self, thread: Channel) -> None:
        """A message was posted in `thread`: its idle time starts again (an archived one is unarchived by
        the caller first)."""
        thread.active_at = self.now()

    def violate(self, rule: str, detail: str, where: str = "") -> Violation:
        violation = Violation(rule, detail, where)
        self.violations.append(violation)
        return violation

    # guild structure --------------------------------------------------------------------------------

    def add_channel(self, name: str, *, position: int | None = None, guild_id: int | None = None) -> Channel:
        guild = self.guilds[guild_id or self.guild_id]
        channel = Channel(stable_snowflake("channel", f"{guild.name}:{name}"), name, guild_id=guild.id)
        channel.position = len(self.channels) if position is None else position
        self.channels[channel.id] = channel
        return channel

    def add_member(self, name: str, permissions: int | None = None, *, guild_id: int | None = None) -> User:
        """Adds a member (of the first guild unless told); with ``permissions`` they also get a role
        granting exactly those."""
        user = User(stable_snowflake("user", name), name)
        if permissions:
            role = Role(stable_snowflake("role", f"member:{name}"), f"{name}'s role", permissions, position=1)
            self.roles[role.id] = role
            user.role_ids.append(role.id)
        self.members[user.id] = user
        self.guilds[guild_id or self.guild_id].member_ids.add(user.id)
        return user

    def member_named(self, name: str) -> User:
        for user in self.members.values():
            if user.name == name:
                return user
        raise KeyError(f"no member called {name!r}")

    def channel_named(self, name: str) -> Channel:
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise KeyError(f"no channel or thread called {name!r}")

    def default_channel(self) -> Channel:
        """The first text channel (where commands run unless told otherwise)."""
        mine = (c for c in self.channels.values() if not c.is_thread and c.guild_id == self.guild_id)
        return min(mine, key=lambda c: c.position)

    def permissions_of(self, user: User) -> int:
        """Guild-level permissions of a member (owner and administrators have all)."""
        if user.id == self.owner.id:
            return ALL_PERMISSIONS
        guild = next((g for g in self.guilds.values() if user.id in g.member_ids), None)
        value = self.roles[guild.id if guild else self.guild_id].permissions
        for role_id in user.role_ids:
            value |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def bot_may(self, channel: Channel, permission: int) -> bool:
        """Whether the bot has ``permission`` in a channel (a thread follows its parent's overwrites)."""
        value = self.permissions_of(self.bot)
        if value == ALL_PERMISSIONS:
            return True
        denied = self.bot_denied.get(channel.parent_id if channel.is_thread else channel.id, 0)
        return bool(value & ~denied & permission)

    def visible(self, message: StoredMessage, member_id: int | None) -> bool:
        """Whether a member (None: everybody) sees a message."""
        if message.deleted:
            return False
        return message.visible_to is None or message.visible_to == member_id

    def channel_messages(self, channel_id: int, member_id: int | None = None) -> list[StoredMessage]:
        """Messages of a channel or thread a member sees, oldest first."""
        return [m for m in self.by_channel.get(channel_id, []) if self.visible(m, member_id)]

    def store(self, message: StoredMessage) -> StoredMessage:
        """Keeps a new message (ids only grow, so each channel's list stays in order)."""
        self.messages[message.id] = message
        self.by_channel.setdefault(message.channel_id, []).append(message)
        return message

    def notify(self, kind: str, message: StoredMessage) -> None:
        for listener in list(self.listeners):
            listener(kind, message)

    # payloads ---------------------------------------------------------------------------------------

    def member_payload(
        self, user: User, *, with_user: bool = True, permissions: bool = False
    ) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r) for r in user.role_ids],
            "joined_at": iso(user.joined_at),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "premium_since": None,
            "nick": None,
            "avatar": None,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = user.payload()
        if permissions:
            data["permissions"] = str(self.permissions_of(user))
        return data

    def channel_payload(self, channel: Channel, *, permissions_for: User | None = None) -> dict[str, Any]:
        if channel.guild_id is None:
            return guilds.dm_payload(self, channel)
        data: dict[str, Any] = {
            "id": str(channel.id),
            "type": channel.type,
            "guild_id": str(channel.guild_id),
            "name": channel.name,
            "last_message_id": None if channel.last_message_id is None else str(channel.last_message_id),
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if channel.is_thread:
            data.update(
                parent_id=str(channel.parent_id),
                owner_id=str(channel.owner_id),
                message_count=channel.message_count,
                total_message_sent=channel.message_count,
                member_count=1,
                thread_metadata={
                    "archived": channel.archived,
                    "auto_archive_duration": channel.auto_archive_duration,
                    "archive_timestamp": iso(channel.archive_timestamp),
                    "locked": channel.locked,
                    "create_timestamp": iso(channel.created_at),
                },
            )
        else:
            denied = self.bot_denied.get(channel.id, 0)
            overwrite = {"id": str(self.bot.id), "type": 1, "allow": "0", "deny": str(denied)}
            data.update(position=channel.position, parent_id=None, topic=None, nsfw=False)
            data["permission_overwrites"] = [overwrite] if denied else []
        if permissions_for is not None:
            data["permissions"] = str(self.permissions_of(permissions_for))
        return data

    def guild_payload(self, guild_id: int | None = None, *, all_members: bool = True) -> dict[str, Any]:
        """GUILD_CREATE data of a guild (the first unless told)."""
        return guilds.guild_payload(self, guild_id, all_members=all_members)

    def message_payload(self, message: StoredMessage) -> dict[str, Any]:
        author = self.members.get(message.author_id) or self.bot
        channel = self.channels.get(message.channel_id)
        guild_id = channel.guild_id if channel is not None else self.guild_id
        data: dict[str, Any] = {
            "id": str(message.id),
            "channel_id": str(message.channel_id),
            "guild_id": None if guild_id is None else str(guild_id),
            "author": author.payload(),
            "content": message.content,
            "timestamp": iso(message.created_at),
            "edited_timestamp": None if message.edited_at is None else iso(message.edited_at),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": message.attachments,
            "embeds": message.embeds,
            "components": message.components,
            "pinned": False,
            "type": message.type,
            "flags": message.flags,
        }
        if guild_id is None:
            data.pop("guild_id")
        elif not message.ephemeral:
            data["member"] = self.member_payload(author, with_user=False)
        if message.webhook_id is not None:
            data["webhook_id"] = str(message.webhook_id)
            data["application_id"] = str(self.bot.id)
        interaction = self.interactions.get(message.interaction_id or 0)
        if interaction is not None:
            user = self.members[interaction.member_id]
            data["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": user.payload(),
                "authorizing_integration_owners": {"0": str(guild_id or self.guild_id)},
            }
            if interaction.message_id is not None and interaction.type == 3:
                data["interaction_metadata"]["interacted_message_id"] = str(interaction.message_id)
        if message.thread_id is not None and message.thread_id in self.channels:
            data["thread"] = self.channel_payload(self.channels[message.thread_id])
        if channel is not None and channel.is_thread:
            data["position"] = max(channel.message_count - 1, 0)
        return data

    def command_payload(self, command: Command) -> dict[str, Any]:
        data = dict(command.payload)
        data.update(
            id=str(command.id),
            application_id=str(self.bot.id),
            version=str(command.id),
            type=command.type,
            name=command.name,
            description=command.description,
            options=command.options,
            default_member_permissions=command.payload.get("default_member_permissions"),
            nsfw=command.payload.get("nsfw", False),
        )
        if command.guild_id is not None:
            data["guild_id"] = str(command.guild_id)
        return data
