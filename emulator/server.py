"""The aiohttp application: REST under ``/api/v10``, the Gateway at ``/``, the control API at ``/_emu``.

The middleware authenticates bot routes, counts requests in flight (for "settle"), answers forced and
real rate limits (:mod:`emulator.ratelimits`) with a 429 discord.py retries, puts ``X-RateLimit-*``
headers on every rate-limited route's response, and checks request bodies against Discord's OpenAPI
description (:mod:`emulator.schema`). It counts what the bot spends of Discord's budget and the invalid
requests that earn a ban, and answers a banned address as Cloudflare does (:mod:`emulator.usage`).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from emulator.callbacks import Callbacks
from emulator.gateway import Gateway
from emulator.limits import SCHEMA
from emulator.model import World
from emulator.ratelimits import TOKEN_ROUTES, ChannelWebhookMessages, RateLimiter, RateLimits, Verdict
from emulator.responses import (
    COUNTS_AS_INVALID,
    INVALID_FORM,
    Refused,
    error,
    json_response,
    read_payload,
    request_key,
)
from emulator.rest import Rest
from emulator.schema import discord_schemas, form_errors
from emulator.usage import BANNED_PAGE, Usage, exempt_from_global

_log = logging.getLogger(__name__)
API_PREFIXES = ("/api/v10", "/api/v9")
_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})
ROUTE = request_key("emulator_route", tuple)
"""Where a request keeps ``("METHOD /template", exempt from the global limit)`` for the observers."""
Observer = Callable[[web.Request, web.StreamResponse], None]


@dataclass
class Forced429:
    route: str | None  # substring of "METHOD /path"; None: any bot request
    count: int
    retry_after: float
    scope: str  # X-RateLimit-Scope: user, global or shared


class Server:
    """Runs the emulated Discord on 127.0.0.1."""

    def __init__(
        self,
        world: World,
        *,
        token: str,
        heartbeat_interval: float,
        rate_limits: RateLimits,
        check_bodies: bool = True,
        **gateway_options: Any,
    ) -> None:
        """`gateway_options`: the sharding limits of :class:`Gateway`."""
        self.world = world
        self.token = token
        self.gateway = Gateway(world, token=token, heartbeat_interval=heartbeat_interval, **gateway_options)
        world.dispatch = self.gateway.dispatch
        self.rest = Rest(world, self.gateway)
        self.callbacks = Callbacks(self.rest, ChannelWebhookMessages(rate_limits.channel_webhook_messages))
        self.limiter = RateLimiter(rate_limits)
        self.usage = Usage()
        self.schemas = discord_schemas() if check_bodies else None
        self.forced: list[Forced429] = []
        self.rate_limited: list[str] = []  # "METHOD /path" of every 429 sent
        self.unsupported: list[str] = []  # bot requests the emulator has no route for
        self.requests: list[str] = []
        self.observers: list[Observer] = []
        """Called with every API request and its answer (after the answer is made, before it is sent)."""
        self.in_flight = 0
        self.last_activity = 0.0
        self.app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._runner: web.AppRunner | None = None
        self.port = 0
        for prefix in API_PREFIXES:
            for method, path, handler in self.rest.routes() + self.callbacks.routes():
                self.app.router.add_route(method, prefix + path, handler)
        self.app.router.add_get("/", self.gateway.handle)
        if self.schemas is not None:
            routes = self.rest.routes() + self.callbacks.routes()
            self.schemas.prepare([(method, path) for method, path, _ in routes if method in _WITH_BODY])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self, port: int = 0) -> None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
        self.port = sock.getsockname()[1]
        self.gateway.url = f"ws://127.0.0.1:{self.port}/"
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False, shutdown_timeout=0.5)
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()
        self.last_activity = asyncio.get_running_loop().time()

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def force_429(self, forced: Forced429) -> None:
        """The next ``forced.count`` bot requests matching ``forced.route`` get a 429."""
        self.forced.append(forced)

    def _take_forced(self, label: str) -> Forced429 | None:
        for forced in self.forced:
            if forced.count > 0 and (forced.route is None or forced.route in label):
                forced.count -= 1
                if forced.count == 0:
                    self.forced.remove(forced)
                return forced
        return None

    def _too_many(self, label: str, verdict: Verdict) -> web.Response:
        self.rate_limited.append(label)
        response = json_response(verdict.refused, 429)
        response.headers.update(verdict.headers)
        return response

    @web.middleware
    async def _middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if not request.path.startswith("/api/"):
            return await handler(request)
        loop = asyncio.get_running_loop()
        self.in_flight += 1
        self.last_activity = loop.time()
        try:
            return await self._api(request, handler)
        finally:
            self.in_flight -= 1
            self.last_activity = loop.time()

    async def _api(self, request: web.Request, handler: Any) -> web.StreamResponse:
        address, now = request.remote or "", self.world.now()
        if self.usage.banned(address, now):
            self.rate_limited.append(f"{request.method} {request.path} (banned)")
            return web.Response(status=429, text=BANNED_PAGE, content_type="text/html")
        self.world.archive_idle_threads()
        response = await self._answer(request, handler)
        label = request.get(ROUTE, ("", False))[0]
        scope = response.headers.get("X-RateLimit-Scope")
        status = 429 if response.get(COUNTS_AS_INVALID) else response.status
        self.usage.answered(address, status, scope, now, webhook=label in TOKEN_ROUTES)
        for observe in self.observers:
            observe(request, response)
        return response

    async def _answer(self, request: web.Request, handler: Any) -> web.StreamResponse:
        resource = request.match_info.route.resource
        template = resource.canonical if resource is not None else request.path
        for prefix in API_PREFIXES:
            template = template.removeprefix(prefix)
        label = f"{request.method} {template}"
        self.requests.append(label)
        info = request.match_info
        if resource is None:
            self.unsupported.append(f"{request.method} {request.path}")
            _log.warning("emulator: no route for %s %s", request.method, request.path)
            return error(404, 0, f"404: Not Found (the emulator does not support {label})")
        public = template.startswith(("/interactions/", "/webhooks/")) or template == "/gateway"
        if not public and request.headers.get("Authorization") != f"Bot {self.token}":
            return error(401, 0, "401: Unauthorized")
        exempt = exempt_from_global(request.method, template, info, self.world.bot.id)
        self.usage.request(self.token, label, exempt=exempt)
        request[ROUTE] = (label, exempt)
        if self.observers and request.method in _WITH_BODY and request.can_read_body:
            await read_payload(request)  # what a refused request carried, for the observers too
        limiter = self.limiter
        now = self.world.now()
        forced = self._take_forced(label)
        if forced is not None:
            bucket_hash = limiter.bucket_hash(label)
            verdict = limiter.refusal(bucket_hash, 1, forced.retry_after, now, scope=forced.scope)
            return self._too_many(label, verdict)
        verdict = limiter.admit(label, info, now, exempt=exempt)
        if verdict.refused is not None:
            return self._too_many(label, verdict)
        try:
            if self.schemas is not None and request.method in _WITH_BODY and request.can_read_body:
                await self._check_body(request, template)
            response = await handler(request)
        except Refused as refused:
            response = refused.response
            if response.status == 429:
                self.rate_limited.append(label)
        response.headers.update(verdict.headers)
        return response

    async def _check_body(self, request: web.Request, template: str) -> None:
        """Refuses (400, 50035) and records a body that breaks the route's schema in Discord's spec."""
        payload = await read_payload(request)
        body = (
            {k: v for k, v in payload.items() if k != "__files__"} if isinstance(payload, dict) else payload
        )
        problems = self.schemas.problems(request.method, template, body)
        if not problems:
            return
        where = f"{request.method} {request.path}"
        for path, message in problems:
            self.world.violate(SCHEMA, f"{path}: {message}", where)
        code, number, text = INVALID_FORM
        response = json_response({"code": number, "message": text, "errors": form_errors(problems)}, code)
        raise Refused(response)
