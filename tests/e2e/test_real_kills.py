"""Real kills: Catnip's own OS process SIGKILLed at random moments while four games are played.

The bot runs as a separate process (`tests.e2e.bot_process`) against the emulator in this one. Each
round either kills it a few milliseconds after a member's click went out (mid-move, mid-rematch) or
while the members sit idle so that turn timers run out and computer players move (mid-timer,
mid-computer-turn). With the process dead, the SQLite file is checked; then the bot is restarted and
the tables posted before the kill are clicked again (`tests.e2e.processes` says what is checked).
No process the bot started (its pictures' drawing process) outlives it.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bot.storage import SqliteGameStore
from emulator import Emulator
from engine import Rng
from tests.e2e.driver import Table, start_enabled, table_of
from tests.e2e.processes import (
    DISCORD_AT_SPEED,
    BotProcess,
    Witness,
    answered_action_clicks,
    check_saved,
    old_buttons_answer,
    only_killed_clicks_failed,
    unanswered,
)

KILLS = 20
FINISH_AT = KILLS // 2
STUCK_AFTER = 20
"""Times in a row the bot may be idle with nothing for the solo member to click before the game counts
as stuck (a computer's pause runs on the bot's own clock, which settling does not wait through)."""
"""In this round the solo table is played to its end before the kill; two rounds later it is rematched."""

GAMES_PLAYED = (  # game, human members, computer seats
    ("catsdogs", ("Ann", "Bo", "Cy"), 0),
    ("catsdogs", ("Ivy",), 0),
    ("madcat", ("Di", "Ed"), 1),
    ("catsanity", ("Flo", "Gus"), 1),
    ("ninelives", ("Hal",), 2),
)


async def saved_in(db: Path, witness: Witness, clicks: list[tuple[int, int]]) -> dict[int, int]:
    store = SqliteGameStore(db)
    await store.open()
    try:
        return await check_saved(store, witness, clicks)
    finally:
        await store.close()


async def open_game(emu: Emulator, key: str, names: tuple[str, ...], computers: int, rng: Rng) -> Table:
    members = [emu.member(name) for name in names]
    await (await members[0].slash("play", game=key)).wait_final()
    thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
    lobby = await emu.wait_for(lambda: table_of(emu, thread))
    for member in members[1:]:
        assert (await member.click(lobby, "Join")).ok
    for _ in range(computers):
        assert (await members[0].select(lobby, "Add computer player (host)…", ["normal"])).ok
    await emu.settle()
    await emu.wait_for(lambda: start_enabled(emu.message(lobby.id)))
    assert (await members[0].click(lobby, "Start")).ok
    await emu.settle()
    return Table(emu, thread, members, rng)


async def act(table: Table, *, wait: bool = True):
    """One member's move at `table`; at a finished table its host asks for a rematch."""
    if table.over():
        return await table.members[0].click(table.table(), "Rematch", wait=wait)
    return await table.step(wait=wait)


async def play_to_the_end(table: Table) -> None:
    """Its member's moves until the game is over; while nothing is theirs to click (the bot is
    showing the table or a computer's pause runs), they wait for the bot to be done with what it was
    told (`settle`, an explicit signal, however slow the machine). A game that still offers nothing
    to click once the bot is idle, time after time, waits on nobody: stuck."""
    idle_and_nothing_to_click = 0
    while not table.over():
        if await table.step() is not None:
            idle_and_nothing_to_click = 0
            continue
        await table.emu.settle()
        idle_and_nothing_to_click += 1
        assert idle_and_nothing_to_click <= STUCK_AFTER, f"the solo game stopped moving: {stuck_at(table)}"


def stuck_at(table: Table) -> str:
    """What the member saw when the game stopped moving: the table's status and footer, its pings, and
    the controls of their private panel (to tell a game waiting on nobody from clicks going nowhere)."""
    shown = table.table()
    embed = shown.embeds[0] if shown is not None and shown.embeds else {}
    panel = table.emu.message(next(iter(table.panels.values()))) if table.panels else None
    pings = [m.content[:80] for m in table.emu.public_messages(table.channel) if m.content.startswith("🔔")]
    controls = [c.get("custom_id") for c in panel.interactive()] if panel is not None else None
    return (
        f"table {embed.get('description', '')[:200]!r}, footer {embed.get('footer')}, pings {pings}, "
        f"panel controls {controls}, {table.interactions} interactions"
    )


async def test_twenty_real_kills_lose_no_acknowledged_move_and_apply_none_twice(tmp_path: Path) -> None:
    names = [name for _, humans, _ in GAMES_PLAYED for name in humans]
    rng = random.Random(20)
    witness = Witness()
    async with Emulator.start(members=names, rate_limits=DISCORD_AT_SPEED) as emu:
        emu.on_message(witness)
        bot = BotProcess(emu, tmp_path / "catnip.sqlite3")
        await bot.start()
        try:
            tables = [
                await open_game(emu, key, humans, computers, Rng.seeded(index))
                for index, (key, humans, computers) in enumerate(GAMES_PLAYED)
            ]
            finished = in_flight = 0
            for round_ in range(KILLS):
                if round_ == FINISH_AT:
                    await play_to_the_end(tables[1])
                elif round_ % 2 == 0:
                    if round_ == FINISH_AT + 2:
                        await act(tables[1])
                    for _ in range(rng.randrange(4, 16)):
                        await act(rng.choice(tables))
                    click = await act(rng.choice(tables), wait=False)
                    await asyncio.sleep(rng.uniform(0, 0.03) if round_ else 0)
                    in_flight += click is not None and click.response_type is None
                else:
                    await asyncio.sleep(rng.uniform(0.2, 1.2))
                before = {id(t): t.table() for t in tables}
                await bot.kill()
                killed = unanswered(emu)
                await asyncio.sleep(0.05)
                logged = await saved_in(bot.db, witness, answered_action_clicks(emu))
                finished += sum(1 for t in tables if t.over())
                await bot.start()
                await emu.settle()
                await old_buttons_answer(tables, before)
                only_killed_clicks_failed(emu, killed)
            assert bot.starts == KILLS + 1
            # Every kill waited for the bot's own processes to end with it (`BotProcess.kill`).
            assert bot.kills_with_drawing, "no kill found the pictures' drawing process running"
            assert sum(logged.values()) > 4 * KILLS, "the games hardly moved between kills"
            assert finished and len(logged) > len(tables), "no kill at a game's end, or no rematch"
            assert in_flight, "no kill landed while a click was being answered"
        finally:
            await bot.ensure_dead()
