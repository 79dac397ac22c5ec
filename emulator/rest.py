"""REST API v10: users, application commands, guild, channels, messages, threads (direct messages:
:mod:`emulator.direct`).

Interaction callbacks and webhook follow-ups live in :mod:`emulator.callbacks`; both use the message
helpers of :class:`Rest`, which validate every message against :mod:`emulator.limits`.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from emulator import limits
from emulator.aging import edit_refusal, thread_refusal
from emulator.direct import DirectMessages
from emulator.entities import (
    CREATE_PUBLIC_THREADS,
    MANAGE_THREADS,
    PUBLIC_THREAD,
    SEND_IN_THREADS,
    SEND_MESSAGES,
    VIEW_CHANNEL,
)
from emulator.gateway import Gateway
from emulator.model import (
    Channel,
    Command,
    StoredMessage,
    World,
)
from emulator.responses import (
    COUNTS_AS_INVALID,
    EDIT_REFUSED,
    INVALID_FORM,
    MISSING_PERMISSIONS,
    THREAD_ARCHIVED,
    UNKNOWN_CHANNEL,
    UNKNOWN_MESSAGE,
    ErrorKind,
    Refused,
    error,
    json_response,
    message_fields,
    no_content,
    read_payload,
    snowflake,
)


class Rest:
    """Channel, thread, command and user routes, and the message helpers shared with callbacks."""

    def __init__(self, world: World, gateway: Gateway) -> None:
        self.world = world
        self.gateway = gateway
        self.direct = DirectMessages(world)

    def routes(self) -> list[tuple[str, str, Any]]:
        return [
            *self.direct.routes(),
            ("GET", "/users/@me", self.get_me),
            ("GET", "/users/{user_id}", self.get_user),
            ("GET", "/oauth2/applications/@me", self.get_application),
            ("GET", "/applications/@me", self.get_application),
            ("GET", "/gateway", self.get_gateway),
            ("GET", "/gateway/bot", self.get_bot_gateway),
            ("GET", "/applications/{app_id}/commands", self.get_commands),
            ("PUT", "/applications/{app_id}/commands", self.put_commands),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self.get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self.put_commands),
            ("GET", "/guilds/{guild_id}", self.get_guild),
            ("GET", "/guilds/{guild_id}/channels", self.get_guild_channels),
            ("GET", "/guilds/{guild_id}/members", self.get_members),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self.get_member),
            ("GET", "/channels/{channel_id}", self.get_channel),
            ("GET", "/channels/{channel_id}/messages", self.get_history),
            ("POST", "/channels/{channel_id}/messages", self.post_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self.get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self.patch_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self.delete_message),
            ("POST", "/channels/{channel_id}/threads", self.post_thread),
            ("POST", "/channels/{channel_id}/messages/{message_id}/threads", self.post_message_thread),
            ("POST", "/channels/{channel_id}/typing", self.typing),
            ("PUT", "/channels/{channel_id}/thread-members/@me", self.typing),
        ]

    # message helpers (shared with callbacks) --------------------------------------------------------

    def check(self, fields: dict[str, Any], where: str) -> None:
        """Records and refuses (HTTP 400) a message that breaks Discord's limits."""
        problems = limits.check_message(fields)
        if problems:
            for rule, detail in problems:
                self.world.violate(rule, detail, where)
            raise Refused(error(*INVALID_FORM, [p for _, p in problems]))

    def refuse(self, rule: str, detail: str, where: str, kind: ErrorKind = INVALID_FORM) -> Refused:
        """Records a violation and builds the Discord error the bot gets for it."""
        self.world.violate(rule, detail, where)
        return Refused(error(*kind, [detail]))

    def add_files(
        self,
        fields: dict[str, Any],
        payload: dict[str, Any],
        where: str = "",
        base: StoredMessage | None = None,
    ) -> None:
        """Stores the uploaded files (their bytes in `world.files`, for tests to read) as attachments,
        and refuses an embed that shows an ``attachment://`` file the message does not have, or, in an
        edit of `base`, one the edit keeps without naming it (`limits.check_embedded_files`). An edit
        sending an embed notes under ``kept_files`` the files it shows and keeps by name."""
        files = payload.get("__files__", [])
        if len(files) > limits.FILES:
            raise self.refuse(limits.FILE_LIMIT, f"{len(files)} files (max {limits.FILES})", where)
        uploaded = []
        for file in files:
            attachment_id = self.world.new_id()
            url = f"https://cdn.emulator.invalid/attachments/{attachment_id}/{file['filename']}"
            data = file.pop("data", b"")
            self.world.files[attachment_id] = data
            uploaded.append({"id": str(attachment_id), "url": url, "proxy_url": url, **file})
        fields["attachments"] = list(fields["attachments"]) + uploaded
        held = {attachment["filename"] for attachment in fields["attachments"]}
        new = {attachment["filename"] for attachment in uploaded}
        named, sent_embeds = held, "embeds" in payload or "embed" in payload
        if base is not None and "attachments" not in payload and sent_embeds:
            named = new
        problems = limits.check_embedded_files(fields["embeds"], named, held)
        if problems:
            for rule, detail in problems:
                self.world.violate(rule, detail, where)
            raise Refused(error(*INVALID_FORM, [p for _, p in problems]))
        if base is not None and sent_embeds:
            shown = {name for _, _, name in limits.embedded_files(fields["embeds"])}
            fields["kept_files"] = sorted(shown - new)

    def create_message(
        self,
        channel: Channel,
        fields: dict[str, Any],
        *,
        author_id: int | None = None,
        visible_to: int | None = None,
        interaction_id: int | None = None,
        webhook: bool = False,
        type: int = 0,
    ) -> StoredMessage:
        """Stores a message, dispatches MESSAGE_CREATE when it is public, and notifies listeners."""
        world = self.world
        message = StoredMessage(
            id=world.new_id(),
            channel_id=channel.id,
            author_id=world.bot.id if author_id is None else author_id,
            content=fields["content"],
            embeds=fields["embeds"],
            components=fields["components"],
            attachments=fields["attachments"],
            flags=fields["flags"],
            type=type,
            created_at=world.now(),
            visible_to=visible_to,
            interaction_id=interaction_id,
            webhook_id=world.bot.id if webhook else None,
        )
        world.store(message)
        if not message.ephemeral:
            channel.last_message_id = message.id
            if channel.is_thread:
                channel.message_count += 1
                world.thread_active(channel)
            world.dispatch("MESSAGE_CREATE", world.message_payload(message))
        world.notify("create", message)
        return message

    def update_message(self, message: StoredMessage, fields: dict[str, Any]) -> StoredMessage:
        """Applies checked fields to a message, dispatches MESSAGE_UPDATE when public."""
        message.content = fields["content"]
        message.embeds = fields["embeds"]
        message.components = fields["components"]
        message.attachments = fields["attachments"]
        message.flags = fields["flags"]
        message.edited_at = self.world.now()
        if fields.get("kept_files"):
            self.world.kept_files[message.id] += 1
        if not message.ephemeral:
            self.world.dispatch("MESSAGE_UPDATE", self.world.message_payload(message))
        self.world.notify("update", message)
        return message

    def remove_message(self, message: StoredMessage) -> None:
        message.deleted = True
        if not message.ephemeral:
            data = {
                "id": str(message.id),
                "channel_id": str(message.channel_id),
                "guild_id": str(getattr(self.world.channels.get(message.channel_id), "guild_id", None)),
            }
            self.world.dispatch("MESSAGE_DELETE", data)
        self.world.notify("delete", message)

    def check_edit_age(self, message: StoredMessage, where: str) -> None:
        """Refuses an edit of a message over an hour old (`emulator.aging.edit_refusal`)."""
        why = edit_refusal(self.world, message)
        if why is not None:
            refused = self.refuse(limits.EDIT_TOO_OLD, why, where, EDIT_REFUSED)
            refused.response[COUNTS_AS_INVALID] = True
            raise refused

    def check_thread_open(self, channel: Channel, where: str, *, sending: bool) -> None:
        """Refuses a request in an archived thread (`emulator.aging.thread_refusal`), or a message in a
        locked thread without MANAGE_THREADS (403, 50013)."""
        why = thread_refusal(self.world, channel, sending=sending)
        if why is not None:
            raise self.refuse(limits.THREAD_ARCHIVED, why, where, THREAD_ARCHIVED)
        if sending and channel.is_thread and channel.locked:
            self.require(MANAGE_THREADS, f"send in the locked thread {channel.name}", where, channel)

    def channel(self, channel_id: int) -> Channel:
        channel = self.world.channels.get(channel_id)
        if channel is None:
            raise Refused(error(*UNKNOWN_CHANNEL))
        return channel

    def channel_message(self, request: web.Request, where: str) -> StoredMessage:
        """The message a channel route names; ephemeral messages are out of reach of channel routes."""
        channel = self.channel(snowflake(request, "channel_id"))
        message = self.world.messages.get(int(request.match_info["message_id"]))
        if message is None or message.deleted or message.channel_id != channel.id:
            raise Refused(error(*UNKNOWN_MESSAGE))
        if message.ephemeral:
            raise self.refuse(
                limits.EPHEMERAL,
                f"message {message.id} is ephemeral: only its interaction token reaches it",
                where,
                UNKNOWN_MESSAGE,
            )
        return message

    def require(self, permission: int, what: str, where: str, channel: Channel | None = None) -> None:
        allowed = (
            self.world.bot_may(channel, permission)
            if channel is not None
            else self.world.permissions_of(self.world.bot) & permission
        )
        if not allowed:
            raise self.refuse(
                limits.PERMISSIONS, f"the bot lacks the permission to {what}", where, MISSING_PERMISSIONS
            )

    # users, application, gateway --------------------------------------------------------------------

    async def get_me(self, request: web.Request) -> web.Response:
        return json_response(
            {**self.world.bot.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US"}
        )

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.world.members.get(snowflake(request, "user_id"))
        return json_response(user.payload()) if user else error(404, 10013, "Unknown User")

    async def get_application(self, request: web.Request) -> web.Response:
        bot = self.world.bot
        return json_response(
            {
                "id": str(bot.id),
                "name": bot.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.world.owner.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
                "summary": "",
            }
        )

    async def get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway.url})

    async def get_bot_gateway(self, request: web.Request) -> web.Response:
        return json_response(self.gateway.bot_gateway())

    # application commands ---------------------------------------------------------------------------

    def _scope(self, request: web.Request) -> int | None:
        if int(request.match_info["app_id"]) != self.world.bot.id:
            raise Refused(error(403, 50001, "Missing Access"))
        guild = request.match_info.get("guild_id")
        if guild is not None and int(guild) not in self.world.guilds:
            raise Refused(error(403, 50001, "Missing Access"))
        return None if guild is None else int(guild)

    async def get_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        found = [c for c in self.world.commands.values() if c.guild_id == scope]
        return json_response([self.world.command_payload(c) for c in found])

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        payload = await read_payload(request)
        world = self.world
        old = {(c.name, c.type): c for c in world.commands.values() if c.guild_id == scope}
        for command in old.values():
            del world.commands[command.id]
        for item in payload:
            kind = int(item.get("type", 1))
            previous = old.get((item["name"], kind))
            command = Command(
                id=previous.id if previous else world.new_id(),
                name=item["name"],
                type=kind,
                description=item.get("description", ""),
                options=item.get("options", []),
                guild_id=scope,
                payload=item,
            )
            world.commands[command.id] = command
        found = [c for c in world.commands.values() if c.guild_id == scope]
        return json_response([world.command_payload(c) for c in found])

    # guild ------------------------------------------------------------------------------------------

    def _guild(self, request: web.Request) -> int:
        guild_id = int(request.match_info["guild_id"])
        if guild_id not in self.world.guilds:
            raise Refused(error(404, 10004, "Unknown Guild"))
        return guild_id

    async def get_guild(self, request: web.Request) -> web.Response:
        payload = self.world.guild_payload(self._guild(request))
        for key in ("channels", "threads", "members", "voice_states", "presences"):
            payload.pop(key)
        return json_response(payload)

    async def get_guild_channels(self, request: web.Request) -> web.Response:
        guild_id = self._guild(request)
        channels = [c for c in self.world.channels.values() if not c.is_thread and c.guild_id == guild_id]
        return json_response([self.world.channel_payload(c) for c in channels])

    async def get_members(self, request: web.Request) -> web.Response:
        self._guild(request)
        return json_response([self.world.member_payload(m) for m in self.world.members.values()])

    async def get_member(self, request: web.Request) -> web.Response:
        self._guild(request)
        member = self.world.members.get(snowflake(request, "user_id"))
        return (
            json_response(self.world.member_payload(member))
            if member
            else error(404, 10007, "Unknown Member")
        )

    # channels and messages --------------------------------------------------------------------------

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self.channel(snowflake(request, "channel_id"))
        if not self.world.bot_may(channel, VIEW_CHANNEL):
            return error(403, 50001, "Missing Access")
        return json_response(self.world.channel_payload(channel))

    async def get_history(self, request: web.Request) -> web.Response:
        channel = self.channel(snowflake(request, "channel_id"))
        messages = self.world.channel_messages(channel.id)
        query = request.query
        limit = max(1, min(int(query.get("limit", 50)), 100))
        if "before" in query:
            messages = [m for m in messages if m.id < int(query["before"])][-limit:]
        elif "after" in query:
            messages = [m for m in messages if m.id > int(query["after"])][:limit]
        elif "around" in query:
            pivot = int(query["around"])
            older = [m for m in messages if m.id <= pivot][-(limit // 2 + 1) :]
            newer = [m for m in messages if m.id > pivot][: limit - len(older)]
            messages = older + newer
        else:
            messages = messages[-limit:]
        return json_response([self.world.message_payload(m) for m in reversed(messages)])

    async def post_message(self, request: web.Request) -> web.Response:
        where = f"POST {request.path}"
        channel = self.channel(snowflake(request, "channel_id"))
        self.require(VIEW_CHANNEL, f"see #{channel.name}", where, channel)
        if channel.is_thread:
            self.require(SEND_IN_THREADS, f"send messages in thread {channel.name}", where, channel)
        else:
            self.require(SEND_MESSAGES, f"send messages in #{channel.name}", where, channel)
        self.check_thread_open(channel, where, sending=True)
        self.direct.check_send(channel)
        payload = await read_payload(request)
        if int(payload.get("flags") or 0) & limits.EPHEMERAL_FLAG:
            raise self.refuse(
                limits.EPHEMERAL, "a channel message cannot be ephemeral: everybody would see it", where
            )
        fields = message_fields(payload)
        self.add_files(fields, payload, where)
        self.check(fields, where)
        message = self.create_message(channel, fields, type=19 if payload.get("message_reference") else 0)
        return json_response(self.world.message_payload(message))

    async def get_message(self, request: web.Request) -> web.Response:
        message = self.channel_message(request, f"GET {request.path}")
        return json_response(self.world.message_payload(message))

    async def patch_message(self, request: web.Request) -> web.Response:
        where = f"PATCH {request.path}"
        message = self.channel_message(request, where)
        self.require(VIEW_CHANNEL, "see the channel", where, self.channel(message.channel_id))
        if message.author_id != self.world.bot.id:
            return error(403, 50005, "Cannot edit a message authored by another user")
        self.check_thread_open(self.channel(message.channel_id), where, sending=False)
        self.check_edit_age(message, where)
        payload = await read_payload(request)
        fields = message_fields(payload, message)
        self.add_files(fields, payload, where, message)
        self.check(fields, where)
        return json_response(self.world.message_payload(self.update_message(message, fields)))

    async def delete_message(self, request: web.Request) -> web.Response:
        where = f"DELETE {request.path}"
        message = self.channel_message(request, where)
        self.check_thread_open(self.channel(message.channel_id), where, sending=False)
        self.remove_message(message)
        return no_content()

    # threads ----------------------------------------------------------------------------------------

    def _new_thread(
        self, parent: Channel, payload: dict[str, Any], thread_id: int, kind: int, where: str
    ) -> Channel:
        if parent.is_thread:
            raise Refused(error(400, 50024, "Cannot execute action on this channel type"))
        self.require(CREATE_PUBLIC_THREADS, f"create threads in #{parent.name}", where, parent)
        name = str(payload.get("name") or "")
        thread = Channel(
            id=thread_id,
            name=name,
            type=kind,
            parent_id=parent.id,
            owner_id=self.world.bot.id,
            created_at=self.world.now(),
            auto_archive_duration=int(payload.get("auto_archive_duration") or 1440),
            guild_id=parent.guild_id,
            archive_timestamp=self.world.now(),
            active_at=self.world.now(),
        )
        self.world.channels[thread.id] = thread
        self.world.archive_check_at = min(self.world.archive_check_at, thread.archives_at())
        data = self.world.channel_payload(thread)
        member = {
            "id": str(thread.id),
            "user_id": str(self.world.bot.id),
            "join_timestamp": data["thread_metadata"]["create_timestamp"],
            "flags": 0,
        }
        self.world.dispatch("THREAD_CREATE", {**data, "newly_created": True, "member": member})
        return thread

    async def post_thread(self, request: web.Request) -> web.Response:
        parent = self.channel(snowflake(request, "channel_id"))
        payload = await read_payload(request)
        kind = int(payload.get("type") or PUBLIC_THREAD)
        thread = self._new_thread(parent, payload, self.world.new_id(), kind, f"POST {request.path}")
        return json_response(self.world.channel_payload(thread), 201)

    async def post_message_thread(self, request: web.Request) -> web.Response:
        where = f"POST {request.path}"
        message = self.channel_message(request, where)
        if message.thread_id is not None:
            return error(400, 160004, "A thread has already been created for this message")
        payload = await read_payload(request)
        parent = self.channel(message.channel_id)
        thread = self._new_thread(parent, payload, message.id, PUBLIC_THREAD, where)
        message.thread_id = thread.id
        message.flags |= 1 << 5  # HAS_THREAD
        return json_response(self.world.channel_payload(thread), 201)

    async def typing(self, request: web.Request) -> web.Response:
        self.channel(snowflake(request, "channel_id"))
        return no_content()
