"""`Database`: the one handle every store of a process reaches its database through.

A backend (sqlite.py, postgres.py) supplies the `dialect` its SQL is rendered in and three ways to
reach the database: `read` (one statement that sees only committed data), `transaction` (a body run
in one transaction, committed if it returns, rolled back if it raises, run to its end even if the
caller is cancelled) and `commit` (a move handed to the backend's group commit, see commits.py).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from bot.storage.commits import PendingMove
from bot.storage.dialects import Connection, Dialect

if TYPE_CHECKING:
    from bot.outages import OutageLog

T = TypeVar("T")


class Database(ABC):
    """One database, opened once, shared by the stores over it."""

    dialect: Dialect
    outage: OutageLog | None = None
    """Where a database that can go away (a server) tells of its outages; None: it cannot."""

    @abstractmethod
    async def open(self) -> None:
        """Connect and bring the schema up to date; calling it again does nothing."""

    @abstractmethod
    async def close(self) -> None:
        """Finish the writes under way and close the database; calling it again does nothing."""

    @abstractmethod
    async def read(self, sql: str, *args: Any) -> list[Any]:
        """The rows of one statement, which sees only committed data."""

    @abstractmethod
    async def transaction(self, body: Callable[[Connection], Awaitable[T]], *, lazy: bool = False) -> T:
        """`body` in one write transaction; a `lazy` one may wait a moment to share another's commit."""

    @abstractmethod
    async def commit(self, move: PendingMove) -> int:
        """The move committed with the others waiting with it (commits.py); the game's new version."""
