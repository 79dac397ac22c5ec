"""Your own view says what you are deciding to you, and the first time each kind of decision comes up
for you in a game, one line on what it is about: ordering your lives (NL-1), a mooch pick (MC-4), a
set-aside (MC-2), an auction bid (CS-4), leading or following a trick (CD-2) …

"First time" is part of the game's state, so it survives a restart and a replay of the move log."""

from __future__ import annotations

import pytest

from cogs.panel import private_panel
from engine import GAMES
from engine.decisions import ME, second_person
from engine.testing import RandomPlayer
from tests.golden.playthrough import Case, Move, commit, new_table

KINDS = {
    "catsanity": ("turn", "bid"),
    "madcat": ("roll", "aside", "decide", "mooch"),
    "catsdogs": ("lead", "follow", "table"),
    "ninelives": ("order", "turn"),
}
CASES = [
    ("catsanity", 3, 1),
    ("catsanity", 5, 2),
    ("madcat", 2, 1),
    ("madcat", 4, 2),
    ("catsdogs", 2, 1),
    ("catsdogs", 4, 2),
    ("ninelives", 2, 1),
    ("ninelives", 4, 2),
]


def decision_text(game, seat: int) -> str:
    description = private_panel(game, seat).embed.description
    assert description.startswith("**Your decision:** ")
    return description


@pytest.mark.parametrize(("key", "players", "seed"), CASES)
def test_the_hint_shows_until_you_first_make_that_kind_of_decision_then_never_again(key, players, seed):
    game = new_table(Case(key, players, seed))
    rules, hints = game.rules, GAMES[key].hints
    player = RandomPlayer(rules, seed)
    made: set[tuple[int, str]] = set()
    shown: set[str] = set()
    while rules.outcome(game.state) is None:
        for seat in game.to_act():
            kind = rules.decision(game.state, seat)
            text = decision_text(game, seat)
            assert game.names[seat] not in text.split("\n")[0], "your own decision is said to you"
            if kind in hints:
                first = (seat, kind) not in made
                assert (hints[kind] in text) == first, (seat, kind, text)
                if first:
                    shown.add(kind)
        seat = player.pick_seat(game.to_act())
        made.add((seat, rules.decision(game.state, seat)))
        commit(game, Move(seat, player.choose(game.state, seat).encode()))
    assert shown & set(KINDS[key]), "the game met some of its kinds of decision"


def first_state_where(key: str, players: int, wanted, seed: int = 1):
    """A game table played at random until `wanted(game)` holds."""
    game = new_table(Case(key, players, seed))
    player = RandomPlayer(game.rules, seed)
    while not wanted(game):
        seat = player.pick_seat(game.to_act())
        commit(game, Move(seat, player.choose(game.state, seat).encode()))
    return game, player


def test_nl1_ordering_your_lives_is_explained_until_you_place_your_first_life():
    game = new_table(Case("ninelives", 3, 4))
    hint = GAMES["ninelives"].hints["order"]
    assert all(hint in decision_text(game, seat) for seat in range(3))
    first = next(a for a in game.rules.legal_actions(game.state, 0) if a.encode() != "keep")
    commit(game, Move(0, first.encode()))
    assert hint not in decision_text(game, 0)
    assert hint in decision_text(game, 1) and hint in decision_text(game, 2)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_mc4_a_first_mooch_pick_is_explained_and_a_later_one_is_not(players):
    game, player = first_state_where("madcat", players, lambda g: g.state.phase == "mooch")
    hint = GAMES["madcat"].hints["mooch"]
    moocher = next(seat for seat in game.to_act())
    assert hint in decision_text(game, moocher)
    turns = game.state.turns
    later = lambda g: g.state.phase == "mooch" and g.state.turns > turns and moocher in g.to_act()  # noqa: E731
    while not later(game):
        seat = player.pick_seat(game.to_act())
        commit(game, Move(seat, player.choose(game.state, seat).encode()))
    assert hint not in decision_text(game, moocher)


def test_cs4_a_first_auction_bid_is_explained_in_the_second_person():
    game, _ = first_state_where("catsanity", 3, lambda g: g.state.phase == "auction", seed=3)
    bidder = game.to_act()[0]
    text = decision_text(game, bidder)
    assert GAMES["catsanity"].hints["bid"] in text
    assert text.startswith("**Your decision:** You bid or pass in ")


def test_the_first_time_survives_a_restart_and_a_replay_of_the_moves():
    game, _ = first_state_where("madcat", 3, lambda g: g.record.version > 40, seed=5)
    rules, state = game.rules, game.state
    stored = rules.State.model_validate_json(state.model_dump_json())
    assert stored.decided == state.decided and stored.decided
    for seat in range(3):
        assert rules.first_decision(stored, seat) == rules.first_decision(state, seat)


def test_second_person_turns_only_your_own_name():
    assert second_person(f"{ME} bids or passes in {ME}'s auction") == "You bid or pass in your auction"
    assert second_person(f"{ME} adopts a cat from the alley or calls an auction") == (
        "You adopt a cat from the alley or call an auction"
    )
    assert second_person(f"{ME}: choose where to steal from.") == "Choose where to steal from."
    assert second_person(f"{ME} picks the next Kittyqueen among Ann, {ME}.") == (
        "You pick the next Kittyqueen among Ann, you."
    )
    assert second_person("Bo chooses a card to play") == "Bo chooses a card to play"
