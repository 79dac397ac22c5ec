"""The Mad Cat Sad Cat renderer: hand-made positions render the expected lines, the roller's controls
cover every legal action, and the set-aside multi-select accepts exactly the legal subsets."""

from __future__ import annotations

from itertools import combinations, product

import pytest

from engine import EngineError, IllegalAction, InvalidInput, OutOfDate
from engine.madcat import RULES
from engine.madcat._dice import FACES, sort_faces
from engine.madcat.model import Roll, SetAside, Stop
from engine.madcat.position import position
from engine.madcat.texts import TEXTS, hidden_pick_line, player_line, revealed_pick_line
from engine.texts import Choice

NAMES = ["Ann", "Bo", "Cy", "Di"]


def fields(state, seat=None):
    view = RULES.view(state, seat)
    if seat is None:
        return dict(TEXTS.table_fields(view, NAMES))
    return dict(TEXTS.private_fields(view, RULES.view(state, None), NAMES))


def field(found: dict, start: str) -> str:
    matches = [value for name, value in found.items() if name.startswith(start)]
    assert len(matches) == 1, (start, list(found))
    return matches[0]


def label(state, seat, action):
    return TEXTS.label(RULES, state, seat, action)


def controls(state, seat):
    choices = [Choice(a.encode(), label(state, seat, a)) for a in RULES.legal_actions(state, seat)]
    return TEXTS.controls(RULES.view(state, seat), choices)


def compose(state, values, seat=0):
    return TEXTS.compose(RULES.view(state, seat), "aside", values)


# --- the table ------------------------------------------------------------------------------------


def test_the_table_shows_the_tray_the_17_cards_the_supply_and_every_player():
    state = position(
        turn=0,
        phase="decide",
        tray="s1 s1 s1 w",
        rolled="s1 w m3",
        picks=". 4k! fail -",
        sad="1/2 1/2 0/7 2/3",
        mad="3/4 3/4 4/5 4/5",
        pot=6,
        scores="3 6 1 0",
        supply=50,
    )
    table = fields(state)
    assert table["🎲 Ann's dice · 🔒 💧 sad cats"].split("\n") == [
        "Last roll: 🔥3 💧1 🐾",
        "On the tray: **💧1 💧1 💧1 🐾** · 1 die to roll",
        "Reads as: **4 of a kind** 🏆7 🤫0",
    ]
    cards = table["🃏 Cat cards (VPs)"].split("\n")
    assert cards[:7] == [
        "```",
        "outer/inner mad       sad",
        "Two pairs    3 /  4    1 /  2",
        "Full house   3 /  4    1 /  2",
        "4 of a kind  4 /  5    0 /  7",
        "5 of a kind  4 /  5    2 /  3",
        "```",
    ]
    assert "🍯 Catpot **6** · 💰 Supply **50** VPs" in cards
    assert table["🐱 Players"].split("\n") == [
        "🎲 **Ann** · 3 VPs · rolling",
        "💰 **Bo** · 6 VPs · showed 🤫 Four of a kind",
        "🂠 **Cy** · 1 VP · mooch card face down",
        "🂠 **Di** · 0 VPs · mooch card face down",
    ]


def test_while_mooching_the_table_shows_who_has_picked_but_never_what_mc4_mcx2():
    state = position(turn=1, phase="mooch", tray="m2", rolled="m2 s1 s2 w w", picks="fh . . -")
    players = fields(state)["🐱 Players"]
    assert players.split("\n") == [
        "🂠 **Ann** · 0 VPs · mooch card face down",
        "🎲 **Bo** · 0 VPs · rolling",
        "⏳ **Cy** · 0 VPs · picking a mooch card…",
        "🂠 **Di** · 0 VPs · mooch card face down",
    ]
    public = "\n".join(f"{name}\n{value}" for name, value in fields(state).items())
    assert "🤫 Full house" not in public and "No card" not in public


def test_the_tray_before_the_first_roll_and_right_after_a_roll():
    ready = fields(position(turn=2, phase="roll"))
    assert ready["🎲 Cy's dice"] == "🎲 All 5 dice in hand, ready to roll."
    rolled = fields(position(turn=2, phase="aside", rolled="m1 m1 s2 w w"))
    assert rolled["🎲 Cy's dice"].split("\n") == [
        "Just rolled: **🔥1 🔥1 💧2 🐾 🐾**",
        "On the tray: nothing yet",
    ]


def test_five_wilds_and_four_wilds_alone_read_as_the_ruling_says_mc8():
    five = fields(position(phase="decide", tray="w w w w w", rolled="w"))
    assert "Reads as: 🌟 five wilds — the catpot" in field(five, "🎲 Ann's dice")
    four = fields(position(phase="decide", tray="w w w w", rolled="w w", mad="1/2 1/2 2/3 2/3"))
    assert "Reads as: Four of a kind (mad 🏆 3) · Four of a kind (sad 🏆 3)" in four["🎲 Ann's dice"]


@pytest.mark.parametrize(("players", "ending"), [(4, "this is the last turn"), (3, "before Bo's turn")])
def test_an_empty_supply_announces_the_last_turn_or_round_mc10(players, ending):
    picks = " ".join(["."] * players)
    state = position(players, turn=0, first=1, phase="roll", picks=picks, supply=0, scores="0 " * players)
    assert ending in fields(state)["🃏 Cat cards (VPs)"]


def test_the_finished_table_leaves_the_scores_to_the_final_summary():
    state = position(phase="over", supply=0)
    assert list(fields(state)) == ["🃏 Cat cards (VPs)"]


# --- private panels ------------------------------------------------------------------------------


def test_a_moocher_sees_what_each_card_would_share_and_the_time_limit_mc4_mc6_mc9():
    state = position(
        turn=0, phase="mooch", tray="m1 m1 w w", rolled="m1 m1 w w s2", mad="3/4 5/2 6/3 2/3", pot=4
    )
    panel = fields(state, seat=2)
    assert "Your mooch pick" not in panel
    menu = field(panel, "🤫 Mooch cards")
    assert "split" in menu and "💥 Fail takes the catpot if the turn fails" in menu, "how the cards pay"
    assert "Reads as: **Two pairs** 🏆4 🤫3 · **4 of a kind** 🏆3 🤫6" in field(panel, "🎲 Ann's dice"), (
        "the tray says which cards it already reads as"
    )
    prompt = TEXTS.prompt(RULES.view(state, 2), NAMES)
    assert "⏰" in prompt and "timed" in prompt and "countdown" in prompt
    rows = controls(state, 2)
    assert [row.kind for row in rows] == ["buttons", "buttons"]
    assert [c.label for c in rows[0].choices] == [
        "🤫 Two pairs · 3 VPs",
        "🤫 Full house · 5 VPs",
        "🤫 Four of a kind · 6 VPs",
        "🤫 Five of a kind · 2 VPs",
        "💥 Fail · 4 VPs",
    ]
    assert [c.value for c in rows[1].choices] == ["mooch:none"]


def test_your_mooch_pick_stays_in_your_own_panel_until_revealed_mc4_mc6_mcx2():
    state = position(turn=0, phase="decide", tray="s1 s1", rolled="s1 s1 m2 m3 w", picks=". 2p 5k -")
    assert fields(state, seat=1)["Your mooch pick"] == "🤫 Two pairs — face down in front of you"
    assert fields(state, seat=3)["Your mooch pick"] == "🙈 No card — face down in front of you"
    for seat, pick in ((1, "2p"), (2, "5k"), (3, "none")):
        for other in (None, *(s for s in range(4) if s != seat)):
            text = "\n".join(f"{name}\n{value}" for name, value in fields(state, other).items())
            assert hidden_pick_line(pick) not in text
            assert player_line("💰", NAMES[seat], 0, "showed") not in text
    assert "Your mooch pick" not in fields(state, seat=0)


def test_a_revealed_pick_shows_on_the_table_and_as_revealed_in_your_panel_mc6():
    state = position(turn=0, phase="decide", tray="s1 s1 s2 s2", rolled="s2 s2 m1", picks=". 2p! . .")
    revealed = revealed_pick_line("2p")
    assert fields(state, seat=1)["Your mooch pick"] == revealed == "🤫 Two pairs — you revealed it ✅"
    assert "💰 **Bo** · 0 VPs · showed 🤫 Two pairs" in fields(state)["🐱 Players"]


def test_the_roller_is_told_what_to_do_in_their_own_words():
    """MC-X7 among others: before the first roll the table is told who rolls."""
    prompts = {
        "roll": position(phase="roll"),
        "aside": position(phase="aside", rolled="m1 m2 s1 s2 w"),
        "decide": position(phase="decide", tray="m1 m1", rolled="m1 m1 s2 w w"),
    }
    said = {phase: TEXTS.prompt(RULES.view(state, 0), NAMES) for phase, state in prompts.items()}
    assert said["roll"] == "Your turn: roll the dice 🎲"
    assert "only mad or only sad cats, plus any wilds" in said["aside"]
    assert said["decide"] == "Roll again, or stop and take an inner card's VPs."
    assert TEXTS.prompt(RULES.view(prompts["roll"], None), NAMES) == "Ann rolls the dice"


# --- the roller's controls ------------------------------------------------------------------------


def test_roll_again_and_stop_buttons_show_the_vps_each_would_take_mc7():
    state = position(phase="decide", tray="m1 m1 m2 m2", rolled="m1 m2 s1", mad="1/4 1/0 2/6 2/3")
    roll, stops = controls(state, 0)
    assert roll.kind == "buttons" and roll.style == "primary"
    assert [(c.value, c.label) for c in roll.choices] == [("roll", "🎲 Roll again (1 die)")]
    assert stops.style == "success"
    assert [(c.value, c.label) for c in stops.choices] == [("stop:mad:2p", "🛑 Stop: Two pairs → take 4 VPs")]


def test_with_five_dice_set_aside_only_stops_remain_mc7():
    state = position(phase="decide", tray="s1 s1 s1 s2 w", rolled="w")
    (stops,) = controls(state, 0)
    assert [c.label for c in stops.choices] == [
        "🛑 Stop: Full house → take 2 VPs",
        "🛑 Stop: Four of a kind → take 3 VPs",
    ]


def test_stopping_on_four_wilds_names_the_kind_mc8_mcx5():
    """MC-8/MC-X5: each stop button on four wilds alone names the kind of Four of a kind it takes."""
    state = position(phase="decide", tray="w w w w", rolled="w w w w", sad="1/2 1/2 2/5 2/3")
    _, stops = controls(state, 0)
    assert [(c.value, c.label) for c in stops.choices] == [
        ("stop:mad:4k", "🛑 Stop: 🔥 mad Four of a kind → take 3 VPs"),
        ("stop:sad:4k", "🛑 Stop: 💧 sad Four of a kind → take 5 VPs"),
    ]


def test_button_labels_are_short_and_say_what_each_action_does_mc7_mc8():
    """Labels of the plain buttons a seat gets when no arrangement of its own is shown."""
    state = position(tray="s1 s1 s2 s2")
    assert label(state, 0, Roll()) == "🎲 Roll again (1 die)"
    assert label(state, 0, Stop(kind="sad", combo="2p")) == "🛑 Stop: Two pairs (2 VPs)"
    four_wilds = position(tray="w w w w", kind=None, sad="1/2 1/2 2/5 2/3")
    assert label(four_wilds, 0, Stop(kind="sad", combo="4k")) == "🛑 Stop: 💧 sad Four of a kind (5 VPs)"
    rolled = position(phase="aside", rolled="m1 m2 m3 w w", kind=None)
    labels = [label(rolled, 0, action) for action in RULES.legal_actions(rolled, 0)]
    assert "📥 Set aside 🔥1 🔥2 🔥3 🐾 🐾" in labels and all(len(text) <= 80 for text in labels)
    mooching = position(phase="mooch", tray="m1")
    assert [label(mooching, 1, action) for action in RULES.legal_actions(mooching, 1)][-2:] == [
        "💥 Fail",
        "🙈 No card",
    ]


def test_the_set_aside_select_lists_the_dice_that_may_go_onto_the_tray_mc3():
    free = controls(position(phase="aside", rolled="m1 m1 s2 w"), 0)
    (select,) = free
    assert select.kind == "multi" and select.key == "aside" and select.min_values == 1
    assert [c.label for c in select.choices] == [
        "Die 1: 🔥1 mad cat",
        "Die 2: 🔥1 mad cat",
        "Die 3: 💧2 sad cat",
        "Die 4: 🐾 wild",
    ]
    assert select.max_values == 4
    (locked,) = controls(position(phase="aside", tray="s1", rolled="m1 m1 s2 w"), 0)
    assert [c.label for c in locked.choices] == ["Die 3: 💧2 sad cat", "Die 4: 🐾 wild"]


def all_subsets(values):
    return [list(chosen) for size in range(1, len(values) + 1) for chosen in combinations(values, size)]


@pytest.mark.parametrize("tray", ["", "m2", "s1 s1", "w"])
def test_compose_accepts_exactly_the_legal_subsets_of_every_roll_mc2_mc3_mcx6(tray):
    left = 5 - len(tray.split())
    for roll in {sort_faces(faces) for faces in product(FACES, repeat=left)}:
        state = position(phase="aside", tray=tray, rolled=" ".join(roll))
        legal = {a.encode() for a in RULES.legal_actions(state, 0)}
        if not legal:
            continue  # such a roll fails the turn at once (MC-2): no decision to show
        (select,) = controls(state, 0)
        reached = set()
        for chosen in all_subsets([c.value for c in select.choices]):
            try:
                encoded = compose(state, chosen)
            except EngineError as refusal:
                assert not isinstance(refusal, OutOfDate)
                assert "never both" in str(refusal), (roll, chosen)
                continue
            assert encoded in legal, (roll, chosen, encoded)
            reached.add(encoded)
        assert reached == legal, roll


def test_compose_says_why_a_subset_is_refused_mc2_mc3():
    free = position(phase="aside", rolled="m1 m3 s2 w w")
    assert RULES.decode_action(compose(free, ["0m1", "3w", "4w"])) == SetAside(faces=("m1", "w", "w"))
    with pytest.raises(IllegalAction, match=r"only mad cats or only sad cats \(plus any wilds\), never both"):
        compose(free, ["0m1", "2s2"])
    with pytest.raises(IllegalAction, match="at least one"):
        compose(free, [])
    locked = position(phase="aside", tray="m2", rolled="m1 s1 s2 w")
    with pytest.raises(IllegalAction, match="locked in on mad cats this turn: you can't set aside 💧1 💧2"):
        compose(locked, ["1s1", "2s2", "3w"])


def test_compose_refuses_die_values_no_select_offers():
    free = position(phase="aside", rolled="m1 m3 s2 w w")
    for value in ("٣w", "３w", "0m1\n", " 0m1", "10m1", "-0m1", "0M1", ""):
        with pytest.raises(InvalidInput):
            compose(free, [value])


def test_the_select_refuses_a_set_aside_with_the_words_the_engine_refuses_it_with_mc2_mc3():
    free = position(phase="aside", rolled="m1 m3 s2 w w")
    locked = position(phase="aside", tray="m2", rolled="m1 s1 s2 w")
    for state, values, faces in (
        (free, ["0m1", "2s2"], ("m1", "s2")),
        (locked, ["1s1", "3w"], ("s1", "w")),
    ):
        with pytest.raises(IllegalAction) as composed:
            compose(state, values)
        with pytest.raises(IllegalAction) as played:
            RULES.apply(state, 0, SetAside(faces=faces))
        assert str(composed.value) == str(played.value)


def test_compose_on_a_table_that_moved_on_refreshes_it():
    state = position(phase="aside", rolled="m1 m3 s2 w w")
    with pytest.raises(OutOfDate):
        compose(state, ["0s1"])  # that die shows 🔥1 now: the choice was made on an older roll
    with pytest.raises(OutOfDate):
        compose(position(phase="decide", tray="m1", rolled="m1 m3 s2 w w"), ["0m1"])
    with pytest.raises(InvalidInput):
        TEXTS.compose(RULES.view(state, 0), "other", ["0m1"])
    with pytest.raises(InvalidInput):
        compose(state, ["0m1", "0m1"])
