"""Whole games over the emulated Discord: /play, Join, Start, then only buttons and selects to the end.

Checks that each game finishes with scores and winners on the table, every interaction is answered in
time, and no member's private items (their hand, their picks) show up publicly or to another member.
"""

from __future__ import annotations

import pytest

from bench.game_costs import PLAYER_COUNTS
from engine import GAMES, Rng
from tests.cogs.test_no_rule_ids import RULE_ID
from tests.e2e.driver import ACTION, Table, catnip, fields, open_table, secret_items

MAX_STEPS = 3000


def assert_no_leaks(table: Table) -> None:
    emu = table.emu
    public = "\n".join(fields(m) for m in emu.public_messages(table.channel))
    public_ids = "\n".join(c for m in emu.public_messages(table.channel) for c in m.custom_ids())
    panels = {member_id: emu.message(message_id) for member_id, message_id in table.panels.items()}
    lines = {
        member_id: {line.strip() for line in fields(panel).split("\n")} for member_id, panel in panels.items()
    }
    own = {member_id: secret_items(panel) for member_id, panel in panels.items()}
    for owner in panels:
        for item in own[owner]:
            assert item not in public, f"{item!r} from a private panel is in a public message"
            assert item not in public_ids
            for other in panels:
                # A panel speaks to its owner ("✅ ⚪⚪ — ⚪ 7→9"): another member holding the same card
                # reads the same line in their own hand.
                if other != owner and item not in own[other]:
                    assert item not in lines[other], f"{item!r} is in another member's panel"


def table_sizes(counts: tuple[int, ...] | list[int]) -> list[int]:
    """The fewest and the most players of a game, and each count that is a mode of its own (Cats &
    Dogs alone and for two); the counts between play the same code paths, which the engines' random
    games cover at every count."""
    return sorted({min(counts), max(counts)} | {count for count in counts if count < 3})


@pytest.mark.parametrize(
    ("key", "players"),
    [(key, count) for key, counts in PLAYER_COUNTS.items() if key in GAMES for count in table_sizes(counts)],
)
async def test_a_whole_game_through_discord(tmp_path, key, players):
    # The most crowded table of each game also shows its pictures all the way, results included.
    pictures = players == max(PLAYER_COUNTS[key])
    async with catnip(tmp_path, pictures=pictures) as (emu, _):
        thread, members = await open_table(emu, key, players)
        table = Table(emu, thread, members, Rng.seeded(players * 97 + len(key)))
        for _ in range(MAX_STEPS):
            if table.over():
                break
            await table.step()
            assert_no_leaks(table)
        assert table.over(), f"{key} with {players} did not finish in {MAX_STEPS} steps"
        final = table.table().embeds[0]["description"]
        assert "🏆" in final or "Nobody wins" in final
        if pictures:
            assert table.table().embeds[0]["image"]["url"] == "attachment://table.png"
            assert [a["filename"] for a in table.table().attachments] == ["table.png"]
        unanswered = [t for t in emu.interaction_timings() if t.seconds is None]
        assert not unanswered, unanswered
        assert not emu.violations
        read = {rule for message in emu.world.messages.values() for rule in RULE_ID.findall(message.text())}
        assert not read, f"players read ruling ids: {sorted(read)}"


async def test_a_computer_fills_seats_and_plays_to_the_end(tmp_path):
    async with catnip(tmp_path) as (emu, _):
        thread, members = await open_table(emu, "catsdogs", 1, computers=2)
        table = Table(emu, thread, members, Rng.seeded(5))
        for _ in range(MAX_STEPS):
            if table.over():
                break
            await table.step()
        assert table.over()


def test_action_ids_are_recognised():
    assert ACTION.match("cn:a:1:2:p:C7") and ACTION.match("cn:s:1:2:0") and not ACTION.match("cn:v:1")
