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
- Per interaction token, 5 requests per 2 s, one bucket shared by all of the token's webhook routes
  (create a followup; get, edit or delete ``@original`` or a followup): "Interactions webhooks share the
  same rate limit properties as normal webhooks" (interactions/receiving-and-responding), and users
  measured a webhook's bucket at 5 per 2 s, announced in the headers (discord/discord-api-docs#2701).
  One bucket for all of them is the strict reading (discord.py's webhook adapter keys its bucket by
  webhook id and token, and waits when the headers say it ran dry). The callback route has a bucket of
  its own (it answers once per interaction).
- Per channel, 30 webhook messages per 60 s: a limit Discord does not announce in any header, reported
  for webhooks posting in one channel (discord/discord-api-docs#367, #1454). Only public followups count
  (an ephemeral followup is not a message of the channel). Over it, a 429 of scope ``shared`` with only
  ``Retry-After`` and the scope — and such 429s on followups were reported to lead to Cloudflare bans
  (discord/discord-api-docs#7243), so :mod:`emulator.usage` counts them toward the ban.
- Every other route: ``other`` requests per ``other_window`` s per major parameter (the emulator's
  ``rate_limit`` option, 50 per 1 s by default), generous because Catnip's other calls are rare.

Windows are fixed, as Discord's are: a bucket opens at its first request and refills ``window`` seconds
later. Time is the world's clock, so a test that advances the clock also refills buckets.
"""

from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import dataclass, field
from typing import Any

SEND = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
DELETE = "DELETE /channels/{channel_id}/messages/{message_id}"
TOKEN_ROUTES = frozenset(
    {
        "POST /webhooks/{app_id}/{token}",
        "GET /webhooks/{app_id}/{token}/messages/{message_id}",
        "PATCH /webhooks/{app_id}/{token}/messages/{message_id}",
        "DELETE /webhooks/{app_id}/{token}/messages/{message_id}",
    }
)
"""The webhook routes of an interaction token: one bucket per token (`RateLimits.webhook`)."""
TOKEN_BUCKET = "interaction token webhook"
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
    webhook: tuple[int, float] | None = (5, 2.0)
    """Each interaction token's bucket, shared by its `TOKEN_ROUTES`."""
    channel_webhook_messages: tuple[int, float] | None = (30, 60.0)
    """The hidden limit of public webhook messages per channel (`ChannelWebhookMessages`)."""

    def for_route(self, label: str) -> tuple[int, float] | None:
        if label in TOKEN_ROUTES and self.webhook is not None:
            return self.webhook
        return self.routes.get(label, self.other)

    def scaled(self, factor: float) -> RateLimits:
        """The same counts over windows ``factor`` times as long: tests that play at machine speed use
        Discord's buckets with their time compressed, so waiting for them does not slow the suite."""
        return RateLimits(
            global_per_second=self.global_per_second,
            routes={label: (count, window * factor) for label, (count, window) in self.routes.items()},
            other=None if self.other is None else (self.other[0], self.other[1] * factor),
            global_window=self.global_window * factor,
            webhook=None if self.webhook is None else (self.webhook[0], self.webhook[1] * factor),
            channel_webhook_messages=None
            if self.channel_webhook_messages is None
            else (self.channel_webhook_messages[0], self.channel_webhook_messages[1] * factor),
        )


DISCORD = RateLimits()
NONE = RateLimits(global_per_second=None, routes={}, other=None, webhook=None, channel_webhook_messages=None)


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
        name = TOKEN_BUCKET if label in TOKEN_ROUTES and self.limits.webhook is not None else label
        known = self._hashes.get(name)
        if known is None:
            known = self._hashes[name] = hashlib.sha1(name.encode()).hexdigest()[:16]
        return known

    def admit(self, label: str, params: Any, now: float, *, exempt: bool) -> Verdict:
        """Counts a request to ``label`` ("METHOD /template") now, or refuses it with a 429; an
        ``exempt`` request is not bound by the global limit."""
        bucket_hash = self.bucket_hash(label)
        figures = self.limits.for_route(label)
        bucket = None
        if figures is not None:
            major = "+".join(params.get(k, "") for k in _MAJOR_KEYS)
            if label in TOKEN_ROUTES:
                major = params.get("token", "")
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


class ChannelWebhookMessages:
    """The hidden limit of public webhook messages per channel (`RateLimits.channel_webhook_messages`):
    a sliding window of the messages each channel got through interaction tokens. Nothing announces
    it, so a bot that counts its own followups per channel stays under it; one that does not meets a
    429 of scope ``shared`` (discord/discord-api-docs#367, #1454, #7243)."""

    def __init__(self, figures: tuple[int, float] | None) -> None:
        self.figures = figures
        self.sent: dict[int, deque[float]] = {}

    def retry_after(self, channel_id: int, now: float) -> float | None:
        """None when the channel has room for one more webhook message, else the seconds until it will."""
        if self.figures is None:
            return None
        count, window = self.figures
        times = self.sent.get(channel_id)
        if times is None:
            return None
        while times and times[0] <= now - window:
            times.popleft()
        if len(times) < count:
            return None
        return round(max(times[0] + window - now, 0.001), 3)

    def count(self, channel_id: int, now: float) -> None:
        if self.figures is not None:
            self.sent.setdefault(channel_id, deque()).append(now)

    def refusal(self, retry_after: float) -> Verdict:
        """What Discord answers over the hidden limit: scope ``shared`` and no bucket to announce."""
        headers = {"Via": "1.1 google", "Retry-After": f"{retry_after:.3f}", "X-RateLimit-Scope": "shared"}
        body = {"message": "The resource is being rate limited.", "retry_after": retry_after, "global": False}
        return Verdict(headers, body)
