"""Catnip against the emulator's strict reading of Discord (tests/emulator/test_strict_discord.py): its
thread archives while the game is idle, Discord loses interaction tokens that are still valid, and
turn pings go out as followups only of clicks everybody saw. The game goes on, the table shows its
latest move, and Discord refuses nothing that counts toward a ban."""

from __future__ import annotations

import logging

from cogs.messages import table_message
from engine import Rng
from tests.e2e.driver import Table, catnip, open_table, table_of

WEEK = 7 * 24 * 3600


def shows_latest(emu, bot, where, game) -> bool:
    """Whether the table in `where` shows `game` at its latest move."""
    shown = table_of(emu, where)
    latest = table_message(game, bot.timers.due(game.id)).embed.to_dict()
    return shown is not None and shown.embeds[0].get("footer") == latest.get("footer")


def pings_reply_to_public_messages(emu) -> None:
    """Every public followup of the bot's replies to a message everybody can load (a followup's
    `interacted_message_id` is the message clicked: a private panel would draw as a broken reply)."""
    world = emu.world
    for message in world.messages.values():
        interaction = world.interactions.get(message.interaction_id or 0)
        if message.ephemeral or interaction is None or message.id not in interaction.followup_ids:
            continue
        clicked = world.messages.get(interaction.message_id or 0)
        assert clicked is not None and not clicked.ephemeral, message.content


async def a_move_without_a_click(emu, bot, game) -> int:
    """The member to act plays their first card with no click of theirs (as a timer or a computer
    moves): the table goes through the bot's own routes. Returns the version before."""
    version = game.record.version
    seat = game.to_act()[0]
    await bot.service.play(
        game.id, game.record.seats[seat].user_id, version, f"p:{game.state.hands[seat][0]}"
    )
    await bot.presenter.settle()
    await emu.settle()
    return version


async def test_a_table_whose_thread_archived_is_posted_again_there_when_the_game_moves(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    async with catnip(tmp_path) as (emu, bot):
        thread, _ = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        old = table_of(emu, thread)
        emu.advance(WEEK + 3600)  # idle past the thread's week (no timer ended the game meanwhile)
        await emu.settle()
        assert thread.archived

        await a_move_without_a_click(emu, bot, game)

        assert not thread.archived, "the new table unarchived it"
        new = table_of(emu, thread)
        assert new.id != old.id and old.deleted and shows_latest(emu, bot, thread, game)
        assert emu.invalid_requests() == 0
        assert not emu.take_violations(), "no edit or deletion tried while it was archived"


async def test_a_thread_a_moderator_archived_gets_its_table_anew_at_the_next_move(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, _ = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        old = table_of(emu, thread)
        emu.archive_thread(thread)  # minutes after the last move: the table is young, yet not editable
        await emu.settle()

        await a_move_without_a_click(emu, bot, game)

        assert not thread.archived and old.deleted and shows_latest(emu, bot, thread, game)
        assert emu.invalid_requests() == 0
        assert not emu.take_violations(), "no edit or deletion tried while it was archived"


async def test_a_locked_thread_s_table_moves_to_its_channel(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, _ = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        emu.archive_thread(thread, locked=True)
        await emu.settle()

        await a_move_without_a_click(emu, bot, game)

        games = emu.channel("games")
        assert thread.archived and shows_latest(emu, bot, games, game)
        assert game.record.table_channel_id == games.id
        assert emu.invalid_requests() == 0 and not emu.take_violations()


async def test_members_coming_back_to_an_archived_thread_play_on_where_they_left(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        emu.archive_thread(thread)  # a moderator tidies up
        await emu.settle()
        await members[0].say(thread, "back for more!")  # unarchives the thread
        await emu.settle()
        table = Table(emu, thread, members, Rng.seeded(5))
        for _ in range(4):
            assert (await table.step()).ok
            await bot.presenter.settle()
            await emu.settle()
        assert game.record.version >= 4 and shows_latest(emu, bot, thread, game)
        assert emu.invalid_requests() == 0 and emu.rate_limited == []


async def test_tokens_discord_loses_cost_nothing_but_a_counted_request(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        table = Table(emu, thread, members, Rng.seeded(11))
        for member in members:  # each opens their panel ("My hand" on the table): fresh tokens
            assert await table.panel(member) is not None
        emu.world.lost_tokens.rate = 0.3
        while not table.over() and game.record.version < 30:
            assert (await table.step()).ok
            await bot.presenter.settle()
            await emu.settle()
            assert shows_latest(emu, bot, thread, game), "every move is shown, none lost"
        assert emu.world.lost_tokens.lost, "Discord lost some"
        assert any("interaction token refused (HTTP 404)" in r.getMessage() for r in caplog.records)
        assert emu.invalid_requests() == 0, "a lost token's 404 is not counted, and it is not used again"
        pings = [m for m in emu.public_messages(thread) if m.content.startswith("🔔")]
        assert len(pings) <= 1, "old pings were deleted through some route"
        pings_reply_to_public_messages(emu)


async def test_a_move_made_on_a_private_panel_pings_through_the_counted_route(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        seat = game.to_act()[0]
        panel = await Table(emu, thread, members, Rng.seeded(1)).panel(members[seat])
        emu.advance(15 * 60)  # the tokens of clicks on the table are too old: only the panel's is fresh
        before = emu.requests_counted
        version = game.record.version
        card = game.state.hands[seat][0]
        assert (await members[seat].click(panel, f"cn:a:{game.id}:{version}:p:{card}", force=True)).ok
        await bot.presenter.settle()
        await emu.settle()
        assert game.record.version == version + 1 and shows_latest(emu, bot, thread, game)
        pings_reply_to_public_messages(emu)
        assert emu.requests_counted > before, "the ping went through the bot's own route"


async def test_a_play_command_whose_token_discord_lost_still_opens_its_table(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    async with catnip(tmp_path, lost_tokens=1.0) as (emu, bot):
        result = await emu.member("Ann").slash("play", game="catsdogs")
        assert result.ok
        thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
        lobby = await emu.wait_for(lambda: table_of(emu, thread))
        await emu.settle()
        assert result.token_lost and lobby.id and bot.service.live
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
        assert any("Discord lost the token" in r.getMessage() for r in caplog.records)


async def test_an_idle_game_ends_and_is_marked_closed_while_its_thread_is_open(tmp_path):
    """G-X12: the game ends after a day idle; its thread archives only a week after its last message."""
    async with catnip(tmp_path) as (emu, bot):
        thread, _ = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        emu.advance(bot.settings.abandon_after_hours * 3600 + 60)
        await bot.timers.tick()
        await bot.presenter.settle()
        await emu.settle()

        assert (await bot.store.games.get_game(game.id)).status == "abandoned"
        assert not thread.archived, "the thread archives a week after its last message"
        closed = table_of(emu, thread)
        assert "closed" in closed.embeds[0]["title"] and not closed.buttons()
        emu.advance(WEEK)
        await emu.settle()
        assert thread.archived and table_of(emu, thread).id == closed.id, "it stays marked closed"
        assert emu.invalid_requests() == 0 and not emu.take_violations()


async def test_a_click_on_the_old_lobby_of_a_game_that_ended_in_an_archived_thread_says_it_ended(tmp_path):
    """G-X12: the bot does not unarchive the thread to mark the table; a click there is answered."""
    async with catnip(tmp_path) as (emu, bot):
        ann, bo = emu.member("Ann"), emu.member("Bo")
        await (await ann.slash("play", game="catsdogs")).wait_final()
        thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
        lobby = await emu.wait_for(lambda: table_of(emu, thread))
        await emu.settle()
        game = next(iter(bot.service.live.values()))
        emu.archive_thread(thread)  # a moderator tidies up
        emu.advance(bot.settings.abandon_after_hours * 3600 + 60)
        await bot.timers.tick()
        await bot.presenter.settle()
        await emu.settle()
        assert (await bot.store.games.get_game(game.id)).status == "abandoned"
        assert thread.archived and table_of(emu, thread).id == lobby.id, "not unarchived to say so"

        await bo.say(thread, "anyone?")  # coming back unarchives the thread
        await emu.settle()
        assert (await bo.click(lobby, "Join")).ok
        said = [m.text() for m in bo.ephemeral_messages(thread)]
        assert said and said[-1] == "That game was ended — start a new one with /play.", said
        assert emu.invalid_requests() == 0 and not emu.take_violations()
