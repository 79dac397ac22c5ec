"""The control API (``/_emu/...``, JSON over HTTP on the emulator's own port) that drives simulated
members when the emulator runs in another process than the bot (``python -m emulator``).

    GET  /_emu/state                         guild, channels, members, commands, violations, timings
    GET  /_emu/messages?channel=&member=&ephemeral=1   what a member (or everyone) sees
    POST /_emu/interactions                  {"member", "kind": slash|click|select|modal, ...} -> result
    GET  /_emu/interactions/{id}             the result as it is now (follow-ups, edits)
    POST /_emu/say                           {"member", "channel", "content"}
    POST /_emu/settle                        {"idle", "timeout"}
    POST /_emu/control                       {"advance": s} | {"add_member": {...}} | {"force_429": {...}}
                                             | {"gateway": "drop"|"reconnect"|"invalidate"}
                                             | {"take_violations": true}
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Protocol

from aiohttp import web

from emulator.model import Interaction
from emulator.users import InteractionResult, InvalidInvocation

if TYPE_CHECKING:
    from emulator.entities import Channel
    from emulator.model import StoredMessage, Violation, World
    from emulator.server import Server
    from emulator.users import SimulatedMember


class Timed(Protocol):
    interaction_id: int
    label: str
    seconds: float | None


class Controlled(Protocol):
    """What the control API drives: the `Emulator` (emulator.py), which installs it on its server."""

    world: World
    server: Server

    @property
    def api_base(self) -> str: ...
    @property
    def gateway_url(self) -> str: ...
    @property
    def members(self) -> list[SimulatedMember]: ...
    @property
    def rate_limited(self) -> list[str]: ...
    @property
    def requests_counted(self) -> int: ...
    @property
    def requests_exempt(self) -> int: ...
    def invalid_requests(self) -> int: ...
    def interaction_timings(self) -> list[Timed]: ...
    def channel(self, name: str) -> Channel: ...
    def member(self, name: str) -> SimulatedMember: ...
    def public_messages(self, channel: Channel | str) -> list[StoredMessage]: ...
    async def settle(self, idle: float = ..., timeout: float = ...) -> None: ...
    def advance(self, seconds: float) -> None: ...
    def add_member(self, name: str, permissions: Any = None) -> SimulatedMember: ...
    def force_429(
        self,
        route: str | None = None,
        *,
        count: int = ...,
        retry_after: float = ...,
        is_global: bool = ...,
        scope: str | None = ...,
    ) -> None: ...
    def invalidate_sessions(self) -> None: ...
    async def request_reconnect(self) -> None: ...
    async def drop_gateway(self, code: int = ..., *, abort: bool = ...) -> int: ...
    def take_violations(self) -> list[Violation]: ...


def _json(data: Any, status: int = 200) -> web.Response:
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def result_json(result: InteractionResult) -> dict[str, Any]:
    """An interaction result as plain JSON (messages as snapshots)."""
    message = result.message
    return {
        "id": result.id,
        "label": result.interaction.label,
        "failed": result.failed,
        "response_type": result.response_type,
        "latency": result.latency,
        "message": None if message is None else message.snapshot(),
        "followups": [m.snapshot() for m in result.followups],
        "modal": result.modal,
        "token_lost": result.token_lost,
    }


class Control:
    """Routes of the control API, bound to one emulator."""

    def __init__(self, emulator: Controlled) -> None:
        self.emu = emulator

    def install(self, app: web.Application) -> None:
        app.router.add_get("/_emu/state", self.state)
        app.router.add_get("/_emu/messages", self.messages)
        app.router.add_post("/_emu/interactions", self.interact)
        app.router.add_get("/_emu/interactions/{id}", self.interaction)
        app.router.add_post("/_emu/say", self.say)
        app.router.add_post("/_emu/settle", self.settle)
        app.router.add_post("/_emu/control", self.control)

    async def state(self, request: web.Request) -> web.Response:
        emu, world = self.emu, self.emu.world
        return _json(
            {
                "guild_id": world.guild_id,
                "bot_id": world.bot.id,
                "api_base": emu.api_base,
                "gateway_url": emu.gateway_url,
                "channels": [
                    {"id": c.id, "name": c.name, "type": c.type, "parent_id": c.parent_id}
                    for c in world.channels.values()
                ],
                "members": [{"id": m.id, "name": m.name, "permissions": m.permissions} for m in emu.members],
                "commands": [world.command_payload(c) for c in world.commands.values()],
                "violations": [
                    {"rule": v.rule, "detail": v.detail, "where": v.where} for v in world.violations
                ],
                "timings": [
                    {"id": t.interaction_id, "label": t.label, "seconds": t.seconds}
                    for t in emu.interaction_timings()
                ],
                "rate_limited": emu.rate_limited,
                "requests_counted": emu.requests_counted,
                "requests_exempt": emu.requests_exempt,
                "invalid_requests": emu.invalid_requests(),
                "unsupported": emu.server.unsupported,
                "gateway": {
                    "identifies": emu.server.gateway.identifies,
                    "resumes": emu.server.gateway.resumes,
                    "connected": len(emu.server.gateway.connected),
                },
            }
        )

    async def messages(self, request: web.Request) -> web.Response:
        query = request.query
        try:
            channel = self.emu.channel(query["channel"]) if query.get("channel") else None
            if query.get("member"):
                member = self.emu.member(query["member"])
                found = (
                    member.ephemeral_messages(channel)
                    if query.get("ephemeral")
                    else member.visible_messages(channel)
                )
            else:
                found = self.emu.public_messages(channel or self.emu.world.default_channel())
        except KeyError as missing:
            return _json({"error": str(missing)}, 404)
        return _json([m.snapshot() for m in found])

    async def interact(self, request: web.Request) -> web.Response:
        body = await request.json()
        try:
            member = self.emu.member(body["member"])
            kind, wait = body["kind"], body.get("wait", True)
            if kind == "slash":
                result = await member.slash(
                    body["command"], body.get("channel"), options=body.get("options"), wait=wait
                )
            elif kind == "click":
                result = await member.click(
                    body["message_id"], body.get("target"), force=body.get("force", False), wait=wait
                )
            elif kind == "select":
                values = body["values"]
                result = await member.select(
                    body["message_id"], body.get("target"), values, force=body.get("force", False), wait=wait
                )
            elif kind == "modal":
                source = self.emu.world.interactions[int(body["interaction_id"])]
                result = await member.submit_modal(
                    InteractionResult(self.emu.world, source), body["values"], wait=wait
                )
            else:
                return _json({"error": f"unknown kind {kind!r}"}, 400)
        except (InvalidInvocation, KeyError) as refused:
            return _json({"error": str(refused)}, 400)
        return _json(result_json(result))

    async def interaction(self, request: web.Request) -> web.Response:
        found: Interaction | None = self.emu.world.interactions.get(int(request.match_info["id"]))
        if found is None:
            return _json({"error": "unknown interaction"}, 404)
        return _json(result_json(InteractionResult(self.emu.world, found)))

    async def say(self, request: web.Request) -> web.Response:
        body = await request.json()
        message = await self.emu.member(body["member"]).say(body["channel"], body["content"])
        return _json(message.snapshot())

    async def settle(self, request: web.Request) -> web.Response:
        body = await request.json() if request.can_read_body else {}
        try:
            await self.emu.settle(idle=float(body.get("idle", 0.1)), timeout=float(body.get("timeout", 10)))
        except TimeoutError as timeout:
            return _json({"error": str(timeout)}, 504)
        return _json({})

    async def control(self, request: web.Request) -> web.Response:
        body = await request.json()
        emu = self.emu
        if "advance" in body:
            emu.advance(float(body["advance"]))
        if "add_member" in body:
            spec = body["add_member"]
            emu.add_member(spec["name"], spec.get("permissions"))
        if "force_429" in body:
            spec = body["force_429"]
            emu.force_429(
                spec.get("route"),
                count=int(spec.get("count", 1)),
                retry_after=float(spec.get("retry_after", 0.05)),
                is_global=bool(spec.get("global", False)),
                scope=spec.get("scope"),
            )
        action = body.get("gateway")
        if action == "invalidate":
            emu.invalidate_sessions()
        elif action == "reconnect":
            await emu.request_reconnect()
        elif action == "drop":
            await emu.drop_gateway(int(body.get("code", 4000)))
        taken = []
        if body.get("take_violations"):
            taken = [{"rule": v.rule, "detail": v.detail, "where": v.where} for v in emu.take_violations()]
        return _json({"violations": taken})
