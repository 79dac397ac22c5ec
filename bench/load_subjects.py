"""The bots `bench.bot_load` measures (Catnip and the floor bot) and the emulator process they talk to."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.floor_bot import FloorBot, Sizes
from bench.load_figures import ErrorCount
from discord_door import stored_views

UNLIMITED = 100_000
"""The highest DISCORD_GLOBAL_RATE_LIMIT (bot/config.py): the bot's own limiter never holds a request
back at this pace, which is how `--no-limiter` turns it off."""


LOST_TOKENS = "0.01"
"""With Discord's limits on, the share of interaction-token requests the emulator answers 404 although
the token is valid (discord/discord-api-docs#6851)."""


class EmulatorProcess:
    """`python -m bench.load_members` in its own process, and a control client for it."""

    def __init__(self, members: int, rate_limit: int, options: tuple[str, ...] = ()) -> None:
        """`options`: more of `python -m bench.load_members`'s arguments (e.g. `--guilds`)."""
        self.members = members
        self.rate_limit = rate_limit
        self.options = options
        self.process: subprocess.Popen | None = None
        self.remote = None

    async def __aenter__(self):
        from emulator.remote import RemoteEmulator

        command = [sys.executable, "-m", "bench.load_members", "--members", str(self.members)]
        command += ["--rate-limit", str(self.rate_limit), *self.options]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        line = await asyncio.to_thread(self.process.stdout.readline)
        if not line.startswith("EMULATOR "):
            raise RuntimeError(f"the emulator did not start: {line!r}")
        self.remote = RemoteEmulator(line.split()[1])
        await self.remote.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self.remote is not None:
            await self.remote.__aexit__(*exc)
        if self.process is not None:
            self.process.terminate()
            try:
                await asyncio.to_thread(self.process.wait, 10)
            except subprocess.TimeoutExpired:  # after a long run its clean-up is slow; the figures are in
                self.process.kill()
                await asyncio.to_thread(self.process.wait)

    async def call(self, path: str, body: dict[str, Any]) -> Any:
        import aiohttp

        timeout = aiohttp.ClientTimeout(total=3600)
        async with (
            aiohttp.ClientSession(timeout=timeout) as session,
            session.post(self.remote.url + path, json=body) as response,
        ):
            response.raise_for_status()
            return await response.json()


async def stop_catnip(bot, task) -> None:
    await bot.close()
    with contextlib.suppress(BaseException):
        await task


def discord_state(client) -> dict[str, int]:
    """What discord.py keeps of a running bot: cached messages, views it stores to route clicks to,
    and the guild members and channels it knows."""
    views, views_by_message = stored_views(client)
    return {
        "cached_messages": len(client.cached_messages),
        "stored_views": views,
        "views_by_message": views_by_message,
        "members": sum(len(guild.members) for guild in client.guilds),
        "channels_and_threads": sum(len(guild.channels) + len(guild.threads) for guild in client.guilds),
    }


class Catnip:
    """The Catnip bot on a database in a temporary directory, durable SQLite as in production (or the
    PostgreSQL server at `database_url`), running all its shards or `shard_ids` of `shard_count`.

    Started as `python -m bot` starts it (`bot.__main__.start_bot`), from its settings alone: its
    runtime tuned once ready, discord.py's and the bot's own waits as they are in production."""

    name = "catnip"

    def __init__(
        self,
        database: Path,
        computer_delay: float = 0.0,
        pictures: bool = True,
        *,
        database_url: str | None = None,
        shard_count: int | None = None,
        shard_ids: tuple[int, ...] | None = None,
        limiter: bool = True,
    ) -> None:
        """`limiter`: the bot keeps under Discord's global limit itself (bot/discord_budget.py); without
        it, the highest DISCORD_GLOBAL_RATE_LIMIT the settings take, which never holds a request back."""
        self.limiter = limiter
        self.database = database
        self.database_url = database_url
        self.shard_count = shard_count
        self.shard_ids = shard_ids
        self.pictures = pictures
        self.computer_delay = computer_delay
        self.bot = None
        self.task: asyncio.Task | None = None
        self.seconds_to_ready = 0.0

    async def start(self, emulator: EmulatorProcess) -> None:
        """Start the bot and return once it is ready (with its runtime tuned) and, when it runs every
        shard, knows the emulator's first guild; `seconds_to_ready` is how long that took."""
        from bot.__main__ import start_bot
        from bot.config import Settings
        from emulator import TOKEN
        from emulator.harness import until_ready

        limit = {} if self.limiter else {"discord_global_rate_limit": UNLIMITED}
        settings = Settings(
            discord_token=TOKEN,
            database_path=self.database,
            computer_delay_seconds=self.computer_delay,
            pictures=self.pictures,
            database_url=self.database_url,
            shard_count=self.shard_count,
            shard_ids=self.shard_ids,
            _env_file=None,
            **limit,
        )
        # With shards of its own, the first guild may be another process's: ready is enough.
        guild_id = None if self.shard_ids else (await emulator.remote.state())["guild_id"]
        started = time.perf_counter()
        bot, self.task = start_bot(settings)
        self.bot = bot
        await until_ready(
            self.task,
            lambda: bot.runtime_tuned and (guild_id is None or bot.get_guild(guild_id) is not None),
            timeout=600,
        )
        self.seconds_to_ready = time.perf_counter() - started

    async def stop(self) -> None:
        await self.bot.close()
        with contextlib.suppress(BaseException):
            await self.task

    async def settle(self) -> None:
        """Every table shown (each with its picture) and its player pinged; the pictures drawn ahead
        for tables not being shown are not waited for."""
        await self.bot.presenter.settle(drawings=False)

    def live_games(self) -> int:
        return sum(1 for game in self.bot.service.live.values() if game.state is not None)

    async def moves(self) -> int:
        """Moves committed so far, people's and computers' (from the database)."""
        return await asyncio.to_thread(self._count_moves)

    def turned_away(self) -> int:
        """Clicks turned away with a "try again" because the bot ran behind them (bot/overload.py)."""
        registry = self.bot.metrics.registry
        value = registry.get_sample_value("catnip_try_again_refusals_total", {"reason": "busy"})
        return int(value or 0)

    def _count_moves(self) -> int:
        with contextlib.closing(sqlite3.connect(self.database)) as db:
            return db.execute("SELECT COUNT(*) FROM moves").fetchone()[0]


class Floor:
    """The floor bot (`bench.floor_bot`): Catnip's Discord calls for a move, nothing else."""

    name = "floor"

    def __init__(self, sizes: Sizes) -> None:
        self.sizes = sizes
        self.bot: FloorBot | None = None
        self.task: asyncio.Task | None = None

    async def start(self, emulator: EmulatorProcess) -> None:
        from bot.runtime import tune_runtime
        from emulator import TOKEN
        from emulator.harness import start_bot

        guild_id = (await emulator.remote.state())["guild_id"]
        bot = self.bot = FloorBot(self.sizes)
        self.task = await start_bot(
            bot, TOKEN, is_ready=lambda: bot.is_ready() and bot.get_guild(guild_id) is not None, timeout=600
        )
        # Not Catnip, so not started as `python -m bot`: given the runtime Catnip gives itself once
        # ready, so that the difference between the two is their own work.
        tune_runtime()

    async def stop(self) -> None:
        await self.bot.close()
        with contextlib.suppress(BaseException):
            await self.task

    async def settle(self) -> None:
        await self.bot.settle()

    def live_games(self) -> int:
        return len(self.bot.tables)

    async def moves(self) -> int:
        return self.bot.moves

    def turned_away(self) -> int:
        return 0  # the floor answers every click


@contextlib.asynccontextmanager
async def emulated_discord(
    members: int, rate_limit: int, prefix: str, discord_limits: bool = False, locale: str = "en-US"
):
    """The emulator process with `members` members, its servers and members speaking `locale`,
    discord.py pointed at it, a database path in a temporary directory, and a count of the errors
    logged meanwhile."""
    errors = ErrorCount()
    for name in ("discord", "catnip"):
        logging.getLogger(name).addHandler(errors)
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        # Discord's limits as the emulator reads them strictly, with a valid token lost now and then.
        options = ("--rate-limits", "discord", "--lost-tokens", LOST_TOKENS) if discord_limits else ()
        options += ("--locale", locale)
        async with EmulatorProcess(members, rate_limit, options) as emulator:
            with emulator.remote.point_discord_py():
                yield emulator, Path(tmp) / "catnip.sqlite3", errors
