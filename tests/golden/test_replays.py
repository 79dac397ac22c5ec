"""Replays against the golden playthroughs: `/game replay` of each recorded game, rebuilt from its seed and
moves alone, shows at every step the public table of that step as the recorded moves, played one by one,
left it — its text as one line per player (the table's `compact_fields`), word for word or cut as
much as keeps the step's controls on a phone's first screen (`cut_table`, the same cut for every field
of the step), and the result's first line at the end."""

from __future__ import annotations

import pytest

from bot.storage.models import MoveRecord
from cogs.messages import table_message
from cogs.play._replay import rebuild, replay_message
from cogs.play._replay_fit import DEGREES, cut_table
from tests.golden.playthrough import CASES, RULE, Case, commit, flatten, new_table, read


def contains(lines: list[str], block: list[str]) -> bool:
    return any(lines[i : i + len(block)] == block for i in range(len(lines) - len(block) + 1))


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_each_step_of_a_replay_shows_the_table_the_playthrough_recorded(case: Case):
    recorded = read(case.path)
    played = new_table(case)
    record = played.record.model_copy(update={"status": "finished"})
    moves = tuple(
        MoveRecord(seq=n, seat=move.seat, action=move.action, events=[], at=0.0)
        for n, move in enumerate(recorded.moves, 1)
    )
    replay = rebuild(record, moves)
    assert recorded.text.count(f"\n{RULE} ") == replay.last + 1, "a replay step for every recorded step"
    for step in range(replay.last + 1):
        if step:
            commit(played, recorded.moves[step - 1])
        table = flatten(table_message(played, due=None, picture=False))
        # the replay's one view of the table: its text as one line per player, and the result's first line
        fields = played.game.texts.compact_fields(played.view(None), played.names)
        result = [table[1]] if table[1].startswith(("🏆", "Nobody wins")) else []
        assert fields or result, f"{case.name}, step {step}: no table fields"
        shown = flatten(replay_message(replay, step, None))
        assert not result or contains(shown, result), f"{case.name}, step {step}: the result is not as played"
        cuts = [
            degree
            for degree in range(DEGREES + 1)
            if all(
                contains(shown, [f"## {name}", *value.split("\n")])
                for name, value in cut_table(fields, degree)
            )
        ]
        assert cuts, f"{case.name}, step {step}: the table is not as played"
