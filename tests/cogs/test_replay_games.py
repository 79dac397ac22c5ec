"""Replays of whole games of every kind: rebuilt from seed and log to the stored final state, each step
within Discord's limits, and no seat's secret shown to anyone else at any step.

The games replayed are games test_render_games.py plays and checks position by position (the first of
its seeds), so here they are only played, then replayed."""

from __future__ import annotations

import pytest

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

THIS_MOVE = "This move"
"""A step's narration may name cards of earlier rounds (public history), as the table's may."""


def shown(message) -> str:
    embed = message.embed
    parts = [embed.title or "", embed.description or ""]
    parts += [f"{field.name}\n{field.value}" for field in embed.fields if field.name != THIS_MOVE]
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
