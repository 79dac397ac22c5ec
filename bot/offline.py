"""The offline demo: with no Discord token, run Catnip against the local Discord emulator.

Computer players play one game of each kind in the emulated #games channel
while the transcript — what a Discord user would see — is printed as it happens.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from bot.app import create_bot
from bot.config import Settings
from emulator import Emulator
from emulator.model import StoredMessage, World
from emulator.ratelimits import DISCORD, RateLimits
from emulator.transcript import render_message, resolve_mentions
from engine import GAMES

GAME_TIMEOUT = 600.0
EMULATOR_URL = "CATNIP_EMULATOR_URL"
"""An environment variable: the bot talks to the emulator at this address instead of Discord."""
TABLE_MARK = "table #"


def is_table(message: StoredMessage) -> bool:
    return bool(message.embeds) and TABLE_MARK in (message.embeds[0].get("title") or "")


class Narrator:
    """Prints the channel as a reader would follow it: new messages in full, and for the table (edited
    in place after every move) only what is new in its narration, then the final table in full."""

    def __init__(self, world: World, write: Callable[[str], None]) -> None:
        self.world = world
        self.write = write
        self.told: dict[int, list[str]] = {}

    def __call__(self, kind: str, message: StoredMessage) -> None:
        if message.visible_to is not None or kind == "delete" or message.content.startswith("🔔"):
            return
        if not is_table(message):
            self.write(render_message(self.world, message, kind))
            return
        embed = message.embeds[0]
        description = embed.get("description") or ""
        if kind == "create" or "🏆" in description:
            self.write(render_message(self.world, message, kind))
            return
        story = next((f["value"] for f in embed.get("fields", []) if f["name"] == "What happened"), "")
        lines = story.split("\n") if story else []
        before = self.told.get(message.id, [])
        new = lines[_overlap(before, lines) :]
        self.told[message.id] = lines
        for line in new:
            self.write(resolve_mentions(self.world, f"  🐾 {line}"))


def _overlap(before: list[str], after: list[str]) -> int:
    """How many leading lines of `after` were already shown as the tail of `before`."""
    for size in range(min(len(before), len(after)), 0, -1):
        if before[-size:] == after[:size]:
            return size
    return 0


async def play_demo_game(emu: Emulator, key: str, players: int) -> None:
    """Open a table as the demo member, fill it with computer players, hand over the seat, and wait."""
    you = emu.member("You")
    await (await you.slash("play", game=key)).wait_final()
    thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
    lobby = await emu.wait_for(lambda: next((m for m in emu.public_messages(thread) if is_table(m)), None))
    for _ in range(players - 1):
        await you.select(lobby, "Add computer player (host)…", ["normal"])
    await emu.settle()
    await you.click(lobby, "Start")
    await emu.settle()
    await you.slash("game leave", thread)

    def finished() -> bool:
        tables = [m for m in emu.public_messages(thread) if is_table(m)]
        return bool(tables) and "🏆" in (tables[-1].embeds[0].get("description") or "")

    await emu.wait_for(finished, timeout=GAME_TIMEOUT)
    await emu.settle()


async def run_offline(
    settings: Settings,
    *,
    games: tuple[str, ...] | None = None,
    players: int = 4,
    write: Callable[[str], None] | None = None,
    rate_limits: RateLimits | None = DISCORD,
) -> None:
    """Plays the demo games on a local emulator, which answers as Discord does, rate limits included
    (``rate_limits``: Discord's by default, so the tables move at the pace Discord allows)."""
    out = write or (lambda text: print(text, flush=True))
    out(
        "No DISCORD_TOKEN is configured, so Catnip runs its offline demo: a local Discord emulator, and "
        "computer players playing one game of each kind. This is what the #games channel shows:\n"
    )
    with tempfile.TemporaryDirectory(prefix="catnip-demo-") as folder:
        demo = settings.model_copy(
            update={
                "database_path": Path(folder) / "demo.sqlite3",
                "computer_delay_seconds": min(settings.computer_delay_seconds, 0.1),
            }
        )
        async with Emulator.start(members=["You"], channels=["games"], rate_limits=rate_limits) as emu:
            emu.on_message(Narrator(emu.world, out))
            with emu.point_discord_py():
                bot = create_bot(demo, guild_ready_timeout=0.05)
                await emu.run_bot(bot)
                emu.busy.append(bot.busy)
                try:
                    for key in games or tuple(GAMES):
                        count = max(GAMES[key].rules.min_players, min(players, GAMES[key].rules.max_players))
                        await play_demo_game(emu, key, count)
                finally:
                    await bot.close()
    out(
        "\nThat was Catnip on a local, emulated Discord. To run it on your own server: create an application "
        "with a bot at https://discord.com/developers/applications, put its token in a .env file as "
        "DISCORD_TOKEN=... (see .env.example and the README), invite the bot, and run the same command again."
    )


@contextlib.contextmanager
def discord_endpoint() -> Iterator[None]:
    """Discord itself, or the emulator of a developer's `python -m emulator` when `CATNIP_EMULATOR_URL`
    names its address (the real bot, even a whole `catnip fleet`, then runs on the local Discord)."""
    url = os.environ.get(EMULATOR_URL)
    if not url:
        yield
        return
    from emulator.remote import RemoteEmulator

    with RemoteEmulator(url).point_discord_py():
        yield


if __name__ == "__main__":
    asyncio.run(run_offline(Settings(_env_file=None), write=lambda text: print(text, file=sys.stdout)))
