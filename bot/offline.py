"""The offline demo: with no Discord token, run Catnip against the local Discord emulator.

Computer players play one game of each kind in the emulated #games channel
while the transcript — what a Discord user would see — is printed as it happens, in the language of
the terminal it runs in (its locale: `LC_ALL`, `LC_MESSAGES` or `LANG`, as gettext reads them), which
the emulated server and its member speak.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from bot.app import create_bot
from bot.config import Settings
from bot.live import GameListener, LiveGame
from emulator import Emulator
from emulator.model import StoredMessage, World
from emulator.ratelimits import DISCORD, RateLimits
from emulator.transcript import render_message
from engine import GAMES, Event, events_for
from lang import N_, _, language_of, said_in, speaking

GAME_TIMEOUT = 600.0
HOST = "Mia"
"""The demo's member: she opens each table, fills it with computer players and hands them her seat."""
TITLE = N_("{emoji} {game} — table #{id}")
"""A table's title, as `cogs.messages` writes it."""
NOW = N_("**Now:** {line}")
STORY = N_("What happened")
DEMO_DATABASE = Path("catnip-demo.sqlite3")
"""Where the demo keeps its games (beside the bot's own `catnip.sqlite3`, never in it), replaced by
each demo: a file to try `catnip migrate-db` on."""


def demo_language() -> str:
    """The language of the terminal the demo runs in, as gettext reads its locale ("fr_FR.UTF-8")."""
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if value := os.environ.get(variable):
            return language_of(value.split(".")[0].replace("_", "-"))
    return language_of(None)


def table_mark(language: str) -> str:
    """What a table's title says before its number ("table #" in English)."""
    return said_in(language, TITLE).split("{game}")[1].split("{id}")[0].lstrip(" —")


def is_table(message: StoredMessage, mark: str) -> bool:
    return bool(message.embeds) and mark in (message.embeds[0].get("title") or "")


def game_of(message: StoredMessage, mark: str) -> int:
    """The game a table message shows, read from its title ("… — table #12")."""
    return int(message.embeds[0]["title"].rpartition(mark)[2])


class Narrator:
    """Prints the channel as a reader would follow it: new messages in full, each table once in full
    when its game starts, then every move once, in the order committed (told by the bot itself,
    `MoveNarrator`), and the finished table once, in full. The table's own edits are not read for the
    moves: it shows only the last few, and several moves can land in one edit. A move committed before
    its table was first printed is told right after it, so no move is told before the table showing it."""

    def __init__(self, world: World, write: Callable[[str], None], language: str) -> None:
        self.world = world
        self.write = write
        self.mark = table_mark(language)
        self.now = said_in(language, NOW).partition("{line}")[0]
        self.story = said_in(language, STORY)
        self.started: set[int] = set()
        self.finished: set[int] = set()
        self.shown_games: set[int] = set()
        self.waiting: dict[int, list[str]] = {}
        """Per game whose table is not printed yet, the lines of its moves."""

    def tell(self, game_id: int, line: str) -> None:
        """A move's line: now, or once its game's table is printed."""
        if game_id in self.shown_games:
            self.write(line)
        else:
            self.waiting.setdefault(game_id, []).append(line)

    def __call__(self, kind: str, message: StoredMessage) -> None:
        if message.visible_to is not None or kind == "delete" or message.content.startswith("🔔"):
            return
        if not is_table(message, self.mark) or kind == "create":
            self.write(render_message(self.world, message, kind))
            return
        embed = message.embeds[0]
        description = embed.get("description") or ""
        if "🏆" in description and message.id not in self.finished:
            self.finished.add(message.id)
        elif not (description.startswith(self.now) and message.id not in self.started):
            return
        self.started.add(message.id)
        fields = [f for f in embed.get("fields", []) if f["name"] != self.story]  # its moves are told
        shown = dataclasses.replace(message, embeds=[{**embed, "fields": fields}])
        self.write(render_message(self.world, shown, kind))
        game_id = game_of(message, self.mark)
        self.shown_games.add(game_id)
        for line in self.waiting.pop(game_id, []):
            self.write(line)

    def moves(self) -> MoveNarrator:
        return MoveNarrator(self.tell)


class MoveNarrator:
    """A listener of the bot's games (`GameService.keep`): each committed change's public events,
    one line each, in the order committed (`tell` holds them until their table is printed)."""

    def __init__(self, tell: Callable[[int, str], None]) -> None:
        self.tell = tell

    async def lobby_changed(self, game: LiveGame) -> None:
        return None

    async def game_changed(self, game: LiveGame, events: Sequence[Event]) -> None:
        for event in events_for(events, None):
            self.tell(game.id, f"  🐾 {event.render(game.names)}")

    async def game_closed(self, game: LiveGame, reason: str) -> None:
        return None

    async def games_resumed(self, games: Sequence[LiveGame]) -> None:
        return None


async def play_demo_game(emu: Emulator, key: str, players: int, language: str) -> None:
    """Open a table as the demo's member, fill it with computer players, hand over the seat, and wait
    (the member reads the labels in `language`, the server's)."""
    host, mark = emu.member(HOST), table_mark(language)
    await (await host.slash("play", game=key)).wait_final()
    thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
    lobby = await emu.wait_for(
        lambda: next((m for m in emu.public_messages(thread) if is_table(m, mark)), None)
    )
    for _computer in range(players - 1):
        await host.select(lobby, said_in(language, "Add computer player (host)…"), ["normal"])
    await emu.settle()
    await host.click(lobby, said_in(language, "Start"))
    await emu.settle()
    await host.slash("game leave", thread)

    def finished() -> bool:
        tables = [m for m in emu.public_messages(thread) if is_table(m, mark)]
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
    listeners: Sequence[GameListener] = (),
    database: Path = DEMO_DATABASE,
    language: str | None = None,
) -> None:
    """Plays the demo games on a local emulator, which answers as Discord does, rate limits included
    (``rate_limits``: Discord's by default, so the tables move at the pace Discord allows), in
    `language` (by default the terminal's: `demo_language`). `listeners` hear of every change of the
    games, as the bot's timers do."""
    language = demo_language() if language is None else language
    out = write or (lambda text: print(text, flush=True))
    if "log_level" not in settings.model_fields_set:
        quiet_logs()
    with speaking(language):
        out(
            _(
                "No DISCORD_TOKEN is configured, so Catnip runs its offline demo: a local Discord emulator, "
                "and computer players playing one game of each kind. This is what the #games channel shows:\n"
            )
        )
    database.unlink(missing_ok=True)
    demo = settings.model_copy(
        update={
            "database_path": database,
            "computer_delay_seconds": min(settings.computer_delay_seconds, 0.1),
        }
    )
    async with Emulator.start(members=[HOST], channels=["games"], rate_limits=rate_limits) as emu:
        emu.world.guilds[emu.world.guild_id].locale = language
        emu.world.member_named(HOST).locale = language
        narrator = Narrator(emu.world, out, language)
        emu.on_message(narrator)
        with emu.point_discord_py():
            bot = create_bot(demo, guild_ready_timeout=0.05)
            for listener in (narrator.moves(), *listeners):
                bot.service.keep(listener)
            await emu.run_bot(bot)
            try:
                for key in games or tuple(GAMES):
                    count = max(GAMES[key].rules.min_players, min(players, GAMES[key].rules.max_players))
                    await play_demo_game(emu, key, count, language)
            finally:
                await bot.close()
    with speaking(language):
        out(_("\nThe demo's games are kept in {database} (until the next demo).", database=database))
        out(
            _(
                "\nThat was Catnip on a local, emulated Discord. To run it on your own server: create an "
                "application with a bot at https://discord.com/developers/applications, put its token in a "
                ".env file as DISCORD_TOKEN=... (see .env.example and the README), invite the bot, and run "
                "the same command again."
            )
        )


def quiet_logs() -> None:
    """Only warnings and errors on stderr, so the transcript reads alone (`LOG_LEVEL` asks for more)."""
    for name in ("", "catnip", "discord"):
        logging.getLogger(name).setLevel(logging.WARNING)
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # voice support missing: no matter here


if __name__ == "__main__":
    asyncio.run(run_offline(Settings(_env_file=None), write=lambda text: print(text, file=sys.stdout)))
