"""How each database speaks the store's SQL, and the one execute/fetch API both are reached through.

The store's statements are written once, with `?` for each parameter and a few named holes for
what the databases spell differently:

- `{lock}`: `FOR UPDATE` where a read must lock the rows it read (PostgreSQL; SQLite's writer
  holds the whole database already);
- `{ids}` / `{texts}`: "is one of this list" for a list of integers or texts passed as one parameter
  (`Dialect.array` turns the list into that parameter);
- `{json_agg}` / `{json_array}`: the JSON aggregate functions;
- `{rows}` (in `Connection.execute_rows`): many rows as a table `v` of columns `column1`, `column2`, ...

Independent writes of many rows go in one round trip where the database can (PostgreSQL:
`Connection.execute_rows_together`), one after the other where that costs nothing (SQLite runs in
the process).

`Dialect.sql` fills the holes and numbers the parameters where the database wants `$1, $2, ...`,
leaving string literals, quoted names and comments as written, and refuses what it cannot render.
A third database is a third `Dialect` (and a backend module that connects to it), not a copy of
the store.
"""

from __future__ import annotations

import functools
import json
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

ROWS_A_STATEMENT = 1000
"""At most this many rows in one multi-row statement (SQLite takes up to 32,766 parameters)."""


@dataclass(frozen=True, eq=False)
class Dialect:
    """What one database spells its own way, in the store's SQL and its schema."""

    name: str
    numbered: bool
    """Parameters are `$1, $2, ...` rather than `?`."""
    holes: dict[str, str]
    types: dict[str, str]
    """The schema's column kinds (see migrations.py) as this database's types."""
    array_types: dict[str, str] = field(default_factory=dict)
    """A column kind as the type of a list of it passed as one parameter; none: lists go as JSON text."""
    no_limit: int | None = None
    """The value of `LIMIT ?` that means no limit."""
    composite_key_suffix: str = ""
    """What ends a table whose primary key spans several columns."""
    identity: str = ""
    """What follows the type of a generated integer key."""
    append_only_triggers: tuple[str, ...] = ()
    """Statements that make a table's rows unchangeable once written; `{table}` is its name."""
    migration_lock: str | None = None
    """A statement that makes concurrent migrations of the same database wait for each other."""
    clock: str = ""
    """The database's own clock, in seconds since the epoch (migrations record when they ran)."""
    table_columns: str = ""
    """A query of the names of the columns of the table named by its parameter (none: no such table)."""
    writes_in_with: bool = False
    """Writes may go in one statement, each but the last a data-modifying `WITH` clause."""
    versions_folded: int = 0
    """How many of the first migrations this database records as one version (support for it began
    after them): its schema versions are that many less than the migrations' numbers."""

    def version_of(self, migration: int) -> int:
        """The schema version this database records for `migration`."""
        return max(1, migration - self.versions_folded)

    def sql(self, text: str) -> str:
        """`text` (the store's SQL) as this database reads it."""
        return _render(self, text)

    def array(self, values: Iterable[Any]) -> Any:
        """A list of values as one parameter of `{ids}` / `{texts}`."""
        return list(values) if self.array_types else json.dumps(list(values))

    def rows(self, kinds: Sequence[str], rows: Sequence[Sequence[Any]]) -> tuple[str, list[Any]]:
        """`{rows}` for `rows` whose columns are of `kinds`, and the parameters it takes."""
        if self.array_types:
            arrays = ", ".join(f"?::{self.array_types[kind]}" for kind in kinds)
            names = ", ".join(f"column{n}" for n in range(1, len(kinds) + 1))
            return f"unnest({arrays}) AS v ({names})", [[row[i] for row in rows] for i in range(len(kinds))]
        row = "(" + ", ".join("?" * len(kinds)) + ")"
        return f"(VALUES {', '.join([row] * len(rows))}) AS v", [value for values in rows for value in values]

    def split(self, script: str) -> list[str]:
        """A script of several statements as the statements to run one after the other."""
        if self.numbered:
            return [script]  # PostgreSQL runs a whole script (and its $$-quoted bodies) at once
        return sqlite_statements(script)


_DOLLAR_TAG = re.compile(r"\$(\w*)\$")
_HOLE = re.compile(r"\{(\w*)\}")
_BRACE_OR_HOLE = re.compile(r"\{\w*\}|[{}]")


@functools.lru_cache(maxsize=512)
def _render(dialect: Dialect, text: str) -> str:
    """`text` with its holes filled and, where the database numbers them, its parameters numbered.

    Inside a string literal ('...'), a quoted name ("..."), a comment or, on PostgreSQL, a
    dollar-quoted body, every character is kept as written: a `?`, `{` or `}` there is the
    database's, not the store's. Outside them a `?` is a parameter and a `{name}` a hole; anything
    else the store cannot render is refused with ValueError: an unknown hole (`{rows}` included,
    which `Connection.execute_rows` fills first), a lone brace, an unfinished literal or comment,
    and PostgreSQL's JSONB operators `?|`, `?&` and `@?` (a `?` outside a literal is always a
    parameter: write `jsonb_exists_any`, `jsonb_exists_all`, `jsonb_exists` or `jsonb_path_exists`).
    """
    filled = "".join(
        piece if literal else _BRACE_OR_HOLE.sub(lambda hole: _fill(dialect, hole.group(0), text), piece)
        for literal, piece in _pieces(dialect, text)
    )
    if not dialect.numbered:
        return filled
    numbered, count = [], 0
    for literal, piece in _pieces(dialect, filled):
        if literal:
            numbered.append(piece)
            continue
        if any(operator in piece for operator in ("?|", "?&", "@?")):
            raise ValueError(f"a JSONB operator ?|, ?& or @? reads as a parameter in {text[:80]!r}")
        parts = piece.split("?")
        numbered.append(parts[0])
        for part in parts[1:]:
            count += 1
            numbered.append(f"${count}{part}")
    return "".join(numbered)


def _fill(dialect: Dialect, brace: str, text: str) -> str:
    hole = _HOLE.fullmatch(brace)
    if hole is None or hole.group(1) not in dialect.holes:
        raise ValueError(f"{brace} is not a hole of the store's SQL on {dialect.name}, in {text[:80]!r}")
    return dialect.holes[hole.group(1)]


def _pieces(dialect: Dialect, text: str) -> Iterator[tuple[bool, str]]:
    """`text` cut into pieces, each (whether it is a literal, comment or quoted body; the piece)."""
    start = i = 0
    end = len(text)
    while i < end:
        char = text[i]
        if char in "'\"":
            close = _quoted_end(text, i, char)
        elif text.startswith("--", i):
            close = text.find("\n", i)
            close = end if close < 0 else close
        elif text.startswith("/*", i):
            close = text.find("*/", i + 2)
            if close < 0:
                raise ValueError(f"unfinished comment in {text[:80]!r}")
            close += 2
        elif char == "$" and dialect.numbered and (tag := _DOLLAR_TAG.match(text, i)):
            close = text.find(tag.group(0), tag.end())
            if close < 0:
                raise ValueError(f"unfinished {tag.group(0)} body in {text[:80]!r}")
            close += len(tag.group(0))
        else:
            i += 1
            continue
        if start < i:
            yield False, text[start:i]
        yield True, text[i:close]
        start = i = close
    if start < end:
        yield False, text[start:]


def _quoted_end(text: str, start: int, quote: str) -> int:
    """Where the literal opened by `quote` at `start` ends (a doubled quote stands for one inside)."""
    i = start + 1
    while True:
        close = text.find(quote, i)
        if close < 0:
            raise ValueError(f"unfinished {quote}...{quote} in {text[:80]!r}")
        if not text.startswith(quote * 2, close):
            return close + 1
        i = close + 2


def sqlite_statements(script: str) -> list[str]:
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


SQLITE = Dialect(
    name="SQLite",
    numbered=False,
    holes={
        "lock": "",
        "ids": "IN (SELECT value FROM json_each(?))",
        "texts": "IN (SELECT value FROM json_each(?))",
        "json_agg": "json_group_array",
        "json_array": "json_array",
    },
    types={
        "key": "INTEGER",
        "id": "INTEGER",
        "int": "INTEGER",
        "text": "TEXT",
        "time": "REAL",
        "real": "REAL",
    },
    no_limit=-1,
    composite_key_suffix=" WITHOUT ROWID",
    append_only_triggers=(
        "CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table}\n"
        "BEGIN\n    SELECT RAISE(ABORT, 'the action log is append-only');\nEND;",
        "CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}\n"
        "BEGIN\n    SELECT RAISE(ABORT, 'the action log is append-only');\nEND;",
    ),
    clock="(julianday('now') - 2440587.5) * 86400.0",
    table_columns="SELECT name FROM pragma_table_info(?)",
)
"""SQLite 3.35 or later (RETURNING, UPDATE ... FROM, upserts)."""

POSTGRES = Dialect(
    name="PostgreSQL",
    numbered=True,
    holes={
        "lock": " FOR UPDATE",
        "ids": "= ANY(?::bigint[])",
        "texts": "= ANY(?::text[])",
        "json_agg": "json_agg",
        "json_array": "json_build_array",
    },
    types={
        "key": "BIGINT",
        "id": "BIGINT",
        "int": "INTEGER",
        "text": "TEXT",
        "time": "DOUBLE PRECISION",
        "real": "DOUBLE PRECISION",
    },
    array_types={
        "key": "bigint[]",
        "id": "bigint[]",
        "int": "integer[]",
        "text": "text[]",
        "time": "float8[]",
        "real": "float8[]",
    },
    identity=" GENERATED BY DEFAULT AS IDENTITY",
    append_only_triggers=(
        "CREATE FUNCTION {table}_append_only() RETURNS trigger LANGUAGE plpgsql AS $$\n"
        "BEGIN\n    RAISE EXCEPTION 'the action log is append-only';\nEND;\n$$",
        "CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}\n"
        "    FOR EACH ROW EXECUTE FUNCTION {table}_append_only()",
    ),
    writes_in_with=True,
    migration_lock="SELECT pg_advisory_xact_lock(109270216370544)",  # "catnip" in ASCII
    clock="EXTRACT(EPOCH FROM clock_timestamp())",
    table_columns="SELECT attname FROM pg_attribute WHERE attrelid = to_regclass(?) AND attnum > 0 "
    "AND NOT attisdropped",
    versions_folded=1,  # its version 1 holds migrations 1 and 2 (the leases)
)
"""PostgreSQL: Discord ids and seeds are BIGINT, times DOUBLE PRECISION; options, events and states
stay TEXT holding the JSON the bot wrote, byte for byte, so a game replays the same from either."""


class Connection:
    """One execute/fetch API over a backend's connection, the store's SQL rendered by `dialect`.

    A backend implements the five statement methods; the rows it returns are indexable tuples.
    """

    dialect: Dialect

    async def execute(self, sql: str, *args: Any) -> None:
        raise NotImplementedError

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        raise NotImplementedError

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        raise NotImplementedError

    async def fetchrow(self, sql: str, *args: Any) -> Any:
        """The first row, or None."""
        raise NotImplementedError

    async def fetchval(self, sql: str, *args: Any) -> Any:
        """The first column of the first row, or None."""
        raise NotImplementedError

    async def execute_rows(
        self, sql: str, kinds: Sequence[str], rows: Sequence[Sequence[Any]], *after: Any
    ) -> None:
        """Run `sql`, whose `{rows}` (each of them) stands for `rows` (columns of `kinds`), with the
        parameters `after` following theirs: one statement per `ROWS_A_STATEMENT` rows whatever their
        number."""
        for start in range(0, len(rows), ROWS_A_STATEMENT):
            await self.execute(*self._with_rows(sql, kinds, rows[start : start + ROWS_A_STATEMENT]), *after)

    async def fetch_rows(self, sql: str, kinds: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[Any]:
        """As `execute_rows`, and the rows the statements return (their `RETURNING` clause)."""
        returned: list[Any] = []
        for start in range(0, len(rows), ROWS_A_STATEMENT):
            returned += await self.fetch(*self._with_rows(sql, kinds, rows[start : start + ROWS_A_STATEMENT]))
        return returned

    def _with_rows(self, sql: str, kinds: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[Any]:
        """`sql` with each `{rows}` standing for `rows`, followed by the parameters that takes."""
        table, params = self.dialect.rows(kinds, rows)
        return [sql.replace("{rows}", table), *params * sql.count("{rows}")]

    async def execute_rows_together(
        self, *writes: tuple[str, Sequence[str], Sequence[Sequence[Any]]]
    ) -> list[Any]:
        """Run each (sql, kinds, rows) as `execute_rows` does, all in one statement where the database
        takes data-modifying `WITH` clauses (and no write has more than `ROWS_A_STATEMENT` rows, which
        `execute_rows` splits); the rows the last write returns (its `RETURNING` clause), if any. A
        write with no rows is left out. The writes must not read each other's rows: in one statement
        none of them sees what the others change."""
        writes = tuple(write for write in writes if write[2])
        too_many = any(len(rows) > ROWS_A_STATEMENT for _, _, rows in writes)
        if not self.dialect.writes_in_with or len(writes) < 2 or too_many:
            for sql, kinds, rows in writes[:-1]:
                await self.execute_rows(sql, kinds, rows)
            return await self.fetch_rows(*writes[-1]) if writes else []
        statements, params = [], []
        for sql, kinds, rows in writes:
            statement, *values = self._with_rows(sql, kinds, rows)
            statements.append(statement)
            params += values
        clauses = ", ".join(f"w{n} AS ({sql})" for n, sql in enumerate(statements[:-1], start=1))
        return await self.fetch(f"WITH {clauses} {statements[-1]}", *params)
