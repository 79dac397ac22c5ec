"""The phone-sized table over Discord: the Details button answers privately, during and after a game;
a private panel's own "more" button shows its owner the rest of their view in a private message of its
own, after a restart too; and a lobby's "⚙️ Settings" select sets an option for the host only."""

from __future__ import annotations

from cogs import lobby_settings
from engine import Rng
from tests.e2e.driver import Table, catnip, open_table, start_catnip, table_of
from tests.e2e.test_races import open_lobby
from tests.e2e.test_robustness import crash

MAX_STEPS = 3000


async def test_anyone_in_the_thread_sees_the_details_privately_during_and_after_the_game(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 1, computers=3)
        onlooker = emu.member("Flo")
        table = Table(emu, thread, members, Rng.seeded(3))
        await table.step()
        running = await onlooker.click(table.table(), "Details")
        assert running.ok and running.message.ephemeral
        details = running.message.text()
        assert "details (table #" in details and "this round" in details, "each player's collected cards"
        seats = next(iter(bot.service.live.values())).record.seats
        assert all(seat.name in details for seat in seats)
        for _ in range(MAX_STEPS):
            if table.over():
                break
            await table.step()
        assert table.over()
        await emu.settle()
        assert not bot.service.live, "the finished game is no longer in memory"
        final = table.table()
        assert "Round 1" not in final.embeds[0]["description"], "the table lists each score once"
        after = await onlooker.click(final, "Details")
        assert after.ok and after.message.ephemeral
        assert "Round 1" in after.message.embeds[0]["description"], "the breakdown is in the details"
        assert not emu.violations


async def test_a_panels_life_stack_button_shows_its_owner_the_rest_of_their_view_even_after_a_restart(
    tmp_path,
):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "ninelives", 2)
        table = Table(emu, thread, members, Rng.seeded(4))
        game = next(iter(bot.service.live.values()))
        for _ in range(MAX_STEPS):
            if game.state.phase == "play":
                break
            await table.step()
        ann = members[0]
        panel = (await ann.click(table.table(), "My hand")).message
        assert "Life stack & more" in [b.get("label") for b in panel.buttons()]
        assert not any(f["name"].startswith("Your life stack") for f in panel.embeds[0]["fields"])
        opened = await ann.click(panel, "Life stack & more")
        assert opened.ok and opened.message.ephemeral and opened.message.visible_to == ann.id
        assert opened.message.id != panel.id, "a message of its own: the panel stays as it was"
        rest = opened.message.text()
        assert "more of your view" in rest and "Your life stack — 9 lives, top first" in rest
        assert emu.message(panel.id).text() == panel.text()
        forged = await ann.forge_click(table.table(), f"cn:mo:{game.id}")
        assert "only on your own private panel" in forged.message.text(), "never from the table"
        await crash(emu, bot)
        again = await start_catnip(emu, tmp_path / "catnip.sqlite3", seed=2)
        try:
            after = await ann.click(panel, "Life stack & more")
            assert after.ok and after.message.ephemeral
            assert "Your life stack — 9 lives, top first" in after.message.text()
        finally:
            await again.close()
        assert not emu.violations


async def test_options_beyond_the_rows_are_set_by_the_host_in_a_settings_select(tmp_path, monkeypatch):
    monkeypatch.setattr(lobby_settings, "ROW_BUTTONS", 3)  # as if Nine Lives had more switches than room
    async with catnip(tmp_path) as (emu, bot):
        ann, bo = emu.member("Ann"), emu.member("Bo")
        thread, lobby = await open_lobby(emu, "ninelives")
        refused = await bo.select(lobby, "⚙️ Settings (host)…", ["limited_powers=off"])
        assert "Only Ann" in refused.message.text()
        assert (await ann.select(lobby, "⚙️ Settings (host)…", ["limited_powers=off"])).ok
        assert (await ann.select(lobby, "⚙️ Settings (host)…", ["first_queen=1"])).ok
        assert (await ann.select(lobby, "⚙️ Settings (host)…", ["turn_timer=120"])).ok
        await emu.settle()
        game = next(iter(bot.service.live.values()))
        assert game.record.options == {
            "limited_powers": False,
            "first_queen": 1,
            "turn_timer": 120,
            "pictures": False,
            "language": "en",
        }
        assert "Limited powers: **off**" in table_of(emu, thread).text()
        game_id = game.id
        forged = await ann.select(lobby, f"cn:l:{game_id}:set/0", ["first_queen=9"], force=True)
        assert "isn't a valid setting" in forged.message.text()
        assert not emu.violations
