"""Discord's rules, enforced loudly: each limit is caught through the HTTP API (no bot needed, so the
payloads can break rules discord.py's client-side checks would stop), and the limits themselves pass."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import pytest

from emulator import Emulator, limits


def button(n: int, label: str = "ok", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": f"b{n}", **extra}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def select(count: int, label: str = "x", **extra: Any) -> dict[str, Any]:
    options = [{"label": f"{label}{i}"[:200], "value": f"v{i}"} for i in range(count)]
    return {"type": 3, "custom_id": "sel", "options": options, **extra}


BROKEN = {
    "content over 2000": ({"content": "x" * 2001}, limits.CONTENT_LIMIT),
    "11 embeds": ({"embeds": [{"title": "t"}] * 11}, limits.SCHEMA),
    "embed title 257": ({"embeds": [{"title": "t" * 257}]}, limits.SCHEMA),
    "embed description 4097": ({"embeds": [{"description": "d" * 4097}]}, limits.SCHEMA),
    "26 fields": ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, limits.SCHEMA),
    "field name 257": ({"embeds": [{"fields": [{"name": "n" * 257, "value": "v"}]}]}, limits.SCHEMA),
    "field value 1025": ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, limits.SCHEMA),
    "empty field value": ({"embeds": [{"fields": [{"name": "n", "value": ""}]}]}, limits.EMBED_LIMIT),
    "footer 2049": ({"embeds": [{"footer": {"text": "f" * 2049}}]}, limits.SCHEMA),
    "author 257": ({"embeds": [{"author": {"name": "a" * 257}}]}, limits.SCHEMA),
    "6001 characters in embeds": ({"embeds": [{"description": "d" * 3001}] * 2}, limits.EMBED_LIMIT),
    "6 action rows": ({"components": [row(button(i)) for i in range(6)]}, limits.COMPONENT_LIMIT),
    "6 buttons in a row": ({"components": [row(*(button(i) for i in range(6)))]}, limits.SCHEMA),
    "select beside a button": ({"components": [row(select(2), button(1))]}, limits.COMPONENT_LIMIT),
    "empty custom_id": ({"components": [row(button(1, custom_id=""))]}, limits.SCHEMA),
    "custom_id 101": ({"components": [row(button(1, custom_id="c" * 101))]}, limits.SCHEMA),
    "duplicate custom_id": ({"components": [row(button(1)), row(button(1))]}, limits.CUSTOM_ID_RULE),
    "26 select options": ({"components": [row(select(26))]}, limits.SCHEMA),
    "button label 81": ({"components": [row(button(1, label="l" * 81))]}, limits.SCHEMA),
    "select option label 101": ({"components": [row(select(1, label="l" * 101))]}, limits.SCHEMA),
    "empty message": ({"content": ""}, limits.EMPTY_MESSAGE),
    "ephemeral channel message": ({"content": "secret", "flags": 64}, limits.EPHEMERAL),
}


@pytest.mark.parametrize("payload,rule", BROKEN.values(), ids=BROKEN.keys())
async def test_a_message_breaking_a_limit_is_refused_and_recorded(emu: Emulator, api, payload, rule) -> None:
    status, body = await api("POST", f"/channels/{emu.channel('games').id}/messages", payload)
    assert status in (400, 403) and body["code"] == 50035
    assert {v.rule for v in emu.take_violations()} == {rule}
    assert emu.public_messages("games") == []


async def test_files_are_uploaded_as_attachments(emu: Emulator) -> None:
    form = aiohttp.FormData(quote_fields=False)
    form.add_field(
        "payload_json", '{"content": "the board", "attachments": [{"id": 0, "filename": "board.png"}]}'
    )
    form.add_field("files[0]", b"\x89PNG....", filename="board.png", content_type="image/png")
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {emu.token}"}) as session:
        url = f"{emu.api_base}/channels/{emu.channel('games').id}/messages"
        async with session.post(url, data=form) as response:
            assert response.status == 200
            body = await response.json()
    assert [a["filename"] for a in body["attachments"]] == ["board.png"]
    assert emu.public_messages("games")[0].attachments[0]["size"] == 8


async def post_picture(emu: Emulator) -> dict[str, Any]:
    """A message whose embed shows its uploaded picture, as Discord returned it."""
    form = aiohttp.FormData(quote_fields=False)
    payload = {
        "embeds": [{"title": "board", "image": {"url": "attachment://board.png"}}],
        "attachments": [{"id": 0, "filename": "board.png"}],
    }
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", b"\x89PNG....", filename="board.png", content_type="image/png")
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {emu.token}"}) as session:
        url = f"{emu.api_base}/channels/{emu.channel('games').id}/messages"
        async with session.post(url, data=form) as response:
            assert response.status == 200
            return await response.json()


async def test_an_edit_keeping_the_picture_its_embed_shows_must_name_it(emu: Emulator, api) -> None:
    """Discord shows a picture twice when an edit's embed shows a file the edit keeps without naming
    it; the emulator refuses that edit. Named by id, or not shown by an edit that leaves the embed
    alone, the picture is kept; an edit naming no attachment removes it."""
    sent = await post_picture(emu)
    (picture,) = sent["attachments"]
    path = f"/channels/{emu.channel('games').id}/messages/{sent['id']}"
    embed = {"title": "board, move 2", "image": {"url": "attachment://board.png"}}
    status, body = await api("PATCH", path, {"embeds": [embed]})
    assert (status, body["code"]) == (400, 50035)
    assert [v.rule for v in emu.take_violations()] == [limits.UNNAMED_ATTACHMENT]
    assert emu.message(int(sent["id"])).embeds[0]["title"] == "board", "the refused edit changed nothing"
    status, body = await api("PATCH", path, {"embeds": [embed], "attachments": [{"id": picture["id"]}]})
    assert status == 200 and [a["id"] for a in body["attachments"]] == [picture["id"]]
    status, body = await api("PATCH", path, {"content": "still the same board"})
    assert status == 200 and [a["id"] for a in body["attachments"]] == [picture["id"]], "omitted: kept"
    status, body = await api("PATCH", path, {"embeds": [{"title": "closed"}], "attachments": []})
    assert status == 200 and body["attachments"] == []
    assert not emu.violations


async def test_messages_exactly_at_every_limit_are_accepted(emu: Emulator, api) -> None:
    channel = emu.channel("games").id
    full_rows = [row(*(button(5 * r + c, label="l" * 80) for c in range(5))) for r in range(4)]
    full_rows.append(row(select(25, custom_id="s" * 100)))
    fields = [{"name": "n" * 40, "value": "v" * 40}] * 25
    payloads = [
        {"content": "x" * 2000, "components": full_rows},
        {"embeds": [{"title": "t"}] * 10},
        {
            "embeds": [
                {"title": "t" * 256, "description": "d" * 2744, "fields": fields, "footer": {"text": "f"}}
            ]
        },
        {"embeds": [{"description": "d" * 3000}, {"description": "d" * 3000}]},
    ]
    for payload in payloads:
        status, body = await api("POST", f"/channels/{channel}/messages", payload)
        assert status == 200, body
    assert emu.violations == [] and len(emu.public_messages("games")) == 4


async def test_every_response_carries_rate_limit_headers_and_a_forced_429_is_retryable(
    emu: Emulator, api
) -> None:
    status, _ = await api("GET", "/users/@me")
    assert status == 200
    assert {
        "X-RateLimit-Limit",
        "X-RateLimit-Remaining",
        "X-RateLimit-Reset-After",
        "X-RateLimit-Bucket",
    } <= set(api.headers)
    assert api.headers["Content-Type"] == "application/json"
    emu.force_429("GET /users", retry_after=0.25)
    status, body = await api("GET", "/users/@me")
    assert status == 429 and body["retry_after"] == 0.25 and api.headers["Via"]
    assert (await api("GET", "/users/@me"))[0] == 200
    assert emu.rate_limited == ["GET /users/@me"]


async def test_bot_routes_need_the_token_but_interaction_routes_do_not(emu: Emulator, api) -> None:
    assert (await api("GET", "/users/@me", auth=False))[0] == 401
    status, body = await api("POST", "/interactions/1/nope/callback", {"type": 4}, auth=False)
    assert status == 404 and body["code"] == 10062
    assert [v.rule for v in emu.take_violations()] == [limits.UNKNOWN_INTERACTION]


# interaction rules, answered by hand ---------------------------------------------------------------


@pytest.fixture
async def command(emu: Emulator, api):
    """Registers /ping (with a button message it can update) without running a bot."""
    payload = [{"name": "ping", "description": "ping", "type": 1, "options": []}]
    assert (await api("PUT", f"/applications/{emu.world.bot.id}/commands", payload))[0] == 200
    return "ping"


def callback(result: Any) -> str:
    return f"/interactions/{result.id}/{result.interaction.token}/callback?with_response=1"


def webhook(emu: Emulator, result: Any, suffix: str = "") -> str:
    return f"/webhooks/{emu.world.bot.id}/{result.interaction.token}{suffix}"


async def test_only_one_initial_response(emu: Emulator, api, command) -> None:
    result = await emu.member("Ann").slash(command, wait=False)
    assert (await api("POST", callback(result), {"type": 4, "data": {"content": "pong"}}))[0] == 200
    status, body = await api("POST", callback(result), {"type": 4, "data": {"content": "again"}})
    assert status == 400 and body["code"] == 40060
    assert [v.rule for v in emu.take_violations()] == [limits.DOUBLE_RESPONSE]
    assert [m.content for m in emu.public_messages("games")] == ["pong"]


async def test_no_response_within_3_seconds_fails_the_interaction(emu: Emulator, api, command) -> None:
    result = await emu.member("Ann").slash(command, wait=False)
    emu.advance(3.01)
    await emu.invoker.wait(result)
    assert result.failed and not result.ok
    status, _ = await api("POST", callback(result), {"type": 4, "data": {"content": "too late"}})
    assert status == 404
    assert [v.rule for v in emu.take_violations()] == [limits.DEADLINE]
    assert emu.interaction_timings()[0].seconds is None


async def test_the_token_expires_after_15_minutes(emu: Emulator, api, command) -> None:
    result = await emu.member("Ann").slash(command, wait=False)
    await api("POST", callback(result), {"type": 5})
    emu.advance(14 * 60)
    assert (await api("PATCH", webhook(emu, result, "/messages/@original"), {"content": "done"}))[0] == 200
    emu.advance(61)
    status, body = await api("POST", webhook(emu, result, "?wait=1"), {"content": "follow-up"})
    assert status == 401 and body["code"] == 50027
    assert [v.rule for v in emu.take_violations()] == [limits.TOKEN_EXPIRED]


async def test_follow_ups_are_read_edited_and_deleted_through_the_token(emu: Emulator, api, command) -> None:
    result = await emu.member("Ann").slash(command, wait=False)
    await api("POST", callback(result), {"type": 4, "data": {"content": "reply"}})
    status, followup = await api("POST", webhook(emu, result, "?wait=1"), {"content": "note", "flags": 64})
    assert status == 200 and followup["flags"] == 64
    path = webhook(emu, result, f"/messages/{followup['id']}")
    assert (await api("PATCH", path, {"content": "note 2"}))[1]["content"] == "note 2"
    assert (await api("GET", webhook(emu, result, "/messages/@original")))[1]["content"] == "reply"
    assert (await api("DELETE", path))[0] == 204
    assert (await api("GET", path))[0] == 404
    emu.advance(2)  # the token's five requests per 2 s are spent
    assert (await api("DELETE", webhook(emu, result, "/messages/@original")))[0] == 204
    assert result.messages == [] and emu.member("Ann").visible_messages() == []


async def test_follow_up_before_the_initial_response_is_refused(emu: Emulator, api, command) -> None:
    result = await emu.member("Ann").slash(command, wait=False)
    assert (await api("POST", webhook(emu, result, "?wait=1"), {"content": "early"}))[0] == 404
    assert [v.rule for v in emu.take_violations()] == [limits.FOLLOWUP_TOO_EARLY]
    await api("POST", callback(result), {"type": 4, "data": {"content": "now"}})


async def test_update_message_is_only_for_components_and_modals_are_checked(
    emu: Emulator, api, command
) -> None:
    result = await emu.member("Ann").slash(command, wait=False)
    assert (await api("POST", callback(result), {"type": 7, "data": {"content": "x"}}))[0] == 400
    modal = {"custom_id": "m", "title": "t" * 46, "components": []}
    assert (await api("POST", callback(result), {"type": 9, "data": modal}))[0] == 400
    assert [v.rule for v in emu.take_violations()] == [limits.RESPONSE_TYPE, limits.SCHEMA]
    assert (await api("POST", callback(result), {"type": 4, "data": {"content": "fine"}}))[0] == 200


async def test_ephemeral_messages_are_out_of_reach_of_channel_routes(emu: Emulator, api, command) -> None:
    ann, bo = emu.member("Ann"), emu.member("Bo")
    result = await ann.slash(command, wait=False)
    data = {"content": "hand: 7 of cats", "flags": 64, "components": [row(button(1))]}
    await api("POST", callback(result), {"type": 4, "data": data})
    secret = result.message
    assert secret.visible_to == ann.id and ann.visible_messages() == [secret] and bo.visible_messages() == []
    status, _ = await api("GET", f"/channels/{secret.channel_id}/messages/{secret.id}")
    assert status == 404
    history = (await api("GET", f"/channels/{secret.channel_id}/messages"))[1]
    assert history == []
    assert [v.rule for v in emu.take_violations()] == [limits.EPHEMERAL]
    clicked = await ann.click(secret, "ok", wait=False)
    await api("POST", callback(clicked), {"type": 7, "data": {"content": "hand: 8 of cats"}})
    assert secret.content == "hand: 8 of cats" and secret.ephemeral


async def test_an_update_of_a_clicked_message_deleted_meanwhile_is_unknown_and_the_click_still_open(
    emu: Emulator, api
) -> None:
    """The bot deleting (reposting) a table while a click on it was on its way: the click's update of
    it gets 404 Unknown Message, no mistake of the bot's, and the click can still be answered."""
    channel = emu.channel("games").id
    _, table = await api(
        "POST", f"/channels/{channel}/messages", {"content": "table", "components": [row(button(1))]}
    )
    clicked = await emu.member("Ann").click(int(table["id"]), "ok", wait=False)
    assert (await api("DELETE", f"/channels/{channel}/messages/{table['id']}"))[0] == 204
    status, body = await api("POST", callback(clicked), {"type": 6})
    assert status == 404 and body["code"] == 10008
    assert emu.take_violations() == []
    answered = {"type": 4, "data": {"content": "posted again below", "flags": 64}}
    assert (await api("POST", callback(clicked), answered))[0] == 200


async def test_edits_of_messages_older_than_an_hour_are_refused(emu: Emulator, api, command) -> None:
    channel = emu.channel("games").id
    _, posted = await api("POST", f"/channels/{channel}/messages", {"content": "table v1"})
    emu.advance(59 * 60)
    assert (await api("PATCH", f"/channels/{channel}/messages/{posted['id']}", {"content": "table v2"}))[
        0
    ] == 200
    emu.advance(2 * 60)
    status, body = await api("PATCH", f"/channels/{channel}/messages/{posted['id']}", {"content": "table v3"})
    assert status == 400 and body["code"] == 30046
    assert [v.rule for v in emu.take_violations()] == [limits.EDIT_TOO_OLD]
    assert emu.public_messages("games")[0].content == "table v2"


async def test_the_bot_needs_permission_to_post() -> None:
    only_view = ["view_channel"]
    async with Emulator.start(bot_permissions=only_view, everyone_permissions=only_view, strict=False) as emu:
        headers = {"Authorization": f"Bot {emu.token}"}
        async with aiohttp.ClientSession(headers=headers) as session:
            url = f"{emu.api_base}/channels/{emu.channel('games').id}/messages"
            async with session.post(url, json={"content": "hi"}) as response:
                assert response.status == 403
        assert [v.rule for v in emu.violations] == [limits.PERMISSIONS]
