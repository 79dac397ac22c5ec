"""Turn pings and timer warnings: the short messages that tell members to act, and their deletion.

A table's ping mentions whoever must act now and is replaced (the old one deleted) when that changes,
or edited to name only those left when some of them acted; a timer warning is deleted once its
decision is made. Each goes as a followup of a recent click of the game where one fits, and is
deleted through the same click's token (`Writer`, cogs/play/_writer.py). Which pings stand is noted
through the game service every minute and at a clean stop, so the next process to run a game deletes
them.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
from collections.abc import Coroutine, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_budget import Priority
from bot.live import LiveGame
from bot.sessions import GameService
from bot.storage import StoreUnavailable
from cogs.components import Controls
from cogs.play._writer import Writer, editable
from cogs.seat_controls import hand_button
from lang import _, speaking

if TYPE_CHECKING:
    from bot.metrics import Metrics

log = logging.getLogger("catnip.table")

PING_NONCES = itertools.count(secrets.randbits(56))
"""Each ping's nonce, counted on from a random start: discord.py would draw every one from the
system's random source, a system call a move."""


GONE_KEPT = 1000
"""How many of its latest deletions `OwnDeletions.gone` remembers: far more than the clicks in flight."""


class OwnDeletions:
    """Deletes Catnip's own messages (old pings, warnings and tables), and recognises Discord's word of
    each deletion as its own."""

    def __init__(self, bot: discord.Client, writer: Writer) -> None:
        self.bot = bot
        self.writer = writer
        self._tasks: set[asyncio.Task] = set()
        self._deleted: set[int] = set()  # messages deleted here, until Discord says so
        self._gone: dict[int, None] = {}  # the latest messages deleted here, oldest first

    async def delete(self, channel_id: int, message_id: int) -> None:
        channel = self.bot.get_channel(channel_id)
        if channel is None or getattr(channel, "archived", False):
            return  # gone, or in an archived thread, where Discord refuses deletions (50083)
        self._deleted.add(message_id)
        self._gone[message_id] = None
        if len(self._gone) > GONE_KEPT:
            del self._gone[next(iter(self._gone))]
        try:
            if not await self.writer.delete(message_id):
                await self.writer.counted(Priority.CLEAN_UP, channel.get_partial_message(message_id).delete)
        except discord.NotFound:
            self._deleted.discard(message_id)  # gone already: no deletion event will come for it
        except discord.HTTPException:
            self._deleted.discard(message_id)
            self._gone.pop(message_id, None)

    def delete_soon(self, channel_id: int, message_id: int) -> None:
        self.in_background(self.delete(channel_id, message_id))

    def in_background(self, deleting: Coroutine[Any, Any, None]) -> None:
        """Run a deletion in a task of its own, which `pending` lists until it is done."""
        task = asyncio.create_task(deleting)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def delete_in_turn(self, messages: Sequence[tuple[int, int]]) -> None:
        """Delete (channel, message) pairs one after the other: after a restart with many games, the
        old pings wait behind the tables being shown again instead of sharing Discord's rate limit
        with them all at once."""
        for channel_id, message_id in messages:
            await self.delete(channel_id, message_id)

    def deleted_by_itself(self, message_id: int) -> bool:
        """Whether Discord's word of a deleted message is of one deleted here (then it is forgotten)."""
        if message_id in self._deleted:
            self._deleted.discard(message_id)
            return True
        return False

    def gone(self, message_id: int) -> bool:
        """Whether the message is one of the latest deleted here, or being deleted: a click on an old
        table posted again further down cannot be answered as an update of it."""
        return message_id in self._gone

    def pending(self) -> list[asyncio.Task]:
        return [task for task in self._tasks if not task.done()]


class TurnPings:
    """Pings whoever must act at each table, warns of timers running out, and cleans both up."""

    def __init__(
        self,
        bot: discord.Client,
        service: GameService,
        writer: Writer,
        deletions: OwnDeletions,
        *,
        metrics: Metrics | None = None,
    ) -> None:
        self.bot = bot
        self.service = service
        self.writer = writer
        self.deletions = deletions
        self.metrics = metrics
        """Where each ping and warning posted is counted (bot/metrics.py), if anywhere."""
        self._pings: dict[int, tuple[int, int, frozenset[int]]] = {}  # game -> (channel, message, users)
        self._noted: dict[int, tuple[int, int]] = {}  # the pings as last noted
        self._warnings: dict[int, tuple[int, int, int]] = {}  # game -> (channel, message, version warned at)

    async def ping(self, game: LiveGame, channel: discord.abc.Messageable) -> None:
        """Mention whoever must act now; the previous ping is deleted once the new one is up."""
        # A member a computer plays for (G-X8) is not pinged: the computer moves for them.
        seats = [game.record.seats[s] for s in game.to_act()]
        users = frozenset(seat.user_id for seat in seats if seat.user_id is not None and not seat.computer)
        previous = self._pings.get(game.id)
        if previous is not None and previous[2] == users:
            return
        if not users:
            await self.clear(game.id)
            return
        mentions = " ".join(f"<@{u}>" for u in sorted(users))
        with speaking(game.language):  # a ping is public: it speaks its table's language
            content = _(
                "🔔 {mentions} — your move in {game} #{id}. Use the buttons on the table or **{hand}**.",
                mentions=mentions,
                game=game.rules.title,
                id=game.id,
                hand=_(game.game.texts.hand_label),
            )
        fields = {
            "content": content,
            "allowed_mentions": discord.AllowedMentions(users=[discord.Object(u) for u in users]),
            "view": Controls([hand_button(game)]),
        }
        narrower = previous is not None and users < previous[2] and previous[0] == channel.id
        if narrower and await self._narrow(game, channel, previous[1], users, fields):
            return
        sent_id = await self.writer.post(game, channel.id, **fields)
        if sent_id is None:
            nonce = next(PING_NONCES)
            sent = await self.writer.counted(Priority.PING, lambda: channel.send(**fields, nonce=nonce))
            sent_id = sent.id
        if self.metrics is not None:
            self.metrics.turn_pings.inc()
        self._pings[game.id] = (channel.id, sent_id, users)
        if previous is not None:
            # Off the refresh path: the slot is free for the next table while the old ping goes.
            self.deletions.delete_soon(previous[0], previous[1])

    async def _narrow(
        self,
        game: LiveGame,
        channel: discord.abc.Messageable,
        message_id: int,
        users: frozenset[int],
        fields: dict[str, Any],
    ) -> bool:
        """Some of those the standing ping named have acted: it names only those left, edited in place
        (nobody new to tell, so no new message and no deletion). False when the ping is gone, or too
        old to edit."""
        if not editable(message_id, self.service.clock.now()):
            return False
        try:
            if not await self.writer.edit_posted(game, message_id, fields):
                partial = channel.get_partial_message(message_id)
                await self.writer.counted(Priority.PING, lambda: partial.edit(**fields))
        except discord.NotFound:
            return False
        self._pings[game.id] = (channel.id, message_id, users)
        return True

    async def clear(self, game_id: int) -> None:
        previous = self._pings.pop(game_id, None)
        if previous is not None:
            await self.deletions.delete(previous[0], previous[1])

    async def warn(
        self, game: LiveGame, channel: discord.abc.Messageable | None, seats: list[int], seconds_left: int
    ) -> None:
        """Tell the members of `seats` in `channel` (the table's) how long they have left to decide."""
        users = [game.record.seats[s].user_id for s in seats if game.record.seats[s].user_id]
        if channel is None or not users:
            return
        mentions = " ".join(f"<@{u}>" for u in users)
        with speaking(game.language):
            content = _(
                "⏰ {mentions} — {seconds} s left to decide in {game} #{id}; after that the computer "
                "chooses for you.",
                mentions=mentions,
                seconds=seconds_left,
                game=game.rules.title,
                id=game.id,
            )
        fields = {
            "content": content,
            "allowed_mentions": discord.AllowedMentions(users=[discord.Object(u) for u in users]),
        }
        try:
            sent_id = await self.writer.post(game, channel.id, wait=False, **fields)
            if sent_id is None:
                sent_id = (await self.writer.counted(Priority.PING, lambda: channel.send(**fields))).id
        except (discord.Forbidden, discord.NotFound) as error:
            log.warning("%s could not post the timer warning (HTTP %s)", game.log_prefix(), error.status)
            return
        if self.metrics is not None:
            self.metrics.timer_warnings.inc()
        self.clear_warning(game, force=True)  # an earlier one still up
        self._warnings[game.id] = (channel.id, sent_id, game.record.version)

    def clear_warning(self, game: LiveGame, force: bool = False) -> None:
        """Delete the game's timer warning once its decision is made (by the member or, when time ran
        out, by the computer): the game has moved on from the version it was posted at (or `force`).
        Deleted here rather than by a timer, a warning leaves nothing pending when the bot stops."""
        warning = self._warnings.get(game.id)
        if warning is None or (not force and warning[2] == game.record.version):
            return
        del self._warnings[game.id]
        self.deletions.delete_soon(warning[0], warning[1])

    async def delete_left(self, games: Sequence[LiveGame]) -> None:
        """Delete the turn pings the process that ran `games` last left up."""
        try:
            left = await self.service.games.take_pings(games)
        except StoreUnavailable:
            log.warning("could not read the turn pings left by the last process; they stay up")
            return
        except Exception:  # never in the way of the games coming back (their computers move next)
            log.exception("could not read the turn pings left by the last process; they stay up")
            return
        if left:
            self.deletions.in_background(self.deletions.delete_in_turn(list(left.values())))

    async def note(self) -> None:
        """Note the standing turn pings, so the next process to run their games deletes them instead
        of leaving them beside its own: every minute and at a clean stop (a ping posted since the last
        note before a kill stays up). Only what changed since the last note is written."""
        standing = {game_id: (channel, message) for game_id, (channel, message, _) in self._pings.items()}
        changed = {game_id: ping for game_id, ping in standing.items() if self._noted.get(game_id) != ping}
        try:
            await self.service.games.note_pings(changed, cleared=self._noted.keys() - standing.keys())
        except StoreUnavailable:
            log.warning("could not note the standing turn pings; noted at the next try")
        except Exception:  # never in the way of a clean stop
            log.exception("could not note the standing turn pings; noted at the next try")
        else:
            self._noted = standing
