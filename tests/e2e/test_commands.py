"""The slash commands around a game, invoked over the emulated Discord."""

from __future__ import annotations

from emulator import MemberSpec
from engine import Rng
from tests.e2e.driver import MEMBERS, Table, catnip, open_table, table_of


async def answer(member, command, channel, **options) -> str:
    result = await member.slash(command, channel, **options)
    assert result.ok, result.failed
    message = result.message
    assert message is not None and message.ephemeral and message.visible_to == member.id
    return message.text()


async def test_game_commands_during_and_after_a_game(tmp_path):
    members = [*MEMBERS[:5], MemberSpec("Mo", ["manage_guild"])]
    async with catnip(tmp_path, members=members) as (emu, _):
        thread, players = await open_table(emu, "catsdogs", 3)
        ann, bo, cy = players
        assert "table #1" in await answer(ann, "game status", thread)
        assert "your view" in await answer(bo, "game hand", thread)
        assert "not playing" in await answer(emu.member("Di"), "game hand", thread)
        assert "Only Ann" in await answer(bo, "game end", thread)
        assert "ribbons" in await answer(bo, "rules", thread, game="catsdogs")

        table = Table(emu, thread, players, Rng.seeded(2))
        for _ in range(4):
            await table.step()
        assert "plays" in await answer(cy, "game log", thread)
        assert "computer player took your seat" in await answer(cy, "game leave", thread)
        table.members = [ann, bo]
        while not table.over():
            await table.step()

        stats = await answer(ann, "stats", thread)
        assert "Cats & Dogs" in stats and "of 1" in stats
        assert "1 rated game (provisional)" in await answer(bo, "leaderboard", thread, game="catsdogs")
        assert "no game running" in await answer(ann, "game status", thread)


async def test_a_manager_may_end_someone_elses_game(tmp_path):
    members = [*MEMBERS[:3], MemberSpec("Mo", ["manage_guild"])]
    async with catnip(tmp_path, members=members) as (emu, bot):
        thread, _ = await open_table(emu, "catsdogs", 3)
        assert "was ended" in await answer(emu.member("Mo"), "game end", thread)
        await emu.settle()
        assert not bot.service.live
        assert any("closed" in m.text() for m in emu.public_messages(thread)), "the table says so"


async def test_the_host_sets_options_in_the_lobby_and_others_cannot(tmp_path):
    """CS-13 / NL-11: the host picks who starts and the power set; the channel remembers what was played."""
    async with catnip(tmp_path) as (emu, bot):
        ann, bo = emu.member("Ann"), emu.member("Bo")
        await (await ann.slash("play", game="ninelives")).wait_final()
        thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
        lobby = await emu.wait_for(lambda: table_of(emu, thread))
        assert (await bo.click(lobby, "Join")).ok
        await emu.settle()
        refused = await bo.click(lobby, "Limited powers: on")
        assert "Only Ann" in refused.message.text()
        await ann.click(lobby, "Limited powers: on")
        await ann.select(lobby, "First queen…", ["1"])
        await ann.select(lobby, "Decision timer…", ["300"])
        await emu.settle()
        game = next(iter(bot.service.live.values()))
        assert game.record.options == {
            "limited_powers": False,
            "first_queen": 1,
            "turn_timer": 300,
            "pictures": False,  # the tests' bot setting: PICTURES=off
            "language": "en",  # the server's
        }
        assert "First queen: **Bo**" in table_of(emu, thread).text()
        await ann.click(lobby, "Start")
        await emu.settle()
        await (await ann.slash("play", game="ninelives")).wait_final()
        await emu.settle()
        remembered = max(bot.service.live.values(), key=lambda g: g.id).record.options
        assert remembered["limited_powers"] is False and remembered["turn_timer"] == 300


async def test_the_host_shuffles_the_seats_and_the_lobby_shows_the_new_order(tmp_path):
    """G-1 / G-X6 over Discord: only the host may shuffle; the lobby lists the new order."""
    async with catnip(tmp_path) as (emu, bot):
        ann, bo, cy = emu.member("Ann"), emu.member("Bo"), emu.member("Cy")
        await (await ann.slash("play", game="catsdogs")).wait_final()
        thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
        lobby = await emu.wait_for(lambda: table_of(emu, thread))
        for member in (bo, cy):
            assert (await member.click(lobby, "Join")).ok
        await emu.settle()
        refused = await bo.click(lobby, "Shuffle seats")
        assert "Only Ann" in refused.message.text()
        game = next(iter(bot.service.live.values()))
        before = [seat.user_id for seat in game.record.seats]
        assert (await ann.click(lobby, "Shuffle seats")).ok
        await emu.settle()
        after = [seat.user_id for seat in game.record.seats]
        assert after != before and sorted(after) == sorted(before)
        listed = table_of(emu, thread).text()
        assert [listed.index(f"<@{user}>") for user in after] == sorted(
            listed.index(f"<@{u}>") for u in after
        )
