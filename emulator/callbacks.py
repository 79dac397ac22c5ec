"""Interaction callbacks (types 4, 5, 6, 7, 9) and the webhook routes of interaction tokens.

These routes carry no Authorization header: the interaction id and token are the credentials.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from emulator import limits
from emulator.model import Interaction, StoredMessage
from emulator.ratelimits import ChannelWebhookMessages
from emulator.responses import (
    ALREADY_ACKNOWLEDGED,
    COMPONENTS_ONLY,
    INVALID_FORM,
    INVALID_WEBHOOK_TOKEN,
    UNKNOWN_INTERACTION,
    UNKNOWN_MESSAGE,
    UNKNOWN_WEBHOOK,
    Refused,
    error,
    json_response,
    message_fields,
    no_content,
    read_payload,
)
from emulator.rest import Rest

CHANNEL_MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL = 4, 5, 6, 7, 9
COMMAND, COMPONENT, MODAL_SUBMIT = 2, 3, 5


def fail(world: Any, interaction: Interaction, reason: str) -> None:
    """Marks an interaction failed ("This interaction failed" in Discord) and records it once."""
    if interaction.failed is None and interaction.response_type is None:
        interaction.failed = reason
        world.violate(limits.DEADLINE, f"{interaction.label}: {reason}", f"interaction {interaction.id}")
        interaction.answered.set()
        interaction.changed.set()


class Callbacks:
    """``/interactions/{id}/{token}/callback`` and ``/webhooks/{app}/{token}/...``."""

    def __init__(self, rest: Rest, channel_limit: ChannelWebhookMessages | None = None) -> None:
        self.rest = rest
        self.world = rest.world
        self.channel_limit = channel_limit or ChannelWebhookMessages(None)

    def routes(self) -> list[tuple[str, str, Any]]:
        return [
            ("POST", "/interactions/{interaction_id}/{token}/callback", self.callback),
            ("POST", "/webhooks/{app_id}/{token}", self.followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self.get),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self.edit),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self.delete),
        ]

    # the initial response ---------------------------------------------------------------------------

    def _component_message(self, interaction: Interaction) -> StoredMessage | None:
        """The message whose component started this interaction (directly or through a modal)."""
        source = interaction
        while source.message_id is None and source.parent is not None:
            source = source.parent
        return self.world.messages.get(source.message_id or 0)

    async def callback(self, request: web.Request) -> web.Response:
        where = f"POST {request.path}"
        world = self.world
        interaction = world.interactions.get(int(request.match_info["interaction_id"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            raise self.rest.refuse(
                limits.UNKNOWN_INTERACTION, "callback for an unknown interaction", where, UNKNOWN_INTERACTION
            )
        body = await read_payload(request)
        kind = int(body.get("type", 0))
        data = body.get("data") or {}
        if "__files__" in body:
            data["__files__"] = body["__files__"]
        if interaction.response_type is not None:
            raise self.rest.refuse(
                limits.DOUBLE_RESPONSE,
                f"{interaction.label}: second initial response ({kind} after {interaction.response_type})",
                where,
                ALREADY_ACKNOWLEDGED,
            )
        late = world.now() - interaction.created_at
        if interaction.failed is not None or late > world.response_deadline:
            fail(world, interaction, f"no initial response within {world.response_deadline:g} s")
            return error(*UNKNOWN_INTERACTION)
        message = self._respond(interaction, kind, data, where)
        interaction.response_type = kind
        interaction.responded_at = world.now()
        components = limits.interactive_components(data.get("components") or [])
        interaction.offered = tuple(c["custom_id"] for c in components if c.get("custom_id"))
        interaction.answered.set()
        interaction.changed.set()
        if "with_response" not in request.query:
            return no_content()
        result: dict[str, Any] = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_loading": kind == DEFERRED_MESSAGE,
                "response_message_ephemeral": bool(message and message.ephemeral),
            }
        }
        if message is not None:
            result["interaction"]["response_message_id"] = str(message.id)
            if kind in (CHANNEL_MESSAGE, DEFERRED_MESSAGE, UPDATE_MESSAGE):
                result["resource"] = {"type": kind, "message": world.message_payload(message)}
        return json_response(result)

    def _respond(
        self, interaction: Interaction, kind: int, data: dict[str, Any], where: str
    ) -> StoredMessage | None:
        rest, world = self.rest, self.world
        channel = rest.channel(interaction.channel_id)
        if kind == CHANNEL_MESSAGE:
            fields = message_fields(data)
            rest.add_files(fields, data, where)
            rest.check(fields, where)
            message = rest.create_message(
                channel,
                fields,
                visible_to=interaction.member_id if fields["flags"] & limits.EPHEMERAL_FLAG else None,
                interaction_id=interaction.id,
                webhook=True,
                type=20 if interaction.type == COMMAND else 0,
            )
            interaction.original_id = message.id
            return message
        if kind == DEFERRED_MESSAGE:
            ephemeral = int(data.get("flags") or 0) & limits.EPHEMERAL_FLAG
            fields = {
                "content": "",
                "embeds": [],
                "components": [],
                "attachments": [],
                "flags": limits.LOADING_FLAG | ephemeral,
            }
            message = rest.create_message(
                channel,
                fields,
                visible_to=interaction.member_id if ephemeral else None,
                interaction_id=interaction.id,
                webhook=True,
                type=20 if interaction.type == COMMAND else 0,
            )
            interaction.original_id = message.id
            return message
        if kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            target = self._component_message(interaction)
            if target is not None and target.deleted:
                # Deleted after the click (by the bot itself, reposting a table while the click was on
                # its way): the update is refused as any request on a message that no longer exists
                # is, 404 Unknown Message (Discord's JSON error code 10008, "Opcodes and Status Codes"),
                # and the click stays unanswered for the bot's next try. No mistake of the bot's: it
                # cannot know of a deletion that crossed its answer.
                raise Refused(error(*UNKNOWN_MESSAGE))
            if target is None:
                raise rest.refuse(
                    limits.RESPONSE_TYPE,
                    f"{interaction.label}: response type {kind} needs a component's message",
                    where,
                    COMPONENTS_ONLY,
                )
            interaction.original_id = target.id
            if kind == UPDATE_MESSAGE:
                fields = message_fields(data, target)
                rest.add_files(fields, data, where, target)
                rest.check(fields, where)
                rest.update_message(target, fields)
            return target
        if kind == MODAL:
            if interaction.type == MODAL_SUBMIT:
                raise rest.refuse(
                    limits.RESPONSE_TYPE, f"{interaction.label}: a modal cannot answer a modal", where
                )
            problems = limits.check_modal(data)
            if problems:
                for rule, detail in problems:
                    world.violate(rule, detail, where)
                raise Refused(error(*INVALID_FORM, [p for _, p in problems]))
            interaction.modal = data
            return None
        raise rest.refuse(
            limits.RESPONSE_TYPE, f"{interaction.label}: unsupported response type {kind}", where
        )

    # webhook routes ---------------------------------------------------------------------------------

    def _interaction(self, request: web.Request, where: str) -> Interaction:
        world, rest = self.world, self.rest
        if request.match_info["app_id"] != str(world.bot.id):
            raise Refused(error(*UNKNOWN_WEBHOOK))
        interaction = world.tokens.get(request.match_info["token"])
        if interaction is None:
            raise rest.refuse(
                limits.UNKNOWN_INTERACTION, "webhook call with an unknown token", where, UNKNOWN_WEBHOOK
            )
        if interaction.response_type is not None and world.lost_tokens.lose(interaction.token):
            interaction.changed.set()  # for members waiting on a follow-up that will never come
            raise Refused(error(*UNKNOWN_WEBHOOK))  # Discord's doing (lost_tokens.LostTokens): no violation
        age, lifetime = world.now() - interaction.created_at, world.token_lifetime
        if age > lifetime:
            raise rest.refuse(
                limits.TOKEN_EXPIRED,
                f"{interaction.label}: token used after {age / 60:.1f} min (limit {lifetime / 60:g})",
                where,
                INVALID_WEBHOOK_TOKEN,
            )
        if interaction.response_type is None:
            raise rest.refuse(
                limits.FOLLOWUP_TOO_EARLY,
                f"{interaction.label}: webhook call before the initial response",
                where,
                UNKNOWN_WEBHOOK,
            )
        return interaction

    def _message(self, request: web.Request, interaction: Interaction) -> StoredMessage:
        key = request.match_info["message_id"]
        if key == "@original":
            message_id = interaction.original_id
        else:
            message_id = int(key)
            if message_id not in interaction.followup_ids and message_id != interaction.original_id:
                message_id = None
        message = self.world.messages.get(message_id or 0)
        if message is None or message.deleted:
            raise Refused(error(*UNKNOWN_MESSAGE))
        return message

    async def followup(self, request: web.Request) -> web.Response:
        where = f"POST /webhooks/…/{request.match_info['token'][:8]}…"
        rest = self.rest
        interaction = self._interaction(request, where)
        payload = await read_payload(request)
        original = self.world.messages.get(interaction.original_id or 0)
        if (
            original is not None
            and original.flags & limits.LOADING_FLAG
            and interaction.response_type == DEFERRED_MESSAGE
        ):
            # The first follow-up after a deferred reply replaces the "thinking…" message.
            fields = message_fields(payload, original)
            rest.add_files(fields, payload, where, original)
            rest.check(fields, where)
            message = rest.update_message(original, fields)
        else:
            fields = message_fields(payload)
            rest.add_files(fields, payload, where)
            rest.check(fields, where)
            channel = rest.channel(interaction.channel_id)
            public = not fields["flags"] & limits.EPHEMERAL_FLAG
            if public:
                rest.check_thread_open(channel, where, sending=True)
                now = self.world.now()
                retry_after = self.channel_limit.retry_after(channel.id, now)
                if retry_after is not None:
                    verdict = self.channel_limit.refusal(retry_after)
                    response = json_response(verdict.refused, 429)
                    response.headers.update(verdict.headers)
                    raise Refused(response)
                self.channel_limit.count(channel.id, now)
            message = rest.create_message(
                channel,
                fields,
                visible_to=interaction.member_id if fields["flags"] & limits.EPHEMERAL_FLAG else None,
                interaction_id=interaction.id,
                webhook=True,
            )
            interaction.followup_ids.append(message.id)
        interaction.changed.set()
        if request.query.get("wait") in ("1", "true", "True"):
            return json_response(self.world.message_payload(message))
        return no_content()

    async def get(self, request: web.Request) -> web.Response:
        interaction = self._interaction(request, f"GET {request.path}")
        return json_response(self.world.message_payload(self._message(request, interaction)))

    async def edit(self, request: web.Request) -> web.Response:
        where = f"PATCH /webhooks/…/messages/{request.match_info['message_id']}"
        rest = self.rest
        interaction = self._interaction(request, where)
        message = self._message(request, interaction)
        if not message.ephemeral:
            rest.check_thread_open(rest.channel(message.channel_id), where, sending=False)
        if not message.flags & limits.LOADING_FLAG:
            rest.check_edit_age(message, where)
        payload = await read_payload(request)
        fields = message_fields(payload, message)
        rest.add_files(fields, payload, where, message)
        rest.check(fields, where)
        rest.update_message(message, fields)
        interaction.changed.set()
        return json_response(self.world.message_payload(message))

    async def delete(self, request: web.Request) -> web.Response:
        where = f"DELETE {request.path}"
        interaction = self._interaction(request, where)
        message = self._message(request, interaction)
        if not message.ephemeral:
            self.rest.check_thread_open(self.rest.channel(message.channel_id), where, sending=False)
        self.rest.remove_message(message)
        interaction.changed.set()
        return no_content()
