"""Replays of whole games of every kind: rebuilt from seed and log to the stored final state, each step
within Discord's limits, and no seat's secret shown to anyone else at any step.

The games replayed are games test_render_games.py plays and checks position by position (the first of
its seeds), so here they are only played, then replayed."""

from __future__ import annotations

import pytest

from bench.replays import stored
from bench.table_height import measure_replays
from cogs.phone import FIELD_GAP_PIXELS, LINE_PIXELS, SCREEN
from cogs.play._replay import rebuild, replay_message
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


@pytest.mark.parametrize(
    ("key", "players"), [(key, count) for key, game in GAMES.items() for count in (2, game.rules.max_players)]
)
def test_on_a_phone_the_replay_controls_stay_in_one_place_on_the_first_screen(key, players):
    heights, moved = measure_replays(key, players, range(1, 2), picture=True)
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
    table_names = {name for name, _ in game.game.texts.compact_fields(game.view(None), game.names)}
    assert not table_names <= {field.name for field in embed.fields}, "the picture is the table's one view"
    text = replay_message(replay, step, 0, picture=False).embed
    assert {name for name, _ in game.game.texts.compact_fields(game.view(None), game.names)} <= {
        field.name for field in text.fields
    }, "without a picture, its text is"
