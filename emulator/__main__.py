"""Runs the emulator on its own: ``python -m emulator --port 8765 --members Ann,Bo,Cy``.

The first line printed is ``EMULATOR <url>``; point the bot at ``<url>/api/v10`` and ``ws://...``, and
drive members over the control API (see :mod:`emulator.control`, client: :mod:`emulator.remote`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys

from emulator.emulator import TOKEN, Emulator, MemberSpec
from emulator.ratelimits import DISCORD
from emulator.transcript import transcript_printer


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m emulator", description="A local Discord for Catnip.")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free port)")
    parser.add_argument("--guild", default="Catnip Test", help="guild name")
    parser.add_argument("--channels", default="games", help="comma-separated text channels")
    parser.add_argument("--members", default="Ann,Bo,Cy,Di,Ed,Flo", help="comma-separated members")
    parser.add_argument("--managers", default="", help="comma-separated members with Manage Server")
    parser.add_argument("--token", default=TOKEN, help="the bot token the emulator accepts")
    parser.add_argument("--transcript", action="store_true", help="print every message as a user sees it")
    parser.add_argument(
        "--rate-limits",
        choices=("discord", "off"),
        default="discord",
        help="Discord's rate limits (global 50/s, 5 messages per 5 s per channel …) or none",
    )
    parser.add_argument(
        "--rate-limit", type=int, default=50, help="requests per second per bucket of the other routes"
    )
    parser.add_argument(
        "--lost-tokens",
        type=float,
        default=0.0,
        help="share of interaction-token webhook requests answered 404 although the token is valid",
    )
    parser.add_argument(
        "--max-concurrency", type=int, default=1, help="shards that may identify at once (GET /gateway/bot)"
    )
    parser.add_argument(
        "--max-guilds-per-session", type=int, default=2500, help="more closes a session with 4011"
    )
    return parser.parse_args(argv)


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


async def serve(args: argparse.Namespace) -> int:
    members: list[str | MemberSpec] = [*_names(args.members)]
    members += [MemberSpec(name, ["manage_guild"]) for name in _names(args.managers)]
    emulator = Emulator(
        guild_name=args.guild,
        channels=_names(args.channels),
        members=members,
        token=args.token,
        rate_limits=DISCORD if args.rate_limits == "discord" else None,
        rate_limit=(args.rate_limit, 1.0),
        max_concurrency=args.max_concurrency,
        max_guilds_per_session=args.max_guilds_per_session,
        lost_tokens=args.lost_tokens,
    )
    await emulator.open(args.port)
    if args.transcript:
        emulator.on_message(transcript_printer(emulator.world))
    print(f"EMULATOR {emulator.url}", flush=True)
    print(
        f"  REST    {emulator.api_base}\n  gateway {emulator.gateway_url}\n  token   {args.token}", flush=True
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await emulator.close()
    for violation in emulator.violations:
        print(f"violation: {violation}", file=sys.stderr)
    return 1 if emulator.violations else 0


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(serve(parse(argv)))


if __name__ == "__main__":
    sys.exit(main())
