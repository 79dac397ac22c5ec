"""The public table on a phone: the whole message (text, picture and controls) laid out as a phone 390
px wide shows it, with the "Now:" line and the acting player's first control on the first screen over
whole random games of every game at every player count; within `TABLE_BUDGET` lines at 40 columns;
without a picture one line per player from four players; final scores once, and the rest behind a
Details button whose message keeps Discord's limits. Every private panel keeps to its own budget, its
first decision control on the first screen."""

from __future__ import annotations

import copy
import functools

import discord
import pytest

import pictures
from bot.live import LiveGame
from cogs import custom_ids as ids
from cogs.messages import Message, details_message, table_message, table_screen
from cogs.panel import panel_screen, private_panel
from cogs.phone import PANEL_BUDGET, SCREEN, TABLE_BUDGET, columns, phone_lines, screen_of, wrapped_lines
from emulator.limits import check_message
from engine import GAMES, Rng
from tests.golden.playthrough import Case, Move, commit, new_table

SEEDS = range(1, 9)
EVERY_COUNT_SEEDS = range(1, 4)
NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")


def payload(message: Message, ephemeral: bool) -> dict:
    return {
        "content": message.content,
        "embeds": [message.embed.to_dict()] if message.embed else [],
        "components": message.view.to_components() if message.view else [],
        "flags": 64 if ephemeral else 0,
    }


def whole_game(key: str, players: int, seed: int):
    """Each position of one game played by random legal moves, start to end, as a live table."""
    game = new_table(Case(key, players, seed))
    rng = Rng.seeded(seed)
    while True:
        yield game
        if game.rules.outcome(game.state) is not None:
            return
        seat, rng = rng.choice(game.to_act())
        action, rng = rng.choice(game.rules.legal_actions(game.state, seat))
        commit(game, Move(seat, action.encode()))


@functools.cache
def positions(key: str, players: int, seed: int) -> tuple[LiveGame, ...]:
    """Each position of `whole_game(key, players, seed)`, kept: the tests here read the same games
    (never change them), and play each once."""
    return tuple(copy.copy(game) for game in whole_game(key, players, seed))


def test_a_line_wraps_at_forty_columns_with_emoji_two_wide():
    assert wrapped_lines("x" * 40) == 1
    assert wrapped_lines("x" * 41) == 2
    assert wrapped_lines("") == 1
    assert columns("🔥1 🐈‍⬛ ❤️") == 2 + 1 + 1 + 2 + 1 + 2
    assert wrapped_lines("**word** " * 8) == 1, "markdown marks take no room: 8 words fill 39 columns"
    assert wrapped_lines("**word** " * 9) == 2
    assert wrapped_lines("<@123456789012345678> acts · ⏰ <t:1700000000:R>") == 1


def test_an_embed_counts_title_description_each_field_name_and_value_and_footer():
    embed = discord.Embed(title="Title", description="one\ntwo")
    embed.add_field(name="Field", value="a\nb\nc", inline=True)
    embed.add_field(name="Other", value="d")
    embed.set_footer(text="footer")
    assert phone_lines("content", embed) == 1 + 1 + 2 + (1 + 3) + (1 + 1) + 1


def test_the_model_lays_a_message_out_as_a_phone_390_px_wide_shows_it():
    embed = discord.Embed(title="Title", description="**Now:** Ann plays\nsecond line")
    embed.add_field(name="Field", value="one line")
    embed.set_image(url="attachment://table.png")
    embed.set_footer(text="footer")
    buttons = [
        {"type": 2, "label": "Go", "custom_id": "go"},
        {"type": 2, "label": "Stop", "custom_id": "stop"},
    ]
    screen = screen_of(None, embed.to_dict(), [{"type": 1, "components": buttons}], picture=pictures.SIZE)
    title, line, picture = 42 + 8 + 22, 19.25, 12 + 286 * pictures.SIZE[1] / pictures.SIZE[0]
    assert screen.now == title + line
    bottom = title + 2 * line + (8 + 2 * line) + picture + 24.5 + 12
    assert screen.buttons == {"go": bottom + 8 + 35.25, "stop": bottom + 8 + 35.25}, (
        "two short buttons, one line"
    )
    wide = [{"type": 2, "label": "x" * 30, "custom_id": f"b{i}"} for i in range(3)]
    rows = screen_of(None, None, [{"type": 1, "components": wide}]).buttons
    assert rows["b1"] == rows["b0"] + 8 + 35.25 and rows["b2"] == rows["b1"] + 8 + 35.25, "wide buttons wrap"
    assert screen_of(None, embed.to_dict(), [], picture=None).height == bottom - picture, (
        "no picture, no room"
    )


@pytest.mark.parametrize(
    ("key", "players"),
    [
        (key, n)
        for key in sorted(GAMES)
        for n in range(GAMES[key].rules.min_players, GAMES[key].rules.max_players + 1)
    ],
)
def test_the_now_line_and_the_acting_players_first_control_are_on_a_phones_first_screen(key, players):
    for seed in EVERY_COUNT_SEEDS:
        for game in positions(key, players, seed):
            message = table_message(game, due=1_700_000_000, picture=True)
            screen, first = table_screen(game, message, picture=True)
            moment = f"{key}, {players} players, seed {seed}, move {game.record.version - 1}"
            assert screen.now <= SCREEN, moment
            if first is not None:
                assert first <= SCREEN, f"{moment}: the first control is {first:.0f} px down"
            assert phone_lines(message.content, message.embed) <= TABLE_BUDGET, moment
            assert not check_message(payload(message, ephemeral=False)), moment
        assert game.rules.outcome(game.state) is not None


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_table_without_a_picture_at_the_most_players_keeps_to_the_line_budget(key):
    players = GAMES[key].rules.max_players
    for seed in SEEDS:
        for game in positions(key, players, seed):
            message = table_message(game, due=1_700_000_000, picture=False)
            lines = phone_lines(message.content, message.embed)
            moment = f"{key}, {players} players, seed {seed}, move {game.record.version - 1}"
            assert lines <= TABLE_BUDGET, f"{moment}: the table is {lines} lines on a phone"
            assert not check_message(payload(message, ephemeral=False)), moment
        assert game.rules.outcome(game.state) is not None


@pytest.mark.parametrize("key", sorted(GAMES))
def test_with_a_picture_the_table_says_what_happens_now_and_details_hold_every_field(key):
    game = positions(key, GAMES[key].rules.min_players, seed=2)[5]
    table = table_message(game, picture=True).embed
    assert table.description.startswith("**Now:** ")
    assert [f.name for f in table.fields] in ([], ["What happened"]), "the picture shows the table"
    fields = game.game.texts.table_fields(game.view(None), game.names)
    details = details_message(game).embed
    assert [f.name for f in details.fields][: len(fields)] == [name for name, _ in fields]


def deciding_panels(key: str, players: int, seed: int):
    """The panel of each seat that must decide, at every step of one random game."""
    for game in positions(key, players, seed):
        seats = game.to_act() if game.rules.outcome(game.state) is None else []
        yield from (
            (f"{key} seed {seed} move {game.record.version - 1}", private_panel(game, s)) for s in seats
        )


EVERY_COUNT = [
    (key, n)
    for key in sorted(GAMES)
    for n in range(GAMES[key].rules.min_players, GAMES[key].rules.max_players + 1)
]


@pytest.mark.parametrize(("key", "players"), EVERY_COUNT)
def test_every_private_panel_keeps_its_decision_on_a_phones_first_screen(key, players):
    """The panel of every seat that must decide, at every step of random games at every player count:
    within `PANEL_BUDGET` lines and its first control within the first `SCREEN` pixels, with what it
    leaves out behind its own button after the moves."""
    for seed in EVERY_COUNT_SEEDS:
        for moment, panel in deciding_panels(key, players, seed):
            _, first = panel_screen(panel)
            lines = phone_lines(None, panel.embed)
            assert lines <= PANEL_BUDGET, f"{moment}: the panel is {lines} lines on a phone"
            assert first <= SCREEN, f"{moment}: its first control is {first:.0f} px down"
            assert not check_message(payload(panel, ephemeral=True)), moment
            if GAMES[key].texts.more_label is not None:
                ids_shown = [getattr(item, "custom_id", "") for item in panel.view.children]
                assert ids.more_id(1) in ids_shown[1:], (
                    f"{moment}: the rest of the view is a click away, after the moves"
                )


@pytest.mark.parametrize("key", sorted(GAMES))
def test_from_four_players_the_final_table_lists_each_score_once_and_details_hold_the_breakdown(key):
    players = GAMES[key].rules.max_players
    game = positions(key, players, seed=1)[-1]
    outcome = game.rules.outcome(game.state)
    table = table_message(game, picture=False)
    text = "\n".join([table.embed.description, *(f"{f.name}\n{f.value}" for f in table.embed.fields)])
    for seat, name in enumerate(game.names):
        assert text.count(f"**{name}** — {outcome.scores[seat]}") == 1, f"{name}'s score once"
    details = details_message(game)
    assert not check_message(payload(details, ephemeral=True))
    if any(outcome.breakdown):
        item = next(line for lines in outcome.breakdown for line in lines)
        assert f"{item.label} {item.points}" in details.embed.description
        assert f"{item.label} {item.points}" not in table.embed.description


@pytest.mark.parametrize("key", sorted(GAMES))
def test_from_four_players_each_player_has_one_line_on_the_table(key):
    players = GAMES[key].rules.max_players
    game = next(whole_game(key, players, seed=3))
    for _ in range(3):
        if game.rules.outcome(game.state) is None:
            seat = game.to_act()[0]
            commit(game, Move(seat, game.rules.legal_actions(game.state, seat)[0].encode()))
    embed = table_message(game, picture=False).embed
    player_lines = [
        line
        for embed_field in embed.fields
        if embed_field.name != "What happened"
        for line in embed_field.value.split("\n")
        if any(f"**{name}**" in line for name in NAMES[:players])
    ]
    assert len(player_lines) == players, player_lines
    per_player = [f.name for f in embed.fields if any(f.name.startswith(name) for name in NAMES)]
    assert not per_player, "no field of its own for each player"


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_table_shows_a_details_button_next_to_the_private_view_under_the_public_moves(key):
    for game in positions(key, GAMES[key].rules.max_players, seed=2):
        rows = table_message(game).view.to_components()
        ids_by_row = [[item["custom_id"] for item in row["components"]] for row in rows]
        own = next(
            index for index, row in enumerate(ids_by_row) if ids.view_id(1) in row or ids.rematch_id(1) in row
        )
        if game.rules.outcome(game.state) is None:
            assert ids_by_row[own][:2] == [ids.view_id(1), ids.details_id(1)]
        moves = [index for index, row in enumerate(ids_by_row) if ids.parse(row[0]).kind is ids.Kind.ACTION]
        assert all(index < own for index in moves), "the moves come first"
        assert len(ids_by_row[own]) <= 5, "one row holds five buttons"
    details = details_message(game)
    assert not check_message(payload(details, ephemeral=True))
    assert details.view is None


def test_the_details_and_more_ids_read_back_and_the_older_kinds_keep_their_letters():
    assert ids.details_id(42) == "cn:d:42"
    assert ids.parse("cn:d:42") == ids.ComponentId(ids.Kind.DETAILS, 42)
    assert ids.more_id(42) == "cn:mo:42"
    assert ids.parse("cn:mo:42") == ids.ComponentId(ids.Kind.MORE, 42)
    assert ids.Kind.MORE.on_private_view and not ids.Kind.DETAILS.on_private_view
    assert [kind.value for kind in ids.Kind][:7] == ["a", "s", "m", "pg", "v", "l", "r"]


def test_the_table_reads_the_kind_of_its_own_ids_as_parse_does():
    """`acting_controls` reads the kind from an id's letters alone: the same kind `parse` reads."""
    made = [
        ids.action_id(42, 3, "roll"),
        ids.select_id(42, 3, 0),
        ids.multi_id(42, 3, "aside"),
        ids.page_id(42, 3, 1),
        ids.view_id(42),
        ids.lobby_id(42, ids.LobbyOp.JOIN),
        ids.rematch_id(42),
        ids.guide_id("madcat", 1),
        ids.refresh_id(42),
        ids.back_id(42),
        ids.replace_id(42),
        ids.details_id(42),
        ids.more_id(42),
        ids.replay_id(42, 5, "next"),
        ids.confirm_id(42, 3, "giveup"),
        ids.undo_id(42, 3),
    ]
    assert {ids.parse(custom_id).kind for custom_id in made} == set(ids.Kind), "an id of every kind"
    for custom_id in made:
        assert ids.kind_of(custom_id) is ids.parse(custom_id).kind, custom_id
