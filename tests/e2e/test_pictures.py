"""Table pictures over the emulated Discord: the table carries its picture, the lobby's switch turns
pictures off, an unchanged picture is not uploaded again, and stopping does not wait for pictures."""

from __future__ import annotations

import asyncio
import io
import itertools
import time

from PIL import Image

import pictures
from engine import Rng
from tests.e2e.driver import Table, catnip, open_table, start_catnip, table_of


def picture_bytes(emu, message) -> bytes:
    """The bytes of the table's picture: the attachment its embed shows."""
    assert message.embeds[0]["image"]["url"] == "attachment://table.png"
    (attachment,) = message.attachments
    assert attachment["filename"] == "table.png"
    return emu.world.files[int(attachment["id"])]


async def test_the_table_carries_a_picture_of_the_game_that_follows_the_moves(tmp_path):
    async with catnip(tmp_path, pictures=True) as (emu, _):
        thread, members = await open_table(emu, "madcat", 2)
        first = picture_bytes(emu, table_of(emu, thread))
        with Image.open(io.BytesIO(first)) as image:
            assert image.format == "PNG" and image.size == (800, 450)
        table = Table(emu, thread, members, Rng.seeded(3))
        while picture_bytes(emu, table_of(emu, thread)) == first and not table.over():
            await table.step()
        assert picture_bytes(emu, table_of(emu, thread)) != first, "a move that changes the table redraws it"
        assert "Now:" in table_of(emu, thread).embeds[0]["description"], "the text stays"
        assert not emu.violations


async def test_the_host_turns_pictures_off_in_the_lobby(tmp_path):
    async with catnip(tmp_path, pictures=True) as (emu, _):
        ann, bo = emu.member("Ann"), emu.member("Bo")
        await (await ann.slash("play", game="catsdogs")).wait_final()
        thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
        lobby = await emu.wait_for(lambda: table_of(emu, thread))
        assert (await bo.click(lobby, "Join")).ok
        await emu.settle()
        refused = await bo.click(lobby, "Pictures: on")
        assert "Only Ann" in refused.message.text()
        assert (await ann.click(lobby, "Pictures: on")).ok
        await emu.settle()
        assert "Pictures: **off**" in table_of(emu, thread).text()
        assert (await ann.click(lobby, "Start")).ok
        await emu.settle()
        table = table_of(emu, thread)
        assert "Now:" in table.embeds[0]["description"]
        assert "image" not in table.embeds[0] and not table.attachments and not emu.world.files


async def test_an_unchanged_picture_is_not_uploaded_again(tmp_path):
    async with catnip(tmp_path, pictures=True) as (emu, bot):
        thread, _ = await open_table(emu, "ninelives", 3)
        message = table_of(emu, thread)
        before = (message.attachments[0]["id"], len(emu.world.files))
        edits = []
        emu.world.listeners.append(lambda kind, m: edits.append(m.id) if kind == "update" else None)
        game = next(iter(bot.service.live.values()))
        bot.presenter.refresh(game)
        await emu.settle()
        assert message.id in edits, "the table was edited again"
        message = table_of(emu, thread)
        assert (message.attachments[0]["id"], len(emu.world.files)) == before
        assert picture_bytes(emu, message)
        assert not emu.violations


async def test_every_edit_keeping_the_picture_names_it_across_moves_and_a_restart(tmp_path):
    """An edit of the table either uploads its picture or keeps the one the message holds by naming
    its attachment (Discord showed an unnamed one twice; the emulator refuses such an edit). After a
    restart the new process cannot know which picture the message holds: its first edit uploads the
    picture again, and the edits after it name that upload."""
    async with catnip(tmp_path, pictures=True) as (emu, bot):
        thread, members = await open_table(emu, "ninelives", 3)
        message_id = table_of(emu, thread).id
        held = [[a["id"] for a in table_of(emu, thread).attachments]]  # the table's attachments, edit by edit
        emu.world.listeners.append(
            lambda kind, m: (
                held.append([a["id"] for a in m.attachments])
                if kind == "update" and m.id == message_id
                else None
            )
        )

        def edits_since(start: int) -> tuple[int, int]:
            """The table's edits since the `start`th, and how many of them uploaded a new attachment."""
            seen = held[start:]
            return len(seen) - 1, sum(1 for before, after in itertools.pairwise(seen) if after != before)

        def kept_by_name() -> int:
            return emu.world.kept_files[message_id]

        table = Table(emu, thread, members, Rng.seeded(5))
        kept = kept_by_name()
        for _ in range(6):
            await table.step()
        bot.presenter.refresh(next(iter(bot.service.live.values())))  # an edit with nothing new to draw
        await bot.presenter.settle()
        await emu.settle()
        edits, uploads = edits_since(0)
        assert uploads >= 1 and kept_by_name() - kept >= 1, "moves redraw the picture; other edits keep it"
        assert edits == uploads + kept_by_name() - kept, "every edit keeping the picture named it"
        await emu.stop_bot(bot)

        restart, kept = len(held) - 1, kept_by_name()
        again = await start_catnip(emu, tmp_path / "catnip.sqlite3", seed=2)
        try:
            await emu.wait_for(lambda: len(held) > restart + 1)
            assert held[restart + 1] != held[restart], "the new process uploaded the picture again"
            for _ in range(6):
                await table.step()
            again.presenter.refresh(next(iter(again.service.live.values())))
            await again.presenter.settle()
            await emu.settle()
            edits, uploads = edits_since(restart)
            assert kept_by_name() - kept >= 1, "after the restart too, edits keep the picture"
            assert edits == uploads + kept_by_name() - kept, "and every one of them named it"
            assert table_of(emu, thread).id == message_id, "the table was edited in place throughout"
            assert picture_bytes(emu, table_of(emu, thread))
        finally:
            await again.close()
        assert not emu.violations


async def test_when_drawing_falls_behind_the_text_goes_first_and_the_picture_follows(tmp_path, monkeypatch):
    """A slow drawing never holds the table's text back: the move shows at once beside the picture
    the table had, and the new picture replaces it in a later edit."""
    draw = pictures.draw

    def slow_draw(game: str, scene: tuple) -> bytes:
        time.sleep(0.3)
        return draw(game, scene)

    monkeypatch.setattr(pictures, "draw", slow_draw)
    async with catnip(tmp_path, pictures=True) as (emu, _):
        thread, members = await open_table(emu, "catsdogs", 3)
        before = table_of(emu, thread)
        old_text, old_picture = before.embeds[0]["description"], picture_bytes(emu, before)
        old_attachment = before.attachments[0]["id"]
        seen = []
        emu.world.listeners.append(
            lambda kind, m: (
                seen.append((m.embeds[0]["description"], [a["id"] for a in m.attachments]))
                if kind == "update" and m.id == before.id
                else None
            )
        )
        table = Table(emu, thread, members, Rng.seeded(7))
        while table_of(emu, thread).embeds[0]["description"] == old_text:
            await table.step()
        after = table_of(emu, thread)
        assert picture_bytes(emu, after) != old_picture
        first_with_new_text = next(s for s in seen if s[0] != old_text)
        assert first_with_new_text[1] == [old_attachment], "the text went out first, beside the old picture"
        assert not emu.violations


async def test_a_closed_table_drops_its_picture(tmp_path):
    async with catnip(tmp_path, pictures=True) as (emu, _):
        thread, members = await open_table(emu, "catsdogs", 3)
        table = table_of(emu, thread)
        assert picture_bytes(emu, table)
        assert (await members[0].slash("game end", thread)).ok
        await emu.settle()
        closed = emu.message(table.id)
        assert "closed" in closed.embeds[0]["title"]
        assert "image" not in closed.embeds[0] and not closed.attachments, "no loose picture is left"
        assert not emu.violations


async def test_a_stopping_bot_shows_the_text_and_draws_no_picture_left_waiting_for_the_budget(tmp_path):
    """Stopping waits for the tables' text, not for pictures put off by the drawing budget: with a
    thousand tables behind on their pictures that wait would be minutes (a restart shows every table,
    picture and all, anew)."""

    async def play_one_move_then_stop() -> tuple[str, str]:
        async with catnip(tmp_path, pictures=True) as (emu, bot):
            thread, members = await open_table(emu, "catsdogs", 3)
            bot.presenter.pictures.budget.seconds = -3600.0  # an hour of drawing owed: days at 2% a core
            table = Table(emu, thread, members, Rng.seeded(3))
            before = table_of(emu, thread).embeds[0]["footer"]["text"]
            await table.step(wait=False)
            await emu.wait_for(lambda: table_of(emu, thread).embeds[0]["footer"]["text"] != before)
            await emu.wait_for(lambda: bot.presenter.busy() and not bot.presenter.schedule._workers)
            return before, table_of(emu, thread).embeds[0]["footer"]["text"]

    before, after = await asyncio.wait_for(play_one_move_then_stop(), 30)
    assert before.endswith("move 0") and after.endswith("move 1")
