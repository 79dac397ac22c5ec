"""The public table over time: reposted before it gets too old to edit or scrolls away, tidy pings,
and a game whose thread is gone goes on in its channel (or is closed when that is gone too)."""

from __future__ import annotations

import asyncio
import re

import pytest

from bench.postgres_server import fresh_schema_url, start_postgres, start_server, stop_postgres, stop_server
from cogs import custom_ids as ids
from cogs.messages import acting_controls
from cogs.play._answers import POSTED_AGAIN
from cogs.play._table_writer import REPOST_AFTER_MESSAGES
from engine import Rng
from tests.e2e.driver import Table, catnip, open_table, start_catnip, table_of
from tests.e2e.test_robustness import crash, rows


def pings(emu, thread) -> list:
    return [m for m in emu.public_messages(thread) if m.content.startswith("🔔")]


async def test_an_old_table_is_reposted_before_discord_refuses_to_edit_it(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        table = Table(emu, thread, members, Rng.seeded(4))
        await table.step()
        first = table_of(emu, thread)
        emu.advance(50 * 60)
        table.panels.clear()
        for _ in range(3):
            await table.step()
        await bot.presenter.settle()
        await emu.settle()
        fresh = table_of(emu, thread)
        assert fresh.id != first.id
        assert first.id not in [m.id for m in emu.public_messages(thread)], "the old table is retired"
        assert not emu.violations, "no edit of a message older than an hour was attempted"


async def test_a_table_buried_under_chat_is_reposted(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        table = Table(emu, thread, members, Rng.seeded(5))
        await table.step()
        first = table_of(emu, thread)
        for index in range(20):
            await members[0].say(thread, f"chatter {index}")
        for _ in range(3):
            await table.step()
        await bot.presenter.settle()
        await emu.settle()
        assert table_of(emu, thread).id != first.id
        assert emu.public_messages(thread)[-1].id in {table_of(emu, thread).id, pings(emu, thread)[-1].id}


async def click_while_the_table_goes(emu, bot, thread, member, custom_id):
    """`member` clicks `custom_id` on the table just as Catnip deletes that table (as when it posts it
    again further down); the click's result once answered."""
    table = table_of(emu, thread)
    clicking = asyncio.create_task(member.click(table, custom_id, force=True))
    await bot.presenter.deletions.delete(thread.id, table.id)
    result = await clicking
    await emu.settle()
    assert table.id not in [m.id for m in emu.public_messages(thread)]
    return result


async def test_a_move_on_a_table_being_deleted_is_made_and_answered_privately(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "madcat", 3)
        await emu.settle()
        game = next(iter(bot.service.live.values()))
        version = game.record.version
        (seat,) = game.to_act()
        move = acting_controls(game, table_of(emu, thread).components)[0]
        assert ids.kind_of(move) is ids.Kind.ACTION
        result = await click_while_the_table_goes(emu, bot, thread, members[seat], move)
        assert result.ok and result.message.flags & 64 and result.message.content == POSTED_AGAIN
        assert bot.service.live[game.id].record.version == version + 1, "the move is made"
        assert not emu.violations, "no update of the deleted table was attempted"


async def test_catnips_own_turn_pings_never_bury_its_table(tmp_path):
    """More pings than the chatter that buries a table (each deleted once the turn passes) leave the
    table where it is."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        table = Table(emu, thread, members, Rng.seeded(5))
        first = table_of(emu, thread)
        pinged = []
        emu.on_message(lambda kind, m: pinged.append(m) if kind == "create" and "🔔" in m.content else None)
        while len(pinged) <= REPOST_AFTER_MESSAGES and not table.over():
            await table.step()
        await bot.presenter.settle()
        assert table_of(emu, thread).id == first.id


def warnings(emu, thread) -> list:
    return [m for m in emu.public_messages(thread) if m.content.startswith("⏰")]


async def test_a_timer_warning_goes_away_once_the_decision_is_made(tmp_path):
    """The warning is deleted when the member plays (or the computer plays for them), not after a
    delay: nothing is left waiting to delete it when the bot stops."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        game_id = next(iter(bot.service.live))
        version = bot.service.live[game_id].record.version
        emu.advance(bot.timers.due(game_id) - emu.world.clock.time() - 5)
        await bot.timers.tick()
        await emu.settle()
        (warning,) = warnings(emu, thread)
        assert "5 s left to decide" in warning.content
        bot.presenter.refresh(bot.service.live[game_id])  # a refresh of the same decision keeps it
        await bot.presenter.settle()
        await emu.settle()
        assert warnings(emu, thread) == [warning]
        table = Table(emu, thread, members, Rng.seeded(3))
        while bot.service.live[game_id].record.version == version:
            await table.step()
        await bot.presenter.settle()
        await emu.settle()
        assert warnings(emu, thread) == [] and not bot.presenter.busy()


async def test_turn_pings_mention_only_whoever_acts_and_go_away(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        table = Table(emu, thread, members, Rng.seeded(6))
        for _ in range(12):
            await table.step()
            await bot.presenter.settle()
            await emu.settle()
            current = pings(emu, thread)
            assert len(current) <= 1, "an old ping is removed when the turn passes"
            game = next(iter(bot.service.live.values()), None)
            if game is None or not current:
                continue
            acting = {game.record.seats[s].user_id for s in game.to_act()}
            assert {m.id for m in members if f"<@{m.id}>" in current[0].content} == acting


@pytest.mark.parametrize("gone", ["thread", "thread and channel"])
async def test_after_a_restart_a_game_goes_on_in_its_channel_or_closes_when_that_is_gone_too(tmp_path, gone):
    async with catnip(tmp_path) as (emu, bot):
        thread, _ = await open_table(emu, "catsdogs", 3)
        game_id = next(iter(bot.service.live))
        await crash(emu, bot)
        del emu.world.channels[thread.id]
        if gone == "thread and channel":
            del emu.world.channels[thread.parent_id]
        again = await start_catnip(emu, tmp_path / "catnip.sqlite3", seed=3)
        try:
            if gone == "thread and channel":
                await emu.wait_for(lambda: game_id not in again.service.live)
                assert (await again.store.games.get_game(game_id)).status == "abandoned"
            else:
                games = emu.channel("games")
                await emu.wait_for(lambda: table_of(emu, games))
                await again.presenter.settle()
                assert game_id in again.service.live
                assert (await again.store.games.get_game(game_id)).table_channel_id == games.id
        finally:
            await again.close()


def deadline_shown(emu, thread) -> int | None:
    """The time the table says the current decision falls due, if it shows one."""
    found = re.search(r"⏰ <t:(\d+):R>", table_of(emu, thread).embeds[0].get("description") or "")
    return int(found.group(1)) if found else None


async def test_the_table_shows_each_decisions_deadline_from_the_start_after_moves_and_after_a_restart(
    tmp_path,
):
    """G-3: every decision a member is waiting on has a deadline, and the table says when it falls due."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        await bot.presenter.settle()
        await emu.settle()
        game_id = next(iter(bot.service.live))
        assert deadline_shown(emu, thread) == int(bot.timers.due(game_id))
        first = deadline_shown(emu, thread)
        emu.advance(10)
        table = Table(emu, thread, members, Rng.seeded(7))
        while bot.service.live[game_id].record.version == 1:
            await table.step()
        await bot.presenter.settle()
        await emu.settle()
        assert deadline_shown(emu, thread) == int(bot.timers.due(game_id)) > first, "a move sets a new one"
        await crash(emu, bot)

        emu.advance(10)
        again = await start_catnip(emu, tmp_path / "catnip.sqlite3", seed=4)
        try:
            await emu.wait_for(lambda: again.timers.due(game_id))
            await again.presenter.settle()
            await emu.settle()
            assert deadline_shown(emu, thread) == int(again.timers.due(game_id))
        finally:
            await again.close()


@pytest.mark.parametrize("stop", ["clean stop", "kill after a minute's note"])
async def test_a_restarted_bot_deletes_the_turn_ping_the_last_one_left_up(tmp_path, monkeypatch, stop):
    """The new process posts its own ping for the turn; the old one (noted at the clean stop, or by
    the minute's note before a kill) is deleted, so the member is not left with two."""
    monkeypatch.setattr("bot.app.NOTE_PINGS_EVERY_SECONDS", 0.05)
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        table = Table(emu, thread, members, Rng.seeded(4))
        for _ in range(3):
            await table.step()
        await bot.presenter.settle()
        (left_up,) = pings(emu, thread)
        if stop == "clean stop":
            await emu.stop_bot(bot)
        else:
            await emu.wait_for(lambda: left_up.id in noted_pings(tmp_path))
            await crash(emu, bot)
        assert [m.id for m in pings(emu, thread)] == [left_up.id]

        again = await start_catnip(emu, tmp_path / "catnip.sqlite3", seed=5)
        try:
            # Once ready the new process pings for the turn and deletes the old ping.
            await emu.wait_for(lambda: [m.id != left_up.id for m in pings(emu, thread)] == [True])
            (standing,) = pings(emu, thread)
            assert standing.content == left_up.content
            await table.step()  # play goes on, and its pings stay one
            await again.presenter.settle()
            await emu.settle()
            assert len(pings(emu, thread)) == 1
        finally:
            await again.close()


def noted_pings(tmp_path) -> set[int]:
    return {message for (message,) in rows(tmp_path, "SELECT message_id FROM pings")}


async def test_a_ping_gone_since_the_last_note_is_forgotten_at_the_next(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        await Table(emu, thread, members, Rng.seeded(4)).step()
        await bot.presenter.settle()
        await bot.presenter.note_pings()
        assert noted_pings(tmp_path) == {m.id for m in pings(emu, thread)} != set()
        await bot.service.endings.abandon(next(iter(bot.service.live.values())), "Nobody moved for a day.")
        await bot.presenter.settle()
        await emu.settle()
        assert pings(emu, thread) == []
        await bot.presenter.note_pings()
        assert noted_pings(tmp_path) == set(), "a restarted bot would delete a message already gone"


@pytest.fixture(scope="module")
def stoppable_postgres():
    """A PostgreSQL server of this module's own, which a test may stop (and must start again)."""
    server, folder = start_postgres()
    yield server
    stop_postgres(server, folder)


async def test_turn_pings_not_noted_while_the_database_is_down_are_noted_at_the_next_try(
    tmp_path, stoppable_postgres, caplog
):
    url = await fresh_schema_url(stoppable_postgres.get_uri())
    async with catnip(tmp_path, database_url=url) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        await Table(emu, thread, members, Rng.seeded(4)).step()
        await bot.presenter.settle()
        (standing,) = pings(emu, thread)
        game_id = next(iter(bot.service.live))
        stop_server(stoppable_postgres)
        try:
            await bot.presenter.note_pings()  # neither raises nor forgets what it had to note
            assert "could not note the standing turn pings" in caplog.text
        finally:
            start_server(stoppable_postgres)
        await bot.presenter.note_pings()
        assert await bot.store.timers.take_pings([game_id]) == {game_id: (thread.id, standing.id)}


async def test_the_tables_know_of_every_click_until_it_is_answered(tmp_path, monkeypatch):
    """Tables wait while a click has waited too long (`CLICKS_FIRST_AFTER`): every click a member
    makes is noted as it comes and forgotten once answered, in the one book the busy gate reads too."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        clicks = bot.presenter.schedule.clicks
        assert clicks is bot.overload, "the tables and the busy gate read one book"
        noted: list[int] = []
        waiting_at_answer: list[int] = []
        arrived, handled = clicks.arrived, clicks.handled

        def click_arrived() -> int:
            noted.append(arrived())
            return noted[-1]

        def click_handled(token: int) -> None:
            waiting_at_answer.append(clicks.count)
            handled(token)

        monkeypatch.setattr(clicks, "arrived", click_arrived)
        monkeypatch.setattr(clicks, "handled", click_handled)
        table = Table(emu, thread, members, Rng.seeded(3))
        for _ in range(3):
            await table.step()
        await bot.presenter.settle()
        assert len(noted) >= 3 and len(waiting_at_answer) == len(noted)
        assert min(waiting_at_answer) >= 1 and clicks.count == 0
