"""Catnip as real OS processes against the emulator in the test's process, and what a kill must keep.

`BotProcess` starts `tests.e2e.bot_process` (the real bot, its clock sped up) and kills it with
SIGKILL or stops it with SIGTERM; the emulator's `settle` asks it whether it is done, as it does a bot
of its own. Each start is a process forked from one that imported the bot once
(tests/e2e/forked_bots.py): it costs the bot's start, not its imports, again. `Witness` records what
members were shown; `check_saved` reads the database back through a store of its own and checks that
nothing shown was lost or doubled.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

import pictures.process
from bot.storage import GameNotFound, GameStore
from emulator import Emulator, RemoteState
from emulator.ratelimits import DISCORD
from engine import GAMES
from engine.history import replay
from tests.e2e.driver import opened_panel
from tests.e2e.forked_bots import ForkedProcess, ForkServer

SPEED = 60.0
"""The bot's clock runs this much faster: a 20 s turn timer runs out after a third of a second."""
DISCORD_AT_SPEED = DISCORD.scaled(1 / SPEED)
"""Discord's rate limits, their windows as much shorter as the bot's clock is faster."""
NO_PICTURES = {"PICTURES": "off"}
"""The README's setting that turns the tables' pictures off, for the bot processes of tests about what a
fleet, an outage or a backup keeps: none of them starts a drawing process beside each bot. The pictures
are tests/e2e/test_pictures.py's subject, and tests/e2e/test_real_kills.py keeps them on through its
kills."""

FOOTER = re.compile(r"Game #(\d+) · move (\d+)")
ACTION_ID = re.compile(r"^cn:[ac]:(\d+):(\d+):")  # a move, or a costly move's second tap
UPDATE_MESSAGE = 7


class BotProcess:
    """The bot as an OS process: started and waited for, killed with SIGKILL or stopped with SIGTERM."""

    def __init__(
        self, emu: Emulator, db: Path, *, epoch: float | None = None, keep_logs: bool = False, **env: str
    ) -> None:
        self.emu = emu
        self.keep_logs = keep_logs
        self.logs: list[list[str]] = []
        """With `keep_logs`: the lines each start of the process wrote to stderr, as they come."""
        self.db = db
        self.epoch = time.time() if epoch is None else epoch
        self.env = env
        self.process: ForkedProcess | None = None
        self.starts = 0
        self.games: set[int] = set()
        """The games it said it runs when it was ready."""
        self._readers: set[asyncio.Task] = set()
        self._asking = asyncio.Lock()
        self.ready = False
        self.kills_with_drawing = 0
        """How many kills found the bot's drawing process running (and saw it end with the bot)."""
        emu.remote_bots.append(self.state)

    async def start(self) -> None:
        self.ready = False
        arguments = ["--api", self.emu.api_base, "--gateway", self.emu.gateway_url, "--db", str(self.db)]
        arguments += ["--epoch", repr(self.epoch), "--speed", repr(SPEED)]
        self.process = await ForkServer.running().start(
            arguments, {**os.environ, "PYTHONPATH": os.getcwd(), **self.env}, stderr=self.keep_logs
        )
        if self.keep_logs:
            self.logs.append([])
            self._readers.add(asyncio.create_task(_collect(self.process.stderr, self.logs[-1])))
        line = await asyncio.wait_for(self.process.stdout.readline(), 60)
        assert line.startswith(b"READY"), f"the bot did not start: {line!r}"
        self.games = {int(word) for word in line.split()[1:]}
        self.ready = True
        self.starts += 1

    async def state(self) -> RemoteState | None:
        """What the running bot says of itself (None while it is not running or not ready)."""
        async with self._asking:
            process = self.process
            if process is None or process.returncode is not None or not self.ready:
                return None
            try:
                process.stdin.write(b"state\n")
                await process.stdin.drain()
                line = await process.stdout.readline()
            except (BrokenPipeError, ConnectionResetError):
                return None
            return RemoteState.parse(line.decode()) if line else None

    async def kill(self) -> None:
        """SIGKILL, and wait until the processes the bot started (its drawing process) are gone too:
        none is left running without its bot."""
        assert self.process is not None and self.process.returncode is None, "the bot died by itself"
        children = watch_children(self.process.pid)
        try:
            self.process.send_signal(signal.SIGKILL)
            assert await asyncio.wait_for(self.process.wait(), 10) == -signal.SIGKILL
            left = await outlived(children, 10)
            assert not left, f"processes the killed bot started still run: {left}"
        finally:
            for watched in children.values():
                os.close(watched.pidfd)
        self.kills_with_drawing += any(w.name == pictures.process.NAME for w in children.values())

    async def stop(self) -> None:
        """SIGTERM: a clean stop (leases released); exit code 0."""
        assert self.process is not None and self.process.returncode is None, "the bot died by itself"
        self.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(self.process.wait(), 20) == 0

    async def ensure_dead(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
            await self.process.wait()


@dataclass(frozen=True)
class Watched:
    """A child process of the bot: its name, and a pidfd that becomes readable when it exits."""

    name: str
    pidfd: int


def watch_children(parent: int) -> dict[int, Watched]:
    """`parent`'s child processes, by pid, each watched through a pidfd (Linux: /proc, pidfd_open),
    opened while `parent` still runs so no other process can have taken the pid."""
    watched = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:  # gone meanwhile
            continue
        name, _, rest = text.partition(" (")[2].rpartition(")")
        if int(rest.split()[1]) != parent:
            continue
        pid = int(stat.parent.name)
        try:
            watched[pid] = Watched(name, os.pidfd_open(pid))
        except ProcessLookupError:
            continue
    return watched


async def outlived(children: dict[int, Watched], seconds: float) -> dict[int, str]:
    """The children still running after `seconds` (waiting on each one's exit, not on a clock)."""
    if not children:
        return {}
    loop = asyncio.get_running_loop()
    exits = {}
    for pid, watched in children.items():
        exits[pid] = loop.create_future()
        loop.add_reader(watched.pidfd, lambda done=exits[pid]: done.done() or done.set_result(None))
    try:
        await asyncio.wait(exits.values(), timeout=seconds)
    finally:
        for watched in children.values():
            loop.remove_reader(watched.pidfd)
    return {pid: children[pid].name for pid, done in exits.items() if not done.done()}


async def _collect(stream: asyncio.StreamReader, lines: list[str]) -> None:
    async for line in stream:
        lines.append(line.decode(errors="replace").rstrip())


@dataclass
class Witness:
    """The last move each game's public table showed (its footer says "Game #g · move n")."""

    shown: dict[int, int] = field(default_factory=dict)

    def __call__(self, kind: str, message) -> None:
        if kind == "delete" or message.visible_to is not None or not message.embeds:
            return
        found = FOOTER.search((message.embeds[0].get("footer") or {}).get("text") or "")
        if found:
            game_id, move = int(found[1]), int(found[2])
            self.shown[game_id] = max(self.shown.get(game_id, 0), move)


def answered_action_clicks(emu: Emulator) -> list[tuple[int, int]]:
    """(game, version) of every move click answered by updating its message with the move's result: what
    the member saw. A costly move's first tap, answered by the question that asks for its second
    (a confirm button of the same game and version), made no move."""
    clicks = []
    for interaction in emu.world.interactions.values():
        found = ACTION_ID.match(str(interaction.data.get("custom_id", "")))
        if not found or interaction.response_type != UPDATE_MESSAGE:
            continue
        asked = f"cn:c:{found[1]}:{found[2]}:"
        if not any(offered.startswith(asked) for offered in interaction.offered):
            clicks.append((int(found[1]), int(found[2])))
    return clicks


def unanswered(emu: Emulator) -> set[int]:
    return {i.id for i in emu.world.interactions.values() if i.response_type is None}


def only_killed_clicks_failed(emu: Emulator, killed: set[int]) -> None:
    """The only broken rule may be the 3 s deadline of the clicks a kill left unanswered."""
    for violation in emu.take_violations():
        assert violation.rule == "deadline", violation
        assert violation.where in {f"interaction {i}" for i in killed}, violation


async def check_saved(
    store: GameStore, witness: Witness, clicks: list[tuple[int, int]], games: set[int] | None = None
) -> dict[int, int]:
    """With the processes running `games` (None: every game) dead or stopped: each started game's log
    is gapless, its version counts its moves, its snapshot is its log's replay, it is finished exactly
    when its replay is over, every move a table showed is logged and every click answered with a
    result was saved. Returns the number of logged moves per game checked."""
    logged: dict[int, int] = {}
    game_id, missing = 0, 0
    while missing < 3:
        game_id += 1
        try:
            record = await store.games.get_game(game_id)
        except GameNotFound:
            missing += 1
            continue
        missing = 0
        if record.seed is None or (games is not None and game_id not in games):
            continue
        moves = await store.games.moves(game_id)
        assert [m.seq for m in moves] == list(range(1, len(moves) + 1)), f"game {game_id}: gap in its log"
        assert record.version == len(moves) + 1, f"game {game_id}: {len(moves)} moves, v{record.version}"
        rules = GAMES[record.game].rules
        log = [(m.seat, m.action) for m in moves]
        replayed = replay(rules, len(record.seats), record.seed, rules.make_options(record.options), log)
        state_json, _ = await store.games.load_state_json(game_id)
        assert state_json is not None, f"game {game_id}: its snapshot is behind its log"
        assert rules.State.model_validate_json(state_json) == replayed, f"game {game_id}: snapshot ≠ replay"
        over = rules.outcome(replayed) is not None
        assert (record.status == "finished") == over or record.status == "abandoned", f"game {game_id}"
        logged[game_id] = len(moves)
    for game_id, move in witness.shown.items():
        if game_id in logged:
            assert logged[game_id] >= move, f"game {game_id}: move {move} was shown but not saved"
    for game_id, version in clicks:
        if game_id in logged:
            assert logged[game_id] >= version, f"game {game_id}: click at {version} answered, unsaved"
    return logged


async def old_buttons_answer(tables: list, before: dict[int, object]) -> None:
    """The My hand / My view button of each table (`tests.e2e.driver.Table`) shown before a kill or a
    restart answers: the private view, or that the game has finished meanwhile. (With the bot's clock
    sped up a table may legitimately have been posted again for being old; then the new one is used.)"""
    for table in tables:
        old = before[id(table)]
        message = old if not table.emu.message(old.id).deleted else table.table()
        view = next((b for b in message.buttons() if b.get("custom_id", "").startswith("cn:v:")), None)
        if view is None:
            continue
        result = await table.members[0].click(message, view["custom_id"], force=True)
        assert result.ok, result.failed
        reply = await opened_panel(result)  # after a restart no token edits the table: a followup
        assert reply is not None and reply.ephemeral
        assert reply.embeds or reply.content.startswith("That game is finished"), reply.content
