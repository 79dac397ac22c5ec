"""The slash commands around a game, invoked over the emulated Discord."""

from __future__ import annotations

from bot.emulator import MemberSpec
from engine import Rng
from tests.e2e.driver import MEMBERS, Table, catnip, open_table


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
        assert "wins in 1 games" in await answer(bo, "leaderboard", thread, game="catsdogs")
        assert "no game running" in await answer(ann, "game status", thread)


async def test_a_manager_may_end_someone_elses_game(tmp_path):
    members = [*MEMBERS[:3], MemberSpec("Mo", ["manage_guild"])]
    async with catnip(tmp_path, members=members) as (emu, bot):
        thread, _ = await open_table(emu, "catsdogs", 3)
        assert "was ended" in await answer(emu.member("Mo"), "game end", thread)
        await emu.settle(idle=0.05)
        assert not bot.service.live
        assert any("closed" in m.text() for m in emu.public_messages(thread)), "the table says so"
