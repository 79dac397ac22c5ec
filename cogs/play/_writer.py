"""Where the presenter's requests to Discord go (those of `TableWriter`, `TurnPings` and `OwnDeletions`):
through an interaction token's routes, exempt from the global limit, when the game has a fit token
(`cogs/play/_tokens.py`); else through the counted routes, every one of them through `Writer.counted`,
the one place that knows what each counted request is for.

Only public messages travel here: the table and the turn pings and timer warnings that mention the
players (every followup is sent without the ephemeral flag, to the channel the table is in).
"""

from __future__ import annotations

import logging
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

        if token is None or not await self._through(game, token, edit):
            return None
        return edited[0]

    async def post(self, game: LiveGame, channel_id: int, *, wait: bool = True, **fields: Any) -> int | None:
        """Post a public message (a ping, a warning) as a followup of a click in `channel_id`; its id,
        or None when no token fits (then the caller posts it through the counted route). `wait`: as
        for `edit_table`."""
        token = await self.book.followups(game.id, channel_id, wait=wait)
        sent: list[int] = []

        async def send() -> None:
            sent.append(await post_followup(token.interaction, **fields))

        if token is None or not await self._through(game, token, send):
            return None
        self.book.posted(sent[0], token)
        return sent[0]

    async def edit_posted(self, game: LiveGame, message_id: int, fields: dict[str, Any]) -> bool:
        """Edit followup `message_id` through the token that posted it; False when that token is no
        longer fit (then the caller edits it through the counted route). Raises NotFound when the
        message is gone."""
        token = self.book.poster(message_id, forget=False)
        return token is not None and await self._through(
            game, token, lambda: token.interaction.followup.edit_message(message_id, **fields)
        )

    async def delete(self, message_id: int) -> bool:
        """Delete a followup through the token that posted it; False when that token is no longer fit
        (or the message was not a followup): then the caller deletes it through the counted route.
        Raises NotFound when the message is gone already."""
        token = self.book.poster(message_id)
        return token is not None and await self._through(
            None, token, lambda: token.interaction.followup.delete_message(message_id)
        )

    async def _through(
        self, game: LiveGame | None, token: Token, request: Callable[[], Awaitable[Any]]
    ) -> bool:
        """Make `request` through `token`'s route; False when Discord refuses the token (forgotten
        then). Raises NotFound when the message it names is gone."""
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
