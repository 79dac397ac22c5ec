"""Who starts, in every game: the host's choice of seat, else one drawn from the seed (CS-13, MC-X1,
CD-X1, NL-1); a choice that is not a seat at the table is refused in words a player can read."""

from __future__ import annotations

import pytest

from engine import GAMES
from engine.core import GameOptions, InvalidInput

OPTION = {
    "catsanity": "first_seat",
    "madcat": "first_player",
    "catsdogs": "first_player",
    "ninelives": "first_queen",
}


def starter(key: str, state) -> int:
    """The seat the game starts with: the first turn, or Nine Lives' first Kittyqueen."""
    return state.queen if key == "ninelives" else state.leader if key == "catsdogs" else state.turn


@pytest.mark.parametrize("key", sorted(OPTION))
def test_the_host_chooses_who_starts_or_the_seed_draws_a_seat(key):
    rules = GAMES[key].rules
    for seat in range(3):
        assert starter(key, rules.setup(3, 7, rules.make_options({OPTION[key]: seat}))) == seat
    drawn = {starter(key, rules.setup(3, seed)) for seed in range(30)}
    assert drawn == {0, 1, 2}
    assert starter(key, rules.setup(3, 11)) == starter(key, rules.setup(3, 11)), "the seed decides"


@pytest.mark.parametrize("key", sorted(OPTION))
def test_a_seat_not_at_the_table_is_refused(key):
    rules = GAMES[key].rules
    with pytest.raises(InvalidInput, match="must be one of the 3 seats, not seat 4"):
        rules.setup(3, 1, rules.make_options({OPTION[key]: 3}))


@pytest.mark.parametrize("key", sorted(OPTION))
def test_who_starts_is_declared_as_the_games_one_seat_option(key):
    """Who starts is the one option the lobby offers as a choice of the seated players (or random)."""
    declared = GAMES[key].rules.Options.SEAT_OPTIONS
    assert declared == {OPTION[key]}


def test_a_seat_option_that_is_not_an_option_is_refused_when_the_game_is_defined():
    with pytest.raises(TypeError, match="SEAT_OPTIONS names no option: first_dog"):

        class Options(GameOptions):
            first_cat: int | None = None

            SEAT_OPTIONS = frozenset({"first_dog"})
