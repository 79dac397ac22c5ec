"""Tables put off by the drawing budget: finished games' last pictures go first, only so many wait, and
a finished game whose table shows its last picture is not kept in memory.

Under a steady load the budget draws a few pictures a second while games keep ending; a finished
table waiting its turn holds its whole game, so without these rules memory grew with every game
ended (docs/benchmarks.md, "Memory in steady play")."""

from __future__ import annotations

import asyncio
import gc
import weakref
from types import SimpleNamespace

import discord

from bot.live import LiveGame
from bot.storage.models import GameRecord, SeatRecord
from cogs.play import _pictures
from cogs.play._pictures import Picture, TablePictures
from engine import GAMES

RULES = GAMES["catsdogs"].rules
NAMES = ("Ann", "Bo", "Cy")


def table(game_id: int, status: str) -> LiveGame:
    seats = tuple(SeatRecord(seat=s, user_id=100 + s, name=NAMES[s]) for s in range(3))
    record = GameRecord(
        id=game_id, guild_id=1, channel_id=2, thread_id=None, game="catsdogs", options={}, seed=game_id,
        status=status, version=5, host_id=100, table_message_id=900 + game_id, table_channel_id=2,
        created_at=0.0, updated_at=0.0, seats=seats,
    )  # fmt: skip
    return LiveGame(record=record, rules=RULES, state=RULES.setup(3, game_id))


def owing(pictures: TablePictures, seconds: float) -> None:
    """Spend the budget: nothing is drawn for `seconds` of the test (the budget's clock stands still)."""
    pictures.budget.seconds = -seconds * _pictures.CPU_SHARE


async def drained(refreshed: list, count: int) -> list:
    async with asyncio.timeout(5):
        while len(refreshed) < count:
            await asyncio.sleep(0.005)
    return [game.id for game in refreshed]


async def test_a_finished_tables_last_picture_is_drawn_before_the_live_tables_pictures():
    refreshed: list[LiveGame] = []
    pictures = TablePictures(True, refreshed.append, clock=lambda: 0.0)
    owing(pictures, 0.01)
    live, other, finished = table(1, "active"), table(2, "active"), table(3, "finished")
    for game in (live, other, finished):
        pictures.prepare(game)
    assert await drained(refreshed, 3) == [3, 1, 2], "the finished table first, then the live ones in turn"
    pictures.close()


async def test_when_more_games_end_than_are_drawn_only_the_newest_finished_tables_wait(monkeypatch):
    monkeypatch.setattr(_pictures, "FINAL_PICTURES_WAITING", 2)
    refreshed: list[LiveGame] = []
    pictures = TablePictures(True, refreshed.append, clock=lambda: 0.0)
    owing(pictures, 0.01)
    ended = [table(game_id, "finished") for game_id in (1, 2, 3)]
    for game in ended:
        pictures.prepare(game)
    oldest = weakref.ref(ended[0])
    del ended, game
    gc.collect()
    assert oldest() is None, "the oldest finished table gave up its wait and its game is let go"
    pictures.prepare(table(4, "active"))
    assert await drained(refreshed, 3) == [2, 3, 4]
    pictures.close()


def held_picture(attachment_id: int) -> discord.Attachment:
    """A table picture's attachment as discord.py reads it from the message Discord returns (it keeps
    nothing of the connection but its HTTP client, which these tests never use)."""
    url = f"https://cdn.discordapp.com/attachments/2/{attachment_id}/table.png"
    data = {"id": str(attachment_id), "filename": "table.png", "size": 3, "url": url, "proxy_url": url}
    return discord.Attachment(data=data, state=SimpleNamespace(http=None))


async def test_nothing_is_kept_of_finished_tables_showing_their_last_picture():
    pictures = TablePictures(True, lambda game: None, clock=lambda: 0.0)
    running = table(1, "active")
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
    pictures = TablePictures(True, lambda game: None, clock=lambda: 0.0)
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
    pictures = TablePictures(True, lambda game: None)
    game = table(1, "active")
    first = pictures.scene(game)
    assert pictures.scene(game) == first
    seats = list(game.record.seats)
    seats[1] = seats[1].model_copy(update={"name": "Bo 🤖"})
    game.record = game.record.model_copy(update={"seats": tuple(seats)})
    renamed = pictures.scene(game)
    assert renamed.key != first.key and "Bo 🤖" in repr(renamed.content)
    seat = RULES.to_act(game.state)[0]
    game.state, _ = RULES.apply(game.state, seat, RULES.legal_actions(game.state, seat)[0])
    moved = pictures.scene(game)
    assert moved.key not in (first.key, renamed.key)
    assert moved == TablePictures(True, lambda game: None).scene(game), "as read afresh"
