"""A seat's own panel, and what its more button shows, say "you"/"your" for what is theirs — their
moves under "Recently", their dice, their home, their auction — where the public table, built from the
same events, keeps everyone's name; and nothing of a panel's wording reaches the table. (Whole games of
every kind at every player count are checked so, position by position, in test_render_games.py, which
renders every seat's panel there for all it checks.)"""

from __future__ import annotations

import pytest

from cogs.messages import table_message
from cogs.panel import private_panel
from engine.decisions import ME, your_words
from tests.golden.playthrough import Case, Move, commit, new_table


def test_your_own_roll_is_yours_in_your_panel_and_the_roller_s_on_the_table():
    game = new_table(Case("madcat", 3, 1))
    roller = game.to_act()[0]
    commit(game, Move(roller, "roll"))
    name = game.names[roller]
    mine = private_panel(game, roller, fresh=1).embed.fields[0]
    assert mine.name == "Recently" and mine.value.startswith("✅ 🎲 You roll ")
    theirs = next(f.value for f in private_panel(game, (roller + 1) % 3).embed.fields if f.name == "Recently")
    table = next(
        f.value for f in table_message(game, picture=False).embed.fields if f.name == "What happened"
    )
    assert f"🎲 {name} rolls " in theirs and f"🎲 {name} rolls " in table
    assert any(f.name.startswith("🎲 Your dice") for f in private_panel(game, roller).embed.fields)
    assert any(
        f.name.startswith(f"🎲 {name}'s dice") for f in table_message(game, picture=False).embed.fields
    )


@pytest.mark.parametrize(
    ("text", "yours"),
    [
        ("{me} plays ⚪⚪.", "You play ⚪⚪."),
        ("🎲 {me}'s dice · 🔒 🔥 mad cats", "🎲 Your dice · 🔒 🔥 mad cats"),
        ("{me} is insane and passes.", "You are insane and pass."),
        ("{me} copies Bo's Inspect.", "You copy Bo's Inspect."),
        ("{me} skips their turn.", "You skip your turn."),
        ("Bo and {me} reveal their cards.", "Bo and you reveal their cards."),
        ("Everyone but {me} plays with an open hand.", "Everyone but you plays with an open hand."),
        (
            "Round 2 ends: only {me} is left without a perfect nine.",
            "Round 2 ends: only you are left without a perfect nine.",
        ),
        (
            "Bo, {me} tie for most cards; {me} picks the next Kittyqueen.",
            "Bo, you tie for most cards; you pick the next Kittyqueen.",
        ),
        ("{me} picks {me}.", "You pick yourself."),
        ("Bo −1 (homes bigger than {me}'s lose 2).", "Bo −1 (homes bigger than yours lose 2)."),
        ("Bids: Ed pass · ▶ {me} (caller) …", "Bids: Ed pass · ▶ You (caller) …"),
        ("Mine! Mine! Mine! {me} calls an auction.", "Mine! Mine! Mine! You call an auction."),
        ("Bo steals 2 cards from {me}'s hand.", "Bo steals 2 cards from your hand."),
        ("Ann → Bo → {me} → Ann", "Ann → Bo → you → Ann"),
    ],
)
def test_a_line_about_you_is_said_to_you(text, yours):
    assert your_words(text.format(me=ME)) == yours


def test_a_buttons_label_calls_you_yourself():
    assert your_words(f"👑 Crown {ME}", "yourself") == "👑 Crown yourself"
