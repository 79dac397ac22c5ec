"""Clicks a modified client could forge, over the emulated Discord: every one gets a short private answer
and leaves every game as it was (issue 20's bad-input matrix)."""

from __future__ import annotations

import contextlib
import logging

from emulator.callbacks import DEFERRED_UPDATE
from engine import Rng
from tests.e2e.driver import Table, catnip, open_table, table_of

INVALID = "isn't valid any more"
ELSEWHERE = "belongs to another channel"


@contextlib.asynccontextmanager
async def two_servers(tmp_path):
    """Catnip in its usual server and in another one, whose members are Gus and Hal."""
    async with catnip(tmp_path) as (emu, bot):
        other = emu.add_guild("Other Server", channels=("lounge",), members=("Gus", "Hal"))
        await emu.settle()
        yield emu, bot, other


async def open_lobby(emu, host, channel, game="catsdogs"):
    """`/play game` by `host` in `channel`; the new lobby's thread and message."""
    known = len(emu.threads(channel))
    result = await host.slash("play", channel, game=game)
    assert result.ok
    await result.wait_final()
    thread = await emu.wait_for(lambda: emu.threads(channel)[known:] and emu.threads(channel)[known])
    return thread, await emu.wait_for(lambda: table_of(emu, thread))


def snapshot(message) -> tuple:
    """What everyone sees of a public message."""
    return message.content, message.embeds, message.components, message.edited_at


async def short_answer(result, member) -> str:
    """The click was answered once, privately to `member`, within Discord's limits; its text."""
    assert result.ok, result.failed
    reply = result.message
    assert reply is not None and reply.ephemeral and reply.visible_to == member.id
    text = reply.text()
    assert 0 < len(text) <= 2000
    return text


async def test_a_member_of_another_server_cannot_join_start_or_peek_at_a_game(tmp_path):
    async with two_servers(tmp_path) as (emu, bot, other):
        ann, bo = emu.member("Ann"), emu.member("Bo")
        gus = emu.member("Gus")
        home, home_lobby = await open_lobby(emu, ann, emu.channel("games"))
        assert (await bo.click(home_lobby, "Join")).ok
        await emu.settle()
        game = next(iter(bot.service.live.values()))
        lounge = emu.guild_channel(other, "lounge")
        _, away_lobby = await open_lobby(emu, gus, lounge)
        before = snapshot(table_of(emu, home))

        joined = await gus.forge_click(away_lobby, f"cn:l:{game.id}:join")
        assert ELSEWHERE in await short_answer(joined, gus)
        started = await ann.forge_click(away_lobby, f"cn:l:{game.id}:start")
        assert ELSEWHERE in await short_answer(started, ann)
        peek = await short_answer(await gus.forge_click(away_lobby, f"cn:v:{game.id}"), gus)
        assert ELSEWHERE in peek and "Ann" not in peek and "Bo" not in peek, (
            "a refusal to outsiders names nobody"
        )
        from_dm = await gus.forge_click(home_lobby, f"cn:l:{game.id}:join", channel=emu.dm_channel(gus))
        assert ELSEWHERE in await short_answer(from_dm, gus)

        await emu.settle()
        assert len(game.record.seats) == 2 and game.record.status == "lobby"
        assert snapshot(table_of(emu, home)) == before


async def test_a_game_answers_no_click_from_another_channel_of_its_server(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        ann, bo = emu.member("Ann"), emu.member("Bo")
        first, _ = await open_lobby(emu, ann, emu.channel("games"))
        _, second_lobby = await open_lobby(emu, bo, emu.channel("games"))
        game = next(g for g in bot.service.live.values() if g.record.host_id == ann.id)
        before = snapshot(table_of(emu, first))

        joined = await bo.forge_click(second_lobby, f"cn:l:{game.id}:join")
        assert ELSEWHERE in await short_answer(joined, bo)
        await emu.settle()
        assert len(game.record.seats) == 1 and snapshot(table_of(emu, first)) == before


async def test_a_forged_page_click_on_the_table_never_shows_a_private_panel_there(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        table = table_of(emu, thread)
        before = snapshot(table)
        for member in members:
            result = await member.forge_click(table, f"cn:pg:{game.id}:{game.record.version}:0")
            assert "private panel" in await short_answer(result, member)
        await emu.settle()
        assert snapshot(emu.message(table.id)) == before
        assert "Your hand" not in emu.message(table.id).text()


async def test_digits_that_are_not_ascii_get_the_short_answer(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        seat = game.to_act()[0]
        actor = members[seat]
        panel = await Table(emu, thread, members, Rng.seeded(1)).panel(actor)
        table = table_of(emu, thread)
        version = game.record.version
        for message, custom_id in [
            (table, "cn:v:²"),
            (table, f"cn:v:{game.id}²"),
            (panel, f"cn:a:{game.id}:²:p:C1"),
            (panel, f"cn:pg:{game.id}:{version}:²"),
            (panel, f"cn:a:{game.id}:{version}:p:C²"),
        ]:
            assert INVALID in await short_answer(await actor.forge_click(message, custom_id), actor)
        assert game.record.version == version and await bot.store.games.moves(game.id) == []


async def test_a_timer_or_a_bid_in_superscript_digits_gets_the_short_answer(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        ann, bo = emu.member("Ann"), emu.member("Bo")
        _, lobby = await open_lobby(emu, ann, emu.channel("games"))
        game = next(iter(bot.service.live.values()))
        timer = await ann.forge_click(
            lobby, f"cn:l:{game.id}:opt/turn_timer", component_type=3, values=["³⁰"]
        )
        assert INVALID in await short_answer(timer, ann)
        assert "turn_timer" not in game.record.options or game.record.options["turn_timer"] is None

        sanity_thread, sanity_lobby = await open_lobby(emu, ann, emu.channel("games"), "catsanity")
        sanity = next(g for g in bot.service.live.values() if g.record.game == "catsanity")
        assert (await bo.click(sanity_lobby, "Join")).ok
        await emu.settle()  # the lobby shows Bo seated: Start is enabled
        assert (await ann.click(sanity_lobby, "Start")).ok
        await emu.settle()
        version = sanity.record.version
        actor = ann if sanity.seat_of(ann.id) in sanity.to_act() else bo
        panel = await Table(emu, sanity_thread, [ann, bo], Rng.seeded(1)).panel(actor)
        bid = await actor.forge_click(panel, f"cn:a:{sanity.id}:{version}:bid:²")
        assert INVALID in await short_answer(bid, actor)
        chosen = await actor.forge_click(
            panel, f"cn:s:{sanity.id}:{version}:0", component_type=3, values=["bid:²"]
        )
        assert INVALID in await short_answer(chosen, actor)
        assert sanity.record.version == version


async def test_an_id_of_thousands_of_digits_or_an_argument_of_thousands_of_characters_is_answered_briefly(
    tmp_path,
):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        actor = members[game.to_act()[0]]
        panel = await Table(emu, thread, members, Rng.seeded(1)).panel(actor)
        version, nines = game.record.version, "9" * 3000
        for message, custom_id in [
            (table_of(emu, thread), f"cn:v:{nines}"),
            (panel, f"cn:a:{nines}:{version}:p:C1"),
            (panel, f"cn:a:{game.id}:{nines}:p:C1"),
            (panel, f"cn:a:{game.id}:{version}:p:" + "C" * 3000),
            (panel, f"cn:a:{game.id}:{version}:" + "p:" * 40),
            (table_of(emu, thread), f"cn:l:{game.id}:opt/" + "x" * 3000),
        ]:
            text = await short_answer(await actor.forge_click(message, custom_id), actor)
            assert INVALID in text and len(text) < 200 and "999" not in text and "CCC" not in text
        assert game.record.version == version


async def test_a_button_click_carrying_a_select_id_is_answered_and_logged(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="catnip.components")
    async with catnip(tmp_path) as (emu, bot):
        ann = emu.member("Ann")
        _, lobby = await open_lobby(emu, ann, emu.channel("games"))
        game = next(iter(bot.service.live.values()))
        before = snapshot(lobby)
        as_button = await ann.forge_click(lobby, f"cn:l:{game.id}:addc", component_type=2)
        assert INVALID in await short_answer(as_button, ann)
        as_select = await ann.forge_click(lobby, f"cn:l:{game.id}:start", component_type=3, values=["easy"])
        assert INVALID in await short_answer(as_select, ann)
        await emu.settle()
        assert len(game.record.seats) == 1 and game.record.status == "lobby"
        assert snapshot(emu.message(lobby.id)) == before
        warned = [r for r in caplog.records if r.name == "catnip.components" and r.levelno == logging.WARNING]
        assert len(warned) == 2 and all(f"cn:l:{game.id}" not in r.getMessage() for r in warned)


async def test_a_host_who_left_cannot_end_the_game_and_the_next_member_can(tmp_path):
    """G-X7 through Discord: /game leave, then /game end by the old and the new host."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        host = members[0]
        successor = members[(game.seat_of(host.id) + 1) % 3]
        assert (await host.slash("game leave", thread)).ok
        await emu.settle()
        refused = await host.slash("game end", thread)
        assert "host" in await short_answer(refused, host)
        assert game.id in bot.service.live
        ended = await successor.slash("game end", thread)
        assert "was ended" in await short_answer(ended, successor)
        assert (await bot.store.games.get_game(game.id)).status == "abandoned"


async def test_a_public_move_on_the_table_still_works(tmp_path):
    """The gate lets a move through where the table itself shows it (Mad Cat's Roll)."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "madcat", 2)
        game = next(iter(bot.service.live.values()))
        table = table_of(emu, thread)
        roll = next(b for b in table.buttons() if b.get("custom_id", "").endswith(":roll"))
        actor = members[game.to_act()[0]]
        result = await actor.click(table, roll["custom_id"])
        assert result.ok and result.response_type == DEFERRED_UPDATE
        await emu.settle()
        assert game.record.version > 1
