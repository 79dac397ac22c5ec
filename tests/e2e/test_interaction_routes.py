"""The table and its pings travel through the tokens of the game's recent clicks (exempt from Discord's
global limit) while Discord holds those tokens valid, and through the bot's own routes after."""

from __future__ import annotations

import pytest

from bench.game_costs import exempt
from cogs.messages import table_message
from cogs.play._tokens import USE_WITHIN
from emulator.entities import StandingClock
from engine import Rng
from tests.e2e.driver import Table, catnip, open_table, table_of

TABLE_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
ORIGINAL_EDIT = "PATCH /webhooks/{app_id}/{token}/messages/{message_id}"
FOLLOWUP = "POST /webhooks/{app_id}/{token}"
FOLLOWUP_DELETE = "DELETE /webhooks/{app_id}/{token}/messages/{message_id}"
PING = "POST /channels/{channel_id}/messages"
PING_DELETE = "DELETE /channels/{channel_id}/messages/{message_id}"


async def move_without_a_click(bot, game) -> None:
    """The member to act moves without a click of their own reaching the bot (as a computer would)."""
    seat = game.to_act()[0]
    action = game.rules.legal_actions(game.state, seat)[0]
    await bot.service.play(game.id, game.record.seats[seat].user_id, game.record.version, action.encode())
    await bot.presenter.settle()


async def requests_of(emu, bot, game, *, minutes_later: float) -> list[str]:
    log = emu.server.requests
    emu.advance(minutes_later * 60)
    first = len(log)
    await move_without_a_click(bot, game)
    await emu.settle()
    return log[first:]


def assert_shows_latest(emu, bot, thread, game) -> None:
    shown = table_of(emu, thread).embeds[0]
    latest = table_message(game, bot.timers.due(game.id)).embed.to_dict()
    assert (shown["description"], shown["footer"]) == (latest["description"], latest["footer"])


async def test_a_click_token_carries_the_next_moves_until_it_is_too_old(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, _ = await open_table(emu, "catsdogs", 2)
        game = next(iter(bot.service.live.values()))

        soon = await requests_of(emu, bot, game, minutes_later=13)
        assert ORIGINAL_EDIT in soon and FOLLOWUP in soon and FOLLOWUP_DELETE in soon, soon
        assert [label for label in soon if not exempt(label)] == [], "13 minutes after Start: all exempt"
        assert_shows_latest(emu, bot, thread, game)

        late = await requests_of(emu, bot, game, minutes_later=2)
        assert TABLE_EDIT in late and set(late) <= {TABLE_EDIT, PING, PING_DELETE}, (
            "15 minutes after the last click the table (and any ping) use the bot's own routes",
            late,
        )
        assert_shows_latest(emu, bot, thread, game)
        pings = [m for m in emu.public_messages(thread) if m.content.startswith("🔔")]
        assert len(pings) == 1 and f"<@{game.record.seats[game.to_act()[0]].user_id}>" in pings[0].content
        assert not emu.violations, "no token was used past its time"


async def test_a_click_on_the_table_shows_its_move_through_its_own_token(tmp_path):
    async with catnip(tmp_path, pictures=True) as (emu, bot):
        thread, members = await open_table(emu, "madcat", 2)
        game = next(iter(bot.service.live.values()))
        log = emu.server.requests
        emu.advance(20 * 60)  # Start's token is too old by now
        first = len(log)
        roller = next(m for m in members if m.id == game.record.seats[game.to_act()[0]].user_id)
        table = table_of(emu, thread)
        assert (await roller.click(table, "🎲 Roll the dice")).ok, "a move on the table itself"
        await bot.presenter.settle()
        await emu.settle()
        driver = Table(emu, thread, members, Rng.seeded(3))
        for _ in range(3):  # and moves after it, on the table or on the private panels
            await driver.step()
            await bot.presenter.settle()
            await emu.settle()
        counted = [label for label in log[first:] if not exempt(label)]
        assert counted == [PING_DELETE], (
            "only the ping Start's token posted is deleted through the bot's route: that token is too old",
            counted,
        )
        assert_shows_latest(emu, bot, thread, game)
        assert table_of(emu, thread).attachments, "the picture travels with the text"
        assert not emu.violations


@pytest.mark.parametrize("late", [0.0, 2.0], ids=["on-time", "delivered-2s-late"])
async def test_a_token_s_age_runs_from_its_interaction_s_creation_not_its_arrival(tmp_path, late):
    """Start reaches the bot `late` seconds after Discord created it: 14 minutes after its arrival, its
    token is still used only if it is less than 14 minutes old counted from its creation (`USE_WITHIN`)."""
    async with catnip(tmp_path, clock=StandingClock()) as (emu, bot):
        ann, bo = emu.member("Ann"), emu.member("Bo")
        await (await ann.slash("play", game="catsdogs")).wait_final()
        thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
        lobby = await emu.wait_for(lambda: table_of(emu, thread))
        assert (await bo.click(lobby, "Join")).ok
        await emu.settle()
        start = await ann.click(lobby, "Start", late=late)
        assert start.ok, "answered within 3 s of its creation"
        await emu.settle()
        game = next(iter(bot.service.live.values()))

        moved = await requests_of(emu, bot, game, minutes_later=(USE_WITHIN - 1) / 60)

        if late:
            assert ORIGINAL_EDIT not in moved and TABLE_EDIT in moved, moved
        else:
            assert ORIGINAL_EDIT in moved and TABLE_EDIT not in moved, moved
        assert_shows_latest(emu, bot, thread, game)
        assert not emu.violations, "no token was used past its time"
