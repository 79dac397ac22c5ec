"""`engine.core.LastOf`: what every seat's view of one state shares is made once, per rules instance."""

from __future__ import annotations

from engine.core import LastOf

made: list[object] = []


def table_of(state: object) -> object:
    made.append(state)
    return state


class Rules:
    _table = LastOf(table_of)


def test_the_same_state_asked_again_is_not_made_again_and_a_new_one_is():
    made.clear()
    one, two = object(), object()
    rules = Rules()
    asked = [rules._table(one), rules._table(one), rules._table(two), rules._table(one)]
    assert asked == [one, one, two, one]
    assert made == [one, two, one]


def test_two_instances_asked_in_turn_each_keep_their_own_latest():
    """As the conformance tests view each state through the game's rules and its resampled copy
    through another instance: neither makes the other forget its latest."""
    made.clear()
    game, other = Rules(), Rules()
    state, resampled = object(), object()
    for _ in range(3):
        game._table(state)
        other._table(resampled)
    assert made == [state, resampled]
