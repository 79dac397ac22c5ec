"""Discord's rate limits, answered as Discord answers them, on the emulator's clock.

Every bot request passes two limits: its route's bucket, keyed by the route's major parameter (the
channel for ``/channels/{channel_id}/...``, the webhook and token for ``/webhooks/...``), and the bot's
global limit. A request over either gets HTTP 429 with ``{"message", "retry_after", "global"}``,
``Retry-After`` and ``X-RateLimit-Scope`` (plus ``X-RateLimit-Global`` when global); every answer carries
``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``, ``-Reset-After`` and ``-Bucket``, which discord.py reads
to wait *before* a bucket runs dry, as it does on Discord.

The figures (:data:`DISCORD`), and why:

- Global, 50 requests per second per bot; the interaction callback and the interaction-token webhook
  routes are exempt (which exactly: :mod:`emulator.usage`). Both are documented on
  discord.com/developers/docs/topics/rate-limits ("All bots can make up to 50 requests per second";
  "Interaction endpoints are not bound to the bot's Global Rate Limit").
- Per channel, sending a message 5 per 5 s, editing a message 5 per 5 s, deleting a message 5 per 1 s.
  Discord does not publish per-route figures (the docs say to read the headers); these are the figures
  bots observe in the headers and that library and hosting guides quote ("5 per 5 seconds per channel"
  for sends and edits, "5 per 1 second" for deletions). Sending, editing and deleting are three buckets.
- Every other route: ``other`` requests per ``other_window`` s per major parameter (the emulator's
  ``rate_limit`` option, 50 per 1 s by default), generous because Catnip's other calls are rare.

Windows are fixed, as Discord's are: a bucket opens at its first request and refills ``window`` seconds
later. Time is the world's clock, so a test that advances the clock also refills buckets.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

SEND = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
DELETE = "DELETE /channels/{channel_id}/messages/{message_id}"
_MAJOR_KEYS = ("channel_id", "guild_id", "app_id", "token")
SCOPES = ("user", "global", "shared")


@dataclass(frozen=True)
class RateLimits:
    """Which limits the emulator enforces: ``(requests, window in seconds)``; None turns one off."""

    global_per_second: int | None = 50
    routes: dict[str, tuple[int, float]] = field(
        default_factory=lambda: {SEND: (5, 5.0), EDIT: (5, 5.0), DELETE: (5, 1.0)}
    )
    other: tuple[int, float] | None = (50, 1.0)
    global_window: float = 1.0

    def for_route(self, label: str) -> tuple[int, float] | None:
        return self.routes.get(label, self.other)

    def scaled(self, factor: float) -> RateLimits:
        """The same counts over windows ``factor`` times as long: tests that play at machine speed use
        Discord's buckets with their time compressed, so waiting for them does not slow the suite."""
        return RateLimits(
            global_per_second=self.global_per_second,
            routes={label: (count, window * factor) for label, (count, window) in self.routes.items()},
            other=None if self.other is None else (self.other[0], self.other[1] * factor),
            global_window=self.global_window * factor,
        )


DISCORD = RateLimits()
NONE = RateLimits(global_per_second=None, routes={}, other=None)


@dataclass
class Bucket:
    """A fixed window: ``limit`` requests, refilled ``window`` s after the first one."""

    limit: int
    window: float
    remaining: int = 0
    resets_at: float = 0.0

    def _refill(self, now: float) -> None:
        if now >= self.resets_at:
            self.remaining = self.limit
            self.resets_at = now + self.window

    def has_room(self, now: float) -> bool:
        self._refill(now)
        return self.remaining > 0

    def take(self, now: float) -> None:
        self._refill(now)
        self.remaining -= 1


@dataclass(frozen=True)
class Verdict:
    """What the limits say about one request: let it through (``refused`` None) or a 429."""

    headers: dict[str, str]
    refused: dict[str, Any] | None = None  # the 429 body


class RateLimiter:
    """The buckets of one bot, and the headers and 429 bodies Discord would send."""

    def __init__(self, limits: RateLimits) -> None:
        self.limits = limits
        self.buckets: dict[str, Bucket] = {}
        self.global_bucket = (
            Bucket(limits.global_per_second, limits.global_window)
            if limits.global_per_second is not None
            else None
        )
        self._hashes: dict[str, str] = {}
        self.ran_dry: list[str] = []  # "METHOD /template" of each request that took a bucket's last slot

    def waiting_until(self) -> float:
        """When the last exhausted bucket refills: until then the bot may be holding requests back."""
        dry = [b.resets_at for b in self.buckets.values() if b.remaining <= 0]
        glob = self.global_bucket
        if glob is not None and glob.remaining <= 0:
            dry.append(glob.resets_at)
        return max(dry, default=0.0)

    def bucket_hash(self, label: str) -> str:
        known = self._hashes.get(label)
        if known is None:
            known = self._hashes[label] = hashlib.sha1(label.encode()).hexdigest()[:16]
        return known

    def admit(self, label: str, params: Any, now: float, *, exempt: bool) -> Verdict:
        """Counts a request to ``label`` ("METHOD /template") now, or refuses it with a 429; an
        ``exempt`` request is not bound by the global limit."""
        bucket_hash = self.bucket_hash(label)
        figures = self.limits.for_route(label)
        bucket = None
        if figures is not None:
            major = "+".join(params.get(k, "") for k in _MAJOR_KEYS)
            key = f"{bucket_hash}:{major}"
            bucket = self.buckets.get(key)
            if bucket is None:
                bucket = self.buckets[key] = Bucket(*figures)
            if not bucket.has_room(now):
                return self._too_many(bucket_hash, bucket, now, scope="user")
        glob = self.global_bucket
        if glob is not None and not exempt:
            if not glob.has_room(now):
                return self._too_many(bucket_hash, glob, now, scope="global")
            glob.take(now)
        if bucket is None:
            return Verdict({})
        bucket.take(now)
        if bucket.remaining == 0:
            self.ran_dry.append(label)
        return Verdict(self._headers(bucket_hash, bucket, now))

    @staticmethod
    def _headers(bucket_hash: str, bucket: Bucket, now: float) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(bucket.remaining, 0)),
            "X-RateLimit-Reset": f"{bucket.resets_at:.3f}",
            "X-RateLimit-Reset-After": f"{max(bucket.resets_at - now, 0.001):.3f}",
            "X-RateLimit-Bucket": bucket_hash,
        }

    def _too_many(self, bucket_hash: str, bucket: Bucket, now: float, *, scope: str) -> Verdict:
        retry_after = round(max(bucket.resets_at - now, 0.001), 3)
        return self.refusal(bucket_hash, bucket.limit, retry_after, now, scope=scope)

    @staticmethod
    def refusal(bucket_hash: str, limit: int, retry_after: float, now: float, *, scope: str) -> Verdict:
        """A 429 as Discord sends it (also used for the 429s tests force): ``scope`` ``user`` (the
        route's bucket), ``global`` or ``shared`` (a resource's limit, not counted toward a ban)."""
        is_global = scope == "global"
        headers = {
            "Via": "1.1 google",  # discord.py takes a 429 without it for a Cloudflare ban
            "Retry-After": f"{retry_after:.3f}",
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{now + retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{retry_after:.3f}",
            "X-RateLimit-Bucket": bucket_hash,
            "X-RateLimit-Scope": scope,
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        shared = scope == "shared"
        message = "The resource is being rate limited." if shared else "You are being rate limited."
        body = {"message": message, "retry_after": retry_after, "global": is_global}
        return Verdict(headers, body)
