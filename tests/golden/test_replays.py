"""Replays against the golden playthroughs: `/game replay` of each recorded game, rebuilt from its seed and
moves alone, shows at every step the public table of that step as the recorded moves, played one by one,
left it — the fields the text-only table has room for and the result at the end, word for word."""

from __future__ import annotations

import pytest

from bot.storage.models import MoveRecord
from cogs.messages import table_message
from cogs.play._replay import rebuild, replay_message
from tests.golden.playthrough import CASES, RULE, Case, commit, flatten, new_table, read

NARRATION = ("## What happened",)


def table_sections(table: list[str]) -> list[list[str]]:
    """The field sections (heading and lines) of a flattened table, and the result at the end."""
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
    return [field for field in fields if not field[0].startswith(NARRATION)]


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
        fields = table_sections(flatten(table_message(played, due=None, picture=False)))
        assert fields, f"{case.name}, step {step}: no table fields"
        shown = flatten(replay_message(replay, step, None))
        for field in fields:
            assert contains(shown, field), f"{case.name}, step {step}: {field[0]!r} is not as played"
