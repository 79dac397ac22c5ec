"""`Dialect.sql`: the store's SQL as each database reads it — holes filled, parameters numbered where
PostgreSQL wants `$n` — with literals, quoted names and comments left exactly as written, and a
clear refusal for what it cannot render."""

from __future__ import annotations

import pytest

from bot.storage.dialects import POSTGRES, SQLITE


def test_holes_are_filled_and_parameters_numbered_in_order_holes_included():
    sql = "SELECT id FROM games WHERE guild_id = ? AND id {ids} AND status {texts}{lock} LIMIT ?"
    assert POSTGRES.sql(sql) == (
        "SELECT id FROM games WHERE guild_id = $1 AND id = ANY($2::bigint[]) "
        "AND status = ANY($3::text[]) FOR UPDATE LIMIT $4"
    )
    assert SQLITE.sql(sql) == (
        "SELECT id FROM games WHERE guild_id = ? AND id IN (SELECT value FROM json_each(?)) "
        "AND status IN (SELECT value FROM json_each(?)) LIMIT ?"
    )


@pytest.mark.parametrize(
    "literal",
    [
        "'{}'",  # an empty JSON object (or PostgreSQL array)
        '\'{"a": {"b": 1}}\'',
        "'{lock}'",  # a hole's name inside a literal is text, not a hole
        "'why?'",
        "'it''s {ids}?'",  # a doubled quote stays inside the literal
        '"odd?{name}"',  # a quoted name
    ],
)
def test_question_marks_and_braces_inside_literals_are_kept_as_written(literal):
    sql = f"SELECT {literal}, ? FROM t WHERE x = ?"
    assert POSTGRES.sql(sql) == f"SELECT {literal}, $1 FROM t WHERE x = $2"
    assert SQLITE.sql(sql) == sql


def test_comments_and_dollar_quoted_bodies_are_kept_as_written():
    sql = "SELECT ? -- is it {this}?\n, $$ a ? and {that} $$, $body$ ? $body$ /* { ? } */ , ?"
    assert POSTGRES.sql(sql) == (
        "SELECT $1 -- is it {this}?\n, $$ a ? and {that} $$, $body$ ? $body$ /* { ? } */ , $2"
    )


def test_jsonb_operators_that_take_no_question_mark_render():
    sql = "SELECT options -> 'a' ->> 'b', options #> '{a,b}', options @> ?::jsonb FROM games WHERE id = ?"
    assert POSTGRES.sql(sql) == (
        "SELECT options -> 'a' ->> 'b', options #> '{a,b}', options @> $1::jsonb FROM games WHERE id = $2"
    )


@pytest.mark.parametrize(
    ("sql", "said"),
    [
        ("SELECT * FROM t WHERE x {nope}", "{nope} is not a hole"),
        ("INSERT INTO t SELECT * FROM {rows}", "{rows} is not a hole"),  # execute_rows fills it first
        ("SELECT '{}'::jsonb || {}", "{} is not a hole"),
        ("SELECT a FROM t WHERE b = {", "{ is not a hole"),
        ("SELECT a FROM t WHERE b = }", "} is not a hole"),
        ("SELECT 'unfinished FROM t", "unfinished '...'"),
        ("SELECT a /* unfinished", "unfinished comment"),
        ("SELECT options ?| ARRAY['a'] FROM games", "JSONB operator"),
        ("SELECT options ?& ARRAY['a'] FROM games", "JSONB operator"),
        ("SELECT options @? '$.a' FROM games", "JSONB operator"),
    ],
)
def test_what_cannot_be_rendered_is_refused_saying_why(sql, said):
    with pytest.raises(ValueError) as refused:
        POSTGRES.sql(sql)
    assert said in str(refused.value)


def test_a_dollar_body_is_unfinished_on_postgresql_only():
    with pytest.raises(ValueError, match=r"unfinished \$\$"):
        POSTGRES.sql("SELECT $$ ? ")
    assert SQLITE.sql("SELECT $$ ?") == "SELECT $$ ?"  # SQLite has no dollar quoting


async def test_literals_reach_each_database_intact_beside_bound_parameters(store):
    """The same statement on each backend: its literals come back as written, its parameters bound."""
    rows = await store.database.read(
        "SELECT '{}', 'why?', 'it''s {lock}', CAST(? AS TEXT), CAST(? AS INTEGER) + 1", "bound?", 41
    )
    assert tuple(rows[0]) == ("{}", "why?", "it's {lock}", "bound?", 42)
