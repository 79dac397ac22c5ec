"""Writing a game's public table to Discord: edited in place, posted again when old or buried or when
its thread archived (Discord refuses edits in an archived thread, 50083, and a message sent there
unarchives it), moved from a thread that is gone or locked to its channel, marked closed at the end.
A game that can be shown nowhere ends, and its host is told so once by direct message (`HostNotice`).
An edit goes through the token of a recent click on the table where one fits (`Writer`,
cogs/play/_writer.py).

Where a table stands is the game service's to record (`GameService.table_posted`); this module only
talks to Discord.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

import discord

from bot.live import LiveGame
from bot.sessions import GameService
from bot.timers import Timers
from cogs.lobby_message import lobby_message
from cogs.messages import Message, table_message
from cogs.play._host_notice import CANNOT_POST_THERE, CHANNEL_GONE, HostNotice
from cogs.play._pictures import MOVED_ON, TablePictures, show_picture
from cogs.play._pings import OwnDeletions, TurnPings
from cogs.play._writer import Writer, editable, table_purpose
from lang import N_, _, speaking

log = logging.getLogger("catnip.table")

REPOST_AFTER_SECONDS = 45 * 60
REPOST_AFTER_MESSAGES = 15
CLOSED = ("cancelled", "abandoned")
CANNOT_POST = N_("I can no longer post in this channel, so the game was ended.")
CHANNEL_GONE_REASON = N_("The game's channel is gone.")
THREAD_ARCHIVED = 50083


def archived(channel: object) -> bool:
    """Whether `channel` is a thread Discord archived (its THREAD_UPDATE said so)."""
    return bool(getattr(channel, "archived", False))


def said_at(game: LiveGame, text: str) -> str:
    """`text` (a marked constant) in `game`'s language: what its table says."""
    with speaking(game.language):
        return _(text)


class TableWriter:
    """Puts each game's table (and, with it, its turn ping) on Discord as the game stands."""

    def __init__(
        self,
        bot: discord.Client,
        service: GameService,
        timers: Timers,
        writer: Writer,
        pictures: TablePictures,
        pings: TurnPings,
        deletions: OwnDeletions,
    ) -> None:
        self.bot = bot
        self.service = service
        self.timers = timers
        self.writer = writer
        self.pictures = pictures
        self.pings = pings
        self.deletions = deletions
        self.notice = HostNotice(bot)
        self.messages_since_table: Counter[int] = Counter()
        """Messages of other people in each channel since its table was posted: many bury it."""

    async def show(self, game: LiveGame, reading: Callable[[int], None] = lambda game_id: None) -> None:
        """Show `game`'s lobby or table as it stands now; end the game if it can be shown nowhere.
        `reading(game.id)` is told each time the table is read (again, when it moved on while its
        picture was drawn): the showing then covers every change made before."""
        if game.record.status in CLOSED:
            return  # closed meanwhile: `show_closed` shows that
        channel = await self.table_channel(game)
        if channel is None:
            log.warning("%s its channel is gone; ending the game", game.log_prefix())
            if game.id in self.service.live:
                await self.service.endings.abandon(game, said_at(game, CHANNEL_GONE_REASON))
                await self.notice.tell(game, CHANNEL_GONE)
            await self.service.endings.shown(game)  # nowhere to show it, now or at a later start
            return
        if game.record.status == "lobby":
            message = lobby_message(game)
        else:
            message = await self._table(game, reading)
            if game.record.status in CLOSED:
                return  # closed while its picture was drawn
        try:
            await self._present(game, channel, message)
        except (discord.Forbidden, discord.NotFound) as error:
            await self._move_or_end(game, channel, message, error)
        except discord.HTTPException as error:
            if error.code != THREAD_ARCHIVED:
                raise
            await self._move_or_end(game, channel, message, error)
        await self.service.endings.shown(game)

    async def show_closed(self, game: LiveGame, reason: str) -> None:
        """Mark `game`'s table closed with `reason` (said in the game's language when it closed; one
        stored in English before languages is translated now), and take its ping and timer warning
        down."""
        await self.pings.clear(game.id)
        self.pings.clear_warning(game, force=True)
        channel = await self.table_channel(game)
        if archived(channel):
            # Marking it would need the thread unarchived by a message of its own; a click on the
            # old table there is answered that the game is over.
            log.info("%s its thread archived; the table is left as it was", game.log_prefix())
        elif channel is not None and game.record.table_message_id is not None:
            await self._mark_closed(game, channel, reason)
        await self.service.endings.shown(game)  # or nowhere to show it, now or at a later start

    async def _mark_closed(self, game: LiveGame, channel: discord.abc.Messageable, reason: str) -> None:
        with speaking(game.language):
            title = _("{game} — table #{id} closed", game=game.rules.title, id=game.id)
            embed = discord.Embed(title=title, description=_(reason))
        self.pictures.forget(game.id)
        message_id = game.record.table_message_id
        fields = {"content": None, "embed": embed, "view": None, "attachments": []}
        try:
            if not editable(message_id, self.service.clock.now()):
                # Too old to edit: the closed table goes up anew, and the old one with its buttons goes.
                await self.writer.counted(table_purpose(game), lambda: channel.send(embed=embed))
                await self.deletions.delete(channel.id, message_id)
            elif await self.writer.edit_table(game, message_id, lambda: fields, wait=False) is None:
                partial = channel.get_partial_message(message_id)
                await self.writer.counted(table_purpose(game), lambda: partial.edit(**fields))
        except discord.HTTPException:
            log.warning("%s could not mark the table closed", game.log_prefix())

    async def _table(self, game: LiveGame, reading: Callable[[int], None]) -> Message:
        """The table's text and its picture, of one state: the picture is waited for (drawn off the
        event loop, see `cogs/play/_pictures.py`), and a game that moved on meanwhile is read again."""
        while True:
            reading(game.id)
            wanted = self.pictures.wanted(game)
            message = table_message(game, self.timers.due(game.id), picture=wanted)
            picture = await self.pictures.picture(game, self.pictures.scene(game))
            if picture is not MOVED_ON:
                break
        if picture is None and wanted:
            # No picture after all (it could not be drawn, or the bot is stopping): the text as it
            # stands now, laid out for a table without one.
            message = table_message(game, self.timers.due(game.id), picture=False)
        message.picture = picture
        show_picture(message.embed, picture)
        return message

    async def _move_or_end(
        self, game: LiveGame, channel: discord.abc.Messageable, message: Message, error: discord.HTTPException
    ) -> None:
        """The table cannot be shown where it is: move it from its thread to the channel, or end the game."""
        parent = await self._parent_of(game, channel)
        if parent is not None:
            try:
                await self._present(game, parent, message)
            except (discord.Forbidden, discord.NotFound) as again:
                error = again
            except discord.HTTPException as again:
                if again.code != THREAD_ARCHIVED:
                    raise
                error = again
            else:
                log.warning(
                    "%s cannot post in thread %s (HTTP %s); the table moved to channel %s",
                    game.log_prefix(),
                    channel.id,
                    error.status,
                    parent.id,
                )
                return
        prefix = game.log_prefix()
        log.warning("%s cannot post the table anywhere (HTTP %s); ending the game", prefix, error.status)
        if game.id in self.service.live:
            await self.service.endings.abandon(game, said_at(game, CANNOT_POST))
            await self.notice.tell(game, CANNOT_POST_THERE)

    async def _parent_of(self, game: LiveGame, channel: discord.abc.Messageable):
        """The game's own channel when `channel` is its thread; None when it already is the channel."""
        if getattr(channel, "id", None) == game.record.channel_id:
            return None
        return await self._channel(game.record.channel_id)

    async def _present(self, game: LiveGame, channel: discord.abc.Messageable, message: Message) -> None:
        if archived(channel):
            # The new table unarchives the thread: only then may the old messages go.
            await self._put_table(game, channel, message)
            self.pings.clear_warning(game)
            if game.record.status == "active":
                await self.pings.ping(game, channel)
            else:
                await self.pings.clear(game.id)
            return
        self.pings.clear_warning(game)
        if game.record.status != "active":
            await self._put_table(game, channel, message)
            await self.pings.clear(game.id)
        elif self._reposting(game, channel):
            await self._put_table(game, channel, message)
            await self.pings.ping(game, channel)  # below the new table
        else:
            # An edit in place and the ping are separate messages: both go out at once, so a
            # refresh holds its slot for one round trip to Discord instead of two.
            await asyncio.gather(self._put_table(game, channel, message), self.pings.ping(game, channel))

    async def _put_table(self, game: LiveGame, channel: discord.abc.Messageable, message: Message) -> None:
        record = game.record
        old_id = record.table_message_id
        if not self._reposting(game, channel):

            def fields() -> dict[str, Any]:
                return {**message.kwargs(), **self.pictures.edit_kwargs(game, old_id, message.picture)}

            try:
                edited = await self.writer.edit_table(game, old_id, fields)
                if edited is None:
                    partial = channel.get_partial_message(old_id)
                    edited = await self.writer.counted(table_purpose(game), lambda: partial.edit(**fields()))
                self.pictures.shown(game, old_id, message.picture, edited.attachments)
                return
            except discord.NotFound:
                log.warning("%s table message %s was deleted; posting it again", game.log_prefix(), old_id)
                old_id = None
            except discord.Forbidden:
                raise
            except discord.HTTPException as error:
                log.info("%s table edit refused (%s); posting a fresh table", game.log_prefix(), error.status)
        sent = await self.writer.counted(
            table_purpose(game),
            lambda: channel.send(**message.kwargs(), **self.pictures.send_kwargs(message.picture)),
        )
        self.pictures.shown(game, sent.id, message.picture, sent.attachments)
        self.messages_since_table[channel.id] = 0
        await self.service.games.table_posted(game, channel_id=channel.id, message_id=sent.id)
        if old_id is not None:
            await self.deletions.delete(record.table_channel_id or channel.id, old_id)

    def _reposting(self, game: LiveGame, channel: discord.abc.Messageable) -> bool:
        """Whether the table goes up as a new message: there is none yet, it is old or buried, or its
        thread archived."""
        channel_id = channel.id
        if archived(channel):
            return True
        message_id = game.record.table_message_id
        if message_id is None or game.record.table_channel_id not in (None, channel_id):
            return True
        posted = ((message_id >> 22) + discord.utils.DISCORD_EPOCH) / 1000  # `snowflake_time`, as seconds
        age = self.service.clock.now() - posted
        return age > REPOST_AFTER_SECONDS or self.messages_since_table[channel_id] > REPOST_AFTER_MESSAGES

    async def table_channel(self, game: LiveGame):
        """Where the table is; the game's channel once its thread is gone; None if that is gone too."""
        channel_id = game.record.table_channel_id or game.record.thread_id or game.record.channel_id
        channel = await self._channel(channel_id)
        if archived(channel) and getattr(channel, "locked", False):
            prefix = game.log_prefix()
            log.warning("%s its thread %s is locked; the table moves to its channel", prefix, channel_id)
            channel = None
        if channel is None and channel_id != game.record.channel_id:
            channel = await self._channel(game.record.channel_id)
            if channel is not None:
                log.warning(
                    "%s its thread %s is gone; the table moves to channel %s",
                    game.log_prefix(),
                    channel_id,
                    channel.id,
                )
        return channel

    async def _channel(self, channel_id: int):
        channel = self.bot.get_channel(channel_id)
        if channel is not None:
            return channel
        try:
            return await self.bot.fetch_channel(channel_id)
        except (discord.NotFound, discord.Forbidden):
            return None
