"""Real kills: Catnip's own OS process SIGKILLed at random moments while four games are played.

The bot runs as a separate process (`tests.e2e.bot_process`) against the emulator in this one. Each
round either kills it a few milliseconds after a member's click went out (mid-move, mid-rematch) or
while the members sit idle so that turn timers run out and computer players move (mid-timer,
mid-computer-turn). With the process dead, the SQLite file is checked; then the bot is restarted and
the tables posted before the kill are clicked again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import signal
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from emulator import Emulator
from engine import GAMES, Rng
from tests.e2e.driver import Table, table_of

KILLS = 20
SPEED = 40.0
"""The bot's clock runs this much faster: a 20 s turn timer runs out after half a second."""

GAMES_PLAYED = (  # game, human members, computer seats
    ("catsdogs", ("Ann", "Bo", "Cy"), 0),
    ("catsdogs", ("Ivy",), 0),
    ("madcat", ("Di", "Ed"), 1),
    ("catsanity", ("Flo", "Gus"), 1),
    ("ninelives", ("Hal",), 2),
)
FOOTER = re.compile(r"Game #(\d+) · move (\d+)")
ACTION_ID = re.compile(r"^cn:a:(\d+):(\d+):")
UPDATE_MESSAGE = 7


class BotProcess:
    """The bot as an OS process: started, waited for, killed with SIGKILL."""

    def __init__(self, emu: Emulator, db: Path) -> None:
        self.emu = emu
        self.db = db
        self.epoch = time.time()
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0

    async def start(self) -> None:
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.e2e.bot_process",
            "--api",
            self.emu.api_base,
            "--gateway",
            self.emu.gateway_url,
            "--db",
            str(self.db),
            "--epoch",
            repr(self.epoch),
            "--speed",
            repr(SPEED),
            stdout=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": os.getcwd()},
        )
        line = await asyncio.wait_for(self.process.stdout.readline(), 60)
        assert line.strip() == b"READY", f"the bot did not start: {line!r}"
        self.starts += 1

    async def kill(self) -> None:
        assert self.process is not None and self.process.returncode is None, "the bot died by itself"
        self.process.send_signal(signal.SIGKILL)
        assert await asyncio.wait_for(self.process.wait(), 10) == -signal.SIGKILL

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
            await self.process.wait()


@dataclass
class Witness:
    """What members were shown: the last move each game's table showed, and clicks answered with a result."""

    shown: dict[int, int] = field(default_factory=dict)

    def __call__(self, kind: str, message) -> None:
        if kind == "delete" or message.visible_to is not None or not message.embeds:
            return
        found = FOOTER.search((message.embeds[0].get("footer") or {}).get("text") or "")
        if found:
            game_id, move = int(found[1]), int(found[2])
            self.shown[game_id] = max(self.shown.get(game_id, 0), move)


def answered_action_clicks(emu: Emulator) -> list[tuple[int, int]]:
    """(game, version) of every action click answered by updating its message: what the member saw."""
    clicks = []
    for interaction in emu.world.interactions.values():
        found = ACTION_ID.match(str(interaction.data.get("custom_id", "")))
        if found and interaction.response_type == UPDATE_MESSAGE:
            clicks.append((int(found[1]), int(found[2])))
    return clicks


def check_the_file(db: Path, witness: Witness, clicks: list[tuple[int, int]]) -> dict[int, int]:
    """With the bot dead: every move shown is logged once, gapless, and the snapshot is the log's replay.
    Returns the number of logged moves per game."""
    with contextlib.closing(sqlite3.connect(db)) as con:
        games = con.execute(
            "SELECT id, game, options, seed, status, version FROM games WHERE seed IS NOT NULL"
        ).fetchall()
        logged: dict[int, int] = {}
        for game_id, key, options, seed, status, version in games:
            moves = con.execute(
                "SELECT seq, seat, action FROM moves WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
            assert [m[0] for m in moves] == list(range(1, len(moves) + 1)), f"game {game_id}: gap in log"
            assert version == len(moves) + 1, f"game {game_id}: version {version}, {len(moves)} moves"
            seats = con.execute("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,)).fetchone()[0]
            rules = GAMES[key].rules
            replayed = rules.replay(
                seats, seed, rules.make_options(json.loads(options)), [(m[1], m[2]) for m in moves]
            )
            seq, state = con.execute(
                "SELECT seq, state FROM snapshots WHERE game_id = ?", (game_id,)
            ).fetchone()
            assert seq == len(moves), f"game {game_id}: snapshot at move {seq} of {len(moves)}"
            assert rules.State.model_validate_json(state) == replayed, f"game {game_id}: snapshot ≠ replay"
            assert (status == "finished") == (rules.outcome(replayed) is not None), f"game {game_id}"
            logged[game_id] = len(moves)
    for game_id, move in witness.shown.items():
        assert logged.get(game_id, 0) >= move, f"game {game_id}: move {move} was shown but not saved"
    for game_id, version in clicks:
        assert logged.get(game_id, 0) >= version, f"game {game_id}: click at {version} answered, unsaved"
    return logged


async def open_game(emu: Emulator, key: str, names: tuple[str, ...], computers: int, rng: Rng) -> Table:
    members = [emu.member(name) for name in names]
    await (await members[0].slash("play", game=key)).wait_final()
    thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
    lobby = await emu.wait_for(lambda: table_of(emu, thread))
    for member in members[1:]:
        assert (await member.click(lobby, "Join")).ok
    for _ in range(computers):
        assert (await members[0].select(lobby, "Add computer player (host)…", ["normal"])).ok
    await emu.settle(idle=0.02)
    assert (await members[0].click(lobby, "Start")).ok
    await emu.settle(idle=0.02)
    return Table(emu, thread, members, rng)


async def act(table: Table, *, wait: bool = True):
    """One member's move at `table`; at a finished table its host asks for a rematch."""
    if table.over():
        return await table.members[0].click(table.table(), "Rematch", wait=wait)
    return await table.step(wait=wait)


def killed_mid_click(emu: Emulator, unanswered: set[int]) -> None:
    """The only broken rule may be the 3 s deadline of the clicks the kill left unanswered."""
    for violation in emu.take_violations():
        assert violation.rule == "deadline", violation
        assert violation.where in {f"interaction {i}" for i in unanswered}, violation


async def old_buttons_work(tables: list[Table], before: dict[int, object]) -> None:
    """The My hand / My view button of each table shown before the kill answers: the private view, or
    that the game has finished meanwhile. (With the bot's clock
    sped up a table may legitimately have been posted again for being old; then the new one is used.)"""
    for table in tables:
        old = before[id(table)]
        message = old if not table.emu.message(old.id).deleted else table.table()
        view = next((b for b in message.buttons() if b.get("custom_id", "").startswith("cn:v:")), None)
        if view is None:
            continue
        result = await table.members[0].click(message, view["custom_id"], force=True)
        assert result.ok, result.failed
        reply = result.message
        assert reply is not None and reply.ephemeral
        assert reply.embeds or reply.content.startswith("That game is finished"), reply.content


async def test_twenty_real_kills_lose_no_acknowledged_move_and_apply_none_twice(tmp_path: Path) -> None:
    names = [name for _, humans, _ in GAMES_PLAYED for name in humans]
    rng = random.Random(20)
    witness = Witness()
    async with Emulator.start(members=names) as emu:
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
                if round_ % 2 == 0:
                    for _ in range(rng.randrange(6, 24)):
                        await act(rng.choice(tables))
                    click = await act(rng.choice(tables), wait=False)
                    await asyncio.sleep(rng.uniform(0, 0.05))
                    in_flight += click is not None and click.response_type is None
                else:
                    await asyncio.sleep(rng.uniform(0.3, 2.0))
                before = {id(t): t.table() for t in tables}
                await bot.kill()
                unanswered = {i.id for i in emu.world.interactions.values() if i.response_type is None}
                await asyncio.sleep(0.05)
                logged = check_the_file(bot.db, witness, answered_action_clicks(emu))
                finished += sum(1 for t in tables if t.over())
                await bot.start()
                await emu.settle(idle=0.05, timeout=15)
                await old_buttons_work(tables, before)
                killed_mid_click(emu, unanswered)
            assert bot.starts == KILLS + 1
            assert sum(logged.values()) > 4 * KILLS, "the games hardly moved between kills"
            assert finished and len(logged) > len(tables), "no kill at a game's end, or no rematch"
            assert in_flight, "no kill landed while a click was being answered"
        finally:
            await bot.stop()
