"""`LoadDriver`: the simulated members of `python -m bench.load_members`, who open tables and play
them as fast as they can (or at a thinking pace), and what they measure of the bot's answers."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import resource
import time
from collections import Counter
from typing import Any

from bench.load_requests import RequestTally
from bench.load_tables import SAME_PING_AFTER, TABLE_TITLE, PayloadSizes, Table, TableKind
from bot.errors import BUSY
from emulator import Emulator
from emulator.callbacks import DEFERRED_UPDATE, UPDATE_MESSAGE, fail
from emulator.model import Interaction, StoredMessage
from emulator.users import InteractionResult, InvalidInvocation, Invoker, SimulatedMember
from lang import SOURCE, said_in

CHANNEL_MENTION = re.compile(r"<#(\d+)>")
ACTION = re.compile(r"^cn:(a|s|m):")
ANSWER_TIMEOUT = 10.0
ADD_COMPUTER = "Add computer player (host)…"
TRIES_WHEN_TURNED_AWAY = 8
"""Times a member clicks "My hand" again, a moment apart, while the bot turns them away as busy."""
AGAIN_AFTER = 1.0
"""Seconds, on average at least, before a member turned away as busy clicks again."""


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


class LoadDriver:
    """Opens tables and plays them through the emulator's simulated members."""

    def __init__(self, emulator: Emulator, language: str = SOURCE) -> None:
        """`language`: the one the tables speak, whose labels the members click."""
        self.emu = emulator
        self.language = language
        self.world = emulator.world
        self.users = {user.name: user for user in self.world.members.values()}
        self.channel_of: dict[str, Any] = {}  # a member's guild's channel for /play (default: the first)
        self.tables: dict[int, Table] = {}
        self.records: list[tuple[str, str, Interaction]] = []  # (phase, kind, interaction)
        self.phase = "setup"
        self.errors: list[str] = []
        self.moves = 0
        self.handoffs: list[tuple[float, float]] = []  # (when, a card's result shown -> next ping posted)
        self.shown: list[tuple[float, float]] = []  # (when, a card click -> its result shown on the panel)
        self.table_lags: list[tuple[float, float]] = []  # (when, a card click -> the table shows it)
        self.ping_lags: list[tuple[float, float]] = []  # (when, a card click -> the next ping posted)
        self.sizes = PayloadSizes(lambda attachment_id: len(self.world.files.get(attachment_id, b"")))
        self.think = 0.0  # mean seconds a member thinks before each decision (0: none, saturated)
        self.next_member = 0
        self.stop_at = 0.0
        self.play_started = 0.0
        self.stalls = 0
        self.turned_away: list[float] = []
        """When (seconds into the play) each member was turned away as the bot ran behind."""
        self.rematches = 0
        self.rng = random.Random(1)
        self.world.listeners.append(self._seen)
        self.tally = RequestTally(self.world, self.tables, lambda: self.phase == "play")
        emulator.server.observers.append(self.tally.observe)

    def member(self, name: str) -> SimulatedMember:
        return SimulatedMember(self.world, self.emu.invoker, self.users[name])

    # what the members see -------------------------------------------------------------------------

    def _seen(self, kind: str, message: StoredMessage) -> None:
        if message.visible_to is not None or message.author_id != self.world.bot.id:
            return
        table = self.tables.get(message.channel_id)
        if table is None:
            table = self.tables[message.channel_id] = Table(
                message.channel_id, said_in(self.language, "Rematch")
            )
        if kind == "create":
            title = (message.embeds[0].get("title") or "") if message.embeds else ""
            found = TABLE_TITLE.search(title)
            if found and int(found[1]) >= table.game_id:
                table.table, table.game_id = message, int(found[1])
                self._table_shown(table, message, message.created_at)
            elif message.content.startswith("🔔"):
                table.ping = message
                if table.moved_at is not None and self.phase == "play":
                    self.handoffs.append(
                        (message.created_at - self.play_started, message.created_at - table.moved_at)
                    )
                if table.ping_due_since is not None and self.phase == "play":
                    self.ping_lags.append(
                        (table.ping_due_since - self.play_started, message.created_at - table.ping_due_since)
                    )
                table.moved_at = table.ping_due_since = None
        elif kind == "update" and table.table is not None and message.id == table.table.id:
            self._table_shown(table, message, message.edited_at or self.world.now())
        table.changed.set()

    def _table_shown(self, table: Table, message: StoredMessage, at: float) -> None:
        """The table was edited or posted again: the lag of the oldest click it had not shown yet."""
        footer = table.footer()
        if footer != table.last_footer:
            table.last_footer, table.moved_on_at, table.moved_on_world = footer, time.perf_counter(), at
        if self.phase == "play":
            self.sizes.table(message)
        if table.edit_due_since is not None and self.phase == "play":
            self.table_lags.append((table.edit_due_since - self.play_started, at - table.edit_due_since))
        table.edit_due_since = None
        if table.over():  # a game's last move pings nobody: its next ping is a rematch's
            table.ping_due_since = table.moved_at = None

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

    async def open_tables(self, kinds: list[TableKind], games: int, concurrency: int) -> dict[str, Any]:
        """Opens `games` tables, their kinds taken from `kinds` in turn, seating the next unseated members."""
        names = member_names(len(self.users))
        gate = asyncio.Semaphore(concurrency)
        started = time.perf_counter()
        failures: list[str] = []
        groups = []
        for index in range(games):
            kind = kinds[index % len(kinds)]
            groups.append((kind, names[self.next_member : self.next_member + kind.humans]))
            self.next_member += kind.humans

        async def open_one(kind: TableKind, group: list[str]) -> None:
            members = [self.member(name) for name in group]
            async with gate:
                try:
                    await self._open(kind, members)
                except Exception as error:  # reported, not raised: one table must not stop the rest
                    failures.append(f"{members[0].name}: {type(error).__name__}: {error}")

        await asyncio.gather(*(open_one(kind, group) for kind, group in groups))
        return {"opened": games - len(failures), "seconds": time.perf_counter() - started, "failed": failures}

    async def _open(self, kind: TableKind, members: list[SimulatedMember]) -> None:
        host = members[0]
        channel = self.channel_of.get(host.name)
        result = await self._answered("slash /play", host.slash("play", channel, game=kind.game, wait=False))
        final = await result.wait_final(timeout=ANSWER_TIMEOUT)
        thread_id = int(CHANNEL_MENTION.search(final.content)[1])
        table = await self._wait(lambda: self.tables.get(thread_id) and self.tables[thread_id].table)
        self.tables[thread_id].members, self.tables[thread_id].game = members, kind.game
        for member in members[1:]:
            await self.click("lobby join", member, table, said_in(self.language, "Join"))
        for _ in range(kind.computers):
            lobby = self.tables[thread_id].table
            await self.select(
                "lobby computer", host, lobby, said_in(self.language, ADD_COMPUTER), [kind.level]
            )
        await self._wait(lambda: self._start_enabled(self.tables[thread_id].table))  # joins shown
        await self.click("lobby start", host, self.tables[thread_id].table, said_in(self.language, "Start"))
        await self._wait(lambda: self.tables[thread_id].ping is not None)

    def _start_enabled(self, lobby: StoredMessage) -> bool:
        start = said_in(self.language, "Start")
        return any(b.get("label") == start and not b.get("disabled") for b in lobby.buttons())

    async def _wait(self, predicate, timeout: float = ANSWER_TIMEOUT) -> Any:
        deadline = time.perf_counter() + timeout
        while not (value := predicate()):
            if time.perf_counter() > deadline:
                raise TimeoutError("the table did not appear in time")
            await asyncio.sleep(0.01)
        return value

    # playing ------------------------------------------------------------------------------------------

    async def play(
        self, seconds: float, rematch: bool, stall: float, seed: int, stagger: float = 0.0, think: float = 0.0
    ) -> dict[str, Any]:
        self.rng = random.Random(seed)
        self.think = think
        self.stop_at = time.perf_counter() + seconds
        self.phase = "play"
        first_record = len(self.records)
        first_request = len(self.emu.server.requests)
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
            "turned_away": self.turned_away,
            "rematches": self.rematches,
            "handoffs": self.handoffs,
            "shown": self.shown,
            "table_lags": self.table_lags,
            "ping_lags": self.ping_lags,
            "sizes": self.sizes.means(),
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
            "requests": dict(Counter(self.emu.server.requests[first_request:]).most_common()),
            "budget": self.tally.figures(),
            "invalid_requests_10min": self.emu.server.usage.invalid_peak(),
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
                wait = SAME_PING_AFTER if table.same_ping_due() else stall
                await asyncio.wait_for(table.changed.wait(), min(left, wait))
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
                await self.click("rematch", table.members[0], table.table, table.rematch)
            return
        pinged = table.pinged
        if table.ping is not None and pinged:
            if table.ping.id == table.acted_on[0] and table.ping_due_since is not None:
                # The same member acts again: their ping stood when the table showed the move.
                if self.phase == "play":
                    lag = max(table.moved_on_world - table.ping_due_since, 0.0)
                    self.ping_lags.append((table.ping_due_since - self.play_started, lag))
                table.ping_due_since = None
            table.acted_on = (table.ping.id, table.footer())
        acting = [m for m in table.members if m.id in pinged]
        if not acting and time.perf_counter() - table.last_move > stall:
            self.stalls += 1  # nobody was pinged for a while: everyone looks at their panel
            acting = list(table.members)
            table.last_move = time.perf_counter()
        await asyncio.gather(*(self._act(table, member) for member in acting))

    async def _act(self, table: Table, member: SimulatedMember) -> None:
        """`member` opens their panel from the table and plays until it offers nothing more."""
        if table.table is None:
            return
        view = next((b for b in table.table.buttons() if b.get("custom_id", "").startswith("cn:v:")), None)
        if view is None:
            return
        for _try in range(TRIES_WHEN_TURNED_AWAY):
            try:
                result = await self.click("my hand", member, table.table, view["custom_id"])
            except InvalidInvocation:  # the table was reposted a moment ago; the next change wakes us
                return
            panel = await self._opened_panel(result)
            if not self._turned_away(panel) or not await self._a_moment(least=AGAIN_AFTER):
                break
        if panel is not None and self.phase == "play":
            self.sizes.panel(panel)
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
            if self.think and not await self._a_moment():
                return
            clicked_at = self.world.now()
            if table.edit_due_since is None:
                table.edit_due_since = clicked_at
            table.ping_due_since = clicked_at
            if component["type"] == 2:
                result = await self.click("play card", member, panel, component["custom_id"])
            else:
                wanted = max(1, component.get("min_values", 1))
                values = [o["value"] for o in self.rng.sample(component["options"], wanted)]
                result = await self.select("play card", member, panel, component["custom_id"], values)
            if self._turned_away(result.message):
                if not await self._a_moment(least=AGAIN_AFTER):
                    return
                continue  # the same panel, clicked again
            if result.response_type == DEFERRED_UPDATE:
                panel = await self._result_of_deferred(result, shown_before)
                shown_at = panel.edited_at if panel is not None else None
            else:
                panel = result.message if result.response_type == UPDATE_MESSAGE else None
                shown_at = result.interaction.responded_at if panel is not None else None
            if shown_at is None:  # refused: no table change is coming for this click
                if table.edit_due_since == clicked_at:
                    table.edit_due_since = None
                if table.ping_due_since == clicked_at:
                    table.ping_due_since = None
            else:
                self.moves += 1
                self.tally.moved(table)
                self.shown.append(
                    (
                        result.interaction.created_at - self.play_started,
                        shown_at - result.interaction.created_at,
                    )
                )
                table.last_move = time.perf_counter()
                table.moved_at = shown_at

    async def _a_moment(self, least: float = 0.0) -> bool:
        """A member's pause before they click (exponential, of mean `think` seconds, or `least` if
        longer); False once the play is over."""
        mean = max(self.think, least)
        thinking = self.rng.expovariate(1 / mean) if mean else 0.0
        await asyncio.sleep(min(thinking, max(self.stop_at - time.perf_counter(), 0)))
        return time.perf_counter() < self.stop_at

    def _turned_away(self, reply: StoredMessage | None) -> bool:
        """Whether `reply` is the bot's "very busy, try again in a moment" (bot/overload.py), noted in
        `turned_away` during play: the member clicks again after a moment, as a person would."""
        busy = reply is not None and reply.text() == said_in(self.language, BUSY)
        if busy and self.phase == "play":
            self.turned_away.append(self.world.now() - self.play_started)
        return busy

    async def _opened_panel(self, result: InteractionResult) -> StoredMessage | None:
        """The panel "My hand" opened: its reply, or its followup when the bot acknowledged the click as
        an update of the table (to keep the click's token for the table)."""
        if result.response_type != DEFERRED_UPDATE:
            return result.message
        try:
            return await result.wait_followup(timeout=ANSWER_TIMEOUT)
        except TimeoutError:
            return None

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
