"""What each seat sees (the issue's view list), prompts, labels and event privacy."""

from __future__ import annotations

from engine.core import events_for, evolve
from engine.ninelives import RULES
from engine.ninelives._cards import card_id, life_id, parse_catalog
from engine.ninelives.model import Options
from engine.ninelives.position import act, card_in, icons, position, texts
from engine.ninelives.texts import TEXTS
from engine.testing import random_playout


def test_a_seat_sees_its_hand_and_whole_stack_and_only_tops_of_others():
    state = position(
        ["oo s", "t tt", "x"],
        table="ooo/s tt",
        lives=["skip inspect", "plus:o forbid:s wildcard", "replace"],
        wagered=["copycat", "", ""],
    )
    view = RULES.view(state, 0)
    assert [c.id for c in view.hand] == [card_id(c) for c in state.hands[0]]
    assert [life.id for life in view.my_stack] == [life_id(c) for c in state.stacks[0]]
    assert view.seats[1].top.power == "plus" and view.seats[1].stack_size == 3
    assert view.seats[0].lives == 3 and [w.power for w in view.seats[0].wagered] == ["copycat"]
    assert [s.hand_size for s in view.seats] == [2, 2, 1]
    text = view.model_dump_json()
    assert life_id(state.stacks[1][1]) not in text and card_id(state.hands[1][0]) not in text
    assert [[p.counts for p in pile] for pile in view.table] == [[(3, 0, 0, 0), (0, 1, 0, 0)], [(0, 0, 2, 0)]]
    assert view.counts == (0, 1, 2, 0)


def test_the_public_view_shows_no_hand_and_no_stack():
    state = position(["oo s", "t tt"])
    view = RULES.view(state, None)
    assert view.hand == () and view.my_stack == ()
    assert card_id(state.hands[0][0]) not in view.model_dump_json()


def test_the_view_names_the_deck_so_unseen_cards_can_be_counted_nl_x11():
    """NL-X11: the game's 45 cat cards are public."""
    state = RULES.setup(4, 9)
    assert parse_catalog(RULES.view(state, 2).catalog) == state.cats


def test_prompts_name_who_decides():
    state = position(["oo", "s"], turn=1)
    assert RULES.view(state, 0).prompt.startswith("{p1}")
    assert "order" in RULES.view(RULES.setup(2, 1), 0).prompt


def test_draws_and_gifts_are_private_events():
    state = position(["o", "s", "t"], deck="xx xxx", lives=["wildcard_paid skip", "skip", "skip"])
    state, events = act(state, 0, "w")
    assert "⭐⭐" in texts(events, 0) and "⭐⭐" not in texts(events, None) + texts(events, 1)
    state, _ = act(state, 0, f"give:{card_in(state, 0, 'o')}")
    state, events = act(state, 0, "to:1")
    assert "⚪" in texts(events, 1) and "⚪" not in texts(events, 2)


def test_plays_and_hands_are_private_but_a_power_target_may_be_public():
    state = position(["o", "s"], lives=["copycat", "plus:o"])
    assert not RULES.actions_are_public(state, 0)
    state, _ = act(state, 0, "w")
    assert RULES.actions_are_public(state, 0)


def test_labels_are_short_and_every_move_has_one():
    for seed in range(6):
        playout = random_playout(RULES, 5, seed, Options(limited_powers=False), keep_states=True)
        for state, (seat, _) in zip(playout.states, playout.log, strict=False):
            for move in RULES.legal_actions(state, seat):
                label = TEXTS.label(RULES, state, seat, move)
                assert 0 < len(label) <= 80 and label != move.encode()


def test_events_narrate_a_whole_game():
    state = RULES.setup(3, 4)
    kinds = set()
    playout = random_playout(RULES, 3, 4, keep_states=True)
    for before, (seat, code) in zip(playout.states, playout.log, strict=False):
        _, events = RULES.apply(before, seat, RULES.decode_action(code))
        kinds |= {event.kind for event in events_for(events, None)}
    assert state.phase == "order"
    assert {"wager", "play", "round_end", "lose", "game_end"} <= kinds


def test_timers_keep_orders_and_pass_random_cards_g_3_nl_x14():
    """NL-X14: expired orderings keep, carousel picks pass a card; other decisions are the computer's."""
    state = RULES.setup(3, 2)
    assert RULES.timeout_action(state, 1).encode() == "keep"
    state = position(["o s t", "s ss sss", "t"], lives=["carousel", "skip", "skip"], deck="x xx")
    state, _ = act(state, 0, "w")
    assert RULES.timeout_action(state, 0) is None, "the turn's choices are the computer player's"
    state, _ = act(state, 0, "dir:r")
    picks = {RULES.timeout_action(state, seat).encode() for seat in RULES.to_act(state)}
    assert all(code.startswith("pass:") for code in picks)


def test_no_top_life_shows_until_every_stack_is_ordered_nl_x11():
    """NL-X11: while the stacks are being ordered nobody's top card shows, a stack already ordered
    included; once all are ordered every top card is public."""
    state = RULES.setup(3, 6)
    state, _ = act(state, 0, "keep")
    assert RULES.to_act(state) == [1, 2]
    for seat in (None, 0, 1, 2):
        assert all(info.top is None for info in RULES.view(state, seat).seats)
    state, _ = act(state, 1, "keep")
    state, _ = act(state, 2, "keep")
    tops = [info.top.id for info in RULES.view(state, None).seats]
    assert tops == [life_id(stack[0]) for stack in state.stacks]


def test_the_card_list_tells_which_cards_exist_not_where_they_are_nl_x11():
    """NL-X11: the 45 cat cards are public, not where they are: dealing the unseen cards otherwise
    changes nothing the table or another seat sees."""
    state = RULES.setup(3, 9)
    moved = evolve(
        state,
        {
            "deck": tuple(reversed(state.deck)),
            "hands": (state.hands[0], state.hands[2], state.hands[1]),
        },
    )
    assert moved.deck != state.deck and moved.hands != state.hands
    for seat in (None, 0):
        assert parse_catalog(RULES.view(moved, seat).catalog) == state.cats
        assert RULES.view(moved, seat) == RULES.view(state, seat)


def test_the_discard_pile_and_every_wagered_life_are_public_nl_x11():
    """NL-X11: the discard pile and every wagered life are public: the table and every seat see them."""
    state = position(
        ["o", "s", "t"],
        discard="oo 3s x",
        lives=["skip", "skip skip", "skip"],
        wagered=["inspect replace", "", "plus:o"],
    )
    for seat in (None, 1, 2):
        view = RULES.view(state, seat)
        assert [card.id for card in view.discard] == [card_id(c) for c in state.discard]
        assert [card.icons for card in view.discard] == [icons("oo"), icons("3s"), icons("x")]
        assert [[life.id for life in info.wagered] for info in view.seats] == [
            [life_id(c) for c in state.wagered[s]] for s in range(3)
        ]
    assert [life.power for life in RULES.view(state, 1).seats[0].wagered] == ["inspect", "replace"]
