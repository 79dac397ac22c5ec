"""Catnip in its own OS process against an emulator running elsewhere, for tests that kill it for real.

``python -m tests.e2e.bot_process --api URL --gateway URL --db PATH --epoch T --speed N`` runs the
real bot (the same `create_bot` as `catnip`) with discord.py pointed at the emulator. Its clock runs
`speed` times faster than the wall clock from `epoch` on, so turn timers and computer delays fire in
a fraction of a second while deadlines stored by one process still mean the same to the next.
Settings the arguments leave out come from the environment as for `catnip` (e.g. SHARD_COUNT,
SHARD_IDS, DATABASE_URL). Prints ``READY`` and the ids of the games it runs once the gateway is
ready (they were resumed before it connected), then answers each line on its stdin with its state
(`emulator.harness.RemoteState`: busy or idle, and the gateway events received), which the test's emulator
waits on as it does for a bot of its own; SIGTERM stops it cleanly. The tests' `BotProcess` runs this
`main` in a process forked from one that imported it already (tests/e2e/forked_bots.py).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
import time
from pathlib import Path

import discord_door
from bot.app import CatnipBot, create_bot
from bot.config import Settings
from emulator.harness import RemoteState, point_discord_py

TOKEN = "emulator-token"


class FastClock:
    """Wall-clock time sped up `speed` times from `epoch` on, the same in every process given both."""

    def __init__(self, epoch: float, speed: float) -> None:
        self.epoch = epoch
        self.speed = speed

    def now(self) -> float:
        return self.epoch + (time.time() - self.epoch) * self.speed

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds / self.speed)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.e2e.bot_process")
    parser.add_argument("--api", required=True, help="the emulator's REST base (…/api/v10)")
    parser.add_argument("--gateway", required=True, help="the emulator's gateway URL")
    parser.add_argument("--db", type=Path, required=True, help="the SQLite file")
    parser.add_argument("--epoch", type=float, required=True, help="when the sped-up clock starts")
    parser.add_argument("--speed", type=float, default=1.0, help="how much faster the bot's clock runs")
    parser.add_argument("--turn-seconds", type=int, default=20)
    parser.add_argument("--secret-seconds", type=int, default=10)
    parser.add_argument("--warning-seconds", type=int, default=5)
    parser.add_argument(
        "--identify-window", type=float, default=0.1, help="seconds between IDENTIFYs (the emulator's pace)"
    )
    parser.add_argument(
        "--abandon-taken-over-minutes", type=float, default=24 * 60, help="a day: idle tests keep their games"
    )
    return parser.parse_args(argv)


async def run(args: argparse.Namespace) -> None:
    settings = Settings(
        discord_token=TOKEN,
        database_path=args.db,
        turn_timer_seconds=args.turn_seconds,
        secret_timer_seconds=args.secret_seconds,
        timer_warning_seconds=args.warning_seconds,
        abandon_taken_over_minutes=args.abandon_taken_over_minutes,
        _env_file=None,
    )
    bot = create_bot(
        settings,
        clock=FastClock(args.epoch, args.speed),
        guild_ready_timeout=0.05,
        identify_window=args.identify_window,
    )
    runner = asyncio.create_task(bot.start(TOKEN))
    while not bot.is_ready():
        if runner.done():
            runner.result()
        await asyncio.sleep(0.01)
    print("READY", *sorted(bot.service.live), flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    stopping = asyncio.create_task(stop.wait())
    answering = asyncio.create_task(answer_state(bot))
    await asyncio.wait({runner, stopping}, return_when=asyncio.FIRST_COMPLETED)
    answering.cancel()
    await bot.close()
    if runner.done():
        runner.result()


async def answer_state(bot: CatnipBot) -> None:
    """One line of state on stdout for each line read on stdin, until stdin closes."""
    reader = asyncio.StreamReader()
    protocol = asyncio.StreamReaderProtocol(reader)
    await asyncio.get_running_loop().connect_read_pipe(lambda: protocol, sys.stdin)
    while await reader.readline():
        state = RemoteState(bot.busy(), discord_door.events_received(bot))
        print(state.line(), flush=True)


def main(argv: list[str] | None = None) -> None:
    args = parse(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    with point_discord_py(args.api, args.gateway):
        asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
