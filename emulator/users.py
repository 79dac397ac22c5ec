"""Simulated members: invoke slash commands, click buttons, choose select values, submit modals, and
read what each member can see (public messages plus their own ephemeral ones)."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable
from typing import Any

from emulator import limits
from emulator.callbacks import COMMAND, COMPONENT, MODAL_SUBMIT, fail
from emulator.commands import InvalidInvocation, channel_named, command_data
from emulator.entities import snowflake_at
from emulator.guilds import DM_CHANNEL
from emulator.harness import WAIT
from emulator.model import Channel, Interaction, StoredMessage, User, World

ATTACHMENT_SIZE_LIMIT = 25 * 1024 * 1024


class InteractionResult:
    """An interaction's outcome: the initial response, its message, the follow-ups, and the timing."""

    def __init__(self, world: World, interaction: Interaction) -> None:
        self.world = world
        self.interaction = interaction

    def __repr__(self) -> str:
        state = self.failed or f"response type {self.response_type}"
        return f"<InteractionResult {self.interaction.label} {state}>"

    @property
    def id(self) -> int:
        return self.interaction.id

    @property
    def failed(self) -> str | None:
        """Why the interaction failed (no initial response in time), or None."""
        return self.interaction.failed

    @property
    def ok(self) -> bool:
        return self.interaction.response_type is not None

    @property
    def response_type(self) -> int | None:
        return self.interaction.response_type

    @property
    def latency(self) -> float | None:
        return self.interaction.latency

    @property
    def message(self) -> StoredMessage | None:
        """The message the initial response created or updated, as it is now."""
        message = self.world.messages.get(self.interaction.original_id or 0)
        return None if message is None or message.deleted else message

    @property
    def followups(self) -> list[StoredMessage]:
        found = (self.world.messages.get(i) for i in self.interaction.followup_ids)
        return [m for m in found if m is not None and not m.deleted]

    @property
    def messages(self) -> list[StoredMessage]:
        """The response message and the follow-ups."""
        return ([self.message] if self.message else []) + self.followups

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.interaction.modal

    async def wait_for(self, predicate: Callable[[InteractionResult], Any], timeout: float = WAIT) -> Any:
        """Waits until ``predicate(self)`` is truthy (after follow-ups and edits); returns its value."""
        async with asyncio.timeout(timeout):
            while True:
                value = predicate(self)
                if value:
                    return value
                self.interaction.changed.clear()
                await self.interaction.changed.wait()

    @property
    def token_lost(self) -> bool:
        """Whether Discord lost this interaction's token (`emulator.model.LostTokens`): no follow-up
        of it will come, and the member, seeing nothing, clicks again."""
        return self.interaction.token in self.world.lost_tokens.lost

    async def wait_followup(self, count: int = 1, timeout: float = WAIT) -> StoredMessage | None:
        """Waits for the ``count``-th follow-up message and returns it (None once the token is lost)."""
        found = await self.wait_for(
            lambda r: r.token_lost or (len(r.followups) >= count and r.followups[count - 1]), timeout
        )
        return None if found is True else found

    async def wait_final(self, timeout: float = WAIT) -> StoredMessage:
        """Waits until a deferred reply's "thinking…" message has been replaced; returns it."""
        return await self.wait_for(
            lambda r: r.message is not None and not r.message.loading and r.message, timeout
        )


class Invoker:
    """Creates interactions, dispatches INTERACTION_CREATE, and watches the 3-second deadline."""

    def __init__(self, world: World, check: Callable[[], None]) -> None:
        self.world = world
        self.check = check
        self.watchers: set[asyncio.Task[None]] = set()

    def payload(
        self, interaction: Interaction, member: User, channel: Channel, message: StoredMessage | None
    ) -> dict[str, Any]:
        world = self.world
        guild_id = channel.guild_id
        guild = world.guilds.get(guild_id) if guild_id is not None else None
        guild_locale = guild.locale if guild is not None else "en-US"
        data: dict[str, Any] = {
            "id": str(interaction.id),
            "application_id": str(world.bot.id),
            "type": interaction.type,
            "data": interaction.data,
            "guild_id": str(guild_id),
            "guild": {"id": str(guild_id), "locale": guild_locale, "features": []},
            "channel_id": str(channel.id),
            "channel": world.channel_payload(channel, permissions_for=member),
            "member": world.member_payload(member, permissions=True),
            "token": interaction.token,
            "version": 1,
            "app_permissions": str(world.permissions_of(world.bot)),
            "locale": member.locale,
            "guild_locale": guild_locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if guild_id is None:  # a direct message: a user, no guild nor member
            for key in ("guild_id", "guild", "member", "guild_locale"):
                data.pop(key)
            data.update(user=member.payload(), context=1, authorizing_integration_owners={"0": "0"})
        if message is not None:
            data["message"] = world.message_payload(message)
        return data

    async def invoke(
        self,
        member: User,
        channel: Channel,
        kind: int,
        data: dict[str, Any],
        label: str,
        *,
        message: StoredMessage | None = None,
        parent: Interaction | None = None,
        wait: bool = True,
        late: float = 0.0,
    ) -> InteractionResult:
        """Dispatches an interaction; with ``wait``, returns once answered or failed (3 s deadline).

        ``late``: seconds the interaction reaches the bot after Discord created it (a slow gateway, a
        busy event loop): its snowflake, and so its 3 s deadline and 15 minutes of token (discord.py's
        `Interaction.expires_at`; "Interaction tokens are valid for 15 minutes", docs: interactions/
        receiving-and-responding), date from then, not from its arrival."""
        self.check()
        world = self.world
        created = world.now() - late
        interaction = Interaction(
            id=world.new_id() if not late else snowflake_at(created, world.new_id()),
            token=f"emu.{secrets.token_urlsafe(48)}",
            type=kind,
            member_id=member.id,
            channel_id=channel.id,
            data=data,
            label=f"{member.name}: {label}",
            created_at=created,
            message_id=None if message is None else message.id,
            parent=parent,
        )
        world.interactions[interaction.id] = interaction
        world.tokens[interaction.token] = interaction
        source = message if message is not None else self._parent_message(parent)
        world.dispatch("INTERACTION_CREATE", self.payload(interaction, member, channel, source))
        watcher = asyncio.create_task(self._watch(interaction))
        self.watchers.add(watcher)
        watcher.add_done_callback(self.watchers.discard)
        result = InteractionResult(world, interaction)
        if wait:
            await self.wait(result)
        return result

    def _parent_message(self, parent: Interaction | None) -> StoredMessage | None:
        while parent is not None:
            if parent.message_id is not None:
                return self.world.messages.get(parent.message_id)
            parent = parent.parent
        return None

    async def wait(self, result: InteractionResult) -> InteractionResult:
        """Waits until the interaction is answered or has failed, surfacing a crashed bot at once."""
        interaction = result.interaction
        while not interaction.answered.is_set():
            self.check()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(interaction.answered.wait(), 0.05)
        return result

    async def _watch(self, interaction: Interaction) -> None:
        world = self.world
        while interaction.response_type is None and interaction.failed is None:
            remaining = interaction.created_at + world.response_deadline - world.now()
            if remaining <= 0:
                fail(world, interaction, f"no initial response within {world.response_deadline:g} s")
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(interaction.answered.wait(), min(remaining, 0.05))

    @property
    def pending(self) -> int:
        """Interactions still waiting for their initial response (each has a deadline watcher)."""
        return sum(1 for watcher in self.watchers if not watcher.done())


class SimulatedMember:
    """A guild member driven by a test: every action goes through the real protocol."""

    def __init__(self, world: World, invoker: Invoker, user: User) -> None:
        self.world = world
        self.invoker = invoker
        self.user = user

    def __repr__(self) -> str:
        return f"<SimulatedMember {self.name} {self.id}>"

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def permissions(self) -> int:
        return self.world.permissions_of(self.user)

    def _channel(self, channel: Channel | str | int | None) -> Channel:
        if channel is None:
            return self.world.default_channel()
        return channel if isinstance(channel, Channel) else channel_named(self.world, channel)

    @staticmethod
    def _reachable(channel: Channel) -> None:
        """A click on a message of an archived thread fails in Discord's web and mobile clients before it
        reaches the bot (discord/discord-api-docs#8474); the members here click as those clients do. A
        member who comes back posts in the thread first (`say`), which unarchives it."""
        if channel.is_thread and channel.archived:
            raise InvalidInvocation(f"thread {channel.name} is archived: the click does not reach the bot")

    def _current(self, message: StoredMessage | int) -> StoredMessage:
        message_id = message if isinstance(message, int) else message.id
        current = self.world.messages.get(message_id)
        if current is None or current.deleted:
            raise InvalidInvocation(f"message {message_id} does not exist (any more)")
        if not self.world.visible(current, self.id):
            raise InvalidInvocation(
                f"{self.name} cannot see message {message_id} (another member's ephemeral)"
            )
        return current

    async def slash(
        self,
        command: str,
        channel: Channel | str | int | None = None,
        *,
        options: dict[str, Any] | None = None,
        wait: bool = True,
        **named: Any,
    ) -> InteractionResult:
        """Runs ``/command`` (``"group sub"`` for subcommands) in ``channel`` (default: the first one).

        Options come as keywords, or in ``options`` for names that clash with ``channel``/``wait``.
        """
        given = {**named, **(options or {})}
        data, declared = command_data(self.world, command, given)
        required = declared.default_member_permissions
        if required and self.permissions & required != required:
            raise InvalidInvocation(f"{self.name} lacks the permissions to see /{declared.name}")
        text = " ".join([f"/{command.strip()}", *(f"{k}:{v}" for k, v in given.items())])
        return await self.invoker.invoke(self.user, self._channel(channel), COMMAND, data, text, wait=wait)

    def _component(self, message: StoredMessage, target: str | None, kinds: set[int]) -> dict[str, Any]:
        found = [c for c in message.interactive() if c.get("type") in kinds]
        if target is None and len(found) == 1:
            return found[0]
        for key in ("custom_id", "label", "placeholder"):
            for component in found:
                if target is not None and component.get(key) == target:
                    return component
        shown = [c.get("label") or c.get("placeholder") or c.get("custom_id") for c in found]
        raise InvalidInvocation(f"message {message.id} shows no component {target!r} (it shows {shown})")

    async def click(
        self,
        message: StoredMessage | int,
        target: str | None = None,
        *,
        force: bool = False,
        wait: bool = True,
        late: float = 0.0,
    ) -> InteractionResult:
        """Clicks the button whose custom_id or label is ``target``.

        With ``force`` the member sends ``target`` as the custom_id even if the message no longer shows
        it, or never did (stale clients, double clicks, forged ids). ``late``: the click reaches the bot
        that many seconds after Discord created it (`Invoker.invoke`).
        """
        current = self._current(message)
        if force:
            custom_id = str(target)
        else:
            button = self._component(current, target, {2})
            if button.get("disabled"):
                raise InvalidInvocation(f"button {target!r} is disabled")
            if not button.get("custom_id"):
                raise InvalidInvocation(f"button {target!r} is a link, not an interaction")
            custom_id = button["custom_id"]
        data = {"custom_id": custom_id, "component_type": 2}
        channel = self.world.channels[current.channel_id]
        self._reachable(channel)
        label = f"click {target or custom_id}"
        return await self.invoker.invoke(
            self.user, channel, COMPONENT, data, label, message=current, wait=wait, late=late
        )

    async def select(
        self,
        message: StoredMessage | int,
        target: str | None,
        values: list[str],
        *,
        force: bool = False,
        wait: bool = True,
    ) -> InteractionResult:
        """Chooses ``values`` in the string select whose custom_id or placeholder is ``target``."""
        current = self._current(message)
        if force:
            custom_id = str(target)
        else:
            select = self._component(current, target, {3})
            if select.get("disabled"):
                raise InvalidInvocation(f"select {target!r} is disabled")
            offered = [o["value"] for o in select.get("options", [])]
            low, high = select.get("min_values", 1), select.get("max_values", 1)
            if (
                any(v not in offered for v in values)
                or not low <= len(values) <= high
                or len(set(values)) != len(values)
            ):
                raise InvalidInvocation(
                    f"select {target!r} offers {offered} ({low}-{high} choices), not {values}"
                )
            custom_id = select["custom_id"]
        data = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        channel = self.world.channels[current.channel_id]
        self._reachable(channel)
        label = f"select {target or custom_id}={values}"
        return await self.invoker.invoke(
            self.user, channel, COMPONENT, data, label, message=current, wait=wait
        )

    async def forge_click(
        self,
        message: StoredMessage | int,
        custom_id: str,
        *,
        component_type: int = 2,
        values: list[str] | None = None,
        channel: Channel | str | int | None = None,
        wait: bool = True,
    ) -> InteractionResult:
        """Sends a component interaction as a modified client could: any ``custom_id`` and
        ``component_type`` (2 button, 3 select; ``values`` for a select) on any message, even one this
        member cannot see, from any ``channel`` (default: the message's; a DM channel or another guild's).
        """
        message_id = message if isinstance(message, int) else message.id
        current = self.world.messages[message_id]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = list(values)
        where = self.world.channels[current.channel_id] if channel is None else self._channel(channel)
        label = f"forged {component_type} {custom_id[:40]!r}"
        return await self.invoker.invoke(self.user, where, COMPONENT, data, label, message=current, wait=wait)

    async def submit_modal(
        self, source: InteractionResult, values: dict[str, str], *, wait: bool = True
    ) -> InteractionResult:
        """Fills the modal ``source`` answered with (keys: input custom_id or label) and submits it."""
        interaction = source.interaction
        modal = interaction.modal
        if modal is None:
            raise InvalidInvocation(f"{interaction.label} was not answered with a modal")
        if interaction.member_id != self.id:
            raise InvalidInvocation(f"the modal was shown to someone else, not {self.name}")
        components = [self._fill(row, values) for row in modal.get("components", [])]
        data = {"custom_id": modal["custom_id"], "components": [c for c in components if c]}
        channel = self.world.channels[interaction.channel_id]
        label = f"submit modal {modal.get('title')!r}"
        return await self.invoker.invoke(
            self.user, channel, MODAL_SUBMIT, data, label, parent=interaction, wait=wait
        )

    def _fill(self, component: dict[str, Any], values: dict[str, str]) -> dict[str, Any] | None:
        kind = component.get("type")
        if kind == 1:
            inner = [self._fill(c, values) for c in component.get("components", [])]
            return {"type": 1, "components": [c for c in inner if c]}
        if kind == 18:
            inner = self._fill({**component["component"], "_label": component.get("label")}, values)
            return {"type": 18, "id": component.get("id", 0), "component": inner} if inner else None
        if kind == 4:
            label = component.get("label") or component.get("_label")
            value = values.get(component["custom_id"], values.get(label or "", component.get("value") or ""))
            low, high = component.get("min_length", 0), component.get("max_length", limits.TEXT_INPUT_VALUE)
            if (component.get("required", True) or value) and not (
                max(low, 1 if component.get("required", True) else 0) <= len(value) <= high
            ):
                raise InvalidInvocation(
                    f"modal input {label or component['custom_id']!r} needs {low}-{high} characters"
                )
            return {"type": 4, "custom_id": component["custom_id"], "value": value}
        if kind == 3:
            chosen = values.get(component["custom_id"], [])
            return {"type": 3, "custom_id": component["custom_id"], "values": list(chosen)}
        return None

    async def say(self, channel: Channel | str | int, content: str) -> StoredMessage:
        """Posts a plain message as this member (MESSAGE_CREATE reaches the bot)."""
        target = self._channel(channel)
        world = self.world
        if target.is_thread and target.archived:
            if target.locked:
                raise InvalidInvocation(f"thread {target.name} is locked: a member cannot post in it")
            world.set_archived(target, False)  # a member's message unarchives the thread (topics/threads)
        message = StoredMessage(world.new_id(), target.id, self.id, content=content, created_at=world.now())
        world.store(message)
        target.last_message_id = message.id
        if target.is_thread:
            world.thread_active(target)
        world.dispatch("MESSAGE_CREATE", world.message_payload(message))
        world.notify("create", message)
        return message

    def close_direct_messages(self) -> None:
        """The member turns off direct messages from server members (or blocks the bot): what the bot
        sends them is refused (`emulator.direct`)."""
        self.user.accepts_direct_messages = False

    def direct_messages(self) -> list[StoredMessage]:
        """What the bot sent this member directly, oldest first (none if it never opened a DM)."""
        channel = next(
            (c for c in self.world.channels.values() if c.type == DM_CHANNEL and c.owner_id == self.id), None
        )
        return [] if channel is None else self.world.channel_messages(channel.id)

    def visible_messages(self, channel: Channel | str | int | None = None) -> list[StoredMessage]:
        """Public messages of a channel or thread plus this member's ephemeral ones, oldest first."""
        return self.world.channel_messages(self._channel(channel).id, self.id)

    def ephemeral_messages(self, channel: Channel | str | int | None = None) -> list[StoredMessage]:
        """Only the ephemeral messages sent to this member (all channels unless one is given)."""
        found = [m for m in self.world.messages.values() if m.visible_to == self.id and not m.deleted]
        if channel is not None:
            channel_id = self._channel(channel).id
            found = [m for m in found if m.channel_id == channel_id]
        return sorted(found, key=lambda m: m.id)
