"""The per-game locks a store hands out: load → apply → commit of one game runs under its lock."""

from __future__ import annotations

import asyncio
import weakref


class GameLocks:
    """One asyncio.Lock per game id, created on first use, kept while anyone holds on to it."""

    _game_locks: weakref.WeakValueDictionary[int, asyncio.Lock]

    def _init_locks(self) -> None:
        self._game_locks = weakref.WeakValueDictionary()

    def lock(self, game_id: int) -> asyncio.Lock:
        """The per-game lock, created on first use; the same object while anyone holds on to it."""
        lock = self._game_locks.get(game_id)
        if lock is None:
            lock = self._game_locks[game_id] = asyncio.Lock()
        return lock
