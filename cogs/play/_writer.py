"""Where the presenter's requests to Discord go (those of `TableWriter`, `TurnPings` and `OwnDeletions`):
through an interaction token's routes, exempt from the global limit, when the game has a fit token
(`cogs/play/_tokens.py`); else through the counted routes, every one of them through `Writer.counted`,
the one place that knows what each counted request is for.

Only public messages travel here: the table and the turn pings and timer warnings that mention the
players (every followup is sent without the ephemeral flag, to the channel the table is in).

Discord limits the webhook messages of a channel without announcing it: users measured 30 a minute
(discord/discord-api-docs#367, #1454), and past it comes a 429 of scope `shared` that, on followups,
was reported to count toward a Cloudflare ban (#7243). So the writer counts the followups it posts in
each channel over the last minute and posts through the counted route once `FOLLOWUPS_PER_CHANNEL`
went there: a margin under Discord's figure for other bots' webhooks in the same channel.

Each token's webhook routes share one bucket, 5 requests per 2 s (discord/discord-api-docs#2701). The
writer makes at most `TOKEN_REQUESTS` through one token in any `TOKEN_WINDOW` (room to spare for the
click's own followup, a private panel, and a request on its way) and goes through the counted route
beyond: were the bucket to run dry, discord.py would hold the token's next request until it refills,
and the table would lag by up to 2 s.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from bot.discord_budget import Priority, priority
from bot.live import LiveGame
from cogs.play._tokens import InteractionBook, Token
from discord_door import post_followup

log = logging.getLogger("catnip.table")

T = TypeVar("T")
UNKNOWN_MESSAGE = 10008
PRUNE_EVERY = 256
FOLLOWUPS_PER_CHANNEL = 20
FOLLOWUP_WINDOW = 60.0
TOKEN_REQUESTS = 3
TOKEN_WINDOW = 2.0
EDITABLE_FOR = 55 * 60.0
"""Seconds after which Catnip edits a message of its own no more: Discord caps the edits of messages
over an hour old (30046, answered as a 429 that counts toward the ban); a few minutes to spare."""


def editable(message_id: int, now: float) -> bool:
    """Whether message `message_id` is young enough to be edited (`EDITABLE_FOR`)."""
    posted = ((message_id >> 22) + discord.utils.DISCORD_EPOCH) / 1000  # `snowflake_time`, as seconds
    return now - posted < EDITABLE_FOR


def table_purpose(game: LiveGame) -> Priority:
    """A table whose game waits on a member (a lobby's too) goes before one only computers play on."""
    seats = [game.record.seats[s] for s in game.to_act()]
    if game.state is None or any(not seat.computer and seat.user_id is not None for seat in seats):
        return Priority.HUMAN_TABLE
    return Priority.COMPUTER_TABLE


class Writer:
    """Sends, edits and deletes the presenter's messages, exempt routes first; what the message says
    and where it stands is the caller's."""

    def __init__(self, book: InteractionBook) -> None:
        self.book = book
        self._followups: dict[int, deque[float]] = {}  # channel -> when its latest followups went out
        self._token_requests: dict[int, deque[float]] = {}  # interaction -> its latest webhook requests
        self._new_tokens = 0
        self.window_scale = 1.0
        """How many times shorter than Discord's this writer counts its windows (tests that play at
        machine speed against an emulator whose windows are shortened alike)."""

    def _token_has_room(self, token: Token) -> bool:
        """Whether one more request through `token` stays within `TOKEN_REQUESTS` per `TOKEN_WINDOW`;
        if so, it is counted."""
        now = self.book.clock()
        key = token.interaction.id
        sent = self._token_requests.get(key)
        if sent is None:
            self._new_tokens += 1
            if self._new_tokens % PRUNE_EVERY == 0:
                self._prune_tokens(now)
            sent = self._token_requests[key] = deque()
        while sent and sent[0] <= now - TOKEN_WINDOW * self.window_scale:
            sent.popleft()
        if len(sent) >= TOKEN_REQUESTS:
            return False
        sent.append(now)
        return True

    def _prune_tokens(self, now: float) -> None:
        for key in [
            key
            for key, sent in self._token_requests.items()
            if not sent or sent[-1] <= now - TOKEN_WINDOW * self.window_scale
        ]:
            del self._token_requests[key]

    def _channel_has_room(self, channel_id: int) -> bool:
        """Whether one more followup in `channel_id` stays within `FOLLOWUPS_PER_CHANNEL` a minute."""
        sent = self._followups.get(channel_id)
        if sent is None:
            return True
        now = self.book.clock()
        while sent and sent[0] <= now - FOLLOWUP_WINDOW * self.window_scale:
            sent.popleft()
        if not sent:
            del self._followups[channel_id]
            return True
        return len(sent) < FOLLOWUPS_PER_CHANNEL

    async def counted(self, purpose: Priority, call: Callable[[], Awaitable[T]]) -> T:
        """Make one request bound by the global limit, ranked by `purpose` when the bot's share of the
        limit runs short (`bot/discord_budget.py`)."""
        with priority(purpose):
            return await call()

    async def edit_table(
        self, game: LiveGame, message_id: int, fields: Callable[[], dict[str, Any]], *, wait: bool = True
    ) -> discord.Message | None:
        """Edit table message `message_id` through a click's `@original`: the message as Discord
        returned it, or None when no token fits (or Discord refused the token): then the caller edits
        through the counted route. Raises NotFound when the message is gone. With `wait`, the game's
        clicks under way are answered first (their tokens may fit); never wait on a click's own path."""
        token = await self.book.original(game.id, message_id, wait=wait)
        edited: list[discord.Message] = []

        async def edit() -> None:
            edited.append(await token.interaction.edit_original_response(**fields()))

        if token is None or not self._token_has_room(token) or not await self._through(game, token, edit):
            return None
        return edited[0]

    async def post(self, game: LiveGame, channel_id: int, *, wait: bool = True, **fields: Any) -> int | None:
        """Post a public message (a ping, a warning) as a followup of a click in `channel_id`; its id,
        or None when no token fits (then the caller posts it through the counted route). `wait`: as
        for `edit_table`."""
        token = await self.book.followups(game.id, channel_id, wait=wait)
        if token is None or not self._channel_has_room(channel_id) or not self._token_has_room(token):
            return None
        sent: list[int] = []

        async def send() -> None:
            self._followups.setdefault(channel_id, deque()).append(self.book.clock())
            sent.append(await post_followup(token.interaction, **fields))

        if not await self._through(game, token, send):
            return None
        self.book.posted(sent[0], token)
        return sent[0]

    async def edit_posted(self, game: LiveGame, message_id: int, fields: dict[str, Any]) -> bool:
        """Edit followup `message_id` through the token that posted it; False when that token is no
        longer fit (then the caller edits it through the counted route). Raises NotFound when the
        message is gone."""
        token = self.book.poster(message_id, forget=False)
        return (
            token is not None
            and self._token_has_room(token)
            and await self._through(
                game, token, lambda: token.interaction.followup.edit_message(message_id, **fields)
            )
        )

    async def delete(self, message_id: int) -> bool:
        """Delete a followup through the token that posted it; False when that token is no longer fit
        (or the message was not a followup): then the caller deletes it through the counted route.
        Raises NotFound when the message is gone already."""
        token = self.book.poster(message_id)
        return (
            token is not None
            and self._token_has_room(token)
            and await self._through(
                None, token, lambda: token.interaction.followup.delete_message(message_id)
            )
        )

    async def _through(
        self, game: LiveGame | None, token: Token, request: Callable[[], Awaitable[Any]]
    ) -> bool:
        """Make `request` through `token`'s route; False when Discord refuses the token (forgotten
        then: 401 when it is too old, 404 Unknown Webhook when Discord lost it although it is not,
        discord/discord-api-docs#6851): the caller goes on through the counted route, so nothing is
        lost. Raises NotFound when the message it names is gone."""
        try:
            await request()
        except discord.HTTPException as error:
            if isinstance(error, discord.NotFound) and error.code == UNKNOWN_MESSAGE:
                raise
            log.info("interaction token refused (HTTP %s); using the bot's routes", error.status)
            if game is not None:
                self.book.drop(game.id, token)
            return False
        return True
