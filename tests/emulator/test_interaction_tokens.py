"""What an interaction token reaches, as Discord documents it (Receiving and Responding): a component
click answered by updating its message (types 6 and 7) makes that message the token's `@original`;
followups are the token's own messages, public unless flagged ephemeral; every webhook route of the
token works for 15 minutes after the interaction, and only after its initial response."""

from __future__ import annotations

from typing import Any

import pytest

from emulator import Emulator, limits
from tests.emulator.test_rules import callback, row, webhook


def button(custom_id: str, label: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


@pytest.fixture
async def table(emu: Emulator, api):
    """A public message of the bot's with two buttons, as a table is."""
    channel = emu.channel("games").id
    payload = {"content": "table v1", "components": [row(button("move", "Move"), button("hand", "Hand"))]}
    status, posted = await api("POST", f"/channels/{channel}/messages", payload)
    assert status == 200
    return emu.message(int(posted["id"]))


async def test_a_click_answered_by_a_deferred_update_edits_its_message_as_original(
    emu: Emulator, api, table
) -> None:
    click = await emu.member("Ann").click(table, "Move", wait=False)
    assert (await api("POST", callback(click), {"type": 6}))[0] == 200
    emu.advance(10 * 60)  # a later move, long after the click's 3 s
    status, edited = await api("PATCH", webhook(emu, click, "/messages/@original"), {"content": "table v2"})
    assert status == 200 and edited["id"] == str(table.id)
    assert emu.message(table.id).content == "table v2" and not emu.message(table.id).ephemeral


async def test_the_original_of_a_click_on_a_private_panel_is_that_panel_never_the_table(
    emu: Emulator, api, table
) -> None:
    ann = emu.member("Ann")
    opened = await ann.click(table, "Hand", wait=False)
    panel = {"content": "your hand", "flags": 64, "components": [row(button("card", "Card"))]}
    await api("POST", callback(opened), {"type": 4, "data": panel})
    played = await ann.click(opened.message, "Card", wait=False)
    await api("POST", callback(played), {"type": 7, "data": {"content": "your hand, one card less"}})
    status, edited = await api("PATCH", webhook(emu, played, "/messages/@original"), {"content": "v2"})
    assert status == 200 and edited["id"] == str(opened.message.id)
    assert emu.message(table.id).content == "table v1", "the table is out of the panel click's reach"


async def test_a_public_followup_of_a_click_is_deleted_only_through_its_own_token(
    emu: Emulator, api, table
) -> None:
    ann, bo = emu.member("Ann"), emu.member("Bo")
    first = await ann.click(table, "Move", wait=False)
    await api("POST", callback(first), {"type": 6})
    ping = {"content": f"<@{bo.id}> your move", "allowed_mentions": {"users": [str(bo.id)]}}
    status, posted = await api("POST", webhook(emu, first, "?wait=1"), ping)
    assert status == 200 and not int(posted["flags"]) & limits.EPHEMERAL_FLAG
    assert [m.content for m in bo.visible_messages() if m.id == int(posted["id"])] == [ping["content"]]

    second = await bo.click(table, "Move", wait=False)
    await api("POST", callback(second), {"type": 6})
    assert (await api("DELETE", webhook(emu, second, f"/messages/{posted['id']}")))[0] == 404
    assert not emu.message(int(posted["id"])).deleted
    assert (await api("DELETE", webhook(emu, first, f"/messages/{posted['id']}")))[0] == 204
    assert emu.message(int(posted["id"])).deleted


async def test_a_token_past_15_minutes_reaches_nothing_and_the_bot_route_still_does(
    emu: Emulator, api, table
) -> None:
    click = await emu.member("Ann").click(table, "Move", wait=False)
    await api("POST", callback(click), {"type": 6})
    _, ping = await api("POST", webhook(emu, click, "?wait=1"), {"content": "your move"})
    emu.advance(15 * 60 + 1)
    for method, path, payload in [
        ("PATCH", "/messages/@original", {"content": "table v2"}),
        ("DELETE", f"/messages/{ping['id']}", None),
    ]:
        status, body = await api(method, webhook(emu, click, path), payload)
        assert status == 401 and body["code"] == 50027
    assert [v.rule for v in emu.take_violations()] == [limits.TOKEN_EXPIRED] * 2
    channel = table.channel_id
    assert (await api("PATCH", f"/channels/{channel}/messages/{table.id}", {"content": "table v2"}))[0] == 200
    assert (await api("DELETE", f"/channels/{channel}/messages/{ping['id']}"))[0] == 204


async def test_a_click_never_answered_opens_no_route(emu: Emulator, api, table) -> None:
    click = await emu.member("Ann").click(table, "Move", wait=False)
    emu.advance(3.01)
    await emu.invoker.wait(click)
    status, _ = await api("PATCH", webhook(emu, click, "/messages/@original"), {"content": "table v2"})
    assert status == 404 and emu.message(table.id).content == "table v1"
    assert [v.rule for v in emu.take_violations()] == [limits.DEADLINE, limits.FOLLOWUP_TOO_EARLY]
