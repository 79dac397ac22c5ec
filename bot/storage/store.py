"""`GameStore`: one database handle and the small stores over it, as the bot holds them.

- `games` (games.py): the games, their seats, action log and snapshots;
- `timers` (timers.py): each game's pending deadline and standing turn ping;
- `results` (results.py): members' results and ratings, as read back;
- `coordination` (coordination.py): the leases and the shard layout a fleet agrees on.

They share the `database` (database.py; SQLite or PostgreSQL, see sqlite.py and postgres.py) and
the instance's `owner` identity (owner.py), which fences every write to a game.
"""

from __future__ import annotations

import asyncio
import weakref

from bot.storage.coordination import Coordination
from bot.storage.database import Database
from bot.storage.games import Games
from bot.storage.owner import Owner
from bot.storage.results import Results
from bot.storage.timers import Timers


class GameStore:
    """The only way the bot reads and writes games.

    `owner` is this instance's role in a fleet (see owner.py); `lock(game_id)` the lock to hold
    around load → apply → commit of one game in this process.
    """

    def __init__(self, database: Database, *, owner: str | None = None) -> None:
        self.database = database
        self.owner = Owner(owner)
        self.games = Games(database, self.owner)
        self.timers = Timers(database, self.owner)
        self.results = Results(database)
        self.coordination = Coordination(database, self.owner)
        self._game_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def open(self) -> None:
        """Connect and bring the schema up to date; calling it again does nothing."""
        await self.database.open()

    async def close(self) -> None:
        """Finish the writes under way and close the database; calling it again does nothing."""
        await self.database.close()

    async def ping(self) -> None:
        """Return once the database answers a trivial query (a health check)."""
        await self.database.read("SELECT 1")

    def lock(self, game_id: int) -> asyncio.Lock:
        """The per-game lock, created on first use; the same object while anyone holds on to it."""
        lock = self._game_locks.get(game_id)
        if lock is None:
            lock = self._game_locks[game_id] = asyncio.Lock()
        return lock
