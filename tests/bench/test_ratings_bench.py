"""`python -m bench.ratings` times what it says: its rated games rate their members, its unrated ones
(a member against computers) rate nobody, and it reports both and their difference."""

from __future__ import annotations

from bench.ratings import measure
from bot.storage import SqliteGameStore


async def test_the_ratings_benchmark_rates_its_rated_games_only_and_reports_each_figure(tmp_path):
    store = SqliteGameStore(tmp_path / "bench.sqlite3")
    await store.open()
    try:
        figures = await measure(store, 6, 2)
        rated_games = 0
        for user in range(1, 41):
            for _, _, games in (await store.member_ratings(1, user)).values():
                rated_games += games
    finally:
        await store.close()
    assert rated_games == 6 * 2, "each of the 6 rated games rates its 2 members, the unrated ones nobody"
    assert set(figures) == {0.5, 0.99}
    for alone, with_rating, added in figures.values():
        assert alone > 0 and with_rating > 0 and abs(with_rating - alone - added) < 1e-9
