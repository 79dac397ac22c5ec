"""Arbitrary custom_ids through the real click path: one running bot, a game of each kind in each of two
servers, and every forged click answered once, privately or as a no-change acknowledgement."""

from __future__ import annotations

import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emulator.callbacks import DEFERRED_UPDATE
from engine import GAMES
from tests.e2e.driver import catnip, open_table, table_of
from tests.e2e.test_hostile_clicks import open_lobby

FIELD_MUTATIONS = ["²", "٣", "0", "-1", "", "9" * 25, "x", "a:b", "𝟗", " 1", "1 "]


@pytest.fixture
async def tables(tmp_path):
    """A running game of every kind in the home server, a lobby in another server, and who sees what."""
    async with catnip(tmp_path) as (emu, bot):
        surfaces = []
        for key in GAMES:
            thread, members = await open_table(emu, key, 2)
            surfaces.append((thread, members))
        other = emu.add_guild("Other Server", channels=("lounge",), members=("Gus",))
        await emu.settle()
        await open_lobby(emu, emu.member("Gus"), emu.guild_channel(other, "lounge"))
        await emu.settle()
        yield emu, bot, surfaces


def shown(message) -> tuple:
    """What players read on a public message. A click with an out-of-date version may make the bot show
    the table again as it is: the same text, embeds and buttons, so not a change (only its edit time)."""
    return message.content, message.embeds, message.components


def real_ids(bot) -> list[str]:
    """An id of every kind for every game the bot runs."""
    found = []
    for game in bot.service.live.values():
        version = game.record.version
        found += [
            f"cn:v:{game.id}",
            f"cn:r:{game.id}",
            f"cn:l:{game.id}:join",
            f"cn:l:{game.id}:start",
            f"cn:l:{game.id}:opt/turn_timer",
            f"cn:pg:{game.id}:{version}:0",
            f"cn:s:{game.id}:{version}:0",
            f"cn:a:{game.id}:{version}:p:C1",
            f"cn:a:{game.id}:{version}:roll",
            f"cn:h:{game.record.game}:1",
            f"cn:rf:{game.id}",
            f"cn:mo:{game.id}",
            f"cn:bk:{game.id}",
            f"cn:rp:{game.id}",
        ]
    return found


def mutated(custom_id: str, index: int, replacement: str) -> str:
    parts = custom_id.split(":")
    parts[index % len(parts)] = replacement
    return ":".join(parts)


@st.composite
def forged_ids(draw, ids: list[str]) -> str:
    choice = draw(st.integers(0, 2))
    if choice == 0:
        return draw(st.text(max_size=100))
    if choice == 1:  # as made, but never a move: a real move may be legal, and is then no forgery
        return draw(st.sampled_from([i for i in ids if not i.startswith("cn:a:")]))
    real = draw(st.sampled_from(ids))
    return mutated(
        real, draw(st.integers(0, 5)), draw(st.sampled_from(FIELD_MUTATIONS) | st.text(max_size=8))
    )


@settings(
    max_examples=150,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
async def test_arbitrary_custom_ids_get_one_answer_and_change_no_game(tables, caplog, data):
    emu, bot, surfaces = tables
    caplog.set_level(logging.INFO)
    clickers = [member for _, members in surfaces for member in members] + [emu.member("Gus")]
    custom_id = data.draw(forged_ids(real_ids(bot)), label="custom_id")
    clicker = data.draw(st.sampled_from(clickers), label="clicker")
    thread, _ = data.draw(st.sampled_from(surfaces), label="surface")
    component_type = data.draw(st.sampled_from([2, 3]), label="component_type")
    games = list(bot.service.live.values())
    versions = {game.id: game.record.version for game in games}
    tables_before = {t.id: shown(table_of(emu, t)) for t, _ in surfaces}

    values = ["easy"] if component_type == 3 else None
    table = table_of(emu, thread)
    result = await clicker.forge_click(table, custom_id, component_type=component_type, values=values)
    assert result.ok, f"{custom_id!r} was not answered: {result.failed}"
    if result.response_type == DEFERRED_UPDATE:
        assert all(m.ephemeral for m in result.followups)
    else:
        answer = result.message
        assert answer is not None and answer.ephemeral and answer.visible_to == clicker.id
        assert len(answer.text()) <= 2000
    await emu.settle()
    assert {game.id: game.record.version for game in bot.service.live.values()} == versions, "no game moved"
    assert {t.id: shown(table_of(emu, t)) for t, _ in surfaces} == tables_before
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
