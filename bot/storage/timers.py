"""`Timers`: what the bot's timers and turn pings keep in the database, so a restart finds them.

A game has at most one pending deadline (the decision a timer makes when it is due) and at most one
standing turn ping (the message that pinged whose turn it is).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from bot.storage.database import Database
from bot.storage.dialects import Connection
from bot.storage.models import Deadline
from bot.storage.owner import FENCE, Owner

DEADLINES_SQL = (
    "SELECT d.game_id, d.decision, d.due FROM deadlines AS d JOIN games AS g ON g.id = d.game_id "
    "WHERE g.status IN ('lobby', 'active') ORDER BY d.due, d.game_id"
)


class Timers:
    """The deadlines and turn pings of one database, written as `owner`."""

    def __init__(self, database: Database, owner: Owner) -> None:
        self.database = database
        self.owner = owner

    async def set_deadline(self, game_id: int, *, decision: str, due: float) -> None:
        """Set (or replace) the game's one pending deadline."""

        async def body(db: Connection) -> None:
            await self.owner.status(db, game_id)
            await db.execute(
                "INSERT INTO deadlines (game_id, decision, due) VALUES (?, ?, ?) "
                "ON CONFLICT (game_id) DO UPDATE SET decision = excluded.decision, due = excluded.due",
                game_id, decision, float(due),
            )  # fmt: skip

        await self.database.transaction(body)

    async def clear_deadline(self, game_id: int) -> None:
        """Remove the game's deadline, if any (and if no other process holds the game)."""
        await self.save_deadlines(cleared=(game_id,))

    async def save_deadlines(
        self, deadlines: Sequence[Deadline] = (), *, cleared: Iterable[int] = (), lazy: bool = False
    ) -> None:
        """Set `deadlines` and clear the deadlines of the `cleared` games, all in one transaction; a
        `lazy` save may wait a moment for other writes to share it.

        Unlike `set_deadline`, a deadline for a game that has ended (or never existed, or that
        another process now holds) is skipped rather than refused: a batch from many games must
        not fail for one of them.
        """
        gone = sorted(set(cleared))
        latest = {deadline.game_id: deadline for deadline in deadlines}  # one row a game: the last asked
        kept = [(d.decision, float(d.due), d.game_id) for d in latest.values()]
        if not gone and not kept:
            return

        async def body(db: Connection) -> None:
            if gone:
                await db.execute(
                    "DELETE FROM deadlines WHERE game_id {ids} "
                    f"AND game_id IN (SELECT id FROM games WHERE {FENCE})",
                    db.dialect.array(gone),
                    self.owner.token,
                )
            await db.execute_rows(
                "INSERT INTO deadlines (game_id, decision, due) "
                "SELECT g.id, v.column1, v.column2 FROM {rows} JOIN games AS g ON g.id = v.column3 "
                f"WHERE g.status IN ('lobby', 'active') AND {FENCE.replace('owner_token', 'g.owner_token')} "
                "ON CONFLICT (game_id) DO UPDATE SET decision = excluded.decision, due = excluded.due",
                ("text", "time", "id"),
                kept,
                self.owner.token,
            )

        await self.database.transaction(body, lazy=lazy)

    async def deadlines(self) -> list[Deadline]:
        """The pending deadlines of live games, soonest first."""
        rows = await self.database.read(DEADLINES_SQL)
        return [Deadline(game_id=game_id, decision=decision, due=due) for game_id, decision, due in rows]

    async def save_pings(self, pings: Mapping[int, tuple[int, int]], *, cleared: Iterable[int] = ()) -> None:
        """Note each game's standing turn ping (channel, message) and forget those of the `cleared` games."""
        gone = sorted(set(cleared))
        rows = [(game_id, channel, message) for game_id, (channel, message) in pings.items()]

        async def body(db: Connection) -> None:
            if gone:
                await db.execute("DELETE FROM pings WHERE game_id {ids}", db.dialect.array(gone))
            await db.executemany(
                "INSERT INTO pings (game_id, channel_id, message_id) VALUES (?, ?, ?) ON CONFLICT (game_id) "
                "DO UPDATE SET channel_id = excluded.channel_id, message_id = excluded.message_id",
                rows,
            )

        if gone or rows:
            await self.database.transaction(body)

    async def take_pings(self, game_ids: Iterable[int]) -> dict[int, tuple[int, int]]:
        """The turn pings noted for these games (channel, message), forgotten as they are handed over."""
        ids = sorted(set(game_ids))

        async def body(db: Connection) -> dict[int, tuple[int, int]]:
            rows = await db.fetch(
                "DELETE FROM pings WHERE game_id {ids} RETURNING game_id, channel_id, message_id",
                db.dialect.array(ids),
            )
            return {game_id: (channel, message) for game_id, channel, message in rows}

        return await self.database.transaction(body)
