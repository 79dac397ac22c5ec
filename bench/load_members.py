"""The emulator side of `bench.bot_load`: a local Discord whose simulated members play as fast as they can.

    python -m bench.load_members --members 400 [--rate-limit 100000] [--port 0]

Runs in its own process, so the members' cost never lands in the bot's measurements. Prints
`EMULATOR <url>` like `python -m emulator`, serves the same REST, gateway and control API,
and adds two routes that `bench.bot_load` calls:

    POST /_bench/open  {"game", "players", "games", "first", "concurrency"}
        /play, Join and Start through the emulated Discord for `games` tables, members taken in
        groups of `players` from group `first` on; answers once every table shows its first turn.
    POST /_bench/play  {"seconds", "rematch", "stall", "seed", "stagger"}
        every seated member acts as soon as the table pings them (or their own panel still offers a
        choice): "My hand" on the table, then a random legal card on the private panel. Finished
        tables start a rematch. Each table starts after a random delay of up to `stagger` seconds
        (default 0: every table's first turn at once). Answers with every interaction's kind and
        initial-response latency.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import random
import re
import resource
import signal
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from emulator import Emulator
from emulator.callbacks import DEFERRED_UPDATE, UPDATE_MESSAGE, fail
from emulator.model import Interaction, StoredMessage
from emulator.users import InteractionResult, InvalidInvocation, Invoker, SimulatedMember

TABLE_TITLE = re.compile(r"table #(\d+)")
MENTION = re.compile(r"<@(\d+)>")
CHANNEL_MENTION = re.compile(r"<#(\d+)>")
ACTION = re.compile(r"^cn:(a|s|m):")
ANSWER_TIMEOUT = 10.0


async def _watch_deadline(self: Invoker, interaction: Interaction) -> None:
    """The emulator's 3 s watch on one interaction, waiting once instead of polling every 50 ms.

    The emulator's own watcher wakes every 50 ms per unanswered interaction, which is thousands
    of wake-ups a second when hundreds of clicks are pending at once: the emulator would then
    be the one falling behind. This process never moves the emulator's clock, so one wait for
    the deadline is the same watch.
    """
    world = self.world
    remaining = interaction.created_at + world.response_deadline - world.now()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(interaction.answered.wait(), max(remaining, 0.0))
    if interaction.response_type is None and interaction.failed is None:
        fail(world, interaction, f"no initial response within {world.response_deadline:g} s")


Invoker._watch = _watch_deadline


def member_names(count: int) -> list[str]:
    return [f"P{index:05d}" for index in range(count)]


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class Table:
    """One thread with one Catnip table in it, as its members see it."""

    thread_id: int
    members: list[SimulatedMember] = field(default_factory=list)
    table: StoredMessage | None = None  # the newest table message in the thread
    game_id: int = 0
    ping: StoredMessage | None = None  # the current turn ping
    acted_on: int = 0  # the ping already acted on
    rematched: int = 0  # the finished game a rematch was asked for
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    last_move: float = 0.0
    moved_at: float | None = None  # when the last card click was answered (emulator time)

    @property
    def pinged(self) -> set[int]:
        if self.ping is None or self.ping.deleted or self.ping.id == self.acted_on:
            return set()
        return {int(user) for user in MENTION.findall(self.ping.content)}

    def over(self) -> bool:
        return self.table is not None and any(b.get("label") == "Rematch" for b in self.table.buttons())


class LoadDriver:
    """Opens tables and plays them through the emulator's simulated members."""

    def __init__(self, emulator: Emulator) -> None:
        self.emu = emulator
        self.world = emulator.world
        self.users = {user.name: user for user in self.world.members.values()}
        self.tables: dict[int, Table] = {}
        self.records: list[tuple[str, str, Interaction]] = []  # (phase, kind, interaction)
        self.phase = "setup"
        self.errors: list[str] = []
        self.moves = 0
        self.handoffs: list[tuple[float, float]] = []  # (when, a card's result shown -> next ping posted)
        self.shown: list[tuple[float, float]] = []  # (when, a card click -> its result shown on the panel)
        self.play_started = 0.0
        self.stalls = 0
        self.rematches = 0
        self.rng = random.Random(1)
        self.world.listeners.append(self._seen)

    def member(self, name: str) -> SimulatedMember:
        return SimulatedMember(self.world, self.emu.invoker, self.users[name])

    # what the members see -------------------------------------------------------------------------

    def _seen(self, kind: str, message: StoredMessage) -> None:
        if message.visible_to is not None or message.author_id != self.world.bot.id:
            return
        table = self.tables.get(message.channel_id)
        if table is None:
            table = self.tables[message.channel_id] = Table(message.channel_id)
        if kind == "create":
            title = (message.embeds[0].get("title") or "") if message.embeds else ""
            found = TABLE_TITLE.search(title)
            if found and int(found[1]) >= table.game_id:
                table.table, table.game_id = message, int(found[1])
            elif message.content.startswith("🔔"):
                table.ping = message
                if table.moved_at is not None and self.phase == "play":
                    self.handoffs.append(
                        (message.created_at - self.play_started, message.created_at - table.moved_at)
                    )
                table.moved_at = None
        table.changed.set()

    # interactions ---------------------------------------------------------------------------------

    async def _answered(self, kind: str, started) -> Any:
        result = await started
        self.records.append((self.phase, kind, result.interaction))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(result.interaction.answered.wait(), ANSWER_TIMEOUT)
        return result

    async def click(self, kind: str, member: SimulatedMember, message: StoredMessage, target: str) -> Any:
        return await self._answered(kind, member.click(message, target, wait=False))

    async def select(
        self, kind: str, member: SimulatedMember, message: StoredMessage, target: str, values: list[str]
    ) -> Any:
        return await self._answered(kind, member.select(message, target, values, wait=False))

    # opening tables ---------------------------------------------------------------------------------

    async def open_tables(
        self, game: str, players: int, games: int, first: int, concurrency: int
    ) -> dict[str, Any]:
        names = member_names(len(self.users))
        gate = asyncio.Semaphore(concurrency)
        started = time.perf_counter()
        failures: list[str] = []

        async def open_one(group: int) -> None:
            members = [self.member(name) for name in names[group * players : (group + 1) * players]]
            async with gate:
                try:
                    await self._open(game, members)
                except Exception as error:  # reported, not raised: one table must not stop the rest
                    failures.append(f"{members[0].name}: {type(error).__name__}: {error}")

        await asyncio.gather(*(open_one(group) for group in range(first, first + games)))
        return {"opened": games - len(failures), "seconds": time.perf_counter() - started, "failed": failures}

    async def _open(self, game: str, members: list[SimulatedMember]) -> None:
        host = members[0]
        result = await self._answered("slash /play", host.slash("play", game=game, wait=False))
        final = await result.wait_final(timeout=ANSWER_TIMEOUT)
        thread_id = int(CHANNEL_MENTION.search(final.content)[1])
        table = await self._wait(lambda: self.tables.get(thread_id) and self.tables[thread_id].table)
        self.tables[thread_id].members = members
        for member in members[1:]:
            await self.click("lobby join", member, table, "Join")
        await self.click("lobby start", host, self.tables[thread_id].table, "Start")
        await self._wait(lambda: self.tables[thread_id].ping is not None)

    async def _wait(self, predicate, timeout: float = ANSWER_TIMEOUT) -> Any:
        deadline = time.perf_counter() + timeout
        while not (value := predicate()):
            if time.perf_counter() > deadline:
                raise TimeoutError("the table did not appear in time")
            await asyncio.sleep(0.01)
        return value

    # playing ------------------------------------------------------------------------------------------

    async def play(
        self, seconds: float, rematch: bool, stall: float, seed: int, stagger: float = 0.0
    ) -> dict[str, Any]:
        self.rng = random.Random(seed)
        self.phase = "play"
        first_record = len(self.records)
        tables = [table for table in self.tables.values() if table.members]
        self.play_started = self.world.now()
        cpu, wall = cpu_seconds(), time.perf_counter()
        stop_at = wall + seconds
        lags: list[float] = []
        sampler = asyncio.create_task(_sample_loop_lag(lags))
        starts = [self.rng.uniform(0, stagger) for _ in tables]
        await asyncio.gather(
            *(
                self._play_table(table, stop_at, rematch, stall, at)
                for table, at in zip(tables, starts, strict=True)
            )
        )
        sampler.cancel()
        wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
        self.phase = "after"
        records = self.records[first_record:]
        return {
            "tables": len(tables),
            "seconds": wall,
            "emulator_cpu_seconds": cpu,
            "emulator_loop_lag_ms": sorted(lags)[int(0.99 * len(lags))] * 1000 if lags else None,
            "emulator_loop_lag_max_ms": max(lags, default=0.0) * 1000,
            "moves_clicked": self.moves,
            "stalls": self.stalls,
            "rematches": self.rematches,
            "handoffs": self.handoffs,
            "shown": self.shown,
            "errors": self.errors[:20],
            "error_count": len(self.errors),
            "interactions": [  # kind, latency, why it failed, when it was made, its response type
                [
                    kind,
                    interaction.latency,
                    interaction.failed,
                    interaction.created_at - self.play_started,
                    interaction.response_type,
                ]
                for _, kind, interaction in records
            ],
            "violations": [str(v) for v in self.emu.take_violations()][:50],
            "rate_limited": len(self.emu.server.rate_limited),
        }

    async def _play_table(
        self, table: Table, stop_at: float, rematch: bool, stall: float, delay: float
    ) -> None:
        await asyncio.sleep(delay)
        table.last_move = time.perf_counter()
        table.changed.set()
        while True:
            left = stop_at - time.perf_counter()
            if left <= 0:
                return
            try:
                await asyncio.wait_for(table.changed.wait(), min(left, stall))
            except TimeoutError:
                if time.perf_counter() >= stop_at:
                    return
            table.changed.clear()
            try:
                await self._turn(table, rematch, stall)
            except Exception as error:
                self.errors.append(f"table {table.game_id}: {type(error).__name__}: {error}")

    async def _turn(self, table: Table, rematch: bool, stall: float) -> None:
        if table.over():
            if rematch and table.table is not None and table.rematched != table.game_id:
                table.rematched = table.game_id
                self.rematches += 1
                await self.click("rematch", table.members[0], table.table, "Rematch")
            return
        pinged = table.pinged
        if table.ping is not None and pinged:
            table.acted_on = table.ping.id
        acting = [m for m in table.members if m.id in pinged]
        if not acting and time.perf_counter() - table.last_move > stall:
            self.stalls += 1  # nobody was pinged for a while: everyone looks at their panel
            acting = list(table.members)
            table.last_move = time.perf_counter()
        for member in acting:
            await self._act(table, member)

    async def _act(self, table: Table, member: SimulatedMember) -> None:
        """`member` opens their panel from the table and plays until it offers nothing more."""
        if table.table is None:
            return
        view = next((b for b in table.table.buttons() if b.get("custom_id", "").startswith("cn:v:")), None)
        if view is None:
            return
        try:
            result = await self.click("my hand", member, table.table, view["custom_id"])
        except InvalidInvocation:  # the table was reposted a moment ago; the next change wakes us
            return
        panel = result.message
        for _ in range(8):
            if panel is None or panel.deleted:
                return
            options = [
                c
                for c in panel.interactive()
                if ACTION.match(c.get("custom_id", "")) and not c.get("disabled")
            ]
            if not options:
                return
            component = self.rng.choice(options)
            shown_before = panel.edited_at
            if component["type"] == 2:
                result = await self.click("play card", member, panel, component["custom_id"])
            else:
                values = [self.rng.choice(component["options"])["value"]]
                result = await self.select("play card", member, panel, component["custom_id"], values)
            if result.response_type == DEFERRED_UPDATE:
                panel = await self._result_of_deferred(result, shown_before)
                shown_at = panel.edited_at if panel is not None else None
            else:
                panel = result.message if result.response_type == UPDATE_MESSAGE else None
                shown_at = result.interaction.responded_at if panel is not None else None
            if shown_at is not None:
                self.moves += 1
                self.shown.append(
                    (
                        result.interaction.created_at - self.play_started,
                        shown_at - result.interaction.created_at,
                    )
                )
                table.last_move = time.perf_counter()
                table.moved_at = shown_at

    async def _result_of_deferred(
        self, result: InteractionResult, shown_before: float | None
    ) -> StoredMessage | None:
        """The panel once the bot has edited it after acknowledging the click (None if it refused)."""

        def settled(r: InteractionResult) -> StoredMessage | str | None:
            if r.followups:
                return "refused"
            message = r.message
            return message if message is not None and message.edited_at != shown_before else None

        try:
            outcome = await result.wait_for(settled, timeout=ANSWER_TIMEOUT)
            return outcome if isinstance(outcome, StoredMessage) else None
        except TimeoutError:
            return None


async def _sample_loop_lag(lags: list[float]) -> None:
    """How late this process's event loop wakes a 20 ms sleep (is the emulator keeping up?)."""
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(0.02)
        lags.append(loop.time() - before - 0.02)


def _json(data: Any) -> web.Response:
    return web.Response(body=json.dumps(data).encode(), content_type="application/json")


def install(app: web.Application, driver: LoadDriver) -> None:
    async def open_route(request: web.Request) -> web.Response:
        body = await request.json()
        return _json(
            await driver.open_tables(
                body.get("game", "catsdogs"),
                int(body.get("players", 4)),
                int(body["games"]),
                int(body.get("first", 0)),
                int(body.get("concurrency", 25)),
            )
        )

    async def play_route(request: web.Request) -> web.Response:
        body = await request.json()
        return _json(
            await driver.play(
                float(body.get("seconds", 20)),
                bool(body.get("rematch", True)),
                float(body.get("stall", 10.0)),
                int(body.get("seed", 1)),
                float(body.get("stagger", 0.0)),
            )
        )

    app.router.add_post("/_bench/open", open_route)
    app.router.add_post("/_bench/play", play_route)


async def serve(args: argparse.Namespace) -> int:
    emulator = Emulator(
        guild_name="Catnip Load",
        channels=["games"],
        members=member_names(args.members),
        rate_limit=(args.rate_limit, 1.0),
        strict=False,
    )
    driver = LoadDriver(emulator)
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
