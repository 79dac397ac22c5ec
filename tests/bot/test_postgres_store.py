"""What only the PostgreSQL store has to show: its server stopped and started again under play, its
schema, the start-up check of DATABASE_URL, and copying a SQLite database into it."""

from __future__ import annotations

import asyncpg
import pytest

from bench.postgres_server import fresh_schema_url, start_postgres, start_server, stop_postgres, stop_server
from bot.clock import ManualClock
from bot.sessions import GameService
from bot.storage import GameRecord, PostgresGameStore, StoreUnavailable
from bot.storage.dialects import POSTGRES
from bot.storage.migrations import MIGRATIONS
from tests.bot.test_storage import RULES, play_move, play_to_end, replayed, started_game


@pytest.fixture(scope="module")
def stoppable_server():
    server, folder = start_postgres()
    yield server
    stop_postgres(server, folder)


@pytest.fixture
def own_server(stoppable_server):
    """A PostgreSQL server no other test uses, which the test may stop; running again after the test."""
    yield stoppable_server
    start_server(stoppable_server)


async def test_while_the_server_is_down_nothing_is_saved_and_play_goes_on_once_it_is_back(own_server):
    store = PostgresGameStore(await fresh_schema_url(own_server.get_uri()))
    await store.open()
    service = GameService(store, ManualClock())
    try:
        live = await service.lobby.open_lobby(
            game_key="catsdogs", guild_id=1, channel_id=10, thread_id=None, host_id=101, host_name="Ann"
        )
        await service.lobby.join(live.id, 102, "Bo")
        game = await service.start(live.id, 101, seed=5)
        seat = game.to_act()[0]
        user = game.record.seats[seat].user_id
        action = game.rules.legal_actions(game.state, seat)[0].encode()
        state, version = game.state, game.record.version

        stop_server(own_server)
        with pytest.raises(StoreUnavailable, match="can't save right now"):
            await service.play(game.id, user, version, action)
        assert game.state == state and game.record.version == version, "nothing half-applied in memory"
        with pytest.raises(StoreUnavailable):
            await store.games.get_game(game.id)
        with pytest.raises(StoreUnavailable):
            await store.games.set_table_message(game.id, channel_id=10, message_id=5, now=1.0)

        start_server(own_server)  # the store reconnects by itself
        await service.play(game.id, user, version, action)
        assert game.record.version == version + 1
        log = await store.games.moves(game.id)
        assert [(m.seq, m.action) for m in log] == [(1, action)], "applied once, after the outage"
        record = await store.games.get_game(game.id)
        assert await store.games.load_state(record, game.rules) == game.state
    finally:
        await service.shutdown()
        await store.close()


async def test_a_store_opened_while_the_server_is_down_connects_once_it_is_up(own_server):
    url = await fresh_schema_url(own_server.get_uri())
    stop_server(own_server)
    with pytest.raises(StoreUnavailable):  # the bot waits and tries again (bot/outages.py)
        await PostgresGameStore(url).open()
    start_server(own_server)
    store = PostgresGameStore(url)
    await store.open()
    try:
        game = await started_game(store)
        assert (await play_move(store, game.id))[0] == 2
    finally:
        await store.close()


async def test_the_action_log_is_append_only(pg_store):
    store = pg_store
    game = await started_game(store)
    await play_move(store, game.id)
    db = await asyncpg.connect(store.database.url)
    try:
        with pytest.raises(asyncpg.RaiseError, match="append-only"):
            await db.execute("UPDATE moves SET action = 'pull:3' WHERE game_id = $1", game.id)
        with pytest.raises(asyncpg.RaiseError, match="append-only"):
            await db.execute("DELETE FROM moves WHERE game_id = $1", game.id)
        applied = await db.fetch("SELECT version FROM schema_migrations")
        assert [row[0] for row in applied] == sorted({POSTGRES.version_of(m.version) for m in MIGRATIONS})
    finally:
        await db.close()


async def test_ids_and_seeds_beyond_32_bits_round_trip(store):
    """Discord ids are 64-bit snowflakes; a seed is 63 random bits."""
    guild, channel, user = 1_234_567_890_123_456_789, 987_654_321_987_654_321, 555_555_555_555_555_555
    game = await started_game(store, users=(user, 2), seed=2**63 - 1, guild_id=guild, channel_id=channel)
    again = await store.games.get_game(game.id)
    assert isinstance(again, GameRecord)
    assert (again.guild_id, again.channel_id, again.seed) == (guild, channel, 2**63 - 1)
    assert again.seats[0].user_id == user
    await play_to_end(store, game.id)
    log = await store.games.moves(game.id)
    record = await store.games.get_game(game.id)
    assert await store.games.load_state(record, RULES) == replayed(record, log)
