"""A local Discord for end-to-end tests and the offline mode: the real discord.py talks to it over HTTP
and a websocket on 127.0.0.1, and simulated members click, select and type slash commands."""

from bot.emulator.emulator import TOKEN, Emulator, EmulatorFailure, MemberSpec, Timing
from bot.emulator.harness import BotCrashed, NonLoopbackRefused, loopback_only, point_discord_py
from bot.emulator.model import Clock, Message, Violation
from bot.emulator.users import InteractionResult, InvalidInvocation, SimulatedMember

__all__ = [
    "TOKEN",
    "BotCrashed",
    "Clock",
    "Emulator",
    "EmulatorFailure",
    "InteractionResult",
    "InvalidInvocation",
    "MemberSpec",
    "Message",
    "NonLoopbackRefused",
    "SimulatedMember",
    "Timing",
    "Violation",
    "loopback_only",
    "point_discord_py",
]
