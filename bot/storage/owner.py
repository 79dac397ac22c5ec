"""`Owner`: who this store instance is in a fleet, and the fence every write to a game passes.

`role` is the instance's place in a fleet (e.g. "shards 0-3 of 8", the same for a process and its
restarts) and `token` its own identity (new for every instance). A game's row holds the role and
token of the process running it and until when (its lease, see coordination.py).
"""

from __future__ import annotations

import secrets

from bot.storage.dialects import Connection
from bot.storage.models import GameNotFound, NotOwner

DEFAULT_ROLE = "catnip"

FENCE = "(owner_token IS NULL OR owner_token = ?)"
"""The games this instance may write: those nobody holds, and its own (the token is the `?`)."""


class Owner:
    """This instance's identity and lease length."""

    def __init__(self, role: str | None = None) -> None:
        self.role = role or DEFAULT_ROLE
        self.token = secrets.token_hex(8)
        self.lease_seconds: float | None = None
        """Set by the first claim: from then on new lobbies are leased to this instance too."""

    def new_lease(self, now: float) -> tuple[str | None, str | None, float | None]:
        """(owner, owner_token, lease_until) of a game this instance creates at `now`."""
        if self.lease_seconds is None:
            return None, None, None
        return self.role, self.token, now + self.lease_seconds

    def check(self, game_id: int, token: str | None) -> None:
        """Raise NotOwner if the game's lease is another instance's."""
        if token is not None and token != self.token:
            raise NotOwner(game_id)

    async def status(self, db: Connection, game_id: int) -> str:
        """The game's status, its row locked; GameNotFound, or NotOwner if another process holds it."""
        row = await db.fetchrow("SELECT status, owner_token FROM games WHERE id = ?{lock}", game_id)
        if row is None:
            raise GameNotFound(game_id)
        self.check(game_id, row[1])
        return row[0]
