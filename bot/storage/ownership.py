"""Which process runs which game: leases in the database, the fence of a fleet of bot processes.

Each store instance has an owner identity: its `owner` role (e.g. "shards 0-3 of 8", the same
for a process and its restarts) and a `token` of its own (new for every instance). A game's row
holds the role and token of the process running it and until when (`lease_until`).

- `claim_games` takes (or renews) the leases of the live games whose guild falls on the given
  shards and whose lease is free, expired, or held by the same role: a restarted process of a
  shard range takes over its games at once instead of waiting for its dead predecessor's leases
  to run out. It returns the games it now holds.
- `release_games` frees them on a clean shutdown, so their next owner need not wait either.
- Every write to a game is fenced: refused with `NotOwner` (a StaleMove, writing nothing) when
  the game's token is another instance's. A game nobody ever claimed (token NULL) is written
  by anyone, so a single process that never claims behaves exactly as before leases existed.
  The version check stays the fence within a game: a process whose lease ran out but that no
  one has replaced may still write, and whoever claims the game later loads what it wrote.

Games created by an instance that has claimed are leased to it from their start.

Within one process, `GameLocks` hands out the lock held around load → apply → commit of a game.
"""

from __future__ import annotations

import asyncio
import secrets
import weakref
from collections.abc import Sequence

from bot.storage.models import NotOwner

DEFAULT_OWNER = "catnip"


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's shard for a guild: `(guild_id >> 22) % shard_count`."""
    return (guild_id >> 22) % shard_count


def check_shard_plan(shard_ids: Sequence[int], shard_count: int) -> list[int]:
    """The shard ids as a sorted list; ValueError unless 0 <= each < shard_count."""
    if shard_count < 1:
        raise ValueError(f"shard_count must be at least 1, not {shard_count}")
    ids = sorted(set(shard_ids))
    if not ids or ids[0] < 0 or ids[-1] >= shard_count:
        raise ValueError(f"shard ids {list(shard_ids)} are not all within 0..{shard_count - 1}")
    return ids


class Ownership:
    """The store instance's identity and lease length; shared by both backends."""

    owner: str = DEFAULT_OWNER
    token: str = ""
    lease_seconds: float | None = None
    """Set by the first claim: from then on new lobbies are leased to this instance too."""

    def _init_ownership(self, owner: str | None) -> None:
        self.owner = owner or DEFAULT_OWNER
        self.token = secrets.token_hex(8)
        self.lease_seconds = None

    def _new_lease(self, now: float) -> tuple[str | None, str | None, float | None]:
        """(owner, token, lease_until) for a game this instance creates at `now`."""
        if self.lease_seconds is None:
            return None, None, None
        return self.owner, self.token, now + self.lease_seconds

    def _check_owner(self, game_id: int, token: str | None) -> None:
        """Raise NotOwner if the game's lease is another instance's."""
        if token is not None and token != self.token:
            raise NotOwner(game_id)


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
