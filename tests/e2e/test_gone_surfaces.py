"""A game whose table, thread or channel goes away under it: the table comes back where it still can be
shown, or the game ends with a note; one WARNING line says what happened, and no ERROR is logged."""

from __future__ import annotations

import logging

import pytest

from emulator import limits
from emulator.entities import CREATE_PUBLIC_THREADS, SEND_IN_THREADS, SEND_MESSAGES, VIEW_CHANNEL
from engine import Rng
from tests.e2e.driver import Table, catnip, open_table, table_of


def warnings(caplog) -> list[str]:
    records = [r for r in caplog.records if r.levelno == logging.WARNING and r.name == "catnip.table"]
    return [r.getMessage() for r in records]


def no_errors(caplog) -> None:
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


def refused_for_permissions(emu) -> list:
    """The requests Discord refused the bot for missing permissions (taken, so the test may end)."""
    taken = emu.take_violations()
    assert all(v.rule == limits.PERMISSIONS for v in taken), taken
    return taken


async def play_a_move(emu, bot, members, where):
    """The member to act clicks their first card on their private panel, opened from the table in `where`;
    the click is answered."""
    game = next(iter(bot.service.live.values()))
    seat = game.to_act()[0]
    version = game.record.version
    card = game.state.hands[seat][0]
    panel = await Table(emu, where, members, Rng.seeded(1)).panel(members[seat])
    result = await members[seat].click(panel, f"cn:a:{game.id}:{version}:p:{card}", force=True)
    assert result.ok
    await emu.settle()
    return game, version


async def test_a_deleted_table_message_is_posted_again_in_its_thread(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        await emu.settle()
        old = table_of(emu, thread)
        emu.delete_message(old)
        await emu.settle()

        new = table_of(emu, thread)
        assert new is not None and new.id != old.id
        game = next(iter(bot.service.live.values()))
        assert (await bot.store.games.get_game(game.id)).table_message_id == new.id
        game, version = await play_a_move(emu, bot, members, thread)
        assert game.record.version == version + 1
        assert [w for w in warnings(caplog) if "deleted" in w] == [
            f"{game.log_prefix()} table message {old.id} was deleted; posting it again"
        ]
        no_errors(caplog)


async def test_a_deleted_thread_moves_the_table_to_its_channel(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        await emu.settle()
        game = next(iter(bot.service.live.values()))
        emu.delete_channel(thread)
        await emu.settle()

        games = emu.channel("games")
        assert table_of(emu, games) is not None, "the table is shown in the channel"
        assert (await bot.store.games.get_game(game.id)).table_channel_id == games.id
        game, version = await play_a_move(emu, bot, members, games)
        assert game.record.version == version + 1 and game.id in bot.service.live
        assert any(f"its thread {thread.id} is gone" in w for w in warnings(caplog))
        no_errors(caplog)


async def table_after_losing(emu, bot, caplog, denied: int):
    """A started game in its thread; the bot is denied `denied` in the channel; the next move is made."""
    caplog.set_level(logging.INFO)
    thread, members = await open_table(emu, "catsdogs", 3)
    await emu.settle()
    emu.deny_bot("games", denied)
    await emu.settle()
    # The next move comes with no click (as a computer's would) after Start's interaction token is too
    # old: the table and the ping go through the bot's own routes, which the channel's permissions
    # bind (a click's token needs none of them, so while members click, the game goes on in its thread).
    emu.advance(15 * 60)
    game = next(iter(bot.service.live.values()))
    version = game.record.version
    seat = game.to_act()[0]
    card = game.state.hands[seat][0]
    await bot.service.play(game.id, members[seat].id, version, f"p:{card}")
    await bot.presenter.settle()
    await emu.settle()
    return thread, members, game, version


async def test_a_thread_the_bot_may_no_longer_post_in_moves_the_table_to_its_channel(tmp_path, caplog):
    async with catnip(tmp_path) as (emu, bot):
        thread, members, game, version = await table_after_losing(emu, bot, caplog, SEND_IN_THREADS)

        games = emu.channel("games")
        assert table_of(emu, games) is not None and game.record.table_channel_id == games.id
        assert len(refused_for_permissions(emu)) == 1, "one refused post, then the bot posts elsewhere"
        await play_a_move(emu, bot, members, games)
        assert game.record.version == version + 2
        assert any(f"cannot post in thread {thread.id}" in w for w in warnings(caplog))
        assert not refused_for_permissions(emu)
        no_errors(caplog)


@pytest.mark.parametrize("lost", ["send messages", "view channel"])
async def test_a_channel_the_bot_lost_ends_the_game_with_a_note(tmp_path, caplog, lost):
    denied = SEND_MESSAGES | SEND_IN_THREADS if lost == "send messages" else VIEW_CHANNEL
    async with catnip(tmp_path) as (emu, bot):
        thread, members, game, _ = await table_after_losing(emu, bot, caplog, denied)

        assert (
            await bot.store.games.get_game(game.id)
        ).status == "abandoned" and game.id not in bot.service.live
        if lost == "send messages":  # the bot may still edit its own messages there
            closed = table_of(emu, thread).embeds[0]
            assert "closed" in closed["title"] and "can no longer post" in closed["description"]
        assert any("cannot post the table anywhere" in w for w in warnings(caplog))
        assert refused_for_permissions(emu)
        told_the_host(emu, game, members, "I can no longer post in its channel")
        no_errors(caplog)
        await nothing_more_is_asked_there(emu, bot, [thread.id, emu.channel("games").id])


async def nothing_more_is_asked_there(emu, bot, channel_ids: list[int]) -> None:
    """Hours pass and the timers run: the bot makes no request more to the channels it lost."""
    paths: list[str] = []
    emu.server.observers.append(lambda request, response: paths.append(request.path))
    emu.advance(2 * 3600)
    await bot.timers.tick()
    await bot.presenter.settle()
    await emu.settle()
    assert not [p for p in paths if any(str(c) in p for c in channel_ids)], "no retry toward a ban"
    assert not emu.take_violations()


def told_the_host(emu, game, members, why: str) -> None:
    """The game's host, and nobody else, got one direct message naming the game, its server and why
    (G-X12)."""
    host, *others = members
    assert host.id == game.record.host_id
    letters = host.direct_messages()
    assert len(letters) == 1, [m.content for m in letters]
    assert f"{game.rules.title} (table #{game.id})" in letters[0].content
    assert emu.world.guild_name in letters[0].content and why in letters[0].content
    assert all(not member.direct_messages() for member in others)


async def delete_the_game_s_channel(emu, bot):
    """A started game in its thread; a moderator deletes the thread and its channel."""
    thread, members = await open_table(emu, "catsdogs", 3)
    await emu.settle()
    game = next(iter(bot.service.live.values()))
    games = emu.channel("games")
    emu.delete_channel(thread)
    emu.delete_channel(games)  # the bot hears of it (CHANNEL_DELETE) with no move to make
    await bot.presenter.settle()
    await emu.settle()
    record = await bot.store.games.get_game(game.id)
    assert record.status == "abandoned" and game.id not in bot.service.live
    return thread, games, members, game


async def test_a_deleted_channel_ends_its_game_tells_its_host_and_the_bot_asks_nothing_more_there(
    tmp_path, caplog
):
    caplog.set_level(logging.INFO)
    async with catnip(tmp_path) as (emu, bot):
        thread, games, members, game = await delete_the_game_s_channel(emu, bot)

        assert any("its channel is gone; ending the game" in w for w in warnings(caplog))
        told_the_host(emu, game, members, "its channel is gone")
        assert emu.invalid_requests() == 0
        no_errors(caplog)
        await nothing_more_is_asked_there(emu, bot, [thread.id, games.id])
        assert len(members[0].direct_messages()) == 1, "told once"


async def test_a_host_who_closed_direct_messages_is_not_asked_twice(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    async with catnip(tmp_path) as (emu, bot):
        host = emu.member("Ann")
        host.close_direct_messages()
        dm = emu.dm_channel(host)
        letters: list[int] = []
        emu.server.observers.append(
            lambda request, response: str(dm.id) in request.path and letters.append(response.status)
        )
        thread, games, members, game = await delete_the_game_s_channel(emu, bot)

        assert letters == [403] and not members[0].direct_messages(), "refused once (50007)"
        assert emu.invalid_requests() == 1, "Discord counts that refusal"
        dropped = [r.getMessage() for r in caplog.records if "not told of the end" in r.getMessage()]
        assert dropped == [f"{game.log_prefix()} the host was not told of the end by DM (closed to the bot)"]
        no_errors(caplog)
        await nothing_more_is_asked_there(emu, bot, [thread.id, games.id])
        assert letters == [403], "never asked again"


async def test_without_create_public_threads_the_table_opens_in_the_channel(tmp_path, caplog):
    async with catnip(tmp_path) as (emu, bot):
        emu.deny_bot("games", CREATE_PUBLIC_THREADS)
        await emu.settle()
        ann, bo = emu.member("Ann"), emu.member("Bo")
        await (await ann.slash("play", game="catsdogs")).wait_final()
        games = emu.channel("games")
        lobby = await emu.wait_for(lambda: table_of(emu, games))
        assert not emu.threads("games")
        assert (await bo.click(lobby, "Join")).ok
        assert (await ann.click(lobby, "Start")).ok
        await emu.settle()
        game, version = await play_a_move(emu, bot, [ann, bo], games)
        assert game.record.version == version + 1
        assert not emu.take_violations()
        no_errors(caplog)
