"""The bot's own keeping of Discord's global limit (bot/discord_budget.py), on a virtual clock, and once
through discord.py against the emulator, whose global limit answers 429 as Discord does."""

from __future__ import annotations

import asyncio
import heapq
import itertools

import discord
import pytest

from bot.config import SettingsError, load_settings
from bot.discord_budget import (
    GlobalBudget,
    Priority,
    bound_by_global_limit,
    priority,
    priority_of,
    share,
    trace_config,
)
from emulator import Emulator
from emulator.ratelimits import RateLimits

APP = 1234


class SteppedClock:
    """Time that moves only when the test moves it; `sleep` waits until it has moved that far."""

    def __init__(self) -> None:
        self.current = 1000.0
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self.asleep = asyncio.Event()

    def now(self) -> float:
        return self.current

    async def sleep(self, seconds: float) -> None:
        woken = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.current + seconds, next(self._order), woken))
        self.asleep.set()
        await woken

    async def until_asleep(self) -> None:
        """Wait until something sleeps on this clock (a budget waits for its next free slot)."""
        while not self._sleepers:
            self.asleep.clear()
            await self.asleep.wait()

    def sleeping(self) -> int:
        return len(self._sleepers)

    def wake_first(self) -> None:
        """Move time to the earliest sleeper's deadline and wake it."""
        deadline, _, woken = heapq.heappop(self._sleepers)
        self.current = max(self.current, deadline)
        woken.set_result(None)


def requests(budget: GlobalBudget, clock: SteppedClock, levels: list[Priority], granted: list) -> list:
    """One task a request, each noting (its index, when it was let through) once it may leave."""

    async def one(index: int, level: Priority) -> None:
        await budget.acquire(level)
        granted.append((index, clock.now()))

    return [asyncio.create_task(one(index, level)) for index, level in enumerate(levels)]


async def run_until_done(clock: SteppedClock, tasks: list) -> None:
    """Wake each sleeper on the clock in turn until every request has left."""
    everything = asyncio.gather(*tasks)
    while True:
        asleep = asyncio.ensure_future(clock.until_asleep())
        done, _ = await asyncio.wait({asleep, everything}, return_when=asyncio.FIRST_COMPLETED)
        if everything in done:
            asleep.cancel()
            return
        clock.wake_first()


def most_within(times: list[float], seconds: float) -> int:
    ordered = sorted(times)
    return max(sum(1 for t in ordered if start <= t < start + seconds) for start in ordered)


async def test_no_more_than_the_limit_leave_within_any_second_and_every_request_leaves_in_order() -> None:
    clock = SteppedClock()
    budget = GlobalBudget(5, clock=clock)
    granted: list[tuple[int, float]] = []
    tasks = requests(budget, clock, [Priority.HUMAN_TABLE] * 23, granted)
    await run_until_done(clock, tasks)
    assert [index for index, _ in granted] == list(range(23)), "one priority: first come, first served"
    times = [at for _, at in granted]
    assert most_within(times, 1.0) == 5
    assert times[:5] == [1000.0] * 5 and budget.waited == 18


async def test_a_request_that_finds_room_leaves_at_once() -> None:
    clock = SteppedClock()
    budget = GlobalBudget(50, clock=clock)
    for _ in range(50):
        await budget.acquire(Priority.CLEAN_UP)
    assert budget.waited == 0 and clock.sleeping() == 0


async def test_past_the_budget_tables_waiting_on_a_human_go_first_then_computers_pings_and_clean_up() -> None:
    clock = SteppedClock()
    budget = GlobalBudget(2, clock=clock)
    granted: list[tuple[int, float]] = []
    levels = [Priority.HUMAN_TABLE] * 2  # the window's two slots, taken at once
    levels += [Priority.CLEAN_UP, Priority.PING, Priority.COMPUTER_TABLE, Priority.HUMAN_TABLE]
    levels += [Priority.CLEAN_UP, Priority.HUMAN_TABLE, Priority.PING, Priority.COMPUTER_TABLE]
    tasks = requests(budget, clock, levels, granted)
    await run_until_done(clock, tasks)
    order = [levels[index] for index, _ in granted]
    assert order == sorted(order), order
    assert [index for index, _ in granted][2:] == [5, 7, 4, 9, 3, 8, 2, 6], "within a priority, in turn"


async def test_a_request_given_up_while_it_waits_takes_no_slot() -> None:
    clock = SteppedClock()
    budget = GlobalBudget(1, clock=clock)
    granted: list[tuple[int, float]] = []
    tasks = requests(budget, clock, [Priority.HUMAN_TABLE] * 3, granted)
    await clock.until_asleep()
    tasks[1].cancel()
    clock.wake_first()
    await asyncio.gather(tasks[0], tasks[2])
    assert [index for index, _ in granted] == [0, 2]
    assert granted[1][1] < 1002.0, "the third took the slot the second gave up"
    assert budget.waiting() == 0


async def test_a_request_held_back_after_its_turn_holds_its_slot_from_when_it_left() -> None:
    """A request may wait after the budget let it go (a new connection's set-up, a name lookup): Discord
    counts it when it arrives, so the budget counts it from when its headers were sent."""
    clock = SteppedClock()
    budget = GlobalBudget(2, clock=clock, slack=0)
    slow = await budget.acquire()
    await budget.acquire()
    clock.current += 0.8
    budget.left(slow)  # its connection was only now set up
    clock.current += 0.3  # the other's second is over, the slow one's is not
    granted: list[tuple[int, float]] = []
    tasks = requests(budget, clock, [Priority.HUMAN_TABLE] * 2, granted)
    await run_until_done(clock, tasks)
    assert [at for _, at in granted] == pytest.approx([1001.1, 1001.8])


async def test_a_two_process_fleet_keeps_to_one_budget_together() -> None:
    clock = SteppedClock()
    first = GlobalBudget(share(50, (0,), 2), clock=clock)
    second = GlobalBudget(share(50, (1,), 2), clock=clock)
    granted_first: list[tuple[int, float]] = []
    granted_second: list[tuple[int, float]] = []
    tasks = requests(first, clock, [Priority.HUMAN_TABLE] * 120, granted_first)
    tasks += requests(second, clock, [Priority.PING] * 90, granted_second)
    await run_until_done(clock, tasks)
    together = [at for _, at in granted_first + granted_second]
    assert len(together) == 210 and most_within(together, 1.0) <= 50
    assert most_within([at for _, at in granted_first], 1.0) == 25


def test_a_process_s_share_follows_its_shards() -> None:
    assert share(50, None, None) == 50 and share(50, (0, 1, 2, 3), 4) == 50
    assert share(50, (0,), 2) + share(50, (1,), 2) == 50
    assert share(120, (0, 2, 5), 8) == 45


@pytest.mark.parametrize(
    ("case", "method", "path", "bound"),
    [
        ("Create Interaction Response", "POST", "/api/v10/interactions/1/tok/callback", False),
        (
            "Get Original Interaction Response",
            "GET",
            f"/api/v10/webhooks/{APP}/tok/messages/@original",
            False,
        ),
        (
            "Edit Original Interaction Response",
            "PATCH",
            f"/api/v10/webhooks/{APP}/tok/messages/@original",
            False,
        ),
        (
            "Delete Original Interaction Response",
            "DELETE",
            f"/api/v10/webhooks/{APP}/tok/messages/@original",
            False,
        ),
        ("Create Followup Message", "POST", f"/api/v10/webhooks/{APP}/tok", False),
        ("Get Followup Message", "GET", f"/api/v10/webhooks/{APP}/tok/messages/9", False),
        ("Edit Followup Message", "PATCH", f"/api/v10/webhooks/{APP}/tok/messages/9", False),
        ("Delete Followup Message", "DELETE", f"/api/v10/webhooks/{APP}/tok/messages/9", False),
        ("Execute a channel's webhook", "POST", "/api/v10/webhooks/987/webhook-token", True),
        ("Edit a channel webhook's message", "PATCH", "/api/v10/webhooks/987/webhook-token/messages/9", True),
        ("Get Webhook with Token", "GET", f"/api/v10/webhooks/{APP}/tok", True),
        ("Create Message", "POST", "/api/v10/channels/5/messages", True),
        ("Delete Message", "DELETE", "/api/v10/channels/5/messages/6", True),
        ("the gateway's websocket", "GET", "/", None),
        ("a picture from the CDN", "GET", "/attachments/1/2/table.png", None),
    ],
)
def test_only_the_documented_interaction_endpoints_skip_the_budget(
    case: str, method: str, path: str, bound: bool | None
) -> None:
    assert bound_by_global_limit(method, path, APP) is bound, case


def test_a_request_s_priority_is_what_was_said_around_it_else_guessed_from_its_method() -> None:
    assert priority_of("DELETE") is Priority.CLEAN_UP and priority_of("PATCH") is Priority.HUMAN_TABLE
    with priority(Priority.PING):
        assert priority_of("POST") is Priority.PING
        with priority(Priority.COMPUTER_TABLE):
            assert priority_of("PATCH") is Priority.COMPUTER_TABLE
        assert priority_of("DELETE") is Priority.PING
    assert priority_of("POST") is Priority.HUMAN_TABLE


def test_a_budget_of_zero_is_refused_naming_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_GLOBAL_RATE_LIMIT", "0")
    with pytest.raises(SettingsError) as refused:
        load_settings(_env_file=None)
    assert str(refused.value).startswith("DISCORD_GLOBAL_RATE_LIMIT: ") and "\n" not in str(refused.value)
    monkeypatch.setenv("DISCORD_GLOBAL_RATE_LIMIT", "250")
    assert load_settings(_env_file=None).discord_global_rate_limit == 250


async def _burst(emu: Emulator, http_trace) -> None:
    """A discord.py bot sends 24 messages at once over two channels."""
    with emu.point_discord_py():
        client = discord.Client(
            intents=discord.Intents.default(), guild_ready_timeout=0.05, http_trace=http_trace
        )
        await emu.run_bot(client)
        channels = [client.get_channel(emu.channel(name).id) for name in ("games", "lobby")]
        await asyncio.gather(*(channels[n % 2].send(f"m{n}") for n in range(24)))
        await emu.stop_bot(client)


async def test_through_discord_py_a_burst_past_the_global_limit_gets_no_429() -> None:
    """Discord's limit compressed (5 requests per 0.5 s), so the test takes a few seconds; the budget's
    slack is as wide as the window because a busy machine may hold one request back that long on its
    way to the emulator while the next goes straight through."""
    tight = RateLimits(5, routes={}, other=None, global_window=0.5)
    async with Emulator.start(channels=["games", "lobby"], rate_limits=tight) as emu:
        await _burst(emu, None)
        assert emu.rate_limited, "without the budget, the burst is refused"
    async with Emulator.start(channels=["games", "lobby"], rate_limits=tight) as emu:
        budget = GlobalBudget(10, window=0.5, slack=0.5)
        await _burst(emu, trace_config(budget, lambda: emu.world.bot.id))
        assert emu.rate_limited == [] and budget.waited > 0
        assert len(emu.public_messages("games")) == len(emu.public_messages("lobby")) == 12
