"""Each game's interaction tokens still fit for use: the routes they open are exempt from Discord's
global limit (50 requests a second for the whole bot, shared by every process).

Discord documents (Receiving and Responding to Interactions) that an interaction's token stays valid
for 15 minutes, during which it edits the original response (`@original`) and creates, edits and
deletes followup messages; those routes are not bound by the global limit (rate-limits topic). When a
click on a component was answered with an update of its message (types 6 and 7), the original response
*is* that message: a click answered so on a game's table message can edit that table again, for the
moves that follow it and the computer's, until its token is too old.

Only a click on a public message of the game (its table, or the lobby the table grew from) posts the
game's turn pings as followups, and deletes them later through the same token: Discord draws a public
followup as a reply to the message clicked (`interaction_metadata.interacted_message_id`), and a reply
to a member's private panel is one the others cannot load (discordjs/discord-utils-bot#47).

A token is used until `USE_WITHIN` seconds after its interaction was created (discord.py's
`Interaction.created_at`: Discord counts the 15 minutes from then, `Interaction.expires_at`), a minute
short of them, so that a request on its way is not refused as late. Without a fit token the presenter
uses the counted routes (after a restart, or when nobody clicked on the table for a while).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import discord

from bot.overload import CLICK_DEADLINE

TOKEN_LIFETIME = 15 * 60.0
USE_WITHIN = 14 * 60.0
WAIT_FOR_ANSWER = CLICK_DEADLINE
"""Seconds a table edit waits for the clicks of its game still being answered: a click's token opens
no route before its answer, due within Discord's deadline."""
UPDATES = (
    discord.InteractionResponseType.deferred_message_update,
    discord.InteractionResponseType.message_update,
)
ANSWERS_WITH_FOLLOWUPS = (*UPDATES, discord.InteractionResponseType.channel_message)
"""Answers after which a followup is a message of its own (after a deferred *message*, type 5, the
first followup would replace the "thinking…" one)."""
PRUNE_EVERY = 256


@dataclass(frozen=True)
class Token:
    """An answered interaction whose webhook routes a presenter may use, and what they reach."""

    interaction: discord.Interaction
    created: float  # when Discord created the interaction, on the bot's clock
    channel_id: int
    original_id: int | None
    """The public message `@original` names when the click was answered by updating it, else None."""


class InteractionBook:
    """The newest fit tokens of each game: one whose `@original` is a public message of the game (its
    table, or the lobby the table grew from), and one of a click on a public message of the game, which
    posts its followups; and which token posted each followup still standing."""

    def __init__(self, clock: Callable[[], float], use_within: float = USE_WITHIN) -> None:
        """`use_within`: seconds a token is used after its interaction's creation (0: never, every
        request is counted)."""
        self.clock = clock
        self.use_within = use_within
        self._originals: dict[int, Token] = {}
        self._latest: dict[int, Token] = {}
        self._posted: dict[int, Token] = {}  # followup message id -> the token that posted it
        self._answering: dict[int, set[asyncio.Future[None]]] = {}  # game -> its clicks not yet answered
        self._noted = 0

    def click_arrived(self, game_id: int) -> asyncio.Future[None]:
        """Note a click of `game_id` being answered; `click_answered` with the returned future after."""
        answering = asyncio.get_running_loop().create_future()
        self._answering.setdefault(game_id, set()).add(answering)
        return answering

    def click_answered(self, game_id: int, answering: asyncio.Future[None], interaction) -> None:
        """The click is answered (or never will be): keep its token if its answer opened its routes."""
        waiting = self._answering.get(game_id)
        if waiting is not None:
            waiting.discard(answering)
            if not waiting:
                del self._answering[game_id]
        if not answering.done():
            answering.set_result(None)
        kind = interaction.response.type
        if kind not in ANSWERS_WITH_FOLLOWUPS or interaction.channel_id is None:
            return
        message = interaction.message
        if message is None or message.flags.ephemeral:
            return  # its followups would reply to a message the others cannot see
        original = message.id if kind in UPDATES else None
        token = Token(interaction, interaction.created_at.timestamp(), interaction.channel_id, original)
        self._latest[game_id] = token
        if original is not None:
            self._originals[game_id] = token
        self._noted += 1
        if self._noted % PRUNE_EVERY == 0:
            self.prune()

    def lacks_original(self, game, message: discord.Message | None) -> bool:
        """Whether `message`, clicked, is the game's table and no fit token edits it: then the click is
        best answered by updating it (a deferred update leaves it as it is), so its token does."""
        if message is None or message.id != game.record.table_message_id or message.flags.ephemeral:
            return False
        token = self._originals.get(game.id)
        return not self._fit(token) or token.original_id != message.id

    def _fit(self, token: Token | None) -> bool:
        return token is not None and self.clock() - token.created < self.use_within

    async def _answers(self, game_id: int) -> None:
        waiting = self._answering.get(game_id)
        if waiting:
            await asyncio.wait(list(waiting), timeout=WAIT_FOR_ANSWER)

    async def original(self, game_id: int, message_id: int, *, wait: bool = True) -> Token | None:
        """A fit token whose `@original` is message `message_id` of the game (with `wait`, once the
        game's clicks under way are answered)."""
        if wait:
            await self._answers(game_id)
        token = self._originals.get(game_id)
        if not self._fit(token) or token.original_id != message_id:
            return None
        return token

    async def followups(self, game_id: int, channel_id: int, *, wait: bool = True) -> Token | None:
        """A fit token that posts followups in `channel_id` (with `wait`, once the game's clicks under
        way are answered)."""
        if wait:
            await self._answers(game_id)
        token = self._latest.get(game_id)
        return token if self._fit(token) and token.channel_id == channel_id else None

    def posted(self, message_id: int, token: Token) -> None:
        self._posted[message_id] = token

    def poster(self, message_id: int, *, forget: bool = True) -> Token | None:
        """The fit token that posted followup `message_id` (forgotten once asked for, with `forget`:
        the message is being deleted)."""
        token = self._posted.pop(message_id, None) if forget else self._posted.get(message_id)
        return token if self._fit(token) else None

    def drop(self, game_id: int, token: Token) -> None:
        """Forget a token Discord refused."""
        for book in (self._originals, self._latest):
            if book.get(game_id) is token:
                del book[game_id]

    def forget(self, game_id: int) -> None:
        """Forget a closed or finished game's tokens; an old one of any game goes as a new one comes."""
        self._originals.pop(game_id, None)
        self._latest.pop(game_id, None)
        self.prune()

    def prune(self) -> None:
        for book in (self._originals, self._latest, self._posted):
            for key in [key for key, token in book.items() if not self._fit(token)]:
                del book[key]


@contextlib.contextmanager
def noting(
    book: InteractionBook | None, interaction: discord.Interaction, game_id: int | None
) -> Iterator[None]:
    """Around a click's whole handling: `book` keeps the click's token once it is answered."""
    if not game_id or book is None:
        yield
        return
    answering = book.click_arrived(game_id)
    try:
        yield
    finally:
        book.click_answered(game_id, answering, interaction)
