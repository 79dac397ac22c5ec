"""`create_bot`: the one factory that builds a fully configured, not yet started Catnip bot."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from pathlib import Path

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.absence import Absence
from bot.clock import Clock, SystemClock
from bot.cog_extensions import cog_extensions
from bot.config import Settings
from bot.discord_budget import GlobalBudget, share, trace_config
from bot.handover import Handover
from bot.health import HealthServer
from bot.logs import name_shards
from bot.memory import RELEASE_EVERY_SECONDS, can_release, release_free_memory
from bot.metrics import Metrics
from bot.outages import OutageLog, is_discord_outage, wait_until_up
from bot.overload import CLICK_DEADLINE, ClicksInFlight
from bot.presenter import Presenter
from bot.runtime import tune_runtime
from bot.sessions import GameService
from bot.shard_owners import ShardOwner, ShardsTaken
from bot.sharding import IDENTIFY_WINDOW, IdentifyGate, ShardPlan
from bot.storage import GameStore, StoreUnavailable, store_for_settings
from bot.timers import Timers, TimerSettings
from bot.translations import CatalogTranslator
from discord_door import (
    bot_gateway,
    handling_events,
    heard,
    no_voice_warnings,
    parse_only_when,
    recommended_shard_count,
    shards_launched,
)
from lang import language_of, speak

log = logging.getLogger("catnip")


class CatnipTree(app_commands.CommandTree):
    """The slash commands, each run by the one process of a fleet in charge of it (bot/handover.py)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """A command answers its member in their own language (a public table: the game's own)."""
        speak(language_of(interaction.locale))
        return self.client.in_charge(interaction)


class CatnipBot(commands.AutoShardedBot):
    """The bot: a game service over the store, timers, and the Discord front in cogs/.

    Its gateway runs the shards `settings.shard_ids` of `settings.shard_count` (unset: all of
    Discord's recommended count), and it runs the games of those shards' guilds only.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        store: GameStore | None = None,
        clock: Clock | None = None,
        sync_commands: bool = True,
        seed_source=None,
        identify_window: float = IDENTIFY_WINDOW,
        identify_locks: Path | None = None,
        runtime_tuning: bool = False,
        **client_options,
    ) -> None:
        """`runtime_tuning`: tune this process's interpreter once the bot is ready (`tune_runtime`), as
        `python -m bot` asks (`bot.__main__.start_bot`); not for a process that runs other things too,
        such as a test's, whose start-up objects would be frozen out of garbage collection for good."""
        no_voice_warnings()  # Catnip has no voice: nothing to install
        intents = discord.Intents(guilds=True, guild_messages=True)
        # No message cache: Catnip edits its messages by id and reads components from the interaction,
        # and with thousands of tables the cache only costs memory and a scan per MESSAGE_UPDATE.
        client_options.setdefault("max_messages", None)
        client_options.setdefault("shard_count", settings.shard_count)
        self.metrics = Metrics()
        self.overload = ClicksInFlight(self.metrics.clicks_in_flight)
        if settings.shard_ids is not None:
            client_options.setdefault("shard_ids", list(settings.shard_ids))
        self.budget = GlobalBudget(
            share(settings.discord_global_rate_limit, settings.shard_ids, settings.shard_count)
        )
        """This process's share of the token's global rate limit, kept before Discord must answer 429."""
        trace = trace_config(self.budget, lambda: self.application_id)
        if settings.metrics_port is not None:  # Discord's requests are counted only when served
            self.metrics.count_requests(trace, lambda: self.application_id)
        client_options.setdefault("http_trace", trace)
        self.request_trace: aiohttp.TraceConfig | None = client_options["http_trace"]
        """The trace every request to Discord goes through (the budget's), the start-up probe's too."""
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=CatnipTree,
            **client_options,
        )
        self.settings = settings
        self.health: HealthServer | None = None
        self.handover: Handover | None = None
        self.shard_owner: ShardOwner | None = None
        """Holds this process's shards in the database while it runs (bot/shard_owners.py)."""
        self.stopped_for: ShardsTaken | None = None
        """Why the bot must stop, once another process has taken its shards over (`must_stop` is set)."""
        self.must_stop = asyncio.Event()
        """In a fleet: whether this process runs the games or stands by for them (bot/handover.py)."""
        self._renewing = asyncio.Lock()  # one claim of the leases at a time
        self.store: GameStore = store or store_for_settings(settings)
        self.clock: Clock = clock or SystemClock()
        self.discord_outage = OutageLog("Discord", log, now=self.clock.now)
        if self.store.database.outage is not None:
            self.store.database.outage.now = self.clock.now
        self.service = GameService(
            self.store, self.clock, computer_delay=settings.computer_delay_seconds, pictures=settings.pictures
        )
        self.timers = Timers(
            self.service,
            TimerSettings(
                turn_seconds=settings.turn_timer_seconds,
                secret_seconds=settings.secret_timer_seconds,
                warning_seconds=settings.timer_warning_seconds,
                abandon_after_seconds=settings.abandon_after_hours * 3600,
            ),
        )
        self.service.moves.metrics = self.metrics
        self.service.keep(self.timers)
        self.absence = Absence(
            self.service,
            after_timeouts=settings.absent_after_timeouts,
            grace_seconds=settings.abandon_taken_over_minutes * 60,
        )
        self.service.keep(self.absence)
        self.sync_commands = sync_commands
        self._seed_source = seed_source or (lambda: secrets.randbits(63))
        self._background: list[asyncio.Task] = []
        self._ticking = False  # the timers' tick is under way (it may warn, decide and close games)
        self._resuming: asyncio.Task | None = None  # showing the resumed games again, once ready
        self.identify_window = identify_window
        self.identify_locks = identify_locks  # shared with the other processes of this machine
        self.identify_gate: IdentifyGate | None = None
        # Known once the shard count is: in `setup_hook`, before any game is resumed.
        self.shard_plan: ShardPlan | None = None
        self.runtime_tuning = runtime_tuning
        self.runtime_tuned = False
        """Whether this process's runtime is tuned: with `runtime_tuning`, just after the bot is ready."""
        self._parse_only_what_is_heard()

    def new_seed(self) -> int:
        return self._seed_source()

    def _parse_only_what_is_heard(self) -> None:
        """Skip reading two gateway events a move into discord.py's objects when nothing would hear
        them: an edit of a message (each table edit comes back as one; with no message cache discord.py
        only dispatches it raw) and Catnip's own new messages (each turn ping), which no part of Catnip
        wants: a table is buried by other people's messages, not by its own pings."""
        parse_only_when(self, "MESSAGE_UPDATE", lambda _data: self._edits_heard())
        parse_only_when(self, "MESSAGE_CREATE", self._not_its_own)

    def _edits_heard(self) -> bool:
        return heard(self, "raw_message_edit") or heard(self, "message_edit") or bool(self.persistent_views)

    def _not_its_own(self, message: dict) -> bool:
        return self.user is None or message.get("author", {}).get("id") != str(self.user.id)

    @property
    def presenter(self) -> Presenter:
        """What shows the tables: the one the play cog gives the service when it loads."""
        (presenter,) = self.service.games.presenters
        return presenter

    async def login(self, token: str) -> None:
        """Log in once Discord can be reached (asked on a connection of its own, so that a failed try
        leaves nothing open); a refused token raises LoginFailure. With METRICS_PORT, /livez and /readyz
        answer from the start (/readyz 503 until the shards are connected); a port that cannot be
        served on raises MetricsRefused."""
        if self.settings.metrics_port is not None and self.health is None:
            self.health = HealthServer(self, self.settings.metrics_port, self.settings.metrics_host)
            await self.health.start()
        await self._wait_for_discord(lambda: recommended_shard_count(token, self.request_trace))
        await super().login(token)

    async def _wait_for_discord(self, attempt):
        return await wait_until_up(
            attempt, self.discord_outage, is_outage=is_discord_outage, sleep=self.clock.sleep
        )

    async def _open_store(self) -> None:
        """Open the store, waiting for a database server that is away at start."""
        if self.store.database.outage is None:
            await self.store.open()
            return
        await wait_until_up(
            self.store.open,
            self.store.database.outage,
            is_outage=lambda error: isinstance(error, StoreUnavailable),
            sleep=self.clock.sleep,
        )

    def busy(self) -> bool:
        """Whether the bot is still at work on what it was told: a gateway event's listener or a command
        running, a computer seat moving, a table, picture or deletion under way. Not busy, with every
        event Discord sent received (`discord_door.events_received`), it does nothing until told
        something new or its clock moves on (tests wait for this instead of for quiet time). Resumed
        games count from start-up until their tables are shown again and their timers re-armed."""
        return (
            self._ticking
            or (self._resuming is not None and not self._resuming.done())
            or handling_events()
            or self.service.busy()
            or any(p.busy() for p in self.service.games.presenters)
        )

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CatalogTranslator())
        await self._open_store()
        self.shard_plan = await self._plan_shards()
        name_shards(str(self.shard_plan))
        self.shard_owner = ShardOwner(self.store, self.shard_plan)
        await self.shard_owner.claim()  # before any shard connects: raises ShardsTaken
        # Part of a fleet (or able to be): the database decides which process runs a game.
        fleet = self.settings.shard_ids is not None or self.settings.database_url is not None
        if fleet:
            self.store.owner.role = str(self.shard_plan)
            self.handover = Handover(self.store, self.shard_plan)
            await self.handover.join()
        self.service.run_shards(self.shard_plan, leasing=fleet)
        for extension in cog_extensions():
            await self.load_extension(extension)
        if self.runs_games():
            resumed = await self.service.leases.load_all()
            await self.timers.resume()
            log.info("%s: resumed %d games", self.shard_plan, len(resumed))
            self._resuming = asyncio.create_task(self._after_ready(resumed))
            self._background.append(self._resuming)
        else:
            log.info(
                "%s: standing by while %s runs the games; taking them over once all %d shards are connected",
                self.shard_plan,
                self.handover.describe(),
                self.shard_plan.shard_count,
            )
        if self.sync_commands and 0 in self.shard_plan.shard_ids:  # one process of a fleet is enough
            await self._sync()
        self._background.append(asyncio.create_task(self._tick_timers()))
        self._background.append(asyncio.create_task(self._keep_shards()))
        if self.service.leases.leasing:
            self._background.append(asyncio.create_task(self._keep_leases()))
        if self.handover is not None:
            self._background.append(asyncio.create_task(self._follow_layout()))
        if can_release():
            self._background.append(asyncio.create_task(self._release_memory()))
        self._background.append(asyncio.create_task(self._note_pings()))
        if self.runtime_tuning:
            self._background.append(asyncio.create_task(self._tune_runtime_when_ready()))

    async def _tune_runtime_when_ready(self) -> None:
        """Tune the interpreter (`tune_runtime`) once the bot is ready, its start-up objects all made:
        here, after `login` (before it, discord.py refuses `wait_until_ready`), once per start."""
        await self.wait_until_ready()
        tune_runtime()
        self.runtime_tuned = True

    async def _plan_shards(self) -> ShardPlan:
        """Ask Discord (`GET /gateway/bot`) for its recommended shard count, used when `SHARD_COUNT` is
        unset, and for how many shards may identify at once."""
        recommended, limits = await self._wait_for_discord(lambda: bot_gateway(self))
        if self.shard_count is None:
            self.shard_count = recommended
        self.identify_gate = IdentifyGate(
            limits["max_concurrency"], self.identify_window, self.identify_locks
        )
        if limits["remaining"] < len(self.shard_ids or range(self.shard_count)):
            log.warning(
                "Discord allows %d more gateway sessions before its limit resets in %d s",
                limits["remaining"],
                limits["reset_after"] // 1000,
            )
        return ShardPlan(tuple(self.shard_ids or range(self.shard_count)), self.shard_count)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait for the shard's identify slot (see `IdentifyGate`), not discord.py's flat 5 s."""
        if self.identify_gate is not None:
            await self.identify_gate.wait(shard_id)

    async def _sync(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info(
            "synced %d slash commands to %s", len(synced), f"guild {guild_id}" if guild_id else "all guilds"
        )

    async def _after_ready(self, resumed) -> None:
        """Once the guilds are known: re-render each resumed table, re-arm its timer, let computers move."""
        await self.wait_until_ready()
        await self.service.announce_resumed(resumed)
        await self.service.endings.show_unshown()
        await self.timers.save()

    async def _tick_timers(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            self._ticking = True
            try:
                await self.timers.tick()
                await self.absence.tick()
            except StoreUnavailable:
                pass  # the store tells of the outage; the next tick tries again
            except Exception:
                log.exception("timer tick failed")
            finally:
                self._ticking = False
            await asyncio.sleep(1)

    async def _keep_shards(self) -> None:
        """Keep this process's hold on its shards; should another process take them over, the bot must
        stop (`must_stop`): two processes of one shard would both answer its clicks."""
        try:
            await self.shard_owner.keep()
        except ShardsTaken as taken:
            self.stopped_for = taken
            self.must_stop.set()
        except Exception:
            log.exception("keeping the shards' hold failed; it runs out unless renewed")

    async def _release_memory(self) -> None:
        """Give the memory freed since the last time back to the system, every minute (bot/memory.py)."""
        while not self.is_closed():
            await asyncio.sleep(RELEASE_EVERY_SECONDS)
            release_free_memory()

    async def _note_pings(self) -> None:
        """Note where the turn pings stand every minute, for the process that runs their games next
        (the presenter notes them again when its cog unloads at a clean stop)."""
        while not self.is_closed():
            await asyncio.sleep(NOTE_PINGS_EVERY_SECONDS)
            for presenter in self.service.games.presenters:
                await presenter.note_pings()

    async def _keep_leases(self) -> None:
        """Renew this process's leases well within their length; show the games it took over from a
        process of its shards that is gone, as if resumed."""
        await self.wait_until_ready()
        while not self.is_closed():
            await asyncio.sleep(self.shard_plan.lease_seconds / 3)
            if self.runs_games():
                await self._renew_leases()

    async def _renew_leases(self) -> int:
        """Renew the leases and show the games newly taken; how many were taken."""
        try:
            async with self._renewing:
                taken = await self.service.leases.renew()
                if taken:
                    log.info("%s: took over %d games", self.shard_plan, len(taken))
                    await self.service.announce_resumed(taken)
                return len(taken)
        except StoreUnavailable:
            pass  # the store tells of the outage; the leases are renewed at the next round
        except Exception:
            log.exception("renewing the game leases failed")
        return 0

    # -------------------------------------------------------------- a fleet's handover (bot/handover.py)

    def runs_games(self) -> bool:
        """Whether this process runs its shards' games now (not while its fleet stands by for them)."""
        return self.handover is None or self.handover.running()

    def in_charge(self, interaction: discord.Interaction) -> bool:
        """Whether this process answers `interaction` (in a fleet changing its shard count, exactly
        one process does: by the time Discord gave it)."""
        return self.handover is None or self.handover.in_charge(interaction.created_at.timestamp())

    def _shards_connected(self) -> bool:
        return self.is_ready() and not any(shard.is_closed() for shard in self.shards.values())

    async def _follow_layout(self) -> None:
        await self.handover.follow(
            connected=self._shards_connected, take_over=self._take_over, hand_over=self._hand_over
        )

    async def _take_over(self) -> None:
        """This fleet's shard count is in charge from now on: take the games the fleet before has let
        go of, and each of the others as soon as it does."""
        try:
            async with self._renewing:
                taken = await self.service.leases.load_all()
            await self.timers.resume()
            waited = self.handover.wall() - self.handover.layout.since
            log.info("%s: in charge now; took over %d games %.2f s after the handover", self.shard_plan,
                     len(taken), waited)  # fmt: skip
            await self.service.announce_resumed(taken)
            await self.service.endings.show_unshown()
        except StoreUnavailable:
            pass  # the games not taken yet are taken when the leases are next renewed
        except Exception:
            log.exception("taking over the games failed; they are taken when the leases are next renewed")
        self._background.append(asyncio.create_task(self._take_released()))

    async def _take_released(self) -> None:
        """Right after taking over: take each game still held by the fleet before once it lets it go."""
        plan, handover = self.shard_plan, self.handover
        before: int | None = None
        while True:
            try:
                held = await self.store.coordination.held_elsewhere(
                    plan.shard_ids, plan.shard_count, self.clock.now()
                )
            except StoreUnavailable:
                held = before  # asked again in a moment
            if held != before and await self._renew_leases():  # claimed only once some were let go
                waited = handover.wall() - handover.layout.since
                log.info("%s: took over games %.2f s after the handover", plan, waited)
            if held == 0:
                log.info("%s: runs every game of its shards", plan)
                return
            before = held
            await asyncio.sleep(CLAIM_EVERY_SECONDS)

    async def _hand_over(self) -> None:
        """Another shard count is in charge from now on: finish the clicks being answered, the table
        updates and the pings, then let the games go to the fleet taking over."""
        plan = self.shard_plan
        games = len(self.service.live)
        log.info("%s: %s takes over; handing over %d games", plan, self.handover.describe(), games)
        try:
            await self.service.computers.stop_all()
            deadline = asyncio.get_running_loop().time() + CLICK_DEADLINE  # at most, for those under way
            while handling_events() and asyncio.get_running_loop().time() < deadline:
                await asyncio.sleep(0.05)  # the clicks made before the handover are answered here
            await self.timers.save()
            for presenter in self.service.games.presenters:
                # Pictures too: one drawn after the games went over would be shown by this process
                # over the new owner's table (naming an attachment the message no longer holds).
                await presenter.settle()
                await presenter.note_pings()
            await self.service.leases.hand_over()
            waited = self.handover.wall() - self.handover.layout.since
            log.info("%s: handed its games over %.2f s after the handover; answers nothing now", plan, waited)
        except StoreUnavailable:
            log.warning("%s: the store is away; its games go over when their leases run out", plan)
        except Exception:
            log.exception("handing the games over failed; they go over when their leases run out")

    async def close(self) -> None:
        for task in self._background:
            task.cancel()
        for task in self._background:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.service.shutdown()
        if self.handover is not None:
            with contextlib.suppress(StoreUnavailable):  # else its word runs out by itself
                await self.handover.leave()
        if shards_launched(self):
            await super().close()  # unloads the cogs: their table updates are done before Discord closes
        else:  # stopped while logging in: no table shown, no shard to close
            await discord.Client.close(self)
        try:
            await self.timers.save()
        except Exception:
            log.exception("could not store the deadlines before closing")
        if self.shard_owner is not None:
            await self.shard_owner.release()
        await self.store.close()
        if self.health is not None:
            await self.health.close()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if self.in_charge(interaction):
            self.metrics.interaction_arrived(interaction.id)


NOTE_PINGS_EVERY_SECONDS = 60.0
CLAIM_EVERY_SECONDS = 0.1
"""Right after a fleet takes over: how often it looks for the games the fleet before has let go of."""


def create_bot(settings: Settings, **kwargs) -> CatnipBot:
    """The fully configured bot, not yet started: the store opens and cogs load in `setup_hook`."""
    return CatnipBot(settings, **kwargs)
