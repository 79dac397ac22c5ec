"""How table updates are scheduled when many tables change at once: a few at a time, oldest
first, each waiting table shown once with its latest state, and more at once after a restart."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from datetime import UTC, datetime

import discord
import pytest

from bot.clock import ManualClock
from bot.overload import ClicksInFlight
from bot.sessions import GameService
from bot.storage import SqliteGameStore
from bot.timers import Timers, TimerSettings
from cogs.play import _presenter
from cogs.play._presenter import BACKLOG_SLOTS, REFRESH_SLOTS, TablePresenter

ANN, BO = 101, 102
TABLES = REFRESH_SLOTS + 10


class Sent:
    """A message as Discord returns it for a send or an edit: its id and (these tables have no
    picture) no attachments."""

    def __init__(self, message_id: int) -> None:
        self.id = message_id
        self.attachments: list[discord.Attachment] = []


class Channel:
    """A table's thread: every message sent, edited or deleted waits until the test lets it through."""

    def __init__(self, discord_: Discord, channel_id: int) -> None:
        self.id = channel_id
        self._discord = discord_

    async def send(self, content=None, **kwargs):
        await self._discord.call(self.id, "send", content)
        return Sent(self._discord.new_id())

    def get_partial_message(self, message_id: int):
        channel = self

        class Partial:
            async def delete(self):
                await channel._discord.call(channel.id, "delete", message_id)

            async def edit(self, **fields):
                await channel._discord.call(channel.id, "edit", fields.get("embed"))
                return Sent(message_id)

        return Partial()


class Discord:
    """Stands in for the bot: its channels, and which of them have a call in flight."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.open = asyncio.Event()
        self.busy: Counter[int] = Counter()
        self.most_busy = 0
        self.most_at_one_table = 0
        self.calls: list[tuple[int, str, object]] = []
        self._ids = itertools.count()

    def new_id(self) -> int:
        return discord.utils.time_snowflake(datetime.fromtimestamp(self.clock.now(), UTC)) + next(self._ids)

    def get_channel(self, channel_id: int) -> Channel:
        return Channel(self, channel_id)

    async def call(self, channel_id: int, what: str, payload) -> None:
        self.busy[channel_id] += 1
        self.most_busy = max(self.most_busy, len(+self.busy))
        self.most_at_one_table = max(self.most_at_one_table, self.busy[channel_id])
        try:
            await self.open.wait()
            self.calls.append((channel_id, what, payload))
        finally:
            self.busy[channel_id] -= 1


class ClickClock(ManualClock):
    """How long clicks have waited, as the test says: `sleep` tells the test it was called (the
    schedule holds the tables back for a click) and returns once the test moves the clock."""

    def __init__(self) -> None:
        super().__init__(start=0.0)
        self.sleeping = asyncio.Event()
        self._moved = asyncio.Event()

    def advance(self, seconds: float) -> None:
        super().advance(seconds)
        self._moved.set()
        self._moved = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        moved = self._moved
        self.sleeping.set()
        await moved.wait()


async def until(condition, what: str) -> None:
    """Let the presenter's tasks run until `condition()` holds (a test that fails waits 10 s, then says
    `what` did not happen)."""

    async def polled() -> None:
        while not condition():
            await asyncio.sleep(0)

    try:
        await asyncio.wait_for(polled(), 10)
    except TimeoutError:
        raise AssertionError(f"never came to pass: {what}") from None


async def every_worker_calls_discord(fake: Discord, presenter: TablePresenter) -> None:
    """Return once each of the schedule's workers is in a call to Discord (which the test holds)."""
    await until(
        lambda: sum(fake.busy.values()) >= len(presenter.schedule.pending()),
        "every worker showing a table at once",
    )


@pytest.fixture
async def tables(tmp_path):
    store = SqliteGameStore(tmp_path / "catnip.sqlite3")
    await store.open()
    # Tables without pictures: these tests time the scheduling of the table's messages alone.
    service = GameService(store, ManualClock(start=1_700_000_000.0), pictures=False)
    games = []
    for index in range(TABLES):
        lobby = await service.lobby.open_lobby(
            game_key="catsdogs",
            guild_id=1,
            channel_id=1000 + index,
            thread_id=None,
            host_id=ANN,
            host_name="A",
        )
        await service.lobby.join(lobby.id, BO, "Bo")
        games.append(await service.start(lobby.id, ANN, seed=index))
    fake = Discord(service.clock)
    presenter = TablePresenter(
        fake, service, Timers(service, TimerSettings()), clicks=ClicksInFlight(clock=ClickClock())
    )
    yield fake, presenter, games
    await service.shutdown()
    await store.close()


async def test_a_few_tables_are_shown_at_a_time_and_every_one_once(tables):
    fake, presenter, games = tables
    for game in games:
        presenter.refresh(game)
    for _ in range(3):  # changes to a table still waiting for its turn add nothing
        presenter.refresh(games[-1])
    await every_worker_calls_discord(fake, presenter)
    assert fake.most_busy == REFRESH_SLOTS, "the first tables are shown side by side, the rest wait"
    fake.open.set()
    await presenter.settle()
    assert fake.most_busy == REFRESH_SLOTS
    shown = [channel for channel, what, _ in fake.calls if what == "send"]
    assert list(dict.fromkeys(shown)) == [game.record.channel_id for game in games], "oldest first"
    for game in games:
        sent = [text for channel, what, text in fake.calls if channel == game.record.channel_id]
        assert sent[0] is None and sent[1].startswith("🔔") and len(sent) == 2, "the table, then its ping"


async def test_after_a_restart_more_tables_are_shown_at_once(tables):
    fake, presenter, games = tables
    presenter.schedule.add_resumed(games)
    await every_worker_calls_discord(fake, presenter)
    assert fake.most_busy == min(BACKLOG_SLOTS, TABLES) > REFRESH_SLOTS
    fake.open.set()
    await presenter.settle()
    assert len([what for _, what, _ in fake.calls if what == "send"]) == 2 * TABLES


async def test_when_many_tables_wait_more_are_shown_at_once(tables, monkeypatch):
    """A worker for every few tables waiting: under a heavy load the tables keep up better, at some
    cost to how fast clicks are answered."""
    fake, presenter, games = tables
    monkeypatch.setattr(_presenter, "TABLES_A_SLOT", 1)
    for game in games:
        presenter.refresh(game)
    await every_worker_calls_discord(fake, presenter)
    assert fake.most_busy == min(BACKLOG_SLOTS, TABLES) > REFRESH_SLOTS
    fake.open.set()
    await presenter.settle()


async def test_a_table_edited_in_place_and_its_ping_go_out_together(tables):
    fake, presenter, games = tables
    game = games[0]
    fake.open.set()
    presenter.refresh(game)
    await presenter.settle()
    assert fake.most_at_one_table == 1, "a new table goes up before its ping"
    seat = game.to_act()[0]
    action = game.rules.legal_actions(game.state, seat)[0]
    await presenter.service.play(
        game.id, game.record.seats[seat].user_id, game.record.version, action.encode()
    )
    fake.open.clear()
    fake.calls.clear()
    presenter.refresh(game)
    await until(lambda: fake.most_at_one_table == 2, "the edit and the ping under way together")
    fake.open.set()
    await presenter.settle()
    assert sorted(what for _, what, _ in fake.calls) == ["delete", "edit", "send"], "the old ping goes"


async def test_tables_wait_while_a_click_has_waited_too_long_for_its_answer(tables):
    """A bot with more tables than it keeps up with answers its clicks first: Discord gives a click 3 s."""
    fake, presenter, games = tables
    clicks = presenter.schedule.clicks
    clock = clicks.clock
    fake.open.set()
    click = clicks.arrived()
    clock.advance(_presenter.CLICKS_FIRST_AFTER + 0.01)
    presenter.refresh(games[0])
    await clock.sleeping.wait()
    assert fake.calls == [], "the click waiting too long comes first"
    clicks.handled(click)
    clock.advance(_presenter.CLICKS_FIRST_AFTER / 5)
    await presenter.settle()
    assert [what for _, what, _ in fake.calls] == ["send", "send"], "then the table and its ping"


async def test_a_click_past_discords_deadline_holds_the_tables_back_no_more(tables):
    fake, presenter, games = tables
    clicks = presenter.schedule.clicks
    clock = clicks.clock
    fake.open.set()
    clicks.arrived()  # never answered: its handler hangs
    clock.advance(_presenter.CLICK_DEADLINE + 0.01)
    presenter.refresh(games[0])
    await asyncio.wait_for(presenter.settle(), 10)
    assert [what for _, what, _ in fake.calls] == ["send", "send"]
    assert not clock.sleeping.is_set(), "the tables never waited"


async def test_a_click_answered_in_time_holds_nothing_back(tables):
    fake, presenter, games = tables
    clicks = presenter.schedule.clicks
    clock = clicks.clock
    fake.open.set()
    clicks.arrived()
    clock.advance(_presenter.CLICKS_FIRST_AFTER)
    presenter.refresh(games[0])
    await asyncio.wait_for(presenter.settle(), 10)
    assert [what for _, what, _ in fake.calls] == ["send", "send"]
    assert not clock.sleeping.is_set()
