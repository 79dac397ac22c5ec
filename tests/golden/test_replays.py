"""Replays against the golden playthroughs: `/game replay` of each recorded game, rebuilt from its seed and
moves alone, shows at every step the public table the file recorded for that step (its fields, those
the table had room for, word for word)."""

from __future__ import annotations

import pytest

from bot.storage.models import MoveRecord
from cogs.play._replay import rebuild, replay_message
from tests.golden.playthrough import CASES, RULE, Case, flatten, new_table, read

NARRATION = ("## What happened",)


def recorded_tables(text: str) -> list[list[list[str]]]:
    """Per step, the field sections (heading and lines) of the public table the file recorded, and the
    result at the end."""
    steps = []
    for section in text.split(f"\n{RULE} ")[1:]:
        lines = section.split("\n")
        table = lines[lines.index("---- table ----") + 1 :]
        table = table[: next((i for i, line in enumerate(table) if line.startswith("---- ")), len(table))]
        fields: list[list[str]] = []
        ends = next(i for i, line in enumerate(table) if line.startswith(("## ", "footer: ", "controls:")))
        if table[1].startswith(("🏆", "Nobody wins")):  # the result, which a replay's last step shows too
            fields.append(table[1:ends])
        for line in table[ends:]:
            if line.startswith("footer: ") or line == "controls:":
                break
            if line.startswith("## "):
                fields.append([line])
            elif fields:
                fields[-1].append(line)
        steps.append([field for field in fields if not field[0].startswith(NARRATION)])
    return steps


def contains(lines: list[str], block: list[str]) -> bool:
    return any(lines[i : i + len(block)] == block for i in range(len(lines) - len(block) + 1))


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_each_step_of_a_replay_shows_the_table_the_playthrough_recorded(case: Case):
    recorded = read(case.path)
    record = new_table(case).record.model_copy(update={"status": "finished"})
    moves = tuple(
        MoveRecord(seq=n, seat=move.seat, action=move.action, events=[], at=0.0)
        for n, move in enumerate(recorded.moves, 1)
    )
    replay = rebuild(record, moves)
    tables = recorded_tables(recorded.text)
    assert len(tables) == replay.last + 1
    for step, fields in enumerate(tables):
        assert fields, f"{case.name}, step {step}: no table recorded"
        shown = flatten(replay_message(replay, step, None))
        for field in fields:
            assert contains(shown, field), f"{case.name}, step {step}: {field[0]!r} is not as recorded"
