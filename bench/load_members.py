"""The emulator side of `bench.bot_load`: a local Discord whose simulated members play as fast as they can.

    python -m bench.load_members --members 400 [--rate-limit 100000] [--rate-limits discord|off] [--port 0]
                                 [--guilds 1 --shard-count 1 --seats 4] [--lost-tokens 0.01]
                                 [--locale fr]

Runs in its own process, so the members' cost never lands in the bot's measurements. Discord's
rate limits are off unless `--rate-limits discord` (only `--rate-limit`'s bucket of every route
applies): the figures are the bot's own pace. With
`--guilds G` (more than 1) the members are spread over G guilds of their own, `--seats` members a
table kept in one guild, and the guilds are chosen so that each of `--shard-count` shards holds as
many; a table opens in its host's guild's own channel. Prints
`EMULATOR <url>` like `python -m emulator`, serves the same REST, gateway and control API,
and adds two routes that `bench.bot_load` calls:

    POST /_bench/open  {"kinds": [[game, members, computers, level], ...], "games", "concurrency"}
        /play, Join, the computer players and Start through the emulated Discord for `games` tables,
        their kinds taken from `kinds` in turn, seating members not seated yet; answers once every
        table shows its first turn.
    POST /_bench/play  {"seconds", "rematch", "stall", "seed", "stagger", "think"}
        every seated member acts when the table pings them (or their own panel still offers a
        choice): "My hand" on the table, then a random legal choice on the private panel, after
        thinking for a random time of mean `think` seconds (exponential; 0: at once). Finished
        tables start a rematch. Each table starts after a random delay of up to `stagger` seconds
        (default 0: every table's first turn at once). Answers with every interaction's kind and
        initial-response latency, the bot's requests during play by route, how long after each
        card the table showed it and the next player was pinged, and the mean sizes of the tables
        and panels shown (for the floor bot).
    POST /_bench/usage {}
        the bot token's requests so far, counted by the global limit and exempt, every 429 answered
        and the most invalid requests within 10 minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import signal
import sys
from typing import Any

from aiohttp import web

from bench.load_driver import LoadDriver, member_names
from bench.load_tables import TableKind
from emulator import Emulator
from emulator.guilds import guild_snowflake
from emulator.ratelimits import DISCORD
from lang import language_of


def _json(data: Any) -> web.Response:
    return web.Response(body=json.dumps(data).encode(), content_type="application/json")


def install(app: web.Application, driver: LoadDriver) -> None:
    async def open_route(request: web.Request) -> web.Response:
        body = await request.json()
        kinds = [TableKind(*kind) for kind in body["kinds"]]
        return _json(await driver.open_tables(kinds, int(body["games"]), int(body.get("concurrency", 25))))

    async def play_route(request: web.Request) -> web.Response:
        body = await request.json()
        return _json(
            await driver.play(
                float(body.get("seconds", 20)),
                bool(body.get("rematch", True)),
                float(body.get("stall", 10.0)),
                int(body.get("seed", 1)),
                float(body.get("stagger", 0.0)),
                float(body.get("think", 0.0)),
            )
        )

    async def usage_route(_request: web.Request) -> web.Response:
        usage = driver.emu.server.usage
        return _json(
            {
                "responses_429": len(driver.emu.server.rate_limited),
                "counted": sum(usage.counted.values()),
                "exempt": sum(usage.exempt.values()),
                "invalid_requests_10min": usage.invalid_peak(),
            }
        )

    app.router.add_post("/_bench/open", open_route)
    app.router.add_post("/_bench/usage", usage_route)
    app.router.add_post("/_bench/play", play_route)


def balanced_guild_names(guilds: int, shard_count: int) -> list[str]:
    """`guilds` guild names whose ids put as many guilds on each of `shard_count` shards (±1)."""
    room = [guilds // shard_count + (shard < guilds % shard_count) for shard in range(shard_count)]
    names: list[str] = []
    for number in itertools.count(1):
        if len(names) == guilds:
            return names
        name = f"Catnip Load {number}"
        shard = (guild_snowflake(name) >> 22) % shard_count
        if room[shard]:
            room[shard] -= 1
            names.append(name)
    raise AssertionError("unreachable")


def spread_members(
    emulator: Emulator, driver: LoadDriver, names: list[str], args: argparse.Namespace
) -> None:
    """The members in `args.guilds` guilds of their own, whole tables of `args.seats` in each."""
    tables = -(-len(names) // args.seats)
    per_guild = -(-tables // args.guilds) * args.seats
    for index, guild_name in enumerate(balanced_guild_names(args.guilds, args.shard_count)):
        group = names[index * per_guild : (index + 1) * per_guild]
        guild = emulator.add_guild(guild_name, channels=["games"], members=group)
        channel = emulator.guild_channel(guild, "games")
        driver.channel_of.update(dict.fromkeys(group, channel))
    driver.users = {user.name: user for user in emulator.world.members.values()}


async def serve(args: argparse.Namespace) -> int:
    names = member_names(args.members)
    emulator = Emulator(
        guild_name="Catnip Load",
        channels=["games"],
        members=names if args.guilds == 1 else [],
        rate_limits=DISCORD if args.rate_limits == "discord" else None,
        rate_limit=(args.rate_limit, 1.0),
        strict=False,
        lost_tokens=args.lost_tokens,
    )
    driver = LoadDriver(emulator, language_of(args.locale))
    if args.guilds > 1:
        spread_members(emulator, driver, names, args)
    for guild in emulator.world.guilds.values():
        guild.locale = args.locale
    for user in emulator.world.members.values():
        user.locale = args.locale
    install(emulator.server.app, driver)
    await emulator.open(args.port)
    print(f"EMULATOR {emulator.url}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await emulator.close()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.load_members", description=__doc__)
    parser.add_argument("--members", type=int, default=400)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--rate-limit", type=int, default=100_000, help="requests per second per bucket")
    parser.add_argument(
        "--rate-limits", choices=("discord", "off"), default="off", help="Discord's limits, or none"
    )
    parser.add_argument("--guilds", type=int, default=1, help="guilds the members are spread over")
    parser.add_argument(
        "--lost-tokens", type=float, default=0.0, help="share of token webhook requests Discord answers 404"
    )
    parser.add_argument("--shard-count", type=int, default=1, help="shards the guilds are spread evenly over")
    parser.add_argument("--seats", type=int, default=4, help="members a table (kept in one guild)")
    parser.add_argument("--locale", default="en-US", help="the servers' and members' Discord locale")
    quiet_collector()
    return asyncio.run(serve(parser.parse_args(argv)))


def quiet_collector() -> None:
    """No full garbage collections in this process: the emulated world keeps every message ever
    sent, and a full collection over it paused the emulator for up to ~0.7 s in 150 s runs, a
    delay its clock would have charged to the bot's answers."""
    gc.freeze()
    gc.set_threshold(10_000, 10, 1_000_000)


if __name__ == "__main__":
    sys.exit(main())
