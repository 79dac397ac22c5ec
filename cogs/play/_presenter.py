"""Keeps each game's public table message and turn pings in step with the game.

Updates are coalesced per game and made by background workers, so answering a
click never waits for the table edit, and a burst of moves costs one edit. A
few workers show tables at once: when many games move together, the others wait
their turn instead of crowding the event loop, so clicks — which Discord wants
answered within 3 s — are not queued behind table edits.

How many is a trade between the clicks' answers and the tables, measured with
`python -m bench.bot_load` (docs/benchmarks.md §8): with 100 games moving as fast
as they can, 4 workers answered clicks at p99 31 ms and showed tables 183 ms after
the click (p50), 20 workers 70–82 ms and 95–102 ms, 32 workers 105 ms and 82 ms.
So `REFRESH_SLOTS` workers, or one for every `TABLES_A_SLOT` tables waiting when
that is more, up to `BACKLOG_SLOTS`: at 500 games, 40 workers showed tables within
0.9 s (p99) where 20 took 1.07 s, with clicks answered at p99 149 ms. After a
restart, when nobody waits for a click's answer yet, `BACKLOG_SLOTS` at once.

Clicks come first all the same: while a click has waited more than
`CLICKS_FIRST_AFTER` for its answer, no worker starts on another table. A bot
with more tables than it can keep up with (5,000 open-loop tables on one process)
answered clicks at p99 1.6 s with 40 workers and no such rule, near Discord's 3 s;
0.44 s with it, its tables as far behind as before. Waiting 0.25 s instead held the
tables back at 500 saturated games too.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

import discord
from discord.http import handle_message_parameters

from bot.live import LiveGame
from bot.sessions import GameService
from bot.storage import StoreUnavailable
from bot.timers import Timers
from cogs.components import Controls
from cogs.messages import Message, lobby_message, table_message
from cogs.play._pictures import TablePictures, show_picture
from cogs.play._tokens import InteractionBook
from cogs.play._writer import Purpose, Writer, table_purpose
from cogs.seat_controls import hand_button
from engine import GAMES, Event

log = logging.getLogger("catnip.table")

REPOST_AFTER_SECONDS = 45 * 60
REPOST_AFTER_MESSAGES = 15
REFRESH_SLOTS = 20
TABLES_A_SLOT = 10
BACKLOG_SLOTS = 40
CLICKS_FIRST_AFTER = 0.5
CLICK_DEADLINE = 3.0
"""Discord's time to answer a click: a click waiting longer is past saving and holds nothing back."""
CLOSED = ("cancelled", "abandoned")
CANNOT_POST = "I can no longer post in this channel, so the game was ended."
PING_NONCES = itertools.count(secrets.randbits(56))
"""Each ping's nonce, counted on from a random start: discord.py would draw every one from the
system's random source, a system call a move."""


class TablePresenter:
    """Edits the table after each change, reposts it when old or buried, pings whoever must act."""

    def __init__(self, bot: discord.Client, service: GameService, timers: Timers) -> None:
        self.bot = bot
        self.service = service
        self.timers = timers
        self._waiting: dict[int, LiveGame] = {}
        self._showing: set[int] = set()
        self._workers: set[asyncio.Task] = set()
        self._clicks: dict[int, float] = {}  # the clicks being answered, oldest first: when each came
        self._click_ids = itertools.count()
        self._pings: dict[int, tuple[int, int, frozenset[int]]] = {}
        self._noted: dict[int, tuple[int, int]] = {}  # the pings as last noted in the store
        self._warnings: dict[int, tuple[int, int, int]] = {}  # game -> (channel, message, version warned at)
        self._deletions: set[asyncio.Task] = set()
        self._deleted_by_us: set[int] = set()  # messages this presenter deletes, until Discord says so
        self.messages_since_table: Counter[int] = Counter()
        self.pictures = TablePictures(
            getattr(service, "pictures", True), follow_up=self.refresh, clock=service.clock.now
        )
        self.tokens = InteractionBook(service.clock.now)
        self.writer = Writer(self.tokens)

    # -------------------------------------------------------------- listening to the game service

    async def lobby_changed(self, game: LiveGame) -> None:
        self.refresh(game)

    async def game_changed(self, game: LiveGame, events: Sequence[Event]) -> None:
        self.refresh(game)

    async def games_resumed(self, games: Sequence[LiveGame]) -> None:
        """Show the tables again, and delete the turn pings the process that ran them last left up."""
        self.refresh_resumed(games)
        try:
            left = await self.service.store.take_pings(game.id for game in games)
        except StoreUnavailable:
            log.warning("could not read the turn pings left by the last process; they stay up")
            return
        except Exception:  # never in the way of the games coming back (their computers move next)
            log.exception("could not read the turn pings left by the last process; they stay up")
            return
        if left:
            self._in_background(self._delete_in_turn(list(left.values())))

    async def _delete_in_turn(self, messages: list[tuple[int, int]]) -> None:
        """Delete (channel, message) pairs one after the other: after a restart with many games, the
        old pings wait behind the tables being shown again instead of sharing Discord's rate limit
        with them all at once."""
        for channel_id, message_id in messages:
            await self._delete(channel_id, message_id)

    async def note_pings(self) -> None:
        """Note the standing turn pings in the store, so the next process to run their games deletes
        them instead of leaving them beside its own: every minute and at a clean stop (a ping posted
        since the last note before a kill stays up). Only what changed since the last note is written."""
        standing = {game_id: (channel, message) for game_id, (channel, message, _) in self._pings.items()}
        changed = {game_id: ping for game_id, ping in standing.items() if self._noted.get(game_id) != ping}
        try:
            await self.service.store.save_pings(changed, cleared=self._noted.keys() - standing.keys())
        except StoreUnavailable:
            log.warning("could not note the standing turn pings; noted at the next try")
        except Exception:  # never in the way of a clean stop
            log.exception("could not note the standing turn pings; noted at the next try")
        else:
            self._noted = standing

    async def game_closed(self, game: LiveGame, reason: str) -> None:
        await self._clear_ping(game.id)
        self._clear_warning(game, force=True)
        channel = await self._table_channel(game)
        if channel is not None and game.record.table_message_id is not None:
            await self._mark_closed(game, channel, reason)
        await self.service.ending_shown(game)  # or nowhere to show it, now or at a later start
        self.tokens.forget(game.id)

    async def _mark_closed(self, game: LiveGame, channel: discord.abc.Messageable, reason: str) -> None:
        embed = discord.Embed(title=f"{game.rules.title} — table #{game.id} closed", description=reason)
        self.pictures.forget(game.id)
        message_id = game.record.table_message_id
        fields = {"content": None, "embed": embed, "view": None, "attachments": []}
        try:
            if not await self.writer.edit_table(game, message_id, lambda: fields, wait=False):
                partial = channel.get_partial_message(message_id)
                await self.writer.counted(table_purpose(game), lambda: partial.edit(**fields))
        except discord.HTTPException:
            log.warning("%s could not mark the table closed", game.log_prefix())

    async def timer_warning(self, game: LiveGame, seats: list[int], seconds_left: int) -> None:
        channel = await self._table_channel(game)
        users = [game.record.seats[s].user_id for s in seats if game.record.seats[s].user_id]
        if channel is None or not users:
            return
        mentions = " ".join(f"<@{u}>" for u in users)
        fields = {
            "content": f"⏰ {mentions} — {seconds_left} s left to decide in {game.rules.title} #{game.id}; "
            "after that the computer chooses for you.",
            "allowed_mentions": discord.AllowedMentions(users=[discord.Object(u) for u in users]),
        }
        try:
            sent_id = await self.writer.post(game, channel.id, wait=False, **fields)
            if sent_id is None:
                sent_id = (await self.writer.counted(Purpose.PING, lambda: channel.send(**fields))).id
        except (discord.Forbidden, discord.NotFound) as error:
            log.warning("%s could not post the timer warning (HTTP %s)", game.log_prefix(), error.status)
            return
        self._clear_warning(game, force=True)  # an earlier one still up
        self._warnings[game.id] = (channel.id, sent_id, game.record.version)

    def _clear_warning(self, game: LiveGame, force: bool = False) -> None:
        """Delete the game's timer warning once its decision is made (by the member or, when time ran
        out, by the computer): the game has moved on from the version it was posted at (or `force`).
        Deleted here rather than by a timer, a warning leaves nothing pending when the bot stops."""
        warning = self._warnings.get(game.id)
        if warning is None or (not force and warning[2] == game.record.version):
            return
        del self._warnings[game.id]
        self._delete_soon(warning[0], warning[1])

    def _delete_soon(self, channel_id: int, message_id: int) -> None:
        self._in_background(self._delete(channel_id, message_id))

    def _in_background(self, deleting: Coroutine[Any, Any, None]) -> None:
        """Run a deletion in a task of its own, which `settle` waits for."""
        task = asyncio.create_task(deleting)
        self._deletions.add(task)
        task.add_done_callback(self._deletions.discard)

    def deleted_by_itself(self, message_id: int) -> bool:
        """Whether Discord's word of a deleted message is of a ping or table this presenter deleted
        (then it is forgotten). The bot asks before dispatching the event: one a move, recognised
        without walking every live game in `surface_deleted`."""
        if message_id in self._deleted_by_us:
            self._deleted_by_us.discard(message_id)
            return True
        return False

    def surface_deleted(self, *, message_id: int | None = None, channel_id: int | None = None) -> None:
        """Someone deleted a message or a thread: a live game whose table it held shows its table again."""
        for game in list(self.service.live.values()):
            record = game.record
            if (message_id is not None and message_id == record.table_message_id) or (
                channel_id is not None and channel_id in (record.thread_id, record.table_channel_id)
            ):
                self.refresh(game)

    # -------------------------------------------------------------- refreshing

    def refresh(self, game: LiveGame) -> None:
        """Schedule a table update; several changes in a row become one edit."""
        self.pictures.prepare(game)
        self._waiting[game.id] = game
        self._start_workers(min(BACKLOG_SLOTS, max(REFRESH_SLOTS, len(self._waiting) // TABLES_A_SLOT)))

    def refresh_resumed(self, games: Sequence[LiveGame]) -> None:
        """Show every table again after a restart, with more workers while they catch up.

        Nobody is waiting for a click's answer yet, so showing the tables sooner wins.
        """
        self._waiting.update((game.id, game) for game in games)
        self._start_workers(BACKLOG_SLOTS)

    def click_arrived(self) -> int:
        """Note a click to answer; the token for `click_answered`."""
        token = next(self._click_ids)
        self._clicks[token] = time.monotonic()
        return token

    def click_answered(self, token: int) -> None:
        self._clicks.pop(token, None)

    async def _clicks_first(self) -> None:
        """Wait while a click has waited more than `CLICKS_FIRST_AFTER` for its answer."""
        while self._clicks:
            token, since = next(iter(self._clicks.items()))
            waited = time.monotonic() - since
            if waited > CLICK_DEADLINE:
                del self._clicks[token]
            elif waited <= CLICKS_FIRST_AFTER:
                return
            else:
                await asyncio.sleep(CLICKS_FIRST_AFTER / 5)

    def _start_workers(self, limit: int) -> None:
        for _ in range(min(limit - len(self._workers), len(self._waiting))):
            worker = asyncio.create_task(self._work())
            self._workers.add(worker)
            worker.add_done_callback(self._workers.discard)

    def busy(self) -> bool:
        """Whether a table update, a picture or a ping deletion is under way."""
        return bool(self._pending())

    def _pending(self, drawings: bool = True) -> list[asyncio.Future]:
        pictures = self.pictures.drawings() if drawings else []
        return [t for t in [*self._workers, *self._deletions, *pictures] if not t.done()]

    async def settle(self, drawings: bool = True) -> None:
        """Wait until every scheduled table update, picture and ping deletion is done (tests and
        shutdown). Without `drawings`, pictures still waiting for the drawing budget are not waited
        for: a thousand new tables take minutes to draw at the budget's pace."""
        while pending := self._pending(drawings):
            await asyncio.gather(*pending, return_exceptions=True)

    async def _work(self) -> None:
        """Show waiting tables, oldest first, until none is left that another worker isn't showing."""
        while True:
            await self._clicks_first()
            game_id = next((g for g in self._waiting if g not in self._showing), None)
            if game_id is None:
                return
            game = self._waiting.pop(game_id)
            self._showing.add(game_id)
            try:
                await self._show(game)
            except Exception:
                log.exception("%s table update failed", game.log_prefix())
            finally:
                self._showing.discard(game_id)

    async def _show(self, game: LiveGame) -> None:
        if game.record.status in CLOSED:
            return  # closed meanwhile: `game_closed` shows that
        channel = await self._table_channel(game)
        if channel is None:
            log.warning("%s its channel is gone; ending the game", game.log_prefix())
            if game.id in self.service.live:
                await self.service.abandon(game, "The game's channel is gone.")
            await self.service.ending_shown(game)  # nowhere to show it, now or at a later start
            return
        if game.record.status == "lobby":
            message = lobby_message(game)
        else:
            message = table_message(game, self.timers.due(game.id))
            await self._add_picture(game, message)
        try:
            await self._present(game, channel, message)
        except (discord.Forbidden, discord.NotFound) as error:
            await self._move_or_end(game, channel, message, error)
        await self.service.ending_shown(game)

    async def _add_picture(self, game: LiveGame, message: Message) -> None:
        """Attach the table's picture, drawn off the event loop (see `cogs/play/_pictures.py`)."""
        message.picture = await self.pictures.picture(game, self.pictures.scene(game))
        show_picture(message.embed, message.picture)

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
            await self.service.abandon(game, CANNOT_POST)

    async def _parent_of(self, game: LiveGame, channel: discord.abc.Messageable):
        """The game's own channel when `channel` is its thread; None when it already is the channel."""
        if getattr(channel, "id", None) == game.record.channel_id:
            return None
        return await self._channel(game.record.channel_id)

    async def _present(self, game: LiveGame, channel: discord.abc.Messageable, message: Message) -> None:
        self._clear_warning(game)
        if game.record.status != "active":
            await self._put_table(game, channel, message)
            await self._clear_ping(game.id)
        elif self._reposting(game, channel.id):
            await self._put_table(game, channel, message)
            await self._ping(game, channel)  # below the new table
        else:
            # An edit in place and the ping are separate messages: both go out at once, so a
            # refresh holds its slot for one round trip to Discord instead of two.
            await asyncio.gather(self._put_table(game, channel, message), self._ping(game, channel))

    async def _put_table(self, game: LiveGame, channel: discord.abc.Messageable, message: Message) -> None:
        record = game.record
        old_id = record.table_message_id
        if not self._reposting(game, channel.id):

            def fields() -> dict:
                return {**message.kwargs(), **self.pictures.edit_kwargs(game, old_id, message.picture)}

            try:
                if not await self.writer.edit_table(game, old_id, fields):
                    await self._edit(table_purpose(game), channel.id, old_id, **fields())
                self.pictures.shown(game, old_id, message.picture)
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
        self.pictures.shown(game, sent.id, message.picture)
        self.messages_since_table[channel.id] = 0
        await self.service.store.set_table_message(
            record.id, channel_id=channel.id, message_id=sent.id, now=self.service.clock.now()
        )
        game.record = game.record.model_copy(
            update={"table_message_id": sent.id, "table_channel_id": channel.id}
        )
        if old_id is not None:
            await self._delete(record.table_channel_id or channel.id, old_id)

    def _reposting(self, game: LiveGame, channel_id: int) -> bool:
        """Whether the table goes up as a new message: there is none yet, or it is old or buried."""
        message_id = game.record.table_message_id
        if message_id is None or game.record.table_channel_id not in (None, channel_id):
            return True
        age = self.service.clock.now() - discord.utils.snowflake_time(message_id).timestamp()
        return age > REPOST_AFTER_SECONDS or self.messages_since_table[channel_id] > REPOST_AFTER_MESSAGES

    async def _ping(self, game: LiveGame, channel: discord.abc.Messageable) -> None:
        """Mention whoever must act now; the previous ping is deleted once the new one is up."""
        # A member a computer plays for (G-X8) is not pinged: the computer moves for them.
        seats = [game.record.seats[s] for s in game.to_act()]
        users = frozenset(seat.user_id for seat in seats if seat.user_id is not None and not seat.computer)
        previous = self._pings.get(game.id)
        if previous is not None and previous[2] == users:
            return
        if not users:
            await self._clear_ping(game.id)
            return
        mentions = " ".join(f"<@{u}>" for u in sorted(users))
        fields = {
            "content": f"🔔 {mentions} — your move in {game.rules.title} #{game.id}. "
            f"Use the buttons on the table or **{GAMES[game.record.game].texts.hand_label}**.",
            "allowed_mentions": discord.AllowedMentions(users=[discord.Object(u) for u in users]),
            "view": Controls([hand_button(game)]),
        }
        narrower = previous is not None and users < previous[2] and previous[0] == channel.id
        if narrower and await self._narrow_ping(game, previous[1], users, fields):
            return
        sent_id = await self.writer.post(game, channel.id, **fields)
        if sent_id is None:
            sent_id = await self._send(channel.id, **fields, nonce=next(PING_NONCES))
        self._pings[game.id] = (channel.id, sent_id, users)
        if previous is not None:
            # Off the refresh path: the slot is free for the next table while the old ping goes.
            self._delete_soon(previous[0], previous[1])

    async def _narrow_ping(
        self, game: LiveGame, message_id: int, users: frozenset[int], fields: dict
    ) -> bool:
        """Some of those the standing ping named have acted: it names only those left, edited in place
        (nobody new to tell, so no new message and no deletion). False when the ping is gone."""
        try:
            if not await self.writer.edit_posted(game, message_id, fields):
                await self._edit(Purpose.PING, self._pings[game.id][0], message_id, **fields)
        except discord.NotFound:
            return False
        self._pings[game.id] = (self._pings[game.id][0], message_id, users)
        return True

    async def _edit(self, purpose: Purpose, channel_id: int, message_id: int, **fields: Any) -> None:
        """`PartialMessage.edit`, without reading Discord's answer into a `Message` nobody uses: with its
        embed and buttons, that was a tenth of discord.py's work for each table edit."""
        edit = self.bot.http.edit_message
        await self.writer.counted(purpose, lambda: self._request(edit, channel_id, message_id, **fields))

    async def _send(self, channel_id: int, **fields: Any) -> int:
        """`Messageable.send` for a message of no files, reading only the new message's id from Discord's
        answer (see `_edit`)."""
        send = self.bot.http.send_message
        sent = await self.writer.counted(Purpose.PING, lambda: self._request(send, channel_id, **fields))
        return int(sent["id"])

    async def _request(self, call: Callable[..., Awaitable[Any]], *ids: int, **fields: Any) -> Any:
        """`call`, a method of discord.py's HTTP client, with `fields` as discord.py sends a message."""
        mentions = self.bot.allowed_mentions
        with handle_message_parameters(**fields, previous_allowed_mentions=mentions) as params:
            return await call(*ids, params=params)

    async def _clear_ping(self, game_id: int) -> None:
        previous = self._pings.pop(game_id, None)
        if previous is not None:
            await self._delete(previous[0], previous[1])

    async def _delete(self, channel_id: int, message_id: int) -> None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            return
        self._deleted_by_us.add(message_id)
        try:
            if not await self.writer.delete(message_id):
                await self.writer.counted(Purpose.CLEAN_UP, channel.get_partial_message(message_id).delete)
        except discord.HTTPException:
            self._deleted_by_us.discard(message_id)  # no deletion event will come for it

    async def _table_channel(self, game: LiveGame):
        """Where the table is; the game's channel once its thread is gone; None if that is gone too."""
        channel_id = game.record.table_channel_id or game.record.thread_id or game.record.channel_id
        channel = await self._channel(channel_id)
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
