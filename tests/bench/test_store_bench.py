"""`python -m bench.store` measures what it says on either database: every commit it counts is in
the games' logs, and its resume runs find and load every live game of the database it built."""

from __future__ import annotations

import pytest

from bench.store import build_resume_database, record_game, resume, throughput
from bench.store_databases import PostgresBackend, SqliteBackend
from engine import GAMES


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request, tmp_path):
    if request.param == "sqlite":
        return SqliteBackend(tmp_path)
    return PostgresBackend(request.getfixturevalue("postgres_server").get_uri())


async def test_every_commit_counted_is_logged_and_every_live_game_resumes(backend):
    pool = [record_game(GAMES["catsdogs"].rules, 2, seed) for seed in range(3)]
    location = await backend.fresh("throughput")
    _, latencies = await throughput(backend.store(location), 3, 1.0, pool[0])
    store = backend.store(location)
    await store.open()
    try:
        games = await store.games.active_games()
        logged = [len(await store.games.moves(game.id)) for game in games]
    finally:
        await store.close()
    assert len(games) == 3 and sum(logged) == len(latencies) >= 1

    location = await backend.fresh("resume")
    await build_resume_database(backend, location, pool, finished=4, active=2)
    for claim in (False, True):
        figures = await resume(backend.store(location, owner="bench"), claim=claim)
        assert figures["games"] == 2, "the two active games, never the finished ones"
