"""Simulated members playing Catnip over the emulated Discord, only through commands, buttons and selects:
the e2e tests' members, and `bench.request_budget`'s."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from bot.app import CatnipBot, create_bot
from bot.config import Settings
from emulator import Emulator
from emulator.ratelimits import DISCORD
from engine import Rng
from lang import SOURCE, said_in

MEMBERS = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]
# Members here click as fast as the bot answers, dozens of times a second; under Discord's windows
# (5 messages per 5 s per channel) each game would take a second a move. Their emulator keeps Discord's
# buckets, counts, headers and 429s with their windows 100 times shorter; tests/e2e/test_rate_limits.py
# plays at human and computer speed under the real figures.
FAST_DISCORD = DISCORD.scaled(0.01)
FAST_DRAWING = 1.0
"""The share of a core the bot's pictures may take here (PICTURE_CPU_SHARE): these members click at
machine speed, many times a human's pace, so the drawing budget is widened as FAST_DISCORD shortens
Discord's windows; at the bot's default each table's refresh would wait for the budget to draw its
picture."""
ACTION = re.compile(r"^cn:(a|s|m|pg|c):")
DEFERRED_UPDATE = 6
PANEL_TRIES = 5
"""Clicks on "My hand" before a member gives up: Discord may lose a click's token before its panel
follows (`emulator.lost_tokens.LostTokens`), and the member, seeing nothing, clicks again."""


def settings_for(
    db: Path, pictures: bool = False, database_url: str | None = None, picture_cpu_share: float = FAST_DRAWING
) -> Settings:
    """The bot's settings for these members; tables show no pictures unless a test asks for them (drawing them
    costs CPU that tests of the table's text do not need). With `database_url` the games are kept in
    that PostgreSQL database instead of the SQLite file `db`."""
    return Settings(
        discord_token="emulator-token",
        database_path=db,
        database_url=database_url,
        computer_delay_seconds=0,
        pictures=pictures,
        picture_cpu_share=picture_cpu_share,
        _env_file=None,
    )


class EmulatorClock:
    """The bot's clock follows the emulator's, so tests can age messages and timers together."""

    def __init__(self, emu: Emulator) -> None:
        self.emu = emu

    def now(self) -> float:
        return self.emu.world.clock.time()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


async def start_catnip(
    emu: Emulator, db: Path, seed: int = 1, pictures: bool = False, database_url: str | None = None
) -> CatnipBot:
    counter = iter(range(seed * 1000, seed * 1000 + 1000))
    bot = create_bot(
        settings_for(db, pictures, database_url),
        guild_ready_timeout=0.05,
        seed_source=lambda: next(counter),
        clock=EmulatorClock(emu),
    )
    await emu.run_bot(bot)
    # The bot counts its webhook requests in Discord's windows; against shortened ones, alike.
    webhook = emu.server.limiter.limits.webhook
    if webhook is not None and DISCORD.webhook is not None:
        bot.presenter.writer.writer.window_scale = webhook[1] / DISCORD.webhook[1]
    return bot


@contextlib.asynccontextmanager
async def catnip(
    tmp_path: Path,
    members=MEMBERS,
    pictures: bool = False,
    database_url: str | None = None,
    **emulator_options,
) -> AsyncIterator[tuple[Emulator, CatnipBot]]:
    emulator_options.setdefault("rate_limits", FAST_DISCORD)
    async with Emulator.start(members=members, **emulator_options) as emu:
        with emu.point_discord_py():
            bot = await start_catnip(
                emu, tmp_path / "catnip.sqlite3", pictures=pictures, database_url=database_url
            )
            try:
                yield emu, bot
            finally:
                await bot.close()


def table_of(emu: Emulator, channel) -> object | None:
    """The current table message in `channel`: the newest public message with a Catnip table embed."""
    for message in reversed(emu.public_messages(channel)):
        if message.embeds and "table #" in (message.embeds[0].get("title") or ""):
            return message
    return None


@dataclass
class Table:
    emu: Emulator
    channel: object
    members: list
    rng: Rng
    language: str = SOURCE
    """The table's language, whose labels the members read."""
    panels: dict[int, int] = field(default_factory=dict)
    interactions: int = 0
    refusals: int = 0

    def table(self):
        return table_of(self.emu, self.channel)

    def over(self) -> bool:
        table = self.table()
        rematch = said_in(self.language, "Rematch")
        return table is not None and any(b.get("label") == rematch for b in table.buttons())

    def to_act(self) -> list:
        """Members pinged to act right now (the turn pings), else everyone."""
        pinged = set()
        for message in self.emu.public_messages(self.channel):
            if message.content.startswith("🔔"):
                pinged |= {int(uid) for uid in re.findall(r"<@(\d+)>", message.content)}
        chosen = [m for m in self.members if m.id in pinged]
        return chosen or list(self.members)

    async def step(self, *, wait: bool = True):
        """One member to act makes one random choice among the controls they can see; the click's result.

        Without `wait` the choice is sent and its result returned at once, unanswered yet."""
        member, self.rng = self.rng.choice(self.to_act())
        table = self.table()
        options = [c for c in table.interactive() if ACTION.match(c.get("custom_id", ""))]
        source = table
        if not options:
            panel = await self.panel(member)
            if panel is None:
                return None
            source = panel
            options = [c for c in panel.interactive() if ACTION.match(c.get("custom_id", ""))]
            options = [c for c in options if not c.get("disabled")]
            if not options:
                return None
        component, self.rng = self.rng.choice(options)
        if component["type"] == 2:
            result = await member.click(source, component["custom_id"], wait=wait)
        else:
            values, self.rng = self.rng.shuffled([o["value"] for o in component["options"]])
            low, high = component.get("min_values", 1), min(component.get("max_values", 1), len(values))
            count, self.rng = self.rng.below(high - low + 1)
            chosen = list(values[: low + count])
            result = await member.select(source, component["custom_id"], chosen, wait=wait)
        self.interactions += 1
        if not wait:
            return result
        assert result.ok, f"{member.name}'s click was not answered in time: {result.failed}"
        if result.message is not None and result.message.ephemeral and result.response_type == 4:
            self.refusals += 1
        await self.emu.settle(timeout=10)
        return result

    async def panel(self, member):
        """The member's private panel: the one they have, or a fresh one from "My hand / My view"."""
        known = self.panels.get(member.id)
        table = self.table()
        if known is not None:
            message = self.emu.message(known)
            # A panel of the game before a rematch is kept no longer: its clicks would be refused.
            game = next((c.split(":")[2] for c in table.custom_ids() if c.startswith("cn:v:")), None)
            if any(ACTION.match(c) and c.split(":")[2] == game for c in message.custom_ids()):
                return message
        view_button = next((b for b in table.buttons() if b.get("custom_id", "").startswith("cn:v:")), None)
        if view_button is None:
            return None
        for _attempt in range(PANEL_TRIES):
            result = await member.click(table, view_button["custom_id"])
            self.interactions += 1
            assert result.ok, result.failed
            panel = await opened_panel(result)
            if not result.token_lost:
                break
        if panel is None or not panel.embeds:
            return None
        self.panels[member.id] = panel.id
        return panel


async def opened_panel(result):
    """The private panel a "My hand / My view" click opened: its reply, or (when the bot acknowledged
    the click as an update of the table, to keep the click's token for the table) its followup."""
    if result.response_type == DEFERRED_UPDATE:
        return await result.wait_followup()
    return result.message


def start_enabled(lobby, language: str = SOURCE) -> bool:
    start = said_in(language, "Start")
    return any(b.get("label") == start and not b.get("disabled") for b in lobby.buttons())


async def open_table(
    emu: Emulator,
    key: str,
    players: int,
    *,
    computers: int = 0,
    channel: str = "games",
    names=MEMBERS,
    language: str = SOURCE,
):
    """`/play` in `channel`, joins and Start through the emulated Discord; returns the thread and the
    members (the first `players` of `names`); the lobby's labels read in `language`, the server's."""
    members = [emu.member(name) for name in names[:players]]
    host = members[0]
    result = await host.slash("play", channel, game=key)
    assert result.ok
    await result.wait_final()
    thread = await emu.wait_for(lambda: (emu.threads(channel) or [None])[-1])
    lobby = await emu.wait_for(lambda: table_of(emu, thread))
    for member in members[1:]:
        assert (await member.click(lobby, said_in(language, "Join"))).ok
    for _computer in range(computers):
        assert (await host.select(lobby, said_in(language, "Add computer player (host)…"), ["easy"])).ok
    await emu.settle()
    # A bot in another process may not have shown the last seat taken yet: Start waits for it.
    await emu.wait_for(lambda: start_enabled(emu.message(lobby.id), language))
    assert (await host.click(lobby, said_in(language, "Start"))).ok
    await emu.settle()
    return thread, members
