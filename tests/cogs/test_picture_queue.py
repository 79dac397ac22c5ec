"""Which table's picture is drawn next, and what a refresh waiting for its picture gets.

A table's refresh waits for the picture of the state its text shows (cogs/play/_pictures.py): when
the drawing budget falls short, the refreshes waiting go first — tables a member waits on (or a
finished one, its result to read) before those only computers play — then the tables that changed
and are still to be shown. A finished game whose table shows its last picture is not kept in memory.
"""

from __future__ import annotations

import asyncio
import logging
import time
from types import SimpleNamespace

import discord

import pictures as drawing
from bot.live import LiveGame
from bot.storage.models import GameRecord, SeatRecord
from cogs.play._pictures import BURST_SECONDS, MOVED_ON, DrawingBudget, Picture, TablePictures
from engine import GAMES

RULES = GAMES["catsdogs"].rules
WAIT = 60
"""A cap on each wait, never reached but on a machine too busy to start the drawing process in time."""
NAMES = ("Ann", "Bo", "Cy")


def table(game_id: int, status: str = "active", computer_to_act: bool = False) -> LiveGame:
    state = RULES.setup(3, game_id)
    acting = set(RULES.to_act(state))
    seats = tuple(
        SeatRecord(seat=s, user_id=None, name=f"{NAMES[s]} 🤖", computer="normal")
        if computer_to_act and s in acting
        else SeatRecord(seat=s, user_id=100 + s, name=NAMES[s])
        for s in range(3)
    )
    record = GameRecord(
        id=game_id, guild_id=1, channel_id=2, thread_id=None, game="catsdogs", options={}, seed=game_id,
        status=status, version=5, host_id=100, table_message_id=900 + game_id, table_channel_id=2,
        created_at=0.0, updated_at=0.0, seats=seats,
    )  # fmt: skip
    return LiveGame(record=record, rules=RULES, state=state)


def moved(game: LiveGame) -> None:
    seat = RULES.to_act(game.state)[0]
    game.state, _ = RULES.apply(game.state, seat, RULES.legal_actions(game.state, seat)[0])


def owing(pictures: TablePictures) -> None:
    """Nothing is drawn until the budget is given back (`repaid`): the test's clock stands still."""
    pictures.budget.seconds = -1e-6


def repaid(pictures: TablePictures) -> None:
    """The budget given back, and refilling from now on as the bot's does: however long the drawings
    take on this machine (a drawing process's first pictures cost the most), the last is drawn too."""
    pictures.budget = DrawingBudget(time.monotonic)
    pictures.budget.seconds = BURST_SECONDS


async def waiting(pictures: TablePictures, refreshes: int) -> None:
    """Until `refreshes` refreshes wait for their tables' pictures."""
    async with asyncio.timeout(WAIT):
        while sum(len(waiters) for waiters in pictures._waiters.values()) < refreshes:
            await asyncio.sleep(0.001)


def drawn_in_order(pictures: TablePictures) -> list[int]:
    """Note the tables whose pictures are drawn, in the order their drawings start (two are under way
    at once, and one whose picture is already kept ends first)."""
    order: list[int] = []
    draw = pictures._draw

    async def noted(game: LiveGame) -> float:
        order.append(game.id)
        return await draw(game)

    pictures._draw = noted
    return order


async def test_refreshes_waiting_for_their_picture_go_first_members_tables_before_computers():
    pictures = TablePictures(True, clock=lambda: 0.0)
    order = drawn_in_order(pictures)
    owing(pictures)
    computers, member, finished, prepared = (
        table(1, computer_to_act=True),
        table(2),
        table(3, status="finished"),
        table(4),
    )
    pictures.prepare(prepared)
    refreshes = [
        asyncio.create_task(pictures.picture(game, pictures.scene(game)))
        for game in (computers, member, finished)
    ]
    await waiting(pictures, 3)
    repaid(pictures)
    shown = await asyncio.wait_for(asyncio.gather(*refreshes), WAIT)
    assert all(isinstance(picture, Picture) for picture in shown), "each refresh gets its own picture"
    async with asyncio.timeout(WAIT):
        while len(order) < 4:
            await asyncio.sleep(0.005)
    assert order == [2, 3, 1, 4], "members' and finished tables, then computers', then the tables prepared"
    pictures.close()


async def test_a_table_that_moves_while_its_refresh_waits_is_read_again_and_drawn_once():
    pictures = TablePictures(True, clock=lambda: 0.0)
    order = drawn_in_order(pictures)
    owing(pictures)
    game = table(1)
    refresh = asyncio.create_task(pictures.picture(game, pictures.scene(game)))
    await waiting(pictures, 1)
    moved(game)
    pictures.prepare(game)
    repaid(pictures)
    assert await asyncio.wait_for(refresh, WAIT) is MOVED_ON, "the text it waited with is out of date"
    newest = await pictures.picture(game, pictures.scene(game))
    assert isinstance(newest, Picture) and newest.key == pictures.scene(game).key
    assert order == [1] and pictures.drawn == 1, "the newest state alone was drawn"
    pictures.close()


def held_picture(attachment_id: int) -> discord.Attachment:
    """A table picture's attachment as discord.py reads it from the message Discord returns (it keeps
    nothing of the connection but its HTTP client, which these tests never use)."""
    url = f"https://cdn.discordapp.com/attachments/2/{attachment_id}/table.png"
    data = {"id": str(attachment_id), "filename": "table.png", "size": 3, "url": url, "proxy_url": url}
    return discord.Attachment(data=data, state=SimpleNamespace(http=None))


async def test_stopping_answers_every_refresh_waiting_without_a_picture():
    pictures = TablePictures(True, clock=lambda: 0.0)
    pictures.budget.seconds = -3600.0
    games = [table(game_id) for game_id in (1, 2, 3)]
    refreshes = [asyncio.create_task(pictures.picture(game, pictures.scene(game))) for game in games]
    await waiting(pictures, 3)
    pictures.close()
    assert await asyncio.wait_for(asyncio.gather(*refreshes), WAIT) == [None, None, None]
    assert await pictures.picture(games[0], pictures.scene(games[0])) is None, "nothing drawn once stopped"


async def test_a_picture_that_cannot_be_drawn_leaves_the_table_without_one(monkeypatch, caplog):
    def torn(game: str, view, names, outcome, language) -> tuple:
        return (language, ("torn",))  # a scene the game's real painter cannot draw, in the drawing process

    monkeypatch.setattr(drawing, "scene_of", torn)
    pictures = TablePictures(True, clock=lambda: 0.0)
    game = table(1)
    with caplog.at_level(logging.ERROR, "catnip.table"):
        assert await asyncio.wait_for(pictures.picture(game, pictures.scene(game)), WAIT) is None
    assert "could not draw the table's picture" in caplog.text
    pictures.close()


def test_nothing_is_kept_of_finished_tables_showing_their_last_picture():
    pictures = TablePictures(True, clock=lambda: 0.0)
    running = table(1)
    pictures.shown(running, running.record.table_message_id, Picture("key", b"png"), [held_picture(77)])
    for game_id in range(2, 1002):
        finished = table(game_id, "finished")
        pictures.shown(finished, finished.record.table_message_id, Picture("key", b"png"), [held_picture(78)])
    assert len(pictures._shown) == 1, "a thousand games ended leave nothing behind"
    (kept,) = pictures.edit_kwargs(running, running.record.table_message_id, Picture("key", b"png"))[
        "attachments"
    ]
    assert kept.id == 77, "a live table still knows its message holds the picture (no second upload)"
    pictures.close()


def test_every_table_edit_names_the_attachments_its_message_keeps():
    """An edit keeping the picture names its attachment (Discord showed an unnamed one twice); a new
    picture, or one Discord did not list with the message, is uploaded; a table without a picture
    names none, so no old picture is left loose below the text."""
    pictures = TablePictures(True, clock=lambda: 0.0)
    game, message_id = table(1, "active"), 901
    assert pictures.edit_kwargs(game, message_id, None) == {"attachments": []}
    (upload,) = pictures.edit_kwargs(game, message_id, Picture("key", b"png"))["attachments"]
    assert isinstance(upload, discord.File), "a message not known to hold the picture gets it uploaded"
    pictures.shown(game, message_id, Picture("key", b"png"), [held_picture(77)])
    assert [a.id for a in pictures.edit_kwargs(game, message_id, Picture("key", b"png"))["attachments"]] == [
        77
    ]
    (new,) = pictures.edit_kwargs(game, message_id, Picture("other", b"png2"))["attachments"]
    assert isinstance(new, discord.File), "a new picture replaces the attachment"
    (elsewhere,) = pictures.edit_kwargs(game, 902, Picture("key", b"png"))["attachments"]
    assert isinstance(elsewhere, discord.File), "another message of the table does not hold it"
    pictures.shown(game, message_id, Picture("key", b"png"), [])
    (unlisted,) = pictures.edit_kwargs(game, message_id, Picture("key", b"png"))["attachments"]
    assert isinstance(unlisted, discord.File), "an attachment Discord did not list is not guessed"
    assert pictures.edit_kwargs(game, message_id, None) == {"attachments": []}
    pictures.close()


def test_a_tables_scene_follows_its_moves_and_its_players_names():
    """A scene is read once per state (when the game changes, and again when its table is shown), but
    a new state or a seat's new name gives a new picture."""
    pictures = TablePictures(True)
    game = table(1)
    first = pictures.scene(game)
    assert pictures.scene(game) == first
    seats = list(game.record.seats)
    seats[1] = seats[1].model_copy(update={"name": "Bo 🤖"})
    game.record = game.record.model_copy(update={"seats": tuple(seats)})
    renamed = pictures.scene(game)
    assert renamed.key != first.key and "Bo 🤖" in repr(renamed.content)
    moved(game)
    after_move = pictures.scene(game)
    assert after_move.key not in (first.key, renamed.key)
    assert after_move == TablePictures(True).scene(game), "as read afresh"
