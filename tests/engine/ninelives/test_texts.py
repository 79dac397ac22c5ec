"""The Nine Lives renderer: hand-made positions render the expected lines, the hand's marks agree with
the engine's legal plays, and the controls reach every legal action within Discord's limits."""

from __future__ import annotations

import pytest

from engine.core import Rng
from engine.ninelives import RULES
from engine.ninelives._cards import card_id, life_id
from engine.ninelives._words import card_status, counts_short, life_short, secret_lines
from engine.ninelives.model import Options
from engine.ninelives.position import act, card_in, on_table, position
from engine.ninelives.texts import TEXTS
from engine.texts import Choice
from tests.engine.ninelives.test_powers import two_turn_visit, wager_on_both_turns

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def table(state) -> dict[str, str]:
    return dict(TEXTS.table_fields(RULES.view(state, None), NAMES))


def panel(state, seat) -> dict[str, str]:
    return dict(TEXTS.private_fields(RULES.view(state, seat), RULES.view(state, None), NAMES))


def more(state, seat) -> dict[str, str]:
    """What the panel's "Life stack & more" button shows."""
    return dict(TEXTS.more_fields(RULES.view(state, seat), RULES.view(state, None), NAMES))


def field(found: dict[str, str], start: str) -> str:
    matches = [value for name, value in found.items() if name.startswith(start)]
    assert len(matches) == 1, (start, list(found))
    return matches[0]


def name_of(found: dict[str, str], start: str) -> str:
    matches = [name for name in found if name.startswith(start)]
    assert len(matches) == 1, (start, list(found))
    return matches[0]


def controls(state, seat):
    choices = [
        Choice(a.encode(), TEXTS.label(RULES, state, seat, a)) for a in RULES.legal_actions(state, seat)
    ]
    return TEXTS.controls(RULES.view(state, seat), choices)


def offered(found) -> list[str]:
    return [choice.value for control in found for choice in control.choices]


def assert_fits_discord(found) -> None:
    assert 1 <= len(found) <= 4
    for control in found:
        limit = 5 if control.kind == "buttons" else 25
        assert 1 <= len(control.choices) <= limit
        for choice in control.choices:
            assert len(choice.label) <= (80 if control.kind == "buttons" else 100)
            assert choice.description is None or len(choice.description) <= 100


# --- the table ------------------------------------------------------------------------------------


def test_the_table_shows_each_cat_against_the_nine_limit_nl_2():
    state = position(["o", "s"], table="ooo 4o s 3s/sss 5s ttt 5x 3x")
    cats = field(table(state), "🐾 Round 1").split("\n")
    assert cats[:4] == [
        "⚪ `▰▰▰▰▰▰▰▱▱` **7**/9",
        "🟦 `▰▰▰▰▰▰▰▰▰` **9**/9 🔒 full",
        "🔺 `▰▰▰▱▱▱▱▱▱` **3**/9",
        "⭐ `▰▰▰▰▰▰▰▰▱` **8**/9",
    ]
    piles = "\n".join(cats[4:-1])
    assert piles.startswith("🃏 On the table: **⚪⚪⚪** · **⚪⚪⚪⚪** · **🟦** · **🟦🟦🟦** on 1 covered")
    assert "**⭐×5**" in piles
    assert cats[-1] == "🂠 Deck 0 · 🗑️ Discard 0"
    assert counts_short((7, 9, 3, 8), ()) == "⚪ 7/9 · 🟦 9/9 · 🔺 3/9 · ⭐ 8/9"


def test_an_ignored_cat_and_a_cat_past_nine_say_so_nl_2_nl_8():
    state = position(["o", "s"], table="5x 6x ooo", ignored="x")
    cats = field(table(state), "🐾 Round 1").split("\n")
    assert cats[3] == "⭐ `▰▰▰▰▰▰▰▰▰+2` **11**/9 🙈 ignored this round"
    assert "🙈 Everyone ignores ⭐ this round." in field(table(state), "▶ Ann's turn")


def test_every_player_shows_lives_hand_size_top_life_and_safe_status():
    state = position(
        ["o s", "t", "x"],
        lives=["skip inspect", "plus:o", "forbid:s wildcard"],
        wagered=["", "copycat", ""],
        safe=(2,),
        queen=1,
    )
    fields = table(state)
    assert field(fields, "▶ Ann — 2 lives · 🃏 2").split("\n") == [
        "❤️❤️🖤🖤🖤🖤🖤🖤🖤",
        "🔝 ⏭️ Skip Turn (draw 2) — You may skip your turn; the next player must skip.",
    ]
    bo = field(fields, "👑 Bo — 2 lives · 🃏 1").split("\n")
    assert bo[0] == "❤️💛🖤🖤🖤🖤🖤🖤🖤"
    assert bo[2] == "🎲 At stake: 🐈 Copycat (draw 2)"
    assert name_of(fields, "Cy") == "Cy — 2 lives · 🃏 1 · 🛡️ safe"
    assert (
        field(fields, "Cy").split("\n")[1] == "🔝 🚫 Forbid 🟦 (draw 3) — You can't play a card showing 🟦."
    )


def test_the_power_in_force_and_what_binds_the_next_player_are_on_the_table_nl_8():
    state = position(["o", "s", "t"], lives=["force_wager", "skip", "skip"], deck="x xx")
    state, _ = act(state, 0, "w")
    turn = field(table(state), "▶ Ann's turn").split("\n")
    assert turn == [
        "⚡ Ann's power: ⚠️ Force Wager (draw 2) — The next player must wager.",
        "➡️ The next player must wager a life.",
    ]
    state, _ = act(state, 0, f"p:{card_in(state, 0, 'o')}")
    assert "⚠️ Bo must wager a life this turn (Force Wager)." in field(table(state), "▶ Bo's turn")
    assert offered(controls(state, 1)) == ["w"]
    assert name_of(panel(state, 1), "Your hand").endswith("you must wager first")


def test_open_hands_show_only_while_an_inspect_lasts_nl_8():
    state = position(["o", "ss x", "tt"], lives=["inspect", "skip", "skip"], deck="xx xxx")
    assert not any(name.startswith("🔍") for name in table(state))
    state, _ = act(state, 0, "w")
    opened = field(table(state), "🔍 Open hands").split("\n")
    assert opened == ["👁️ **Bo**: 🟦🟦 · ⭐", "👁️ **Cy**: 🔺🔺"]
    assert name_of(panel(state, 1), "Your hand").endswith("🔍 open to everyone")
    state, _ = act(state, 0, "giveup")
    assert not any(name.startswith("🔍") for name in table(state))


def test_the_kittyqueen_tie_pick_is_public_with_a_button_per_tied_player_nl_6():
    state = position(["o s", "t x", "x"], phase="queen", tied=(0, 1), queen=2)
    assert field(table(state), "👑 Who rules next?").split("\n") == [
        "Ann, Bo tie with 2 cards in hand.",
        "👑 Cy, the Kittyqueen, picks who rules next.",
    ]
    found = controls(state, 2)
    assert [c.kind for c in found] == ["buttons"] and offered(found) == ["queen:0", "queen:1"]
    assert "privately" not in TEXTS.prompt(RULES.view(state, None), NAMES)


def test_private_decisions_send_the_table_to_the_private_panel():
    state = RULES.setup(3, 4)
    assert TEXTS.prompt(RULES.view(state, None), NAMES) == (
        "Everyone puts their nine lives in order, top card first — privately, with 🃏 **My hand**"
    )
    assert "privately" not in TEXTS.prompt(RULES.view(state, 0), NAMES)


def test_the_finished_table_ranks_players_by_lives():
    state = position(["o", "s", "t"], lives=["skip", "", "skip skip"], phase="over")
    fields = list(TEXTS.table_fields(RULES.view(state, None), NAMES))
    assert [name for name, _ in fields] == [
        "🏆 Cy — 2 lives · 🃏 1",
        "Ann — 1 life · 🃏 1",
        "💀 Bo — 0 lives · 🃏 1",
    ]
    assert fields[0][1] == "❤️❤️🖤🖤🖤🖤🖤🖤🖤"


# --- the private panel ----------------------------------------------------------------------------


def test_your_hand_marks_legal_cards_and_says_what_each_would_do_nl_3_nl_4():
    state = position(["oo sss 3x", "t"], table="7o 3s 8x")
    hand = field(panel(state, 0), "Your hand").split("\n")
    assert hand == [
        "✅ ⚪⚪ — ⚪ 7→9 · 🎯 perfect nine!",
        "✅ 🟦🟦🟦 — 🟦 3→6",
        "⛔ ⭐⭐⭐ — would take ⭐ over 9",
    ]
    playable = {play.card for play in RULES.view(state, 0).plays if play.playable}
    assert playable == {card_in(state, 0, "oo"), card_in(state, 0, "sss")}


def test_the_hand_title_counts_playable_cards():
    state = position(["oo sss 3x", "t"], table="7o 3s 8x")
    assert name_of(panel(state, 0), "Your hand") == "Your hand — 3 cards, 2 playable now"
    assert name_of(panel(state, 1), "Your hand") == "Your hand — 1 card, 1 would fit the table now"
    assert field(panel(state, 1), "Your hand") == "🟢 🔺 — 🔺 0→1"


def test_forbid_and_must_play_restrictions_are_explained_nl_10():
    state = position(["oo s", "t"], lives=["forbid:o", "skip"], deck="x xx tt")
    state, _ = act(state, 0, "w")
    hand = field(panel(state, 0), "Your hand").split("\n")
    assert hand[-1] == "⛔ ⚪⚪ — 🚫 Forbid: no ⚪ this turn"
    state = position(["oo", "t"], lives=["draw_and_play", "skip"], deck="s x")
    state, _ = act(state, 0, "w")
    hand = field(panel(state, 0), "Your hand").split("\n")
    assert hand == [
        "✅ 🟦 — 🟦 0→1",
        "✅ ⭐ — ⭐ 0→1",
        "⛔ ⚪⚪ — you must play one of the cards you just received",
    ]


def test_cards_held_back_for_the_same_reason_share_a_line_so_a_big_hand_fits_a_phone():
    state = position(["sss t ss x", "t"], table="8s")
    hand = field(panel(state, 0), "Your hand").split("\n")
    assert hand == ["✅ 🔺 — 🔺 0→1", "✅ ⭐ — ⭐ 0→1", "⛔ 🟦🟦🟦 · 🟦🟦 — would take 🟦 over 9"]
    state = position(["oo s o", "t"], lives=["forbid:o", "skip"], deck="x xx tt")
    state, _ = act(state, 0, "w")
    hand = field(panel(state, 0), "Your hand").split("\n")
    assert hand[-1] == "⛔ ⚪⚪ · ⚪ — 🚫 Forbid: no ⚪ this turn"


def test_your_panel_shows_your_lives_in_short_and_the_button_lists_the_whole_stack_top_first_nl_1():
    state = position(["o", "s"], lives=["skip inspect plus:o", "replace"])
    lives = field(panel(state, 0), "🐾 Round 1 · your lives: ❤️ 3").split("\n")
    assert lives[1:] == ["🔝 ⏭️ Skip Turn (draw 2) — You may skip your turn; the next player must skip."]
    assert not any(name.startswith("Your life stack") for name in panel(state, 0))
    stack = field(more(state, 0), "Your life stack — 3 lives, top first").split("\n")
    assert stack == [
        "1️⃣ ⏭️ Skip Turn (draw 2) — You may skip your turn; the next player must skip. · 🔝 on top",
        "2️⃣ 🔍 Inspect (draw 2)",
        "3️⃣ ➕ More Allowed ⚪ (draw 2)",
    ]
    state = position(["o s", "t"], lives=["forbid:s skip inspect", "replace"], deck="x xx tt")
    state, _ = act(state, 0, "w")
    lives = field(panel(state, 0), "🐾 Round 1 · your lives: ❤️ 2 · 💛 1").split("\n")
    assert lives[1:] == [
        "⚡ Your power this turn: 🚫 Forbid 🟦 — You can't play a card showing 🟦.",
        "🔝 ⏭️ Skip Turn (draw 2)",
        "💛 At stake: 🚫 Forbid 🟦",
    ], "the top life says what it does only while it may still be wagered"
    assert field(more(state, 0), "🎲 Lives you wagered") == "💛 🚫 Forbid 🟦 (draw 3)"


def test_an_empty_hand_and_stack_say_so_to_their_owner():
    state = position(["", ""], lives=["", ""])
    assert secret_lines(RULES.view(state, 0)) == {"Your hand is empty."}
    assert field(more(state, 0), "Your life stack") == "Your stack is empty."


def test_setup_orders_the_nine_lives_with_a_select_and_keep_nl_1():
    state = RULES.setup(3, 4)
    ordering = field(panel(state, 0), "Your life stack — ordering: 0 of 9 placed").split("\n")
    assert len(ordering) == 9 and all(line.startswith("▫️ ") for line in ordering)
    found = controls(state, 0)
    assert [c.kind for c in found] == ["select", "buttons"]
    assert found[0].placeholder == "Choose your 1st life (from the top)…"
    assert offered(found) == [f"n:{life_id(c)}" for c in state.arranging[0]] + ["keep"]
    first = state.arranging[0][4]
    state, _ = act(state, 0, f"n:{life_id(first)}")
    ordering = field(panel(state, 0), "Your life stack — ordering: 1 of 9 placed").split("\n")
    assert ordering[0].startswith("1️⃣ ") and ordering[0].endswith("🔝 on top")
    assert controls(state, 0)[0].placeholder == "Choose your 2nd life (from the top)…"


def test_wagered_lives_go_back_under_the_stack_in_a_chosen_order_nl_5():
    state = position(["o", "s"], lives=["skip", "skip skip"], wagered=["inspect replace", ""], turn=1)
    state, _ = act(state, 1, "giveup")
    assert state.phase == "return"
    fields = panel(state, 0)
    back = field(fields, "Your life stack — wagered lives going back under it").split("\n")
    assert back == [
        "▫️ 🔍 Inspect (draw 2)",
        "▫️ 🔁 Replace (draw 2)",
    ]
    described = {option.label: option.description for option in controls(state, 0)[0].choices}
    assert described["🔍 Inspect (draw 2)"] == "Everyone else plays with an open hand.", "the select says"
    assert controls(state, 0)[0].placeholder == "Choose your 2nd life (from the top)…"
    assert "⏳ Ann puts back 🔍 Inspect (draw 2), 🔁 Replace (draw 2)" in field(table(state), "↩️")
    assert not any(name.startswith("🎲") for name in fields), "no longer at stake"


def test_shuffle_lives_shows_the_other_stack_to_its_shuffler_only_in_its_own_words_nl_10():
    state = position(["o", "s"], lives=["shuffle_lives skip", "plus:o plus:s plus:t"], deck="x xx")
    state, _ = act(state, 0, "w")
    assert offered(controls(state, 0)) == ["stack:1"]
    state, _ = act(state, 0, "stack:1")
    assert "🔀 Ann is reordering Bo's life stack." in field(table(state), "▶ Ann's turn")
    mine = panel(state, 0)
    lines = field(mine, "🔀 Bo's life stack — you put it in a new order").split("\n")
    assert lines[0] == "▫️ ➕ More Allowed ⚪ (draw 2)"
    bo_secrets = secret_lines(RULES.view(state, 1)) - secret_lines(RULES.view(state, 0))
    text = "\n".join(f"{name}\n{value}" for name, value in [*mine.items(), *more(state, 0).items()])
    assert bo_secrets and not any(line in text for line in bo_secrets)
    assert controls(state, 0)[0].placeholder == "Choose the 1st life (from the top)…"


def test_a_card_carousel_pick_is_private_and_the_table_shows_who_has_chosen_nl_10():
    state = position(["o oo ooo", "s ss sss", "t tt ttt"], lives=["carousel", "skip", "skip"], deck="x xx")
    state, _ = act(state, 0, "w")
    state, _ = act(state, 0, "dir:l")
    state, _ = act(state, 1, f"pass:{card_in(state, 1, 'ss')}")
    carousel = field(table(state), "🎠 Card Carousel").split("\n")
    assert carousel == ["Ann → Bo → Cy → Ann", "⏳ Ann is choosing · ⏳ Bo is choosing · ⏳ Cy is choosing"]
    pick = panel(state, 1)
    assert field(pick, "Your pick — 1 of 2 cards to pass left to Cy") == "🎠 🟦🟦"
    assert "🎠 🟦🟦 — chosen to pass on" in field(pick, "Your hand")
    assert offered(controls(state, 1)) == [f"pass:{card_in(state, 1, t)}" for t in ("s", "sss")]


# --- controls ------------------------------------------------------------------------------------


def test_a_turn_has_wager_and_play_buttons_and_give_up_last():
    state = position(["oo sss 3x", "t"], table="7o 3s 8x", lives=["inspect skip", "skip"])
    found = controls(state, 0)
    assert [c.kind for c in found] == ["buttons", "buttons", "buttons"]
    assert [c.label for c in found[0].choices] == ["🎲 Wager 🔍 Inspect (draw 2)"]
    assert [c.label for c in found[1].choices] == ["🐱 Play ⚪⚪ 🎯", "🐱 Play 🟦🟦🟦"]
    assert [c.label for c in found[2].choices] == ["🏳️ Give up (lose 1 life)"]
    assert found[2].style == "danger"
    state, _ = act(state, 0, "w")
    assert offered(controls(state, 0))[-1] == "giveup"
    assert controls(state, 0)[-1].choices[0].label == "🏳️ Give up (lose 2 lives)", "NL-5: wagered lives too"


def test_a_huge_hand_is_split_into_selects_of_25_and_every_card_stays_reachable():
    hand = " ".join(["o", "s", "t", "x"] * 10)
    state = position([hand, "t"], lives=["skip", "skip"])
    found = controls(state, 0)
    assert_fits_discord(found)
    assert [c.kind for c in found] == ["buttons", "select", "select", "buttons"]
    assert [len(c.choices) for c in found[1:3]] == [25, 15]
    assert found[1].placeholder == "🐱 Play a card (1/2)…"
    assert set(offered(found)) == {a.encode() for a in RULES.legal_actions(state, 0)}
    assert found[1].choices[0].description == "⚪ 0→1"


def test_replace_asks_where_the_card_goes_with_what_each_place_would_do_nl_10():
    state = position(["oo", "t"], table="5o 2s 3t 4t 5x 1x", lives=["replace", "skip"], deck="x xx")
    state, _ = act(state, 0, "w")
    state, _ = act(state, 0, f"p:{card_in(state, 0, 'oo')}")
    hand = field(panel(state, 0), "Your hand")
    assert hand.split("\n") == [
        "👉 ⚪⚪ — chosen: pick below where it goes",
        "🃏 Your other cards: ⭐ · ⭐⭐",
    ]
    found = controls(state, 0)
    assert_fits_discord(found)
    assert [c.kind for c in found] == ["buttons", "select"]
    assert [c.value for c in found[0].choices] == ["t"]
    assert found[0].choices[0].label == "🐱 Play it as a new table card → ⚪ 7/9"
    cover = found[1].choices[0]
    assert cover.value == f"cover:{on_table(state, '5o')}"
    assert cover.label == "🔁 Cover ⚪×5 → ⚪ 2/9"
    assert cover.description == "⚪ 0→2"


def test_single_cat_buttons_show_where_each_icon_takes_its_cat_nl_9():
    state = position(["3o2s", "t"], table="8o 8s", lives=["single_cat", "skip"], deck="x")
    state, _ = act(state, 0, "w")
    state, _ = act(state, 0, f"p:{card_in(state, 0, '3o2s')}")
    found = controls(state, 0)
    assert [c.label for c in found[0].choices] == [
        "☝️ Count it as one ⚪ → ⚪ 9/9 🎯",
        "☝️ Count it as one 🟦 → 🟦 9/9 🎯",
    ]


def test_public_power_choices_describe_their_targets():
    state = position(["o", "ss x", "t"], lives=["copycat", "inspect", "plus:t"], deck="x xx")
    state, _ = act(state, 0, "w")
    found = controls(state, 0)
    assert offered(found) == ["copy:1", "copy:2"]
    assert found[0].choices[0].label == "🐈 Copy {p1}'s Inspect"


def stubborn_playout(players: int, seed: int, limited: bool, steps: int = 400):
    """States of a game where nobody gives up while anything else is legal: long rounds, big hands,
    every power used."""
    state = RULES.setup(players, seed, Options(limited_powers=limited))
    rng = Rng.seeded(seed)
    states = [state]
    while RULES.outcome(state) is None and len(states) < steps:
        seat, rng = rng.choice(RULES.to_act(state))
        legal = RULES.legal_actions(state, seat)
        keep = [a for a in legal if a.encode() not in ("giveup", "keep")] or legal
        action, rng = rng.choice(keep)
        state, _ = RULES.apply(state, seat, action)
        states.append(state)
    return states


@pytest.mark.parametrize(
    ("players", "seed", "limited"),
    [(2, 1, False), (3, 2, False), (4, 3, False), (5, 13, False), (6, 4, False), (4, 5, True)],
)
def test_marks_and_controls_agree_with_the_engine_over_whole_games(players, seed, limited):
    """Every state of a long game: the hand's ✅ marks are exactly the legal plays, and the controls
    offer every legal action once, within Discord's limits."""
    for state in stubborn_playout(players, seed, limited):
        for seat in RULES.to_act(state):
            legal = [a.encode() for a in RULES.legal_actions(state, seat)]
            view = RULES.view(state, seat)
            if state.phase == "play" and state.step == "play" and legal != ["w"]:
                plays = {a[2:] for a in legal if a.startswith("p:")}
                assert {play.card for play in view.plays if play.playable} == plays
                assert {card.id for card in view.hand if card_status(view, card).ok} == plays
            found = controls(state, seat)
            assert found is not None, (state.phase, state.step, legal)
            assert_fits_discord(found)
            assert sorted(offered(found)) == sorted(legal)


def test_secret_lines_never_show_up_on_the_table():
    state = position(["oo s", "t"], lives=["skip inspect", "plus:o"])
    public = "\n".join(f"{n}\n{v}" for n, v in table(state).items())
    for seat in (0, 1):
        for line in secret_lines(RULES.view(state, seat)):
            assert line not in public
    assert card_id(state.hands[0][0]) not in public


def test_no_top_life_shows_on_the_table_while_the_stacks_are_ordered_nl_x11():
    """NL-X11: while the stacks are being ordered nobody's top card shows, a finished stack's neither."""
    state = RULES.setup(3, 4)
    state, _ = act(state, 0, "keep")
    fields = table(state)
    for name in NAMES[:3]:
        lines = next(value for title, value in fields.items() if f"{name} — " in title).split("\n")
        assert lines[1] == "🔝 Top life hidden until everyone has ordered."
    public = "\n".join(f"{n}\n{v}" for n, v in fields.items())
    assert life_short(RULES.view(state, 0).my_stack[0]) not in public


def test_every_wagered_life_is_on_the_public_table_nl_x11():
    """NL-X11: every wagered life is public: the table lists each one at stake, per player."""
    state = position(
        ["o", "s", "t"], lives=["skip", "skip skip", "skip"], wagered=["inspect replace", "", "plus:o"]
    )
    fields = table(state)
    ann = field(fields, "▶ 👑 Ann").split("\n")
    assert ann[2] == "🎲 At stake: 🔍 Inspect (draw 2) · 🔁 Replace (draw 2)"
    assert "🎲" not in field(fields, "Bo")
    assert field(fields, "Cy").split("\n")[2] == "🎲 At stake: ➕ More Allowed ⚪ (draw 2)"


def test_every_private_panel_shows_the_discard_pile_with_its_icons_nl_x11():
    """NL-X11: the discard pile is public: each player's panel lists it behind its "Life stack & more"
    button, newest first, with its icons."""
    state = position(["o", "s"], deck="t", discard="oo ss tt", lives=["wildcard", "skip"])
    for seat in (0, 1):
        found = more(state, seat)
        assert "3 cards" in name_of(found, "🗑️ Discard pile")
        icons, cards = field(found, "🗑️ Discard pile").splitlines()
        assert icons == "⚪ 2 · 🟦 2 · 🔺 2 · ⭐ 0 icons"
        assert cards == "🔺🔺 · 🟦🟦 · ⚪⚪"
    assert not any(name.startswith("🗑️") for name in more(position(["o", "s"], deck="t"), 0))


def test_the_table_says_what_still_binds_a_player_whose_visit_was_skipped_whole_nl_x5():
    """NL-X5: a second Skip Turn on a visit of one turn is carried to that player's next visit."""
    state = two_turn_visit("skip force_wager", ["o s oo", "t tt", "x xx"])
    state, _ = wager_on_both_turns(state, "o", "s")
    assert "On their next turn Bo must wager a life." in field(table(state), "▶ Cy's turn")
