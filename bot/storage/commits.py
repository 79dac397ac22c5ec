"""Group commit: the moves waiting to be committed, from any number of games, share one durable transaction.

With `synchronous=FULL` every commit waits for an fsync, which is what limits
how many moves per second a single SQLite file takes. While one transaction is
being synced, the moves that arrive queue up and go into the next one together,
so the cost of a sync is shared by every game moving at that moment.

Each move stays atomic and checked on its own: its `UPDATE games ... WHERE
version = expected` either matches (then its log entry and snapshot are written
in the same transaction) or matches nothing and the move is refused as stale,
having changed nothing. A caller hears back only after the transaction holding
its move is committed to disk.

A batch is written by one synchronous function on the store's write thread, with
the same few statements whatever its size: the event loop is involved once per
batch, not once per statement.

The store's other small writes waiting at the same moment (above all the turn
deadlines, which change with every move) join the batch in their place in the
queue, each in a savepoint of its own: a body that fails is rolled back alone
and its caller hears why, the rest commits. Before, each of them was a
transaction and a sync of its own, as many as the moves' batches under load.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from bot.storage.models import ENDED_STATUSES, GameNotFound, NotOwner, StaleMove

log = logging.getLogger(__name__)

Db = sqlite3.Connection
T = TypeVar("T")

MAX_BATCH = 200
"""At most this many moves in one transaction, so one batch never holds the writer for long."""

SNAPSHOTS_UPSERT = (
    "INSERT INTO snapshots (game_id, seq, version, state) VALUES {rows} "
    "ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, version = excluded.version, "
    "state = excluded.state"
)
ROWS_A_STATEMENT = 1000
"""At most this many rows in one multi-row statement (SQLite takes up to 32,766 parameters)."""


@dataclass(frozen=True)
class FinalResult:
    """How a game ended, stored with the move that ended it: every seat's score and the winners."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class PendingMove:
    game_id: int
    expected_version: int
    seat: int
    action: str
    events_json: str
    state_json: str
    now: float
    status: str | None
    result: FinalResult | None = None
    owner_token: str | None = None
    """The committing store's token: the move is refused (NotOwner) if another one holds the game."""


def write_result(db: Db, game_id: int, result: FinalResult, now: float) -> None:
    """Store each seat's final score and whether it won, with the seat's member at the end.

    A member whose seat a computer took over is not credited with the game. Recording again
    replaces the earlier result.
    """
    seats = db.execute(
        "SELECT seat, user_id FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
    ).fetchall()
    if not seats and db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
        raise GameNotFound(game_id)
    if len(result.scores) != len(seats):
        raise ValueError(f"game {game_id} has {len(seats)} seats but {len(result.scores)} scores")
    if not set(result.winners) <= {seat for seat, _ in seats}:
        raise ValueError(f"winners {list(result.winners)} are not seats of game {game_id}")
    db.executemany(
        "INSERT OR REPLACE INTO results (game_id, seat, user_id, score, won) VALUES (?, ?, ?, ?, ?)",
        [
            (game_id, seat, user_id, score, int(seat in result.winners))
            for (seat, user_id), score in zip(seats, result.scores, strict=True)
        ],
    )
    db.execute(
        "INSERT OR REPLACE INTO outcomes (game_id, reason, recorded_at) VALUES (?, ?, ?)",
        (game_id, result.reason, now),
    )


@dataclass
class BatchPlan:
    """What a batch of moves writes, worked out from one read of its games, and each move's outcome."""

    outcomes: list[int | Exception] = field(default_factory=list)
    updates: list[tuple] = field(default_factory=list)
    """(version, now, status, game_id) per game moved (its last move)."""
    logged: list[tuple] = field(default_factory=list)
    """(game_id, seq, seat, action, events, at) per move."""
    snapshots: list[tuple] = field(default_factory=list)
    """(game_id, seq, version, state) per game moved (its last move)."""
    ended: list[tuple] = field(default_factory=list)
    results: list[PendingMove] = field(default_factory=list)


def plan_batch(moves: list[PendingMove], rows: Iterable[Sequence]) -> BatchPlan:
    """Check each move (its game found, held by no other process, active, at the expected version) one
    after the other and in order, so a later move of the same game sees the earlier one.

    `rows` are (id, version, status, last seq, owner_token) of the batch's games.
    """
    games = {row[0]: (row[1], row[2], row[3]) for row in rows}
    holders = {row[0]: row[4] for row in rows}
    plan = BatchPlan()
    updates, snapshots = {}, {}
    for move in moves:
        if move.game_id not in games:
            plan.outcomes.append(GameNotFound(move.game_id))
            continue
        holder = holders[move.game_id]
        if holder is not None and holder != move.owner_token:
            plan.outcomes.append(NotOwner(move.game_id))
            continue
        version, status, seq = games[move.game_id]
        if status != "active" or version != move.expected_version:
            plan.outcomes.append(StaleMove())
            continue
        version, status, seq = version + 1, move.status or status, seq + 1
        games[move.game_id] = (version, status, seq)
        updates[move.game_id] = (version, float(move.now), status, move.game_id)
        plan.logged.append((move.game_id, seq, move.seat, move.action, move.events_json, float(move.now)))
        snapshots[move.game_id] = (move.game_id, seq, version, move.state_json)
        if move.status in ENDED_STATUSES:
            plan.ended.append((move.game_id,))
        if move.result is not None:
            plan.results.append(move)
        plan.outcomes.append(version)
    plan.updates, plan.snapshots = list(updates.values()), list(snapshots.values())
    return plan


def _apply_all(db: Db, moves: list[PendingMove]) -> list[int | Exception]:
    """Write a batch of moves inside the current transaction with a fixed number of statements.

    Worked out in Python from one read of the games (`plan_batch`), then written with one
    `executemany` per table.
    """
    ids = sorted({move.game_id for move in moves})
    rows = db.execute(
        "SELECT g.id, g.version, g.status, COALESCE((SELECT MAX(seq) FROM moves WHERE game_id = g.id), 0), "
        f"g.owner_token FROM games AS g WHERE g.id IN ({', '.join('?' * len(ids))})",
        ids,
    ).fetchall()
    plan = plan_batch(moves, rows)
    if plan.updates:
        values, flat = multi_row_values(plan.updates)
        db.execute(
            "UPDATE games SET version = v.column1, updated_at = v.column2, status = v.column3 "
            f"FROM (VALUES {values}) AS v WHERE games.id = v.column4",
            flat,
        )
    if plan.logged:
        values, flat = multi_row_values(plan.logged)
        db.execute(f"INSERT INTO moves (game_id, seq, seat, action, events, at) VALUES {values}", flat)
    if plan.snapshots:
        values, flat = multi_row_values(plan.snapshots)
        db.execute(SNAPSHOTS_UPSERT.format(rows=values), flat)
    if plan.ended:  # each statement, even with no rows, gives up the GIL and takes it back
        db.executemany("DELETE FROM deadlines WHERE game_id = ?", plan.ended)
    for move in plan.results:
        write_result(db, move.game_id, move.result, move.now)
    if plan.results:
        db.executemany(
            "INSERT OR IGNORE INTO endings_to_show (game_id) VALUES (?)", [(m.game_id,) for m in plan.results]
        )
    return plan.outcomes


def multi_row_values(rows: list[tuple]) -> tuple[str, list]:
    """One multi-row `VALUES` list for `rows` and its flattened parameters.

    One statement for the whole batch instead of `executemany`'s one step a row: the sqlite3
    module gives up the GIL around every step, and getting it back from a busy event loop is most
    of what the write thread spends (a thread switch each time, `tune_runtime` in bot/app.py).
    """
    row = "(" + ", ".join("?" * len(rows[0])) + ")"
    return ", ".join([row] * len(rows)), [value for values in rows for value in values]


Body = Callable[[Db], object]
"""A small write transaction's body, run inside the batch's transaction."""


def commit_batch(db: Db, writes: Sequence[PendingMove | Body]) -> list[object]:
    """Commit `writes` (moves and bodies), in their order, in one transaction; if it fails for a
    reason other than a stale move or a body's own error, one by one.

    Runs on the store's write thread. The outcome of each move is its game's new version or the
    exception that refused it, of each body what it returned or raised, in the order of `writes`.
    """
    try:
        return in_transaction(db, lambda db: _apply_in_order(db, writes))
    except Exception as error:
        if len(writes) == 1 or is_outage(error):
            return [error for _ in writes]
        # Something other than a stale move failed and took the batch with it:
        # commit the writes one by one so that only the faulty one is refused.
        log.exception("a batch of %d writes failed; committing them one at a time", len(writes))
        return [commit_batch(db, [write])[0] for write in writes]


def _apply_in_order(db: Db, writes: Sequence[PendingMove | Body]) -> list[object]:
    """Each run of consecutive moves with `_apply_all`, each body in a savepoint, in order."""
    outcomes: list[object] = []
    for is_move, run in itertools.groupby(writes, key=lambda write: isinstance(write, PendingMove)):
        if is_move:
            outcomes.extend(_apply_all(db, list(run)))  # type: ignore[arg-type]
        else:
            outcomes.extend(_in_savepoint(db, body) for body in run)  # type: ignore[arg-type]
    return outcomes


def _in_savepoint(db: Db, body: Body) -> object:
    """What `body` returned, or the exception it raised after its writes were rolled back."""
    db.execute("SAVEPOINT shared_write")
    try:
        result = body(db)
    except Exception as error:
        db.execute("ROLLBACK TO shared_write")
        db.execute("RELEASE shared_write")
        return error
    db.execute("RELEASE shared_write")
    return result


OUTAGES = ("locked", "busy", "disk i/o", "unable to open", "readonly", "database or disk is full")
"""What SQLite says when the file, not the request, is the problem: worth trying again in a moment."""


def is_outage(error: BaseException) -> bool:
    """The database, not the request, failed: trying the moves one by one would not help."""
    return isinstance(error, sqlite3.OperationalError) and any(w in str(error).lower() for w in OUTAGES)


def in_transaction(db: Db, body: Callable[[Db], T]) -> T:
    """`body(db)` inside BEGIN IMMEDIATE … COMMIT, rolled back if it raises."""
    db.execute("BEGIN IMMEDIATE")
    try:
        result = body(db)
        db.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
    return result
