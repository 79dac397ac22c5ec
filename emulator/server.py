"""The aiohttp application: REST under ``/api/v10``, the Gateway at ``/``, the control API at ``/_emu``.

The middleware authenticates bot routes, counts requests in flight (for "settle"), answers forced and
real rate limits with a 429 discord.py retries, and puts ``X-RateLimit-*`` headers on every response.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import socket
import time
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from emulator.callbacks import Callbacks
from emulator.gateway import Gateway
from emulator.model import World
from emulator.rest import Refused, Rest, error, json_response

_log = logging.getLogger(__name__)
API_PREFIXES = ("/api/v10", "/api/v9")


@dataclass
class Bucket:
    """A fixed-window rate limit for one route and major parameter."""

    limit: int
    window: float
    remaining: int = 0
    resets_at: float = 0.0

    def take(self, now: float) -> bool:
        if now >= self.resets_at:
            self.remaining = self.limit
            self.resets_at = now + self.window
        self.remaining -= 1
        return self.remaining >= 0


@dataclass
class Forced429:
    route: str | None  # substring of "METHOD /path"; None: any bot request
    count: int
    retry_after: float
    is_global: bool


class Server:
    """Runs the emulated Discord on 127.0.0.1."""

    def __init__(
        self,
        world: World,
        *,
        token: str,
        heartbeat_interval: float,
        rate_limit: tuple[int, float],
        **gateway_options: Any,
    ) -> None:
        """`gateway_options`: the sharding limits of :class:`Gateway`."""
        self.world = world
        self.token = token
        self.gateway = Gateway(world, token=token, heartbeat_interval=heartbeat_interval, **gateway_options)
        world.dispatch = self.gateway.dispatch
        self.rest = Rest(world, self.gateway)
        self.callbacks = Callbacks(self.rest)
        self.rate_limit = rate_limit
        self.buckets: dict[str, Bucket] = {}
        self.forced: list[Forced429] = []
        self.rate_limited: list[str] = []  # "METHOD /path" of every 429 sent
        self.unsupported: list[str] = []  # bot requests the emulator has no route for
        self.requests: list[str] = []
        self.in_flight = 0
        self.last_activity = 0.0
        self.app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._runner: web.AppRunner | None = None
        self.port = 0
        for prefix in API_PREFIXES:
            for method, path, handler in self.rest.routes() + self.callbacks.routes():
                self.app.router.add_route(method, prefix + path, handler)
        self.app.router.add_get("/", self.gateway.handle)

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

    def force_429(
        self, route: str | None = None, *, count: int = 1, retry_after: float = 0.05, is_global: bool = False
    ) -> None:
        """The next ``count`` bot requests matching ``route`` (e.g. ``"POST /channels"``) get a 429."""
        self.forced.append(Forced429(route, count, retry_after, is_global))

    def _take_forced(self, label: str) -> Forced429 | None:
        for forced in self.forced:
            if forced.count > 0 and (forced.route is None or forced.route in label):
                forced.count -= 1
                if forced.count == 0:
                    self.forced.remove(forced)
                return forced
        return None

    def _too_many(self, label: str, bucket_hash: str, retry_after: float, is_global: bool) -> web.Response:
        self.rate_limited.append(label)
        response = json_response(
            {
                "message": "You are being rate limited.",
                "retry_after": retry_after,
                "global": is_global,
                "code": 0,
            },
            429,
        )
        response.headers.update(
            {
                "Via": "1.1 google",
                "Retry-After": f"{retry_after:.3f}",
                "X-RateLimit-Limit": str(self.rate_limit[0]),
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{retry_after:.3f}",
                "X-RateLimit-Bucket": bucket_hash,
                "X-RateLimit-Scope": "global" if is_global else "user",
            }
        )
        if is_global:
            response.headers["X-RateLimit-Global"] = "true"
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
        major = "+".join(info.get(k, "") for k in ("channel_id", "guild_id", "app_id", "token"))
        bucket_hash = hashlib.sha1(label.encode()).hexdigest()[:16]
        forced = self._take_forced(label)
        if forced is not None:
            return self._too_many(label, bucket_hash, forced.retry_after, forced.is_global)
        key = f"{bucket_hash}:{major}"
        bucket = self.buckets.get(key)
        if bucket is None:
            bucket = self.buckets[key] = Bucket(*self.rate_limit)
        now = time.time()
        if not bucket.take(now):
            return self._too_many(label, bucket_hash, max(bucket.resets_at - now, 0.001), False)
        try:
            response = await handler(request)
        except Refused as refused:
            response = refused.response
        response.headers.update(
            {
                "X-RateLimit-Limit": str(bucket.limit),
                "X-RateLimit-Remaining": str(max(bucket.remaining, 0)),
                "X-RateLimit-Reset": f"{bucket.resets_at:.3f}",
                "X-RateLimit-Reset-After": f"{max(bucket.resets_at - now, 0.001):.3f}",
                "X-RateLimit-Bucket": bucket_hash,
            }
        )
        return response
