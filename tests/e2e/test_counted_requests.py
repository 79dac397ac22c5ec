"""Discord's global limit: a whole game of each kind, and its rematch game, costs at most one counted
request a move."""

from __future__ import annotations

import pytest

from bench.game_costs import play_whole_games
from tests.e2e.driver import catnip

WHOLE_GAMES = [
    # game, players, whether its rematch game is played and counted too
    ("catsdogs", 1, True),  # solo
    ("catsdogs", 2, True),  # two-player: moves on the private panels only
    ("catsdogs", 3, False),  # standard
    ("catsanity", 2, True),
    ("madcat", 2, False),
    ("ninelives", 2, False),
]


@pytest.mark.parametrize(("key", "players", "rematch"), WHOLE_GAMES)
async def test_a_whole_game_costs_at_most_one_counted_request_a_move(tmp_path, key, players, rematch):
    async with catnip(tmp_path, pictures=True) as (emu, _):
        costs = await play_whole_games(emu, key, players, rematches=int(rematch))
        print(*(cost.describe() for cost in costs), sep="\n")
        for cost in costs:  # a rematch game's table was answered by no Start click, yet it is the same
            assert cost.counted_per_move <= 1.0, cost.describe()
        assert not emu.violations
