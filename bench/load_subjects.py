"""The bots `bench.bot_load` measures (Catnip and the floor bot) and the emulator process they talk to."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
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
    PostgreSQL server at `database_url`), running all its shards or `shard_ids` of `shard_count`."""

    name = "catnip"

    def __init__(
        self,
        database: Path,
        computer_delay: float = 0.0,
        seed: int = 1,
        pictures: bool = True,
        *,
        database_url: str | None = None,
        shard_count: int | None = None,
        shard_ids: tuple[int, ...] | None = None,
        limiter: bool = True,
    ) -> None:
        """`limiter`: the bot keeps under Discord's global limit itself (bot/discord_budget.py)."""
        self.limiter = limiter
        self.database = database
        self.database_url = database_url
        self.shard_count = shard_count
        self.shard_ids = shard_ids
        self.pictures = pictures
        self.computer_delay = computer_delay
        self.seed = seed
        self.bot = None
        self.task: asyncio.Task | None = None
        self.seconds_to_ready = 0.0

    async def start(self, emulator: EmulatorProcess) -> None:
        from bot.app import create_bot, tune_runtime
        from bot.config import Settings
        from emulator import TOKEN
        from emulator.harness import start_bot

        settings = Settings(
            discord_token=TOKEN,
            database_path=self.database,
            computer_delay_seconds=self.computer_delay,
            pictures=self.pictures,
            database_url=self.database_url,
            shard_count=self.shard_count,
            shard_ids=self.shard_ids,
            _env_file=None,
        )
        counter = itertools.count(self.seed * 1_000_000)
        # With shards of its own, the first guild may be another process's: ready is enough.
        guild_id = None if self.shard_ids else (await emulator.remote.state())["guild_id"]
        paced: dict = {"identify_window": 0.1} if self.shard_ids else {}  # the emulator's pace, not 5 s
        if not self.limiter:
            paced["http_trace"] = None  # the bot's own limiter off (bot/discord_budget.py)
        bot = self.bot = create_bot(
            settings, guild_ready_timeout=0.05, seed_source=lambda: next(counter), **paced
        )
        started = time.perf_counter()
        self.task = await start_bot(
            bot,
            TOKEN,
            is_ready=lambda: bot.is_ready() and (guild_id is None or bot.get_guild(guild_id) is not None),
            timeout=600,
        )
        self.seconds_to_ready = time.perf_counter() - started
        tune_runtime()  # as `python -m bot` does once the bot is ready

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
        from bot.app import tune_runtime
        from emulator import TOKEN
        from emulator.harness import start_bot

        guild_id = (await emulator.remote.state())["guild_id"]
        bot = self.bot = FloorBot(self.sizes, guild_ready_timeout=0.05)
        self.task = await start_bot(
            bot, TOKEN, is_ready=lambda: bot.is_ready() and bot.get_guild(guild_id) is not None, timeout=600
        )
        tune_runtime()  # the same garbage collector and thread switching as Catnip

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


@contextlib.asynccontextmanager
async def emulated_discord(members: int, rate_limit: int, prefix: str, discord_limits: bool = False):
    """The emulator process with `members` members, discord.py pointed at it, a database path in a
    temporary directory, and a count of the errors logged meanwhile."""
    errors = ErrorCount()
    for name in ("discord", "catnip"):
        logging.getLogger(name).addHandler(errors)
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        options = ("--rate-limits", "discord") if discord_limits else ()
        async with EmulatorProcess(members, rate_limit, options) as emulator:
            with emulator.remote.point_discord_py():
                yield emulator, Path(tmp) / "catnip.sqlite3", errors
