"""The emulated guild's plain entities: clock, snowflakes, permissions, roles, users and channels."""

from __future__ import annotations

import datetime as dt
import hashlib
import time
from dataclasses import dataclass, field
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000
STABLE_EPOCH = 1_609_459_200.0  # 2021-01-01: creation time of the stable guild, channel and member ids

# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
EVERYONE_PERMISSIONS = (
    (1 << 0)  # create_instant_invite
    | (1 << 6)  # add_reactions
    | (1 << 10)  # view_channel
    | (1 << 11)  # send_messages
    | (1 << 14)  # embed_links
    | (1 << 15)  # attach_files
    | (1 << 16)  # read_message_history
    | (1 << 18)  # use_external_emojis
    | (1 << 26)  # change_nickname
    | (1 << 31)  # use_application_commands
    | (1 << 35)  # create_public_threads
    | (1 << 38)  # send_messages_in_threads
)
BOT_PERMISSIONS = (
    EVERYONE_PERMISSIONS
    | (1 << 13)  # manage_messages
    | (1 << 34)  # manage_threads
    | (1 << 36)  # create_private_threads
)
ALL_PERMISSIONS = (1 << 53) - 1
SEND_MESSAGES = 1 << 11
SEND_IN_THREADS = 1 << 38
CREATE_PUBLIC_THREADS = 1 << 35
VIEW_CHANNEL = 1 << 10
MANAGE_THREADS = 1 << 34

TEXT_CHANNEL = 0
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12


def permission_value(spec: Any) -> int:
    """The permission bit field for an int, a discord.Permissions, or an iterable of permission names."""
    if spec is None:
        return 0
    if isinstance(spec, int):
        return spec
    if hasattr(spec, "value"):
        return int(spec.value)
    import discord  # the flag names are discord.py's

    return discord.Permissions(**{name: True for name in spec}).value


class VirtualClock:
    """Wall-clock time plus an offset the tests move forward with :meth:`advance`."""

    def __init__(self, start: float | None = None) -> None:
        self.offset = 0.0 if start is None else start - time.time()

    def time(self) -> float:
        """Seconds since the Unix epoch, as the emulator sees them."""
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        """Moves the emulator's time forward (message ages, token and response deadlines)."""
        self.offset += seconds


class StandingClock(VirtualClock):
    """A time that moves only when a test moves it (:meth:`advance`): however long the machine takes,
    no deadline passes and no rate-limit window ends meanwhile."""

    def __init__(self, start: float | None = None) -> None:
        super().__init__(start)
        self.standing_at = time.time() if start is None else start

    def time(self) -> float:
        return self.standing_at

    def advance(self, seconds: float) -> None:
        self.standing_at += seconds


def iso(timestamp: float) -> str:
    """ISO 8601 text of a Unix timestamp, as Discord writes it."""
    return dt.datetime.fromtimestamp(timestamp, tz=dt.UTC).isoformat()


def snowflake_at(timestamp: float, low: int = 0) -> int:
    """A snowflake whose creation time is ``timestamp`` (low: the 22 worker/process/increment bits)."""
    return ((int(timestamp * 1000) - DISCORD_EPOCH_MS) << 22) | (low & 0x3FFFFF)


def stable_snowflake(kind: str, name: str) -> int:
    """The same snowflake for the same kind and name in every run (dated 2021-01-01)."""
    digest = hashlib.sha256(f"{kind}:{name}".encode()).digest()
    return snowflake_at(STABLE_EPOCH + digest[0] * 60, int.from_bytes(digest[1:4], "big"))


def snowflake_time(snowflake: int) -> float:
    """The Unix timestamp encoded in a snowflake."""
    return ((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    role_ids: list[int] = field(default_factory=list)
    joined_at: float = STABLE_EPOCH
    locale: str = "en-US"
    """The language of the member's client, sent as each interaction's `locale` (Discord's Interaction
    object: "the selected language of the invoking user")."""
    accepts_direct_messages: bool = True
    """False for a member who turned off direct messages from server members, or blocked the bot
    (`emulator.direct`)."""

    def payload(self) -> dict[str, Any]:
        data = {
            "id": str(self.id),
            "username": self.name.lower().replace(" ", "_"),
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass
class Channel:
    id: int
    name: str
    type: int = TEXT_CHANNEL
    position: int = 0
    parent_id: int | None = None
    owner_id: int | None = None
    created_at: float = STABLE_EPOCH
    last_message_id: int | None = None
    message_count: int = 0
    auto_archive_duration: int = 1440  # minutes of inactivity after which a thread archives
    guild_id: int | None = None  # None: a direct-message channel
    archived: bool = False
    locked: bool = False
    archive_timestamp: float = STABLE_EPOCH  # when the thread was made, archived or unarchived last
    active_at: float = STABLE_EPOCH  # the thread's latest message, or its archive_timestamp if later

    def archives_at(self) -> float:
        """When a thread left idle archives (`World.archive_idle_threads`)."""
        return max(self.active_at, self.archive_timestamp) + self.auto_archive_duration * 60.0

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)
