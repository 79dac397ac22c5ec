"""The public table on a phone: within `TABLE_BUDGET` lines at 40 columns over whole games at every
game's largest table, one line per player from four players, final scores once, and the rest behind a
Details button whose message keeps Discord's limits."""

from __future__ import annotations

import discord
import pytest

from cogs import custom_ids as ids
from cogs.messages import Message, details_message, table_message
from cogs.phone import TABLE_BUDGET, columns, phone_lines, wrapped_lines
from emulator.limits import check_message
from engine import GAMES, Rng
from tests.golden.playthrough import Case, Move, commit, new_table

SEEDS = range(1, 9)
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


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_table_of_whole_games_at_the_most_players_fits_a_phone_screen(key):
    players = GAMES[key].rules.max_players
    for seed in SEEDS:
        for game in whole_game(key, players, seed):
            message = table_message(game, due=1_700_000_000)
            lines = phone_lines(message.content, message.embed)
            moment = f"{key}, {players} players, seed {seed}, move {game.record.version - 1}"
            assert lines <= TABLE_BUDGET, f"{moment}: the table is {lines} lines on a phone"
            assert not check_message(payload(message, ephemeral=False)), moment
        assert game.rules.outcome(game.state) is not None


@pytest.mark.parametrize("key", sorted(GAMES))
def test_from_four_players_the_final_table_lists_each_score_once_and_details_hold_the_breakdown(key):
    players = GAMES[key].rules.max_players
    game = list(whole_game(key, players, seed=1))[-1]
    outcome = game.rules.outcome(game.state)
    table = table_message(game)
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
    embed = table_message(game).embed
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
def test_the_table_shows_a_details_button_next_to_the_private_view(key):
    game = next(whole_game(key, GAMES[key].rules.max_players, seed=2))
    buttons = [item for item in table_message(game).view.children if item.row == 0]
    assert [b.custom_id for b in buttons][:2] == [ids.view_id(1), ids.details_id(1)]
    assert len(buttons) <= 5, "one row holds five buttons"
    details = details_message(game)
    assert not check_message(payload(details, ephemeral=True))
    assert details.view is None


def test_the_details_id_reads_back_and_the_older_kinds_keep_their_letters():
    assert ids.details_id(42) == "cn:d:42"
    assert ids.parse("cn:d:42") == ids.ComponentId(ids.Kind.DETAILS, 42)
    assert [kind.value for kind in ids.Kind][:7] == ["a", "s", "m", "pg", "v", "l", "r"]
