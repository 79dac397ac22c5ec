"""`catnip migrate-db`: a whole SQLite database copied into PostgreSQL, every game replaying the same there;
a second run (or any non-empty target) refused without copying anything twice."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import bot.storage.migrations as migrations
from bench.postgres_server import fresh_schema_url
from bot.storage import Deadline, FinalResult, PostgresGameStore, SqliteGameStore
from bot.storage.transfer import migrate_main
from tests.bot.test_ratings import SCHEMA_6, a_game_rated_by_schema_6
from tests.bot.test_storage import RULES, member, play_move, play_to_end, replayed, started_game
from tests.bytecode import bytecode_settings

REPO = Path(__file__).resolve().parents[2]


async def migrate(path: Path, url: str) -> int:
    """`catnip migrate-db --from path --to url`, which runs an event loop of its own (off the test's)."""
    return await asyncio.to_thread(migrate_main, ["--from", str(path), "--to", url])


async def a_busy_database(path: Path) -> list[int]:
    """Games in every state, with results, ratings, deadlines and remembered options; their ids."""
    store = SqliteGameStore(path)
    await store.open()
    try:
        lobby = await store.games.create_lobby(
            guild_id=7, channel_id=70, thread_id=71, game="yarn", options={"most": 2}, host=member(0, 1),
            now=5.0,
        )  # fmt: skip
        playing = await started_game(store, seed=3, users=(1, 2, 3))
        for _ in range(3):
            await play_move(store, playing.id, pick=1)
        await store.timers.set_deadline(playing.id, decision="turn", due=99.5)
        await store.games.set_table_message(playing.id, channel_id=200, message_id=4242, now=6.0)
        finished = await started_game(store, seed=4, guild_id=100, users=(1, None))
        await play_to_end(store, finished.id, result=FinalResult((3, 1), (0,), "pulled the last strand"))
        rated = await started_game(store, seed=6, guild_id=100, users=(1, 2))
        await play_to_end(store, rated.id, result=FinalResult((1, 3), (1,), "pulled the last strand"))
        abandoned = await started_game(store, seed=5)
        await store.games.set_status(abandoned.id, "abandoned", now=8.0)
        await store.games.remember_options(200, "yarn", {"most": 1})
        await store.timers.save_pings({playing.id: (200, 4343)})
        return [lobby.id, playing.id, finished.id, abandoned.id, rated.id]
    finally:
        await store.close()


async def test_a_sqlite_database_is_copied_whole_and_replays_the_same(tmp_path, postgres_server):
    path = tmp_path / "catnip.sqlite3"
    ids = await a_busy_database(path)
    url = await fresh_schema_url(postgres_server.get_uri())
    assert await migrate(path, url) == 0

    source, target = SqliteGameStore(path), PostgresGameStore(url)
    await source.open()
    await target.open()
    try:
        for game_id in ids:
            record = await target.games.get_game(game_id)
            assert record == await source.games.get_game(game_id)
            log = await target.games.moves(game_id)
            assert log == await source.games.moves(game_id)
            assert await target.games.load_state_json(game_id) == await source.games.load_state_json(game_id)
            if record.seed is not None:
                assert await target.games.load_state(record, RULES) == replayed(record, log)
        assert (
            await target.timers.deadlines()
            == await source.timers.deadlines()
            == [Deadline(game_id=ids[1], decision="turn", due=99.5)]
        )
        assert [g.id for g in await target.games.active_games()] == ids[:2]
        assert await target.games.endings_to_show() == await source.games.endings_to_show() != []
        assert await target.timers.take_pings(ids) == {ids[1]: (200, 4343)}
        assert await target.games.remembered_options(200, "yarn") == {"most": 1}
        assert await target.results.stats(100, 1) == await source.results.stats(100, 1) != []
        assert await target.results.leaderboard(100, "yarn") == await source.results.leaderboard(100, "yarn")
        assert (
            await target.results.member_ratings(100, 2) == await source.results.member_ratings(100, 2) != {}
        )
        assert (
            await target.results.rating_changes(ids[4]) == await source.results.rating_changes(ids[4]) != {}
        )
        # Play goes on there, and new games get new ids.
        assert (await play_move(target, ids[1]))[0] == (await source.games.get_game(ids[1])).version + 1
        newer = await started_game(target, seed=9)
        assert newer.id > max(ids)
    finally:
        await source.close()
        await target.close()


async def test_a_target_that_already_holds_games_is_refused_and_left_as_it_was(tmp_path, postgres_server):
    path = tmp_path / "catnip.sqlite3"
    await a_busy_database(path)
    url = await fresh_schema_url(postgres_server.get_uri())
    assert await migrate(path, url) == 0
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(REPO), **bytecode_settings()}
    again = subprocess.run(
        [sys.executable, "-m", "bot", "migrate-db", "--from", str(path), "--to", url],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert again.returncode == 2
    assert "already holds 5 games" in again.stderr and "Traceback" not in again.stderr
    target = PostgresGameStore(url)
    await target.open()
    try:
        assert len(await target.games.moves(2)) == 3, "nothing copied twice"
    finally:
        await target.close()


async def test_a_database_of_an_older_catnip_without_the_newer_tables_is_copied(tmp_path, postgres_server):
    """A file last opened by a Catnip before the last tables still to show and the noted pings: its
    other tables are copied, those two are empty."""
    path = tmp_path / "catnip.sqlite3"
    ids = await a_busy_database(path)
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE endings_to_show")
        db.execute("DROP TABLE pings")
    url = await fresh_schema_url(postgres_server.get_uri())
    assert await migrate(path, url) == 0
    target = PostgresGameStore(url)
    await target.open()
    try:
        assert [g.id for g in await target.games.active_games()] == ids[:2]
        assert await target.games.endings_to_show() == [] and await target.timers.take_pings(ids) == {}
    finally:
        await target.close()


async def test_a_database_rated_before_migration_7_is_copied_with_its_rating_changes(
    tmp_path, postgres_server, monkeypatch
):
    """A file whose rating changes are still in a table of their own (schema 6): on the target they
    are with the results, as opening the file with this Catnip would have moved them."""
    path = tmp_path / "catnip.sqlite3"
    with monkeypatch.context() as older:
        older.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:SCHEMA_6])
        source = SqliteGameStore(path)
        await source.open()
        game_id, changes = await a_game_rated_by_schema_6(source)
        await source.close()
    url = await fresh_schema_url(postgres_server.get_uri())
    assert await migrate(path, url) == 0
    target = PostgresGameStore(url)
    await target.open()
    try:
        assert await target.results.rating_changes(game_id) == changes
        assert (await target.results.member_ratings(100, 1))["yarn"] == (*changes[0].after, 4)
        gone = await target.database.transaction(
            lambda db: db.fetch(db.dialect.table_columns, "rating_changes")
        )
        assert gone == []
    finally:
        await target.close()


async def test_a_postgresql_database_is_copied_into_another(postgres_server):
    source = PostgresGameStore(await fresh_schema_url(postgres_server.get_uri()))
    await source.open()
    try:
        game = await started_game(source, seed=3, users=(1, 2, 3))
        await play_move(source, game.id)
        await source.timers.save_pings({game.id: (200, 4343)})
    finally:
        await source.close()
    url = await fresh_schema_url(postgres_server.get_uri())
    assert await asyncio.to_thread(migrate_main, ["--from", source.database.url, "--to", url]) == 0
    target = PostgresGameStore(url)
    await target.open()
    try:
        assert len(await target.games.moves(game.id)) == 1
        assert await target.timers.take_pings([game.id]) == {game.id: (200, 4343)}
    finally:
        await target.close()
