"""Table pictures over the emulated Discord: the table carries its picture, every edit of it carries
the text and the picture of one state, the lobby's switch turns pictures off, an unchanged picture is
not uploaded again, and stopping does not wait for pictures."""

from __future__ import annotations

import asyncio
import io
import itertools
import re
from dataclasses import dataclass

from PIL import Image

import pictures
import pictures.process
from cogs.play._replay import rebuild
from engine import Rng
from tests.e2e.driver import Table, catnip, open_table, start_catnip, table_of
from tests.e2e.slow_drawing import timed_slow_draw

FOOTER = re.compile(r"Game #(\d+) · move (\d+)")


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
            assert image.format == "PNG" and image.size == pictures.SIZE
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


@dataclass(frozen=True)
class Shown:
    """What one request showed on the table message: its text (but the picture) and its picture."""

    move: int
    text: str
    picture: bytes | None


def shown(emu, message) -> Shown:
    embed = message.embeds[0]
    text = repr(({k: v for k, v in embed.items() if k != "image"}, message.components))
    move = int(FOOTER.search(embed["footer"]["text"])[2])
    return Shown(move, text, picture_bytes(emu, message) if message.attachments else None)


def pictures_of_each_state(record, moves, draw) -> list[bytes]:
    """The table's picture after each move of a finished game, drawn afresh from its move log."""
    replay = rebuild(record, tuple(moves))
    drawn = []
    for step in range(replay.last + 1):
        game = replay.game_at(step)
        outcome = game.rules.outcome(game.state)
        drawn.append(draw(record.game, pictures.scene_of(record.game, game.view(None), game.names, outcome)))
    return drawn


async def test_every_table_edit_of_a_whole_game_carries_the_text_and_the_picture_of_one_state(
    tmp_path, monkeypatch
):
    """On a machine that draws slowly, every edit of a whole game's table that changes its picture
    changes its text with it, and the picture is of the very state the text shows: no edit exists
    only to deliver a picture, and the table never shows a picture of another move than its text."""
    draw = pictures.draw
    # A loaded machine: each picture takes longer than a refresh would wait for it.
    monkeypatch.setattr(pictures.process, "timed_draw", timed_slow_draw)
    async with catnip(tmp_path, pictures=True) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        first = table_of(emu, thread)
        edits: list[Shown] = [shown(emu, first)]
        emu.world.listeners.append(
            lambda kind, m: edits.append(shown(emu, m)) if kind == "update" and m.id == first.id else None
        )
        table = Table(emu, thread, members, Rng.seeded(7))
        while not table.over():
            await table.step()
        assert table_of(emu, thread).id == first.id, "the table stayed in its message"
        record = await bot.service.store.games.get_game(
            int(FOOTER.search(first.embeds[0]["footer"]["text"])[1])
        )
        each_state = pictures_of_each_state(record, await bot.service.store.games.moves(record.id), draw)
        assert not emu.violations
    moves = len(each_state) - 1
    before, edits = edits[0], edits[1:]
    assert before.move == 0 and before.picture == each_state[0]
    for edit in edits:
        assert edit.picture == each_state[edit.move], f"move {edit.move}: the picture shows another move"
        assert edit.text != before.text or edit.picture == before.picture, (
            f"move {edit.move}: a picture alone"
        )
        before = edit
    assert [edit.move for edit in edits if edit.move != 0][-1] == moves, "the table ends at the last move"
    assert len(edits) <= moves + 1, f"{len(edits)} edits for {moves} moves"


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


async def test_a_stopping_bot_does_not_wait_for_pictures_put_off_by_the_budget(tmp_path):
    """Stopping does not wait for the pictures the drawing budget puts off (with a thousand tables
    behind that wait would be minutes): a table whose refresh waits for its picture shows its latest
    text without one — never beside the picture of an earlier move (a restart shows every table,
    picture and all, anew)."""

    async def play_one_move_then_stop():
        async with catnip(tmp_path, pictures=True) as (emu, bot):
            thread, members = await open_table(emu, "catsdogs", 3)
            bot.presenter.pictures.budget.seconds = -3600.0  # an hour of drawing owed
            table = Table(emu, thread, members, Rng.seeded(3))
            before = table_of(emu, thread)
            assert before.embeds[0]["footer"]["text"].endswith("move 0") and before.attachments
            await table.step(wait=False)
            await emu.wait_for(lambda: bot.presenter.pictures._waiters)  # the move's refresh waits
            assert table_of(emu, thread).embeds[0]["footer"]["text"].endswith("move 0"), "text waits too"
        return table_of(emu, thread)

    after = await asyncio.wait_for(play_one_move_then_stop(), 30)
    assert after.embeds[0]["footer"]["text"].endswith("move 1")
    assert "image" not in after.embeds[0] and not after.attachments, "no picture of move 0 beside move 1"
