"""Golden playthroughs: each recorded game, replayed from its seed, options and moves, must read exactly as
its file in tests/golden/ says — table, private panels and controls at every step. A change to any text,
label or rule shows up here as a diff of what players would read.

After a deliberate change, rewrite the files and review their diff before committing it:

    python -m tests.golden.regenerate            # or: CATNIP_UPDATE_GOLDEN=1 pytest tests/golden

(`--fresh` lets the computer player choose new moves when a rule change broke the recorded ones.)
"""

from __future__ import annotations

import difflib
import os

import pytest

from tests.golden.playthrough import CASES, GOLDEN, Case, Unreplayable, play, read

DIFF_LINES = 60
UPDATE = os.environ.get("CATNIP_UPDATE_GOLDEN") == "1"


def where(expected: list[str], actual: list[str]) -> str:
    """The step and message holding the first line that differs, e.g. "move 3, Bo's panel"."""
    first = next(
        (i for i, (old, new) in enumerate(zip(expected, actual, strict=False)) if old != new),
        min(len(expected), len(actual)),
    )
    step = message = ""
    for line in expected[: first + 1]:
        if line.startswith("=" * 8):
            step, message = line.strip("= "), ""
        elif line.startswith("---- ") and line.endswith(" ----"):
            message = line.strip("- ")
    return ", ".join(part for part in (step, message) if part) or "the header"


def first_differences(expected: str, actual: str, name: str) -> str:
    old, new = expected.splitlines(), actual.splitlines()
    diff = difflib.unified_diff(old, new, f"{name} (recorded)", f"{name} (current code)", lineterm="")
    lines = list(diff)
    shown = lines[:DIFF_LINES]
    if len(lines) > DIFF_LINES:
        shown.append(f"… {len(lines) - DIFF_LINES} more diff lines")
    return f"First difference at {where(old, new)}:\n" + "\n".join(shown)


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_a_recorded_game_reads_the_same_at_every_step(case: Case):
    if not case.path.exists():
        pytest.fail(f"{case.path.name} is missing: run python -m tests.golden.regenerate {case.name}")
    recorded = read(case.path)
    try:
        replayed = play(recorded.case, recorded.moves, recorded.panels)
    except Unreplayable as error:
        broken = str(error)
    else:
        broken = None
    if broken:
        advice = f"If the rules changed on purpose: python -m tests.golden.regenerate --fresh {case.name}"
        pytest.fail(f"{broken}\n{advice}", pytrace=False)
    if UPDATE:
        case.path.write_text(replayed.text, encoding="utf-8")
        return
    if replayed.text != recorded.text:
        pytest.fail(
            f"{case.path.name} no longer matches what the game shows. If the change is deliberate, run "
            f"python -m tests.golden.regenerate {case.name} and review the diff.\n"
            + first_differences(recorded.text, replayed.text, case.path.name),
            pytrace=False,
        )


def test_every_playthrough_file_is_a_recorded_case():
    names = {case.path.name for case in CASES}
    stray = sorted(path.name for path in GOLDEN.glob("*.txt") if path.name not in names)
    assert not stray, f"playthrough files no test replays: {stray}"
