"""Discord's global limit: a whole game of each kind costs at most one counted request a move."""

from __future__ import annotations

import pytest

from tests.e2e.driver import catnip
from tests.e2e.request_counts import play_whole_game

WHOLE_GAMES = [
    ("catsdogs", 1),  # solo
    ("catsdogs", 2),  # two-player
    ("catsdogs", 4),  # standard
    ("catsanity", 3),
    ("madcat", 3),
    ("ninelives", 3),
]


@pytest.mark.parametrize(("key", "players"), WHOLE_GAMES)
async def test_a_whole_game_costs_at_most_one_counted_request_a_move(tmp_path, key, players):
    async with catnip(tmp_path, pictures=True) as (emu, _):
        cost = await play_whole_game(emu, key, players)
        print(cost.describe())
        assert cost.counted_per_move <= 1.0, cost.describe()
        assert not emu.violations
