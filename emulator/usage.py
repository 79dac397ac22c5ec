"""What a bot spends of Discord's budget: its requests bound by the global limit and those exempt, and
the invalid requests that earn a temporary ban, counted as discord.com/developers/docs says.

Exempt from the global limit ("Interaction endpoints are not bound to the bot's Global Rate Limit",
topics/rate-limits, linking interactions/receiving-and-responding#endpoints) are exactly the routes
listed under that heading, and nothing wider:

- ``POST /interactions/{interaction.id}/{interaction.token}/callback`` (create interaction response);
- ``GET``/``PATCH``/``DELETE /webhooks/{application.id}/{interaction.token}/messages/@original``;
- ``POST /webhooks/{application.id}/{interaction.token}`` (create followup message);
- ``GET``/``PATCH``/``DELETE /webhooks/{application.id}/{interaction.token}/messages/{message.id}``.

A webhook of a channel (``/webhooks/{webhook.id}/{webhook.token}``) has the same path shape but not the
application's id in it: the documentation exempts only the interaction routes, so it is counted.

Invalid requests ("Invalid Request Limit aka Cloudflare bans"): every answer of 401, 403 or 429, except
a 429 with ``X-RateLimit-Scope: shared`` ("not counted against you") — but not that exception on the
interaction-token webhook routes, where shared 429s were reported to lead to Cloudflare bans
(discord/discord-api-docs#7243): there the strict reading counts them too. Counted per client address ("IP
addresses that make too many invalid HTTP requests are automatically and temporarily restricted") over
a sliding 10 minutes. Past 10,000 the address is banned: every request from it gets Cloudflare's answer,
HTTP 429 with an HTML page (error 1015), no JSON body and none of the API's headers (no ``Via``, which
is how discord.py tells a ban from a rate limit). Discord says the ban is temporary without saying how
long; the emulator keeps it `BAN_SECONDS`, on the emulator's clock.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field

INVALID_STATUSES = frozenset({401, 403, 429})
INVALID_LIMIT = 10_000
INVALID_WINDOW = 10 * 60.0
BAN_SECONDS = 60 * 60.0

CALLBACK = "/interactions/{interaction_id}/{token}/callback"
FOLLOWUP = "/webhooks/{app_id}/{token}"
FOLLOWUP_MESSAGE = "/webhooks/{app_id}/{token}/messages/{message_id}"
EXEMPT_ROUTES = frozenset(
    {
        ("POST", CALLBACK),
        ("POST", FOLLOWUP),
        ("GET", FOLLOWUP_MESSAGE),
        ("PATCH", FOLLOWUP_MESSAGE),
        ("DELETE", FOLLOWUP_MESSAGE),
    }
)

BANNED_PAGE = (
    "<!DOCTYPE html>\n<html><head><title>Access denied | discord.com used Cloudflare to restrict access"
    "</title></head><body><h1>Error 1015</h1><h2>You are being rate limited</h2>"
    "<p>The owner of this website (discord.com) has banned you temporarily from accessing this website."
    "</p></body></html>\n"
)


def exempt_from_global(method: str, template: str, params: dict[str, str], application_id: int) -> bool:
    """Whether Discord's documentation puts this request outside the bot's global limit: an interaction
    callback, or an interaction-token webhook route of the bot's own application."""
    if (method, template) not in EXEMPT_ROUTES:
        return False
    return template == CALLBACK or params.get("app_id") == str(application_id)


def is_invalid(status: int, scope: str | None, *, webhook: bool = False) -> bool:
    """Whether an answer counts toward the ban: 401, 403, 429 — not a 429 of scope ``shared``, unless
    it answered an interaction-token webhook route (`webhook`)."""
    if status not in INVALID_STATUSES:
        return False
    return webhook or not (status == 429 and scope == "shared")


@dataclass
class InvalidRequests:
    """One address's invalid requests over the sliding window, and its ban."""

    limit: int = INVALID_LIMIT
    times: deque[float] = field(default_factory=deque)
    peak: int = 0
    banned_until: float = 0.0

    def add(self, now: float) -> None:
        self._forget(now)
        self.times.append(now)
        self.peak = max(self.peak, len(self.times))
        if len(self.times) > self.limit:
            self.banned_until = now + BAN_SECONDS

    def in_window(self, now: float) -> int:
        self._forget(now)
        return len(self.times)

    def _forget(self, now: float) -> None:
        while self.times and self.times[0] <= now - INVALID_WINDOW:
            self.times.popleft()


class Usage:
    """Requests per bot token, bound by the global limit (``counted``) or exempt, by route; invalid
    requests and bans per client address (``invalid_limit`` lower than Discord's only in tests)."""

    def __init__(self, invalid_limit: int = INVALID_LIMIT) -> None:
        self.invalid_limit = invalid_limit
        self.counted: Counter[str] = Counter()  # bot token -> requests bound by the global limit
        self.exempt: Counter[str] = Counter()  # bot token -> requests exempt from it
        self.routes: Counter[str] = Counter()  # "METHOD /template" -> requests
        self.invalid: dict[str, InvalidRequests] = {}

    def request(self, token: str, label: str, *, exempt: bool) -> None:
        (self.exempt if exempt else self.counted)[token] += 1
        self.routes[label] += 1

    def answered(
        self, address: str, status: int, scope: str | None, now: float, *, webhook: bool = False
    ) -> None:
        if is_invalid(status, scope, webhook=webhook):
            self.invalid.setdefault(address, InvalidRequests(self.invalid_limit)).add(now)

    def banned(self, address: str, now: float) -> bool:
        record = self.invalid.get(address)
        return record is not None and now < record.banned_until

    def invalid_in_window(self, now: float) -> int:
        """Invalid requests of the last 10 minutes, from the address that made the most."""
        return max((record.in_window(now) for record in self.invalid.values()), default=0)

    def invalid_peak(self) -> int:
        """The most invalid requests one address made within any 10 minutes so far."""
        return max((record.peak for record in self.invalid.values()), default=0)
