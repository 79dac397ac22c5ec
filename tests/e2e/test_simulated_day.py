"""A day and more of Catnip on the virtual clock against the emulator's strict reading of Discord:
tables left idle for hours, threads archived under them, members coming back to some, a timer moving
at another, the bot stopped cleanly once and killed once, and at last a day of silence after which
the games end (Catnip ends a game nobody played for 24 hours), marked closed before their threads
archive a week later. Discord refuses nothing that counts toward a ban, and every game comes back at
its latest move when someone returns."""

from __future__ import annotations

from emulator import Emulator
from engine import Rng
from tests.e2e.driver import FAST_DISCORD, MEMBERS, Table, open_table, start_catnip, table_of
from tests.e2e.test_robustness import crash
from tests.e2e.test_strict_discord import a_move_without_a_click, shows_latest

HOUR = 3600.0


async def play(emu, bot, table: Table, moves: int) -> None:
    for _ in range(moves):
        assert (await table.step()).ok
        await bot.presenter.settle()
        await emu.settle()


async def settled(emu, bot):
    await bot.presenter.settle()
    await emu.settle()
    return bot


def one_table_each(emu, threads) -> None:
    for thread in threads:
        tables = [m for m in emu.public_messages(thread) if "table #" in str(m.embeds)]
        assert tables == [table_of(emu, thread)], "one table a thread: the old ones were deleted"


async def test_a_simulated_day_refuses_nothing_and_every_game_comes_back_at_its_latest_move(tmp_path):
    db = tmp_path / "catnip.sqlite3"
    async with Emulator.start(members=MEMBERS, rate_limits=FAST_DISCORD, lost_tokens=0.05) as emu:
        with emu.point_discord_py():
            bots = [await start_catnip(emu, db)]
            try:
                first, first_members = await open_table(emu, "catsdogs", 3, names=MEMBERS[:3])
                second, second_members = await open_table(emu, "catsdogs", 3, names=MEMBERS[3:])
                games = {g.record.thread_id: g.id for g in bots[-1].service.live.values()}
                tables = {
                    first.id: Table(emu, first, first_members, Rng.seeded(1)),
                    second.id: Table(emu, second, second_members, Rng.seeded(2)),
                }
                for table in tables.values():
                    await play(emu, bots[-1], table, 3)

                emu.advance(3 * HOUR)  # lunch: the tables are hours old
                await play(emu, bots[-1], tables[first.id], 2)
                await emu.stop_bot(bots[-1])
                bots.append(await settled(emu, await start_catnip(emu, db, seed=2)))

                emu.advance(10 * HOUR)
                emu.archive_thread(second)  # a moderator tidies up
                await emu.settle()
                await second_members[0].say(second, "again?")  # coming back unarchives the thread
                await play(emu, bots[-1], tables[second.id], 3)
                await crash(emu, bots[-1])
                bots.append(await settled(emu, await start_catnip(emu, db, seed=3)))

                emu.advance(10 * HOUR)
                emu.archive_thread(first)
                await emu.settle()
                bot = bots[-1]
                await a_move_without_a_click(emu, bot, bot.service.live[games[first.id]])
                assert not first.archived, "the table was posted anew in its thread"

                for thread_id in tables:
                    thread = emu.world.channels[thread_id]
                    game = bot.service.live[games[thread_id]]
                    assert shows_latest(emu, bot, thread, game), f"game {game.id} at its latest move"
                one_table_each(emu, [first, second])

                emu.advance(25 * HOUR)  # nobody comes back: the games end, their threads still open
                await bot.timers.tick()  # the computers decide for the absent, then the games end
                await settled(emu, bot)
                assert not bot.service.live
                for thread in (first, second):
                    assert (await bot.store.games.get_game(games[thread.id])).status == "abandoned"
                    assert "closed" in table_of(emu, thread).embeds[0]["title"]
                emu.advance(7 * 24 * HOUR)
                assert first.archived and second.archived, "a week later the threads archive"
                assert emu.server.usage.invalid_peak() == 0, "nothing refused that counts toward a ban"
                assert emu.rate_limited == []
            finally:
                for bot in bots:
                    await bot.close()
