"""Discord's global limit: a whole game of each kind, and its rematch game, costs at most one counted
request a move."""

from __future__ import annotations

import pytest

from tests.e2e.driver import catnip
from tests.e2e.request_counts import play_whole_games

WHOLE_GAMES = [
    ("catsdogs", 1),  # solo
    ("catsdogs", 2),  # two-player
    ("catsdogs", 4),  # standard
    ("catsanity", 3),
    ("madcat", 3),
    ("ninelives", 3),
]


@pytest.mark.parametrize(("key", "players"), WHOLE_GAMES)
async def test_a_whole_game_and_its_rematch_cost_at_most_one_counted_request_a_move(tmp_path, key, players):
    async with catnip(tmp_path, pictures=True) as (emu, _):
        first, rematch = await play_whole_games(emu, key, players, rematches=1)
        print(first.describe(), rematch.describe(), sep="\n")
        assert first.counted_per_move <= 1.0, first.describe()
        assert rematch.counted_per_move <= 1.0, (
            "a rematch game, whose table no Start click answered, as well",
            rematch.describe(),
        )
        assert not emu.violations
