"""CatSanity's renderer: hand-made positions render the expected lines and controls, every legal action is
reachable, the Copy Cat's Twin select composes only Twin declarations, and a Recall pick stays private."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.live import LiveGame
from bot.storage.models import GameRecord, SeatRecord
from cogs.messages import table_message
from cogs.panel import private_panel
from engine import InvalidInput
from engine.catsanity import RULES
from engine.catsanity._cards import ALL_CARDS, SUN_KINDS
from engine.catsanity._scoring import score
from engine.catsanity.model import AuctionState, Bid, RecallState
from engine.catsanity.position import position
from engine.catsanity.texts import TEXTS, home_groups, recall_pick_line, sanity_bar
from engine.texts import Choice

NAMES = ["Ann", "Bo", "Cy", "Di"]


def live(state) -> LiveGame:
    """A started table holding `state`, as the session layer hands it to the messages."""
    seats = tuple(SeatRecord(seat=s, user_id=100 + s, name=NAMES[s]) for s in range(state.players))
    record = GameRecord(
        id=7, guild_id=1, channel_id=2, thread_id=None, game="catsanity", options={}, seed=1,
        status="active", version=3, host_id=100, table_message_id=None, table_channel_id=None,
        created_at=0.0, updated_at=0.0, seats=seats,
    )  # fmt: skip
    return LiveGame(record=record, rules=RULES, state=state)


def field(message, name: str) -> str:
    """The value of the embed field whose name starts with `name`."""
    return next(f.value for f in message.embed.fields if f.name.startswith(name))


def offered(message) -> list[str]:
    """Every encoded action a message's components can send (buttons and select options)."""
    values = []
    for item in message.view.children:
        if hasattr(item, "options"):
            values += [option.value for option in item.options]
        elif item.custom_id.startswith("cn:a:"):
            values.append(item.custom_id.split(":", 4)[4])
    return values


def controls_of(state, seat: int):
    view = RULES.view(state, seat)
    legal = RULES.legal_actions(state, seat)
    choices = [Choice(a.encode(), TEXTS.label(RULES, state, seat, a)) for a in legal]
    return TEXTS.controls(view, choices)


HOME = position("""
    turn 1
    alley house3 ninja1 moonqueen
    p0 4 house1 house2 twinA1 twinA2 twinB1 copycat=twinB chorus1 chorus2 fib1 fib2 precious moonking recall1
    p1 7 twinC1
    p2 0
""")  # fmt: skip


def test_a_home_is_grouped_by_set_with_running_scores():
    """CS-11 set scores, the Copy Cat inside the set it was declared as (CS-6), King counting Moon Cats."""
    table = table_message(live(HOME), picture=False)
    home = field(table, "Ann — 43 pts")
    assert home.split("\n") == [
        "🧠 ●●●●○○○ 4/7 · 13 cats",
        "🏠 House ×2 → **6**",
        "👯 Twins AA 8 · B🪞 8 → **16**",
        "🎶 Chorus ×2 (2/5 for 25) → **0**",
        "🌀 Fibonacci ×2 (next: 9) → **4**",
        "💍 Precious Cat → **9**",
        "👑 Moon King (2 + 2×3 Moon) → **8**",
        "🕊️ Recall → **0**",
    ]
    assert field(table, "▶ Bo — 2 pts").endswith("👯 Twins C 2 → **2**")
    assert field(table, "Cy — 0 pts") == "😵 insane (0/7 🧠) · 0 cats\n🏚️ No cats yet"


@settings(max_examples=60, deadline=None)
@given(st.sets(st.sampled_from(ALL_CARDS), max_size=25), st.sampled_from((None, *SUN_KINDS)))
def test_the_set_scores_add_up_to_the_engines_score(home, copy_as):
    cards = tuple(sorted(home))
    assert sum(points for _, points in home_groups(cards, copy_as)) == score(cards, copy_as)


def test_sanity_is_a_bar_and_zero_tokens_read_insane():
    assert sanity_bar(4, 4) == "🧠 ●●●●○○○ 4/7"
    assert sanity_bar(5, 2) == "🧠 ●●●●● 5/5"
    assert sanity_bar(0, 5) == "😵 insane (0/6 🧠)"


def test_the_alley_shows_the_deck_and_what_each_moon_cat_costs_and_does():
    alley = next(
        f for f in table_message(live(HOME), picture=False).embed.fields if f.name.startswith("🌃 The alley")
    )
    assert f"🂠 {len(HOME.deck)} cards in the deck" in alley.name
    lines = alley.value.split("\n")
    assert lines[0] == "☀️ 🏠 House Cat — 3 pts each"
    assert lines[1] == "🌙 🥷 Ninja Cat · −1 🧠 — steals a random Sun Cat from an opponent's home"
    assert lines[2] == "🌙 👸 Moon Queen · −1 🧠 — 2 pts + 2 per other Moon Cat"
    assert "CatSanity!" in lines[3]  # two Moon Cats: a third would set off CatSanity! (CS-3)


def test_adopt_has_one_button_per_alley_card_with_moon_costs_and_effects_and_the_auction_apart():
    """CS-5: Moon Cats cost a token; the adopter sees what each cat adds to their home."""
    state = position("""
        turn 0
        alley house3 ninja1 moonqueen
        p0 4 house1 moonking
        p1 7
    """)  # fmt: skip
    adopt, auction = controls_of(state, 0)
    assert [c.value for c in adopt.choices] == ["adopt:house3", "adopt:ninja1", "adopt:moonqueen"]
    assert [c.label for c in adopt.choices] == [
        "🏠 Adopt House Cat (+3)",
        "🥷 Adopt Ninja Cat (−1 🧠 · steal a Sun Cat)",
        "👸 Adopt Moon Queen (−1 🧠 · +6)",
    ]
    assert auction.choices == (Choice("auction", "🔨 Mine! Mine! Mine! — auction the 1 Sun Cat"),)
    assert auction.style == "danger"


def test_no_auction_button_without_a_sun_cat_in_the_alley():
    """CS-4: an auction needs a Sun Cat in the alley."""
    state = position("""
        turn 0
        alley ninja1 moonqueen
        p0 4
        p1 7
    """)  # fmt: skip
    assert [[c.value for c in control.choices] for control in controls_of(state, 0)] == [
        ["adopt:ninja1", "adopt:moonqueen"]
    ]


def auction(high: int, high_seat: int | None, bidder_tokens: int):
    state = position(f"""
        turn 0
        alley house3 twinA1 ninja1
        p0 5
        p1 {bidder_tokens}
        p2 5
    """)  # fmt: skip
    bids = () if high_seat is None else (Bid(seat=2, amount=high),)
    running = AuctionState(caller=2, waiting=(1, 2), high=high, high_seat=high_seat, bids=bids)
    return state.model_copy(update={"phase": "auction", "auction": running, "turn": 2})


def test_the_bidder_has_plus_one_two_three_a_custom_select_up_to_their_tokens_and_pass():
    """CS-4: each bid is higher than the last and at most the bidder's tokens; anyone may pass."""
    state = auction(high=2, high_seat=2, bidder_tokens=6)
    quick, custom, passing = controls_of(state, 1)
    assert [(c.value, c.label) for c in quick.choices] == [
        ("bid:3", "+1 → bid 3 🧠"),
        ("bid:4", "+2 → bid 4 🧠"),
        ("bid:5", "+3 → bid 5 🧠"),
    ]
    assert custom.kind == "select" and "up to your 6 🧠" in custom.placeholder
    assert [c.value for c in custom.choices] == ["bid:3", "bid:4", "bid:5", "bid:6"]
    assert custom.choices[-1].description == "+4 over the high bid · you keep 0 🧠"
    assert passing.choices == (Choice("bid:0", "🙅 Pass"),)


def test_a_bidder_with_few_tokens_gets_only_the_raises_they_can_pay():
    quick, custom, _ = controls_of(auction(high=2, high_seat=2, bidder_tokens=3), 1)
    assert [c.value for c in quick.choices] == ["bid:3"]
    assert [c.value for c in custom.choices] == ["bid:3"]


def test_the_auction_is_shown_on_the_table_with_its_bids_and_controls():
    table = table_message(live(auction(high=2, high_seat=2, bidder_tokens=6)), picture=False)
    text = field(table, "🔨 Mine! Mine! Mine! — Cy's auction").split("\n")
    assert text == [
        "For: 🏠 House Cat, 👯 Twin A Cat",
        "Highest bid: **2** 🧠 by **Cy**",
        "Bids: Cy 2 · ▶ Bo … · Cy (caller) …",
    ]
    assert sorted(offered(table)) == sorted(
        ["bid:0", "bid:3", "bid:4", "bid:5", "bid:3", "bid:4", "bid:5", "bid:6"]
    )
    opening = table_message(live(auction(high=0, high_seat=None, bidder_tokens=4)), picture=False)
    assert "No bid yet — the lowest winning bid is 1." in field(opening, "🔨")


def test_a_bidders_panel_says_what_each_sun_cat_scores_and_what_each_bidder_holds_and_no_alley():
    game = live(auction(high=2, high_seat=2, bidder_tokens=6))
    panel = private_panel(game, 1)
    assert field(panel, "🔨 Mine! Mine! Mine! — Cy's auction").split("\n") == [
        "☀️ 🏠 House Cat — 3 pts each",
        "☀️ 👯 Twin A Cat — 2 alone · 8 a pair · 12 with a Copy Cat",
        "Highest bid: **2** 🧠 by **Cy**",
        "Bids: Cy 2 · ▶ You 🧠6 … · Cy (caller) 🧠5 …",
    ]
    assert [f.name for f in panel.embed.fields][:2] == [
        "Your home — 0 pts",
        "🔨 Mine! Mine! Mine! — Cy's auction",
    ]
    assert not any(f.name.startswith(("🌃", "The other homes")) for f in panel.embed.fields)


def test_the_other_homes_are_behind_the_panels_own_button_in_full():
    state = auction(high=2, high_seat=2, bidder_tokens=6)
    more = dict(TEXTS.more_fields(RULES.view(state, 1), RULES.view(state, None), NAMES))
    assert list(more) == ["Ann — 0 pts", "Cy — 0 pts", "🌃 The alley · 🂠 45 cards in the deck"]
    assert more["Ann — 0 pts"] == "🧠 ●●●●●○○ 5/7 · 0 cats\n🏚️ No cats yet"
    buttons = [item for item in private_panel(live(state), 1).view.children if item.custom_id == "cn:mo:7"]
    assert [(b.emoji, b.label) for b in buttons] == [("🏠", "Other homes")]


COPY_STATE = position("""
    turn 0
    phase copy
    alley house3
    p0 6 twinD1 chorus1 copycat
    p1 7
""")  # fmt: skip


def test_the_copy_cat_is_declared_with_a_type_select_and_a_twin_letter_select():
    """CS-6: House, Chorus, Fibonacci, or a Twin with its letter; each option says what it adds now."""
    kinds, letters = controls_of(COPY_STATE, 0)
    assert kinds.kind == "select"
    assert [(c.value, c.label, c.description) for c in kinds.choices] == [
        ("copy:house", "🏠 House Cat", "+3 pts now"),
        ("copy:chorus", "🎶 Chorus Cat", "+0 pts now · you have 1"),
        ("copy:fib", "🌀 Fibonacci Cat", "+1 pts now"),
    ]
    assert letters.kind == "multi" and letters.max_values == 1
    assert [c.value for c in letters.choices] == [f"copy:twin{letter}" for letter in "ABCDEFGH"]
    assert letters.choices[3].description == "+6 pts now · you have 1"


def test_the_twin_letter_select_composes_only_a_twin_declaration():
    view = RULES.view(COPY_STATE, 0)
    _, letters = controls_of(COPY_STATE, 0)
    assert TEXTS.compose(view, letters.key, ["copy:twinD"]) == "copy:twinD"
    for key, values in [
        (letters.key, ["copy:house"]),
        (letters.key, ["copy:twinA", "copy:twinB"]),
        (letters.key, []),
        (letters.key, ["bid:3"]),
        ("other", ["copy:twinD"]),
    ]:
        with pytest.raises(InvalidInput, match="Twin letter"):
            TEXTS.compose(view, key, values)


def test_the_copy_cat_selects_have_distinct_custom_ids_on_the_table():
    table = table_message(live(COPY_STATE), picture=False)
    ids = [item.custom_id for item in table.view.children]
    assert len(ids) == len(set(ids))
    assert sorted(offered(table)) == sorted(a.encode() for a in RULES.legal_actions(COPY_STATE, 0))


def test_the_ninja_target_select_tells_how_many_sun_cats_each_opponent_has():
    """CS-7: a random Sun Cat is taken; an opponent without Sun Cats loses nothing."""
    state = position("""
        turn 0
        phase ninja
        alley house3
        p0 6 ninja1
        p1 7 house1 twinA1 twinA2 copycat=house
        p2 7 moonking
    """)  # fmt: skip
    (targets,) = controls_of(state, 0)
    assert targets.kind == "select"
    assert [(c.value, c.label, c.description) for c in targets.choices] == [
        ("ninja:1", "🥷 Banzai! Attack {p1}", "3 Sun Cats: 🏠×1 👯×2 — one taken at random"),
        ("ninja:2", "🥷 Banzai! Attack {p2}", "No Sun Cats — the attack would find nothing"),
    ]


def recall_state(picked: tuple[str, ...]):
    state = position("""
        turn 0
        alley house3
        p0 5 recall1
        p1 3 house1 house2 fib1 copycat=twinA twinA1
        p2 4 chorus1 chorus2 chorus3
    """)  # fmt: skip
    recall = RecallState(adopter=0, waiting=(1, 2), picked=picked)
    return state.model_copy(update={"phase": "recall", "recall": recall})


def test_a_recall_pick_shows_only_in_the_choosers_panel():
    """CS-8: each opponent chooses privately; the first cat set aside is secret until both are chosen."""
    game = live(recall_state(picked=("house2",)))
    secret = recall_pick_line("house2")
    mine = private_panel(game, 1)
    assert field(mine, "Your recall pick") == secret == "↩️ 🏠 House Cat — set aside, goes back to the deck"
    table = table_message(game, picture=False)
    others = [private_panel(game, seat) for seat in (0, 2)]
    for message in (table, *others):
        text = "\n".join(f"{f.name}\n{f.value}" for f in message.embed.fields) + message.embed.description
        assert secret not in text
        assert "Your recall" not in text
    assert not offered(table)  # the picks are made in the panel, never on the public table
    assert "privately, with 🃏 **My home**" in table.embed.description
    assert field(table, "🕊️ Born free! Ann's Recall Cat").split("\n")[1:] == [
        "▶ Bo is choosing privately",
        "⏳ Cy chooses next",
    ]


def test_the_recall_select_says_what_each_returned_cat_costs():
    (first,) = controls_of(recall_state(picked=()), 1)
    assert "1st of 2" in first.placeholder
    assert [(c.value, c.description) for c in first.choices] == [
        ("return:house", "You have 2 · returning one costs 3 pts"),
        ("return:twinA", "You have 1 · returning one costs 6 pts"),
        ("return:fib", "You have 1 · returning one costs 1 pts"),
        ("return:copycat", "You have 1 · returning one costs 6 pts"),
    ]
    (second,) = controls_of(recall_state(picked=("house2",)), 1)
    assert "2nd of 2" in second.placeholder
    assert second.choices[0] == Choice(
        "return:house", "🏠 House Cat", "You have 1 · returning one costs 3 pts"
    )


def test_final_scoring_ranks_the_homes_with_their_breakdown():
    state = position("""
        phase over
        p0 0 house1
        p1 0 fib1 fib2 fib3 copycat=fib
        p2 0 twinA1 twinA2
    """)  # fmt: skip
    state = state.model_copy(update={"end_reason": "deck"})
    table = table_message(live(state), picture=False)
    names = [f.name for f in table.embed.fields if f.name != "What happened"]
    assert names == ["🏆 Bo — 20 pts", "Cy — 8 pts", "Ann — 3 pts"]
    assert "🌀 Fibonacci ×4 incl. 🪞 → **20**" in field(table, "🏆 Bo")
    assert "(next" not in field(table, "🏆 Bo")
    assert "🏆 **Bo** wins!" in table.embed.description
    assert not any(f.name.startswith("🌃") for f in table.embed.fields)


@pytest.mark.parametrize("seat", [0, 1])
def test_every_legal_action_is_reachable_from_the_panel(seat):
    for state in (HOME, COPY_STATE, auction(2, 2, 6), recall_state(("house2",))):
        if seat not in RULES.to_act(state):
            continue
        panel = private_panel(live(state), seat)
        assert set(offered(panel)) == {a.encode() for a in RULES.legal_actions(state, seat)}
