"""Where Discord is stricter than its documentation says, the emulator is too: each interaction token's
webhook bucket, the hidden limit of webhook messages per channel, valid tokens Discord loses, threads
that archive and lock, the cap on edits of old messages. Each rule's source is in its docstring
(emulator.ratelimits, emulator.model, emulator.rest, emulator.users)."""

from __future__ import annotations

from typing import Any

import pytest

from emulator import Emulator, limits
from emulator.entities import snowflake_time
from emulator.users import InvalidInvocation
from tests.emulator.test_rules import callback, row, webhook


def button(custom_id: str, label: str) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


async def clicked_table(emu: Emulator, api, channel_id: int | None = None):
    """A public message of the bot's with a button, clicked by Ann and answered with a deferred update."""
    channel_id = channel_id or emu.channel("games").id
    payload = {"content": "table", "components": [row(button("move", "Move"))]}
    status, posted = await api("POST", f"/channels/{channel_id}/messages", payload)
    assert status == 200
    click = await emu.member("Ann").click(emu.message(int(posted["id"])), "Move", wait=False)
    assert (await api("POST", callback(click), {"type": 6}))[0] == 200
    return click


async def test_a_token_s_webhook_routes_share_one_bucket_of_5_per_2_seconds(emu: Emulator, api) -> None:
    click = await clicked_table(emu, api)
    answers = []
    for n in range(3):
        answers.append(await api("POST", webhook(emu, click, "?wait=1"), {"content": f"ping {n}"}))
        answers[-1] += (dict(api.headers),)
    for n in range(2):
        edit = {"content": f"table v{n}"}
        answers.append(await api("PATCH", webhook(emu, click, "/messages/@original"), edit))
        answers[-1] += (dict(api.headers),)
    assert [status for status, _, _ in answers] == [200] * 5
    assert [headers["X-RateLimit-Remaining"] for _, _, headers in answers] == ["4", "3", "2", "1", "0"]
    assert {headers["X-RateLimit-Limit"] for _, _, headers in answers} == {"5"}
    assert len({headers["X-RateLimit-Bucket"] for _, _, headers in answers}) == 1
    status, body = await api("POST", webhook(emu, click, "?wait=1"), {"content": "one too many"})
    assert status == 429 and api.headers["X-RateLimit-Scope"] == "user" and body["retry_after"] <= 2
    assert emu.invalid_requests() == 1
    other = await clicked_table(emu, api)
    assert (await api("POST", webhook(emu, other, "?wait=1"), {"content": "another token"}))[0] == 200
    emu.advance(2)
    assert (await api("POST", webhook(emu, click, "?wait=1"), {"content": "refilled"}))[0] == 200


async def test_a_channel_takes_30_public_webhook_messages_a_minute_and_a_31st_counts_toward_the_ban(
    emu: Emulator, api
) -> None:
    games = emu.channel("games").id
    for n in range(30):
        click = await clicked_table(emu, api, games)
        assert (await api("POST", webhook(emu, click, "?wait=1"), {"content": f"ping {n}"}))[0] == 200
        emu.advance(1)
    click = await clicked_table(emu, api, games)
    private = {"content": "only for Ann", "flags": limits.EPHEMERAL_FLAG}
    assert (await api("POST", webhook(emu, click, "?wait=1"), private))[0] == 200, "not a channel message"
    status, body = await api("POST", webhook(emu, click, "?wait=1"), {"content": "ping 31"})
    assert status == 429 and api.headers["X-RateLimit-Scope"] == "shared"
    assert 0 < body["retry_after"] <= 30, "until the oldest of the 30 is a minute old"
    assert api.headers["X-RateLimit-Remaining"] != "0", "nothing announced it"
    assert emu.invalid_requests() == 1, "a shared 429 on a followup counts (discord-api-docs#7243)"
    lobby = await clicked_table(emu, api, emu.channel("lobby").id)
    assert (await api("POST", webhook(emu, lobby, "?wait=1"), {"content": "another channel"}))[0] == 200
    emu.advance(31)
    assert (await api("POST", webhook(emu, click, "?wait=1"), {"content": "a minute on"}))[0] == 200


async def test_a_shared_429_elsewhere_does_not_count(emu: Emulator, api) -> None:
    emu.force_429("GET /users/@me", scope="shared")
    assert (await api("GET", "/users/@me"))[0] == 429
    assert emu.invalid_requests() == 0


async def test_discord_loses_valid_tokens_when_told_and_they_stay_lost(emu: Emulator, api) -> None:
    kept = await clicked_table(emu, api)
    emu.world.lost_tokens.rate = 1.0
    lost = await clicked_table(emu, api)
    assert lost.interaction.response_type == 6, "the initial response is never lost"
    status, body = await api("POST", webhook(emu, lost, "?wait=1"), {"content": "ping"})
    assert status == 404 and body["code"] == 10015
    emu.world.lost_tokens.rate = 0.0
    assert (await api("PATCH", webhook(emu, lost, "/messages/@original"), {"content": "v2"}))[0] == 404
    assert (await api("POST", webhook(emu, kept, "?wait=1"), {"content": "ping"}))[0] == 200
    assert not emu.take_violations(), "Discord's doing, not the bot's"
    assert emu.invalid_requests() == 0, "a 404 is not counted toward the ban"


async def thread_with_table(emu: Emulator, api) -> tuple[Any, dict[str, Any]]:
    games = emu.channel("games").id
    status, data = await api(
        "POST", f"/channels/{games}/threads", {"name": "t1", "type": 11, "auto_archive_duration": 60}
    )
    assert status == 201
    thread = emu.world.channels[int(data["id"])]
    status, posted = await api("POST", f"/channels/{thread.id}/messages", {"content": "table"})
    assert status == 200
    return thread, posted


async def test_a_thread_archives_after_its_idle_time_and_a_message_unarchives_it(emu: Emulator, api) -> None:
    thread, posted = await thread_with_table(emu, api)
    emu.advance(59 * 60)
    assert not thread.archived
    emu.advance(2 * 60)
    assert thread.archived
    assert (await api("GET", f"/channels/{thread.id}"))[1]["thread_metadata"]["archived"] is True
    path = f"/channels/{thread.id}/messages/{posted['id']}"
    status, body = await api("PATCH", path, {"content": "table v2"})
    assert status == 400 and body["code"] == 50083
    assert (await api("DELETE", path))[1]["code"] == 50083
    assert [v.rule for v in emu.take_violations()] == [limits.THREAD_ARCHIVED] * 2
    with pytest.raises(InvalidInvocation, match="archived"):
        await emu.member("Ann").click(emu.message(int(posted["id"])), "x", force=True)
    assert (await api("POST", f"/channels/{thread.id}/messages", {"content": "table again"}))[0] == 200
    assert not thread.archived
    assert (await api("DELETE", path))[0] == 204


async def test_a_member_s_message_unarchives_a_thread_but_not_a_locked_one(emu: Emulator, api) -> None:
    thread, _ = await thread_with_table(emu, api)
    emu.archive_thread(thread)
    await emu.member("Ann").say(thread, "back!")
    assert not thread.archived
    emu.archive_thread(thread, locked=True)
    with pytest.raises(InvalidInvocation, match="locked"):
        await emu.member("Ann").say(thread, "back again")
    status, body = await api("POST", f"/channels/{thread.id}/messages", {"content": "table"})
    assert status == 400 and body["code"] == 50083 and thread.archived
    assert [v.rule for v in emu.take_violations()] == [limits.THREAD_ARCHIVED]


async def test_an_edit_of_a_message_over_an_hour_old_counts_toward_the_ban(emu: Emulator, api) -> None:
    games = emu.channel("games").id
    _, posted = await api("POST", f"/channels/{games}/messages", {"content": "table v1"})
    emu.advance(61 * 60)
    status, body = await api("PATCH", f"/channels/{games}/messages/{posted['id']}", {"content": "table v2"})
    assert status == 400 and body["code"] == 30046, "a 429 at Discord: not retried here"
    assert emu.invalid_requests() == 1
    assert [v.rule for v in emu.take_violations()] == [limits.EDIT_TOO_OLD]


async def test_an_interaction_that_reaches_the_bot_late_dates_from_its_creation(emu: Emulator, api) -> None:
    """Its snowflake, its 3 s to answer and its token's 15 minutes all count from Discord's creation."""
    channel_id = emu.channel("games").id
    payload = {"content": "table", "components": [row(button("move", "Move"))]}
    _, posted = await api("POST", f"/channels/{channel_id}/messages", payload)
    table = emu.message(int(posted["id"]))
    now = emu.world.now()
    late = await emu.member("Ann").click(table, "Move", wait=False, late=2.0)
    assert 1.5 < now - snowflake_time(late.id) < 2.01 and late.id < table.id
    assert (await api("POST", callback(late), {"type": 6}))[0] == 200
    emu.advance(15 * 60 - 1)
    assert (await api("POST", webhook(emu, late, "?wait=1"), {"content": "15 min after arrival"}))[0] == 401
    emu.take_violations()

    too_late = await emu.member("Ann").click(table, "Move", wait=False, late=3.5)
    assert (await api("POST", callback(too_late), {"type": 6}))[0] == 404, "its 3 s ran out before it came"
    assert too_late.failed
    emu.take_violations()
