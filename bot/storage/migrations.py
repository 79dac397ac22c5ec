"""The database schema as numbered migrations, applied once each and recorded in `schema_migrations`.

Never edit a migration that has shipped: add a new one with the next number.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

import aiosqlite

from bot.storage.models import SchemaTooNew


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


INITIAL_SCHEMA = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    guild_id INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    thread_id INTEGER,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER,
    status TEXT NOT NULL
        CHECK (status IN ('lobby', 'active', 'finished', 'abandoned', 'cancelled')),
    version INTEGER NOT NULL,
    host_id INTEGER NOT NULL,
    table_channel_id INTEGER,
    table_message_id INTEGER,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
-- Partial index: start-up reads the live games without touching the (many) finished ones.
CREATE INDEX games_live ON games (id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_channel ON games (channel_id);
CREATE INDEX games_thread ON games (thread_id) WHERE thread_id IS NOT NULL;
CREATE INDEX games_guild_game ON games (guild_id, game);

CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL CHECK (seat >= 0),
    user_id INTEGER,
    name TEXT NOT NULL,
    computer TEXT,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;

-- The append-only action log. Snapshots are a cache of it: the log is the truth.
CREATE TABLE moves (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL CHECK (seq >= 1),
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    events TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;
CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

-- The latest state of each started game: `seq` is the last move it includes, `version` the game's.
CREATE TABLE snapshots (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    seq INTEGER NOT NULL,
    version INTEGER NOT NULL,
    state TEXT NOT NULL
);

CREATE TABLE deadlines (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    decision TEXT NOT NULL,
    due REAL NOT NULL
);
CREATE INDEX deadlines_due ON deadlines (due);

CREATE TABLE results (
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    user_id INTEGER,
    score INTEGER NOT NULL,
    won INTEGER NOT NULL CHECK (won IN (0, 1)),
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX results_user ON results (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE outcomes (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    reason TEXT NOT NULL,
    recorded_at REAL NOT NULL
);

CREATE TABLE remembered_options (
    channel_id INTEGER NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    PRIMARY KEY (channel_id, game)
) WITHOUT ROWID;
"""

LEASES = """
-- The lease: which process (its role and its own token) runs the game, until when (see leases.py).
ALTER TABLE games ADD COLUMN owner TEXT;
ALTER TABLE games ADD COLUMN owner_token TEXT;
ALTER TABLE games ADD COLUMN lease_until REAL;
"""

ENDINGS = """
-- Ended games whose last table no process has shown yet: written with the move that ends the game
-- (its result and Rematch button) or with the status that closes it (`reason`, what the closed table
-- says), removed once the table shows it, so a bot stopped in between shows it when it starts again
-- (ended games are otherwise never loaded).
CREATE TABLE endings_to_show (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    reason TEXT
);
"""

PINGS = """
-- Each game's standing turn ping, as a process last noted it (at a clean stop and every minute), so
-- the next process to run the game deletes it instead of leaving it beside its own.
CREATE TABLE pings (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL
);
"""

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "games, seats, action log, snapshots, deadlines, results", INITIAL_SCHEMA),
    Migration(2, "leases: which process runs each game", LEASES),
    Migration(3, "ended games whose last table is not shown yet", ENDINGS),
    Migration(4, "the standing turn pings", PINGS),
)


def statements(script: str) -> list[str]:
    """`script` split into complete SQL statements (trigger bodies stay whole)."""
    result, pending = [], ""
    for line in script.splitlines(keepends=True):
        if not pending and (not line.strip() or line.lstrip().startswith("--")):
            continue
        pending += line
        if sqlite3.complete_statement(pending):
            result.append(pending.strip())
            pending = ""
    if pending.strip():
        raise ValueError(f"incomplete SQL statement: {pending.strip()[:60]!r}")
    return result


async def apply_migrations(
    db: aiosqlite.Connection, migrations: tuple[Migration, ...] | None = None
) -> list[int]:
    """Apply the migrations `db` lacks, in one transaction; return the versions applied."""
    migrations = MIGRATIONS if migrations is None else migrations
    known = max(migration.version for migration in migrations)
    await db.execute("BEGIN IMMEDIATE")
    try:
        await db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)"
        )
        applied = {row[0] for row in await db.execute_fetchall("SELECT version FROM schema_migrations")}
        if applied and max(applied) > known:
            raise SchemaTooNew(
                f"The database has schema version {max(applied)}, newer than this Catnip knows ({known}). "
                "Upgrade Catnip before opening it."
            )
        done = []
        for migration in sorted(migrations, key=lambda m: m.version):
            if migration.version in applied:
                continue
            for statement in statements(migration.sql):
                await db.execute(statement)
            # Bookkeeping only: the one place the store reads a clock (SQLite's own).
            await db.execute(
                "INSERT INTO schema_migrations (version, applied_at) "
                "VALUES (?, (julianday('now') - 2440587.5) * 86400.0)",
                (migration.version,),
            )
            done.append(migration.version)
        await db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            await db.execute("ROLLBACK")
        raise
    return done
