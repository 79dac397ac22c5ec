"""A bot behind its clicks (bot/overload.py) turns a new click away at once with a short "try again",
plays nothing for it, counts it for the operator, and plays the same click once it has caught up.

The bot is made to fall behind for real: its event loop is held for `HELD_SECONDS` at every turn
while two members click at once, so the first click is still under way when the second arrives. The
limit of clicks under way is scaled down with it (to 1; `MOST_CLICKS_IN_FLIGHT` in production) so
that both answers, which wait through several turns of the held loop, stay far inside Discord's 3 s,
which the emulator enforces. Nothing waits for time to pass: each step waits for its answer.
"""

from __future__ import annotations

import asyncio
import time
from contextlib import contextmanager

from bot.clock import ManualClock
from bot.errors import BUSY
from bot.overload import ClicksInFlight
from tests.e2e.driver import catnip, open_table, table_of

HELD_SECONDS = 0.05


@contextmanager
def loop_held(seconds: float):
    """While inside: every turn of the running loop is held for `seconds` (a callback that blocks and
    schedules itself again)."""
    loop = asyncio.get_running_loop()
    holding = True

    def hold() -> None:
        if holding:
            time.sleep(seconds)
            loop.call_soon(hold)

    loop.call_soon(hold)
    try:
        yield
    finally:
        holding = False


def busy_refusals(bot) -> float:
    return bot.metrics.registry.get_sample_value("catnip_try_again_refusals_total", {"reason": "busy"})


async def test_a_click_arriving_while_the_bot_is_behind_is_turned_away_at_once_and_played_once_caught_up(
    tmp_path,
):
    async with catnip(tmp_path, lost_tokens=0) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        (game,) = bot.service.live.values()
        version = game.record.version
        table = table_of(emu, thread)
        bot.overload.most = 1

        with loop_held(HELD_SECONDS):
            first, second = await asyncio.gather(
                members[0].click(table, "My hand"), members[1].click(table, "My hand")
            )
        await emu.settle()

        assert first.ok and second.ok, "both answered within Discord's 3 s"
        replies = {m.id: result.message for m, result in zip(members[:2], (first, second), strict=True)}
        turned_away = [m for m, reply in replies.items() if reply is not None and reply.text() == BUSY]
        panels = [m for m, reply in replies.items() if reply is not None and reply.interactive()]
        assert len(turned_away) == 1 and len(panels) == 1, "one played, the one arriving behind it not"
        refusal = replies[turned_away[0]]
        assert refusal.ephemeral and refusal.visible_to == turned_away[0]
        assert bot.service.live[game.id].record.version == version, "nothing played for it"
        assert busy_refusals(bot) == 1, "counted for the operator"
        assert bot.overload.count == 0

        member = next(m for m in members if m.id == turned_away[0])
        again = (await member.click(table_of(emu, thread), "My hand")).message
        assert again is not None and again.text() != BUSY and again.interactive(), "caught up, it opens"
        assert busy_refusals(bot) == 1


def test_a_click_is_turned_away_only_past_the_most_under_way():
    clicks = ClicksInFlight(most=2)
    with clicks.handling():
        assert not clicks.busy()
        with clicks.handling():
            assert not clicks.busy()
            with clicks.handling():
                assert clicks.busy()
            assert not clicks.busy(), "a click answered makes room"
    assert clicks.count == 0


def test_the_oldest_click_still_in_time_is_the_one_the_tables_wait_for():
    """The presenter holds the tables back while a click has waited too long (cogs/play/_presenter.py):
    it reads the same book, by age. A click past Discord's deadline is past saving, so nothing waits for
    it, but it is still work under way for the busy gate."""
    clock = ManualClock(start=0.0)
    clicks = ClicksInFlight(most=1, clock=clock)
    assert clicks.waited_longest(within=3.0) == 0.0, "no click, no wait"
    stuck = clicks.arrived()
    clock.advance(2.0)
    later = clicks.arrived()
    clock.advance(0.5)
    assert clicks.waited_longest(within=3.0) == 2.5, "the oldest click's wait"
    clock.advance(1.0)
    assert clicks.waited_longest(within=3.0) == 1.5, "past 3 s the stuck click counts no more: the next does"
    assert clicks.busy(), "yet both are under way"
    clicks.handled(later)
    assert clicks.waited_longest(within=3.0) == 0.0
    clicks.handled(stuck)
    assert clicks.count == 0 and not clicks.busy()
