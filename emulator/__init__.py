"""A local Discord for end-to-end tests and the offline mode: the real discord.py talks to it over HTTP
and a websocket on 127.0.0.1, and simulated members click, select and type slash commands.

    async with Emulator.start(members=["Ann", "Bo", MemberSpec("Mo", ["manage_guild"])]) as emu:
        with emu.point_discord_py():              # Route.BASE + DEFAULT_GATEWAY; loopback only
            await emu.run_bot(bot)                # bot.start("emulator-token"); READY + guild
            ann = emu.member("Ann")
            result = await ann.slash("play", "games", game="catsdogs")   # waits for the reply (3 s rule)
            await emu.settle()                    # the bot is done with all it was told
            table = emu.public_messages(emu.threads()[0])[0]
            await ann.click(table, "Join")        # custom_id or label; select(message, id, values)
            ann.visible_messages("games"), ann.ephemeral_messages(), emu.interaction_timings()
    # leaving the block fails (EmulatorFailure) on broken rules, bot crashes and discord.py errors.

Sharding: each guild's events reach only the sessions of its shard (`emu.add_guild` spreads guilds
over shards; `emu.reroute_guild` sends one elsewhere); `Emulator(max_guilds_per_session=…,
guilds_per_shard=…, max_concurrency=…, identify_window=…)` set what `GET /gateway/bot` says and
what IDENTIFY refuses (4010, 4011) or records as too fast.

Rules live in :mod:`~emulator.limits`, the clock is ``emu.clock`` (``emu.advance(seconds)``), and
``python -m emulator`` serves the same over a control API (:mod:`~emulator.control`,
client :mod:`~emulator.remote`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from emulator.emulator import TOKEN, Emulator, EmulatorFailure, MemberSpec, Timing
    from emulator.harness import BotCrashed, NonLoopbackRefused, RemoteState, loopback_only, point_discord_py
    from emulator.model import StoredMessage, Violation, VirtualClock
    from emulator.users import InteractionResult, InvalidInvocation, SimulatedMember

_HOMES = {
    "emulator.emulator": ("TOKEN", "Emulator", "EmulatorFailure", "MemberSpec", "Timing"),
    "emulator.harness": (
        "BotCrashed",
        "NonLoopbackRefused",
        "RemoteState",
        "loopback_only",
        "point_discord_py",
    ),
    "emulator.model": ("StoredMessage", "Violation", "VirtualClock"),
    "emulator.users": ("InteractionResult", "InvalidInvocation", "SimulatedMember"),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}

__all__ = [
    "TOKEN",
    "BotCrashed",
    "Emulator",
    "EmulatorFailure",
    "InteractionResult",
    "InvalidInvocation",
    "MemberSpec",
    "NonLoopbackRefused",
    "RemoteState",
    "SimulatedMember",
    "StoredMessage",
    "Timing",
    "Violation",
    "VirtualClock",
    "loopback_only",
    "point_discord_py",
]


def __getattr__(name: str) -> Any:
    """Each name from its module when first asked for: a bot pointed at an emulator in another process
    (`emulator.remote`, `emulator.harness`) loads neither the server nor its checks of Discord's OpenAPI
    description."""
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_HOME[name]), name)
