"""`catnip` / `python -m bot`: run the bot, or the offline demo when no Discord token is configured.

`catnip fleet --processes N` runs N bot processes with a shard range each (see `bot.fleet`);
`catnip migrate-db --from … --to …` copies a database into PostgreSQL (bot/storage/transfer.py);
`catnip backup-db <file>` copies the SQLite database while the bot runs (bot/storage/sqlite.py).
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import Settings, SettingsError, load_settings
from bot.exit_codes import METRICS_REFUSED, SETTINGS_REFUSED, SHARDS_TAKEN, TOKEN_REFUSED
from bot.logs import configure_logging, fatal
from bot.parent_watch import end_with_fleet
from bot.sharding import ShardPlan
from bot.storage.models import DatabaseUnusable
from bot.storage.sqlite import check_database

if TYPE_CHECKING:
    from bot.app import CatnipBot


def shards_named(settings: Settings, command: str | None) -> str:
    """What the lines of this process say of its shards before Discord is asked (bot/logs.py)."""
    if command == "fleet":
        return "fleet"
    if settings.shard_ids is not None:
        return str(ShardPlan(settings.shard_ids, settings.shard_count))
    return f"all {settings.shard_count} shards" if settings.shard_count else "all shards"


def start_bot(settings: Settings) -> tuple[CatnipBot, asyncio.Task[None]]:
    """The bot as `catnip` runs it, and the task it logs in and runs on: built from `settings` alone,
    sharing the identify slots of its machine's fleet (`catnip fleet` names their folder), and tuning
    this process's runtime once it is ready (`bot.runtime.tune_runtime`). The benchmarks start Catnip here
    too (bench/load_subjects.py): what they measure is what runs."""
    from bot.app import create_bot

    locks = os.environ.get("CATNIP_IDENTIFY_LOCKS")  # set by `catnip fleet` for its processes
    bot = create_bot(settings, identify_locks=Path(locks) if locks else None, runtime_tuning=True)
    return bot, asyncio.create_task(bot.start(settings.discord_token.get_secret_value()), name="catnip")


async def run_bot(settings: Settings) -> None:
    from discord import LoginFailure

    from bot.health import MetricsRefused

    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    bot, runner = start_bot(settings)
    waiter = asyncio.create_task(stop.wait())
    taken = asyncio.create_task(bot.must_stop.wait())
    done, _ = await asyncio.wait({runner, waiter, taken}, return_when=asyncio.FIRST_COMPLETED)
    if waiter in done:
        logging.getLogger("catnip").info("shutting down")
    if runner in done and isinstance(runner.exception(), LoginFailure | MetricsRefused):
        raise runner.exception()  # refused before anything was opened: nothing to close
    await bot.close()
    waiter.cancel()
    taken.cancel()
    if runner in done:
        runner.result()
    if bot.stopped_for is not None:
        raise bot.stopped_for


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    end_with_fleet()
    if args[:1] == ["migrate-db"]:
        from bot.storage.transfer import migrate_main

        raise SystemExit(migrate_main(args[1:]))
    try:
        settings = load_settings()
    except SettingsError as error:
        for problem in str(error).splitlines():  # one line per bad setting
            fatal(problem)
        raise SystemExit(SETTINGS_REFUSED) from None
    if args[:1] == ["backup-db"]:
        from bot.storage.sqlite import backup_main

        raise SystemExit(backup_main(args[1:], settings))
    shards = shards_named(settings, args[0] if args else None)
    configure_logging(settings.log_level, settings.log_format, shards)
    if args[:1] == ["fleet"]:
        from bot.fleet import run_fleet

        raise SystemExit(asyncio.run(run_fleet(args[1:], settings)))
    if not settings.discord_token:
        from bot.offline import run_offline

        asyncio.run(run_offline(settings))
        return
    try:
        if settings.database_url is not None:
            from bot.storage.postgres import check_database_url

            check_database_url(settings.database_url.get_secret_value())
        else:
            check_database(settings.database_path)
    except DatabaseUnusable as problem:
        fatal(str(problem))
        raise SystemExit(SETTINGS_REFUSED) from None
    from discord import ConnectionClosed, LoginFailure

    from bot.endpoint import discord_endpoint
    from bot.fleet import TOKEN_REFUSED_LINE
    from bot.health import MetricsRefused
    from bot.shard_owners import ShardsTaken
    from bot.sharding import GATEWAY_REFUSALS

    try:
        with discord_endpoint():
            asyncio.run(run_bot(settings))
    except LoginFailure:
        fatal(TOKEN_REFUSED_LINE)
        raise SystemExit(TOKEN_REFUSED) from None
    except MetricsRefused as refused:
        fatal(str(refused))
        raise SystemExit(METRICS_REFUSED) from None
    except ShardsTaken as taken:
        fatal(str(taken))
        raise SystemExit(SHARDS_TAKEN) from None
    except ConnectionClosed as closed:
        if closed.code not in GATEWAY_REFUSALS:
            raise
        fatal(f"{GATEWAY_REFUSALS[closed.code]} (gateway close code {closed.code})")
        raise SystemExit(SETTINGS_REFUSED) from None


if __name__ == "__main__":
    main()
