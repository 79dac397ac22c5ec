"""`python -m bench.ratings` times what it says: its rated games rate their members, its unrated ones
(a member against computers) and its results alone rate nobody, and it reports each kind and what
rating adds."""

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
            for _, _, games in (await store.results.member_ratings(1, user)).values():
                rated_games += games
    finally:
        await store.close()
    assert rated_games == 6 * 2, "each of the 6 rated games rates its 2 members, the other ends nobody"
    assert set(figures) == {0.5, 0.99}
    for at in figures.values():
        assert at["alone"] > 0 and at["unrated"] > 0 and at["rated"] > 0
        assert abs(at["rated"] - at["alone"] - at["adds"]) < 1e-9
