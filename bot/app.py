"""`create_bot`: the one factory that builds a fully configured, not yet started Catnip bot."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
import sys
from pathlib import Path

import discord
from discord.ext import commands

from bot.clock import Clock, SystemClock
from bot.config import Settings
from bot.sessions import GameService
from bot.storage import GameStore
from bot.storage.factory import store_for_settings
from bot.timers import Timers, TimerSettings

log = logging.getLogger("catnip")

COGS_DIR = Path(__file__).resolve().parents[1] / "cogs"


def cog_extensions() -> list[str]:
    """Every extension under cogs/: a package whose __init__ defines `setup`."""
    return sorted(
        f"cogs.{path.parent.name}"
        for path in COGS_DIR.glob("*/__init__.py")
        if "async def setup(" in path.read_text()
    )


class CatnipBot(commands.Bot):
    """The bot: a game service over the store, timers, and the Discord front in cogs/."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: GameStore | None = None,
        clock: Clock | None = None,
        sync_commands: bool = True,
        seed_source=None,
        **client_options,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        intents.guild_messages = True
        # No message cache: Catnip edits its messages by id and reads components from the interaction,
        # and with thousands of tables the cache only costs memory and a scan per MESSAGE_UPDATE.
        client_options.setdefault("max_messages", None)
        super().__init__(
            command_prefix=commands.when_mentioned, intents=intents, help_command=None, **client_options
        )
        self.settings = settings
        self.store: GameStore = store or store_for_settings(settings)
        self.clock: Clock = clock or SystemClock()
        self.service = GameService(self.store, self.clock, computer_delay=settings.computer_delay_seconds)
        self.timers = Timers(
            self.service,
            TimerSettings(
                turn_seconds=settings.turn_timer_seconds,
                secret_seconds=settings.secret_timer_seconds,
                warning_seconds=settings.timer_warning_seconds,
                abandon_after_seconds=settings.abandon_after_hours * 3600,
            ),
        )
        self.service.listeners.append(self.timers)  # first: a table shown after a change has its deadline
        self.sync_commands = sync_commands
        self._seed_source = seed_source or (lambda: secrets.randbits(63))
        self._background: list[asyncio.Task] = []
        # Whatever shows the tables: set by the cog that made it, while that cog is loaded.
        self.presenter = None

    def new_seed(self) -> int:
        return self._seed_source()

    async def setup_hook(self) -> None:
        await self.store.open()
        for extension in cog_extensions():
            await self.load_extension(extension)
        resumed = await self.service.resume()
        await self.timers.resume()
        log.info("resumed %d games", len(resumed))
        if self.sync_commands:
            await self._sync()
        self._background.append(asyncio.create_task(self._after_ready(resumed)))
        self._background.append(asyncio.create_task(self._tick_timers()))

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
        await self.timers.save()

    async def _tick_timers(self) -> None:
        await self.wait_until_ready()
        while not self.is_closed():
            try:
                await self.timers.tick()
            except Exception:
                log.exception("timer tick failed")
            await asyncio.sleep(1)

    async def close(self) -> None:
        for task in self._background:
            task.cancel()
        for task in self._background:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.service.shutdown()
        await super().close()  # unloads the cogs: their table updates are done before Discord closes
        try:
            await self.timers.save()
        except Exception:
            log.exception("could not store the deadlines before closing")
        await self.store.close()


GC_THRESHOLDS = (10_000, 20, 10)

SWITCH_INTERVAL = 0.0002
"""Seconds a busy thread may keep the GIL while another waits for it (Python's default is 0.005)."""


def tune_runtime() -> None:
    """Make garbage collection and thread switches cheap for a running bot; call once it is up.

    The objects alive after start-up (modules, discord.py's caches) are frozen out of every
    later collection, and the young generation is collected after 10,000 net allocations
    instead of 700. Each click allocates many short-lived objects, nearly all freed by
    reference counting; with the default threshold the collector ran several times per move
    and took about a quarter of the bot's CPU under load (`python -m bench.bot_load`).

    The store writes each batch of moves on its own thread, and SQLite gives up the GIL around
    every row it writes. With the event loop busy, getting it back waited up to the default 5 ms
    switch interval each time, so a batch of forty moves took up to a quarter of a second. With
    0.2 ms, 100 games under load made 291 instead of 192 moves/s, and the store's commit p50 fell
    from 125 to 43 ms. A computer player thinking on a worker thread also hands the GIL back to
    the event loop sooner.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL)


def create_bot(settings: Settings, **kwargs) -> CatnipBot:
    """The fully configured bot, not yet started: the store opens and cogs load in `setup_hook`."""
    return CatnipBot(settings, **kwargs)
