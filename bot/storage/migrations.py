"""The database schema, written once: every table and column, and the numbered migrations made from it.

Each table and column says which migration brought it (`since`); a migration creates the tables it
brought and adds its columns to the older ones, in each database's own words (dialects.py). The
versions applied are recorded in `schema_migrations`; a database written by a newer Catnip is
refused. Several processes of a fleet may start at once: where the database has a migration lock,
one applies the migrations and the others find them applied.

Never change what a shipped migration creates: add a column or table with the next `since`, and
the migration to `MIGRATIONS`; a table a later migration removes keeps its place here, with that
migration as its `until`, so that migrations before it still find it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.storage.dialects import Connection, Dialect
from bot.storage.models import SchemaTooNew


@dataclass(frozen=True)
class Column:
    """One column; `kind` is "key" (the generated game id), "id" (64 bits: Discord ids, seeds, game ids),
    "int", "text", "time" (seconds since the epoch) or "real" (any other number with a fraction)."""

    name: str
    kind: str
    required: bool = False
    check: str = ""
    references: str = ""
    since: int = 1

    def ddl(self, dialect: Dialect, key: tuple[str, ...]) -> str:
        parts = [self.name, dialect.types[self.kind]]
        if self.kind == "key":
            parts.append(dialect.identity.strip())
        if key == (self.name,):
            parts.append("PRIMARY KEY")
        if self.required:
            parts.append("NOT NULL")
        if self.check:
            parts.append(f"CHECK ({self.check})")
        if self.references:
            parts.append(f"REFERENCES {self.references}")
        return " ".join(part for part in parts if part)


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    key: tuple[str, ...]
    indexes: tuple[str, ...] = ()
    append_only: bool = False
    since: int = 1
    until: int | None = None
    """The migration that moved this table's rows elsewhere and dropped it, if one did."""

    def create(self, dialect: Dialect) -> list[str]:
        """The statements that create the table as its migration did (its later columns are added later)."""
        lines = [column.ddl(dialect, self.key) for column in self.columns if column.since <= self.since]
        suffix = ""
        if len(self.key) > 1:
            lines.append(f"PRIMARY KEY ({', '.join(self.key)})")
            suffix = dialect.composite_key_suffix
        body = ",\n    ".join(lines)
        triggers = (
            [t.format(table=self.name) for t in dialect.append_only_triggers] if self.append_only else []
        )
        return [f"CREATE TABLE {self.name} (\n    {body}\n){suffix}", *self.indexes, *triggers]


def _game_id(**options: Any) -> Column:
    return Column("game_id", "id", required=True, references="games (id)", **options)


def _one_a_game(name: str, *columns: Column, **options: Any) -> Table:
    """A table of at most one row a game."""
    return Table(
        name, (Column("game_id", "id", references="games (id)"), *columns), key=("game_id",), **options
    )


TABLES: tuple[Table, ...] = (
    Table(
        "games",
        (
            Column("id", "key"),
            Column("guild_id", "id", required=True),
            Column("channel_id", "id", required=True),
            Column("thread_id", "id"),
            Column("game", "text", required=True),
            Column("options", "text", required=True),
            Column("seed", "id"),
            Column(
                "status", "text", True, "status IN ('lobby', 'active', 'finished', 'abandoned', 'cancelled')"
            ),
            Column("version", "int", required=True),
            Column("host_id", "id", required=True),
            Column("table_channel_id", "id"),
            Column("table_message_id", "id"),
            Column("created_at", "time", required=True),
            Column("updated_at", "time", required=True),
            # The lease: which process (its role and its own token) runs the game, until when.
            Column("owner", "text", since=2),
            Column("owner_token", "text", since=2),
            Column("lease_until", "time", since=2),
        ),
        key=("id",),
        indexes=(
            # Partial: start-up and claims read the live games without touching the (many) finished ones.
            "CREATE INDEX games_live ON games (id) WHERE status IN ('lobby', 'active')",
            "CREATE INDEX games_channel ON games (channel_id)",
            "CREATE INDEX games_thread ON games (thread_id) WHERE thread_id IS NOT NULL",
            "CREATE INDEX games_guild_game ON games (guild_id, game)",
        ),
    ),
    Table(
        "seats",
        (
            _game_id(),
            Column("seat", "int", True, "seat >= 0"),
            Column("user_id", "id"),
            Column("name", "text", required=True),
            Column("computer", "text"),
        ),
        key=("game_id", "seat"),
    ),
    # The append-only action log. Snapshots are a cache of it: the log is the truth.
    Table(
        "moves",
        (
            _game_id(),
            Column("seq", "int", True, "seq >= 1"),
            Column("seat", "int", required=True),
            Column("action", "text", required=True),
            Column("events", "text", required=True),
            Column("at", "time", required=True),
        ),
        key=("game_id", "seq"),
        append_only=True,
    ),
    # The latest state of each started game: `seq` is the last move it includes, `version` the game's.
    _one_a_game(
        "snapshots",
        Column("seq", "int", required=True),
        Column("version", "int", required=True),
        Column("state", "text", required=True),
    ),
    _one_a_game(
        "deadlines",
        Column("decision", "text", required=True),
        Column("due", "time", required=True),
        indexes=("CREATE INDEX deadlines_due ON deadlines (due)",),
    ),
    Table(
        "results",
        (
            _game_id(),
            Column("seat", "int", required=True),
            Column("user_id", "id"),
            Column("score", "int", required=True),
            Column("won", "int", True, "won IN (0, 1)"),
            # What rating the game did to the seat's member (ratings.py), written with the result:
            # NULL for a seat not rated (a computer's, or any seat of a game that rates nobody).
            Column("mu_before", "real", since=7),
            Column("sigma_before", "real", since=7),
            Column("mu_after", "real", since=7),
            Column("sigma_after", "real", since=7),
        ),
        key=("game_id", "seat"),
        indexes=("CREATE INDEX results_user ON results (user_id) WHERE user_id IS NOT NULL",),
    ),
    _one_a_game(
        "outcomes", Column("reason", "text", required=True), Column("recorded_at", "time", required=True)
    ),
    # Ended games whose last table no process has shown yet: written with the move that ends the game
    # (its result and Rematch button) or with the status that closes it (`reason`, what the closed
    # table says), removed once the table shows it, so a bot stopped in between shows it when it
    # starts again (ended games are otherwise never loaded).
    _one_a_game("endings_to_show", Column("reason", "text"), since=3),
    # Each game's standing turn ping, as a process last noted it (at a clean stop and every minute), so
    # the next process to run the game deletes it instead of leaving it beside its own.
    _one_a_game(
        "pings", Column("channel_id", "id", required=True), Column("message_id", "id", required=True), since=4
    ),
    # Each member's skill rating per game per server (ratings.py), and (until migration 7 kept them
    # with the results) what each rated game changed.
    Table(
        "ratings",
        (
            Column("guild_id", "id", required=True),
            Column("game", "text", required=True),
            Column("user_id", "id", required=True),
            Column("mu", "real", required=True),
            Column("sigma", "real", True, "sigma > 0"),
            Column("games", "int", True, "games >= 0"),
            Column("updated_at", "time", required=True),
        ),
        key=("guild_id", "game", "user_id"),
        since=5,
    ),
    Table(
        "rating_changes",
        (
            _game_id(),
            Column("seat", "int", required=True),
            Column("user_id", "id", required=True),
            Column("mu_before", "real", required=True),
            Column("sigma_before", "real", required=True),
            Column("mu_after", "real", required=True),
            Column("sigma_after", "real", required=True),
        ),
        key=("game_id", "seat"),
        since=5,
        until=7,
    ),
    # Which shard count runs the games, the one before it and since when (one row, `id` 1), and the
    # shards each fleet has connected, as its processes last said (see bot/handover.py).
    Table(
        "shard_layout",
        (
            Column("id", "int", True, "id = 1"),
            Column("shard_count", "int", True, "shard_count >= 1"),
            Column("previous_count", "int"),
            Column("since", "time", required=True),
        ),
        key=("id",),
        since=6,
    ),
    Table(
        "fleet_shards",
        (
            Column("shard_count", "int", True, "shard_count >= 1"),
            Column("shard_id", "int", True, "shard_id >= 0"),
            Column("connected_until", "time", required=True),
        ),
        key=("shard_count", "shard_id"),
        since=6,
    ),
    # Which process runs each gateway shard (its token, who it is, until when it holds it unless it says
    # so again): a shard has one owner at a time (bot/shard_owners.py).
    Table(
        "shard_owners",
        (
            Column("shard_count", "int", True, "shard_count >= 1"),
            Column("shard_id", "int", True, "shard_id >= 0"),
            Column("owner_token", "text", required=True),
            Column("machine", "text", required=True),
            Column("pid", "int", required=True),
            Column("held_until", "time", required=True),
        ),
        key=("shard_count", "shard_id"),
        since=8,
    ),
    Table(
        "remembered_options",
        (
            Column("channel_id", "id", required=True),
            Column("game", "text", required=True),
            Column("options", "text", required=True),
        ),
        key=("channel_id", "game"),
    ),
)
"""Every table of a Catnip database, parents before children, with those a migration has removed
(`until`); `CURRENT_TABLES` are those of the newest schema."""
CURRENT_TABLES: tuple[Table, ...] = tuple(table for table in TABLES if table.until is None)


@dataclass(frozen=True)
class Migration:
    """Migration `version`: what `TABLES` says it brought, then the script `sql` (if any) as written."""

    version: int
    name: str
    sql: str = ""

    def statements(self, dialect: Dialect) -> list[str]:
        result: list[str] = []
        for table in TABLES:
            if table.since == self.version:
                result += table.create(dialect)
            elif table.since < self.version and (table.until is None or self.version < table.until):
                result += [
                    f"ALTER TABLE {table.name} ADD COLUMN {column.ddl(dialect, table.key)}"
                    for column in table.columns
                    if column.since == self.version
                ]
        return result + (dialect.split(self.sql) if self.sql else [])


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "games, seats, action log, snapshots, deadlines, results"),
    Migration(2, "leases: which process runs each game"),
    Migration(3, "ended games whose last table is not shown yet"),
    Migration(4, "the standing turn pings"),
    Migration(5, "skill ratings"),
    Migration(6, "the fleet's shard count, and the shards each fleet has connected"),
    Migration(
        7,
        "rating changes kept with the results",
        "UPDATE results SET mu_before = c.mu_before, sigma_before = c.sigma_before, mu_after = c.mu_after, "
        "sigma_after = c.sigma_after FROM rating_changes AS c "
        "WHERE c.game_id = results.game_id AND c.seat = results.seat;\n"
        "DROP TABLE rating_changes;",
    ),
    Migration(8, "the owner of each gateway shard"),
)


def newest_version(dialect: Dialect) -> int:
    """The schema version this Catnip writes, as `dialect`'s databases record it."""
    return dialect.version_of(max(migration.version for migration in MIGRATIONS))


async def apply_migrations(db: Connection, migrations: tuple[Migration, ...] | None = None) -> list[int]:
    """Apply the migrations the database lacks, inside the caller's transaction; the versions applied.

    Raises SchemaTooNew for a database written by a newer Catnip.
    """
    migrations = MIGRATIONS if migrations is None else migrations
    dialect = db.dialect
    known = dialect.version_of(max(migration.version for migration in migrations))
    if dialect.migration_lock:
        await db.execute(dialect.migration_lock)
    await db.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations "
        f"(version INTEGER PRIMARY KEY, applied_at {dialect.types['time']} NOT NULL)"
    )
    applied = {row[0] for row in await db.fetch("SELECT version FROM schema_migrations")}
    if applied and max(applied) > known:
        raise SchemaTooNew(
            f"The database has schema version {max(applied)}, newer than this Catnip knows ({known}). "
            "Upgrade Catnip before opening it."
        )
    done: list[int] = []
    for migration in sorted(migrations, key=lambda m: m.version):
        recorded = dialect.version_of(migration.version)
        if recorded in applied:
            continue
        for statement in migration.statements(dialect):
            await db.execute(statement)
        if recorded not in done:
            # Bookkeeping only: the one place the store reads a clock (the database's own).
            await db.execute(
                f"INSERT INTO schema_migrations (version, applied_at) VALUES (?, {dialect.clock})", recorded
            )
            done.append(recorded)
    return done
