"""Group commit: the moves waiting to be committed, from any number of games, share one durable transaction.

Every commit waits for the disk (SQLite's `synchronous=FULL`, PostgreSQL's `synchronous_commit`),
which is what limits how many moves per second a database takes. While one transaction is being
synced, the moves that arrive queue up and go into the next one together, so the cost of a sync
is shared by every game moving at that moment. Each backend queues them its own way (SQLite's
write thread, write_thread.py; PostgreSQL's `Committer`); this module writes a batch.

Each move stays atomic and checked on its own: its game must be found, held by no other process,
active and at the expected version, or the move is refused (StaleMove, NotOwner, GameNotFound)
having changed nothing. A caller hears back only after the transaction holding its move is
committed to disk.

A batch is worked out in Python from one read of its games (`plan_batch`), then written with the
same few statements whatever its size.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from bot.storage.dialects import Connection
from bot.storage.models import ENDED_STATUSES, FinalResult, GameNotFound, NotOwner, StaleMove
from bot.storage.ratings import (
    GAME_END,
    GAME_ENDS,
    RATINGS_WRITE,
    RATINGS_WRITE_KINDS,
    RatingsChanged,
    game_ends,
    rating_writes,
)

MAX_BATCH = 200
"""At most this many moves in one transaction, so one batch never holds the writer for long."""

_NEWER_SNAPSHOT = (
    "ON CONFLICT (game_id) DO UPDATE SET seq = excluded.seq, version = excluded.version, "
    "state = excluded.state"
)
SNAPSHOT_UPSERT = (
    f"INSERT INTO snapshots (game_id, seq, version, state) VALUES (?, ?, ?, ?) {_NEWER_SNAPSHOT}"
)
BATCH_GAMES = (
    "SELECT g.id, g.version, g.status, "
    "COALESCE((SELECT MAX(m.seq) FROM moves AS m WHERE m.game_id = g.id), 0), g.owner_token "
    "FROM games AS g WHERE g.id {ids} ORDER BY g.id{lock}"
)
UPDATE_GAMES = (
    "UPDATE games SET version = v.column1, updated_at = v.column2, status = v.column3 "
    "FROM {rows} WHERE games.id = v.column4"
)
INSERT_MOVES = "INSERT INTO moves (game_id, seq, seat, action, events, at) SELECT * FROM {rows} WHERE true"
RESULTS_UPSERT = (
    "INSERT INTO results (game_id, seat, user_id, score, won, mu_before, sigma_before, mu_after, "
    "sigma_after) SELECT * FROM {rows} WHERE true "
    "ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id, score = excluded.score, "
    "won = excluded.won, mu_before = COALESCE(results.mu_before, excluded.mu_before), "
    "sigma_before = COALESCE(results.sigma_before, excluded.sigma_before), "
    "mu_after = COALESCE(results.mu_after, excluded.mu_after), "
    "sigma_after = COALESCE(results.sigma_after, excluded.sigma_after)"
)
"""Each seat's result, with what the game did to its member's rating (NULLs if not rated); written
again, the result is replaced and a rating change already written kept: a game is rated once."""
RESULTS_KINDS = ("id", "int", "id", "int", "int", "real", "real", "real", "real")
UNRATED = (None, None, None, None)
OUTCOMES_UPSERT = (
    "INSERT INTO outcomes (game_id, reason, recorded_at) SELECT * FROM {rows} WHERE true "
    "ON CONFLICT (game_id) DO UPDATE SET reason = excluded.reason, recorded_at = excluded.recorded_at"
)
ENDINGS_TO_SHOW = (
    "INSERT INTO endings_to_show (game_id) SELECT * FROM {rows} WHERE true ON CONFLICT DO NOTHING"
)
UPSERT_SNAPSHOTS = (
    "INSERT INTO snapshots (game_id, seq, version, state) SELECT * FROM {rows} WHERE true " + _NEWER_SNAPSHOT
)


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
    rows = list(rows)
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


async def write_moves(db: Connection, moves: list[PendingMove]) -> list[int | Exception]:
    """Write a batch of moves inside the current transaction, one statement per table; each move's
    outcome (the game's new version, or why it was refused)."""
    rows = await db.fetch(BATCH_GAMES, db.dialect.array(sorted({move.game_id for move in moves})))
    plan = plan_batch(moves, rows)
    if plan.updates:
        await db.execute_rows(UPDATE_GAMES, ("int", "time", "text", "id"), plan.updates)
        await db.execute_rows(INSERT_MOVES, ("id", "int", "int", "text", "text", "time"), plan.logged)
        await db.execute_rows(UPSERT_SNAPSHOTS, ("id", "int", "int", "text"), plan.snapshots)
    if plan.ended:
        await db.executemany("DELETE FROM deadlines WHERE game_id = ?", plan.ended)
    if plan.results:
        finished = [(move.game_id, move.result, move.now) for move in plan.results]
        await write_results(db, finished, shown_later=True)  # type: ignore[arg-type]
    return plan.outcomes


async def write_results(
    db: Connection, finished: Sequence[tuple[int, FinalResult, float]], *, shown_later: bool = False
) -> None:
    """Store each finished game's result, (game_id, result, now), and rate the games, inside the
    current transaction: each seat's final score and whether it won, with the seat's member at the
    end. `shown_later`: the games' final tables are yet to be shown (`endings_to_show`).

    A member whose seat a computer took over is not credited with the game. Recording again
    replaces the earlier result. The caller holds the games' rows locked, so no other transaction
    rates a game between this read and the rating.

    Two round trips whatever the number of games, rated or not (PostgreSQL; SQLite runs the writes
    one after the other, in the process): the seats read with the members' ratings, then the results
    (each rated seat's with its rating change) and the new ratings written together. Nothing is
    locked in between: a rating another game changed meanwhile is not written over, and
    RatingsChanged is raised for the transaction to be run again.
    """
    finished = list({game_id: (game_id, result, now) for game_id, result, now in finished}.values())
    results = {game_id: result for game_id, result, _ in finished}
    if len(results) == 1:
        rows = await db.fetch(GAME_END, *results)
    else:
        rows = await db.fetch(GAME_ENDS, db.dialect.array(sorted(results)))
    ends = game_ends(rows, results)
    scores, outcomes = [], []
    for game_id, result, now in finished:
        if game_id not in ends:
            raise GameNotFound(game_id)
        seats = [(seat, user_id) for seat, user_id, _ in ends[game_id].seats]
        if len(result.scores) != len(seats):
            raise ValueError(f"game {game_id} has {len(seats)} seats but {len(result.scores)} scores")
        if not set(result.winners) <= {seat for seat, _ in seats}:
            raise ValueError(f"winners {list(result.winners)} are not seats of game {game_id}")
        scores += [
            (game_id, seat, user_id, score, int(seat in result.winners))
            for (seat, user_id), score in zip(seats, result.scores, strict=True)
        ]
        outcomes.append((game_id, result.reason, float(now)))
    ratings, changes = rating_writes([ends[game_id] for game_id in results], float(finished[-1][2]))
    scores = [(*row, *changes.get((row[0], row[1]), UNRATED)) for row in scores]
    written = await db.execute_rows_together(
        (RESULTS_UPSERT, RESULTS_KINDS, scores),
        (OUTCOMES_UPSERT, ("id", "text", "time"), outcomes),
        (ENDINGS_TO_SHOW, ("id",), [(game_id,) for game_id in results] if shown_later else []),
        (RATINGS_WRITE, RATINGS_WRITE_KINDS, ratings),
    )
    if ratings and len(written) != len(ratings):
        raise RatingsChanged
