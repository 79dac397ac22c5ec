"""Replays of whole games of every kind: rebuilt from seed and log to the stored final state, each step
within Discord's limits, and no seat's secret shown to anyone else at any step.

The games replayed are games test_render_games.py plays and checks position by position (the first of
its seeds), so here they are only played, then replayed."""

from __future__ import annotations

import pytest

from bench.replays import stored
from bench.table_height import measure_replays
from cogs.phone import FIELD_GAP_PIXELS, LINE_PIXELS, SCREEN, wrapped_lines
from cogs.play._replay import rebuild, replay_message
from cogs.play._replay_fit import DEGREES, cut_table, one_line
from engine import GAMES
from tests.cogs.test_render_games import (
    PLAYER_COUNTS,
    SECRETS,
    SEEDS,
    assert_fits,
    custom_ids,
    drive,
    service,  # noqa: F401 (the fixture)
)


def shown(message) -> str:
    """What a step shows but its narration (under its description's first line), which may name cards
    of earlier rounds (public history), as the table's may."""
    embed = message.embed
    parts = [embed.title or "", (embed.description or "").split("\n")[0]]
    parts += [f"{field.name}\n{field.value}" for field in embed.fields]
    return "\n" + "\n".join([*parts, *custom_ids(message)]) + "\n"


@pytest.mark.parametrize(
    ("key", "players"),
    [(key, max(counts)) for key, counts in PLAYER_COUNTS.items() if key in GAMES]
    + [(key, min(counts)) for key, counts in PLAYER_COUNTS.items() if key in GAMES],
)
async def test_a_replay_ends_at_the_stored_final_state_and_shows_no_one_elses_secrets(service, key, players):  # noqa: F811
    moves_made = await drive(service, key, players, seed=SEEDS[0], check=False)
    store = service.games.store
    record = await store.games.get_game(1)
    moves = tuple(await store.games.moves(1))
    replay = rebuild(record, moves)
    assert replay.last == moves_made
    assert replay.states[-1] == await store.games.load_state(record, GAMES[key].rules)
    secrets = SECRETS[key]
    rules = GAMES[key].rules
    for step, state in enumerate(replay.states):
        viewers = {seat: replay_message(replay, step, seat) for seat in (None, *range(players))}
        hidden = {seat: secrets(state, seat, rules.view(state, seat)) for seat in range(players)}
        for seat, message in viewers.items():
            assert_fits(message, ephemeral=True)
            text = shown(message)
            own = hidden[seat] if seat is not None else set()
            for other in range(players):
                if other != seat:
                    leaked = {secret for secret in hidden[other] - own if secret in text}
                    assert not leaked, f"step {step}: seat {other}'s {leaked} shows to {seat}"


@pytest.mark.parametrize("picture", [True, False], ids=["picture", "text"])
@pytest.mark.parametrize(
    ("key", "players"),
    [
        (key, count)
        for key, game in GAMES.items()
        for count in (game.rules.min_players, game.rules.max_players)
    ],
)
def test_on_a_phone_the_replay_controls_stay_in_one_place_on_the_first_screen(key, players, picture):
    heights, moved = measure_replays(key, players, range(1, 2), picture=picture)
    assert max(heights.first) <= SCREEN, "the first control within a phone's first screen at every step"
    assert moved <= LINE_PIXELS + FIELD_GAP_PIXELS, "the controls move by a line at most from step to step"


def test_a_replay_step_says_the_move_first_to_its_viewer_and_shows_the_table_once():
    replay = rebuild(*stored("madcat", 2, 3))
    step = next(n for n, move in enumerate(replay.moves, 1) if move.seat == 0)
    embed = replay_message(replay, step, 0, picture=True).embed
    first = embed.description.split("\n")
    assert first[0] == f"**This move** · Move {step} of {replay.last} · You"
    assert first[1].startswith("You ") or first[1].split(" ", 1)[1].startswith("You ")
    game = replay.game_at(step)
    table = game.game.texts.compact_fields(game.view(None), game.names)
    assert not {name for name, _ in table} <= {field.name for field in embed.fields}, (
        "the picture is the table's one view"
    )
    text = replay_message(replay, step, 0, picture=False).embed
    names = [field.name for field in text.fields]
    assert all(name in names or one_line(name, bold=True) in names for name, _ in table), (
        "without a picture, its text is"
    )


def test_without_a_picture_a_player_s_own_field_that_repeats_the_table_is_shown_once():
    replay = rebuild(*stored("catsdogs", 2, 3))
    game = replay.game_at(0)
    texts = game.game.texts
    mine = dict(texts.private_fields(game.view(0), game.view(None), game.names))
    table = dict(texts.compact_fields(game.view(None), game.names))
    assert mine["Round 1 · trick 1/5"] == table["Round 1 · trick 1/5"], (
        "the player's own view repeats the trick"
    )
    for picture, times in ((False, 1), (True, 1)):
        fields = replay_message(replay, 0, 0, picture=picture).embed.fields
        assert [field.name for field in fields].count("Round 1 · trick 1/5") == times


def test_a_table_too_tall_for_the_screen_keeps_every_player_on_one_line_each():
    """Mad Cat Sad Cat at 5 players with long names: the table's text alone is taller than the first
    screen, so each of its lines is cut to one phone line, at a whole part, and its chart left out."""
    replay = rebuild(*stored("madcat", 5, 1))
    game = replay.game_at(75)
    table = dict(game.game.texts.compact_fields(game.view(None), game.names))
    shown = {
        field.name: field.value for field in replay_message(replay, 75, None, picture=False).embed.fields
    }
    players = shown["🐱 Players"].split("\n")
    assert len(players) == 5 and all(wrapped_lines(line) == 1 for line in players)
    assert "⏳ **Zoë Ångström** · 4 VPs …" in players, "a player's line loses its last parts, not its name"
    assert "```" in table["🃏 Cat cards (VPs)"] and "```" not in shown["🃏 Cat cards (VPs)"]
    assert "🍯 Catpot **2** · 💰 Supply **0** VPs" in shown["🃏 Cat cards (VPs)"], (
        "the catpot and supply stay"
    )


def test_a_line_cut_to_one_phone_line_keeps_its_markdown_closed():
    assert one_line("**Zoë Ångström** · 1 VP") == "**Zoë Ångström** · 1 VP", "a line that fits is left whole"
    cut = one_line("On the tray: **🔥2 🔥2 🔥3 🐾 💧1 💧1 🔥1 🔥3 🔥2 💧2 🐾**")
    assert cut.endswith("** …") and cut.count("**") == 2 and wrapped_lines(cut) == 1
    long = one_line("Bartholomew-Alexander-Vanderbilt-Montgomery-Smythe")
    assert long.startswith("Bartholomew-Alexander-") and long.endswith(" …") and wrapped_lines(long) == 1


def test_cut_the_most_the_table_keeps_each_field_s_first_line():
    fields = [("🐱 Players", "**Ann** · 3 VPs\n**Bo** · 1 VP\n**Cy** · 0 VPs"), ("Deck", "12 cards")]
    assert cut_table(fields, DEGREES) == [("🐱 Players", "**Ann** · 3 VPs …"), ("Deck", "12 cards")]
    assert cut_table(fields, 0) == fields
