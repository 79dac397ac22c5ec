"""The picture on each table message: drawn off the event loop, only when it changed, uploaded only
when the message does not carry it already.

A table's picture is keyed by the hash of its scene (what the picture shows, from the public view).
An edit whose picture is the one the message already has sends no file: Discord keeps the message's
attachments, and the embed keeps pointing at it. Drawn pictures are kept in a small cache shared by
all tables, so a table reposted with an unchanged picture uploads it again without drawing it again.
"""

from __future__ import annotations

import asyncio
import io
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import discord

import pictures
from bot.live import LiveGame

CACHED_PICTURES = 256
DRAWING_THREADS = 1
"""One: the font objects are shared (rendering each word once), and FreeType faces are not safe to
render from two threads at once; with the GIL a second thread would gain little anyway."""


@dataclass(frozen=True)
class Picture:
    key: str
    png: bytes

    def file(self) -> discord.File:
        """A fresh upload of the picture (a `discord.File` is read once, so each request gets its own)."""
        return discord.File(io.BytesIO(self.png), filename=pictures.FILENAME)


class TablePictures:
    """Draws table pictures in worker threads and remembers which picture each table message shows."""

    def __init__(self, default: bool = True) -> None:
        self.default = default
        self._cache: OrderedDict[str, bytes] = OrderedDict()
        self._shown: dict[int, tuple[int, str]] = {}  # game id -> (message id, picture key)
        self._executor: ThreadPoolExecutor | None = None
        self.drawn = 0

    def wanted(self, game: LiveGame) -> bool:
        return game.state is not None and game.pictures(self.default)

    def scene(self, game: LiveGame) -> tuple[str, tuple] | None:
        """What the table's picture shows now (cheap: read it when the table's text is made), or None
        when the table shows no picture."""
        if not self.wanted(game):
            return None
        view = game.rules.view(game.state, None)
        return game.record.game, pictures.scene_of(
            game.record.game, view, game.names, game.rules.outcome(game.state)
        )

    async def picture(self, scene: tuple[str, tuple] | None) -> Picture | None:
        """The picture of `scene`, drawn in a worker thread unless it was drawn lately."""
        if scene is None:
            return None
        key = pictures.scene_key(scene[1])
        png = self._cache.get(key)
        if png is None:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(DRAWING_THREADS, thread_name_prefix="catnip-picture")
            loop = asyncio.get_running_loop()
            png = await loop.run_in_executor(self._executor, pictures.draw, *scene)
            self.drawn += 1
            self._cache[key] = png
            while len(self._cache) > CACHED_PICTURES:
                self._cache.popitem(last=False)
        else:
            self._cache.move_to_end(key)
        return Picture(key, png)

    def edit_kwargs(self, game: LiveGame, message_id: int, picture: Picture | None) -> dict:
        """What an edit of table message `message_id` adds to show `picture`: a new file only when the
        message does not hold it yet; no attachments at all once the table shows no picture."""
        shown = self._shown.get(game.id)
        if picture is None:
            return {"attachments": []} if shown is not None and shown[0] == message_id else {}
        if shown == (message_id, picture.key):
            return {}
        return {"attachments": [picture.file()]}

    def send_kwargs(self, picture: Picture | None) -> dict:
        return {} if picture is None else {"file": picture.file()}

    def shown(self, game: LiveGame, message_id: int, picture: Picture | None) -> None:
        """Remember that table message `message_id` now shows `picture` (None: no picture)."""
        if picture is None:
            self._shown.pop(game.id, None)
        else:
            self._shown[game.id] = (message_id, picture.key)

    def forget(self, game_id: int) -> None:
        self._shown.pop(game_id, None)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def show_picture(embed: discord.Embed | None, picture: Picture | None) -> None:
    """Point the table's embed at its attached picture."""
    if embed is not None and picture is not None:
        embed.set_image(url=f"attachment://{pictures.FILENAME}")
