"""What the emulator counts of Discord's budget, case by case as discord.com/developers/docs states it.

topics/rate-limits, "Global Rate Limit": "Interaction endpoints are not bound to the bot's Global Rate
Limit", linking interactions/receiving-and-responding#endpoints, whose routes are: Create Interaction
Response, Get / Edit / Delete Original Interaction Response, Create / Get / Edit / Delete Followup
Message. "Invalid Request Limit aka Cloudflare bans": 10,000 per 10 minutes of 401, 403 or 429 answers;
"429 errors returned with X-RateLimit-Scope: shared are not counted against you".
"""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import discord
import pytest

from emulator import Emulator
from emulator.ratelimits import RateLimits
from emulator.usage import INVALID_LIMIT, INVALID_WINDOW, Usage, exempt_from_global

APP = 1234


@pytest.mark.parametrize(
    ("case", "method", "template", "exempt"),
    [
        ("Create Interaction Response", "POST", "/interactions/{interaction_id}/{token}/callback", True),
        (
            "Get Original Interaction Response",
            "GET",
            "/webhooks/{app_id}/{token}/messages/{message_id}",
            True,
        ),
        (
            "Edit Original Interaction Response",
            "PATCH",
            "/webhooks/{app_id}/{token}/messages/{message_id}",
            True,
        ),
        (
            "Delete Original Interaction Response",
            "DELETE",
            "/webhooks/{app_id}/{token}/messages/{message_id}",
            True,
        ),
        ("Create Followup Message", "POST", "/webhooks/{app_id}/{token}", True),
        ("Get Followup Message", "GET", "/webhooks/{app_id}/{token}/messages/{message_id}", True),
        ("Edit Followup Message", "PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", True),
        ("Delete Followup Message", "DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", True),
        ("Create Message", "POST", "/channels/{channel_id}/messages", False),
        ("Edit Message", "PATCH", "/channels/{channel_id}/messages/{message_id}", False),
        ("Delete Message", "DELETE", "/channels/{channel_id}/messages/{message_id}", False),
        ("Get Webhook with Token", "GET", "/webhooks/{app_id}/{token}", False),
        ("Get Current User", "GET", "/users/@me", False),
    ],
)
def test_exactly_the_interaction_endpoints_are_exempt_from_the_global_limit(
    case: str, method: str, template: str, exempt: bool
) -> None:
    params = {"app_id": str(APP), "token": "t", "interaction_id": "1", "message_id": "@original"}
    assert exempt_from_global(method, template, params, APP) is exempt, case


@pytest.mark.parametrize("method", ["POST", "PATCH", "DELETE"])
def test_a_channel_webhook_with_its_own_token_is_not_exempt(method: str) -> None:
    """Same path shape as a followup, but a webhook's id instead of the application's."""
    template = "/webhooks/{app_id}/{token}" + ("" if method == "POST" else "/messages/{message_id}")
    params = {"app_id": "987654321", "token": "webhook-token", "message_id": "5"}
    assert not exempt_from_global(method, template, params, APP)


@pytest.fixture
async def tight():
    """Discord's emulator with a global limit of 2 a second and no route limits."""
    async with Emulator.start(
        members=["Ann"], rate_limits=RateLimits(2, routes={}, other=None, webhook=None)
    ) as emu:
        headers = {"Authorization": f"Bot {emu.token}"}
        async with aiohttp.ClientSession(headers=headers) as session:

            async def call(method: str, path: str, payload: Any = None) -> tuple[int, Any, Any]:
                async with session.request(method, emu.api_base + path, json=payload) as response:
                    body = await response.read()
                    return response.status, body, response.headers

            emu.call = call  # type: ignore[attr-defined]
            yield emu


async def _interaction(emu: Emulator):
    """An interaction as Ann's /ping makes it (no bot connected: the test answers it itself)."""
    commands = [{"name": "ping", "description": "ping", "type": 1, "options": []}]
    status, _, _ = await emu.call("PUT", f"/applications/{emu.world.bot.id}/commands", commands)
    assert status == 200
    return await emu.member("Ann").slash("ping", wait=False)


async def test_interaction_endpoints_pass_a_spent_global_limit_and_are_counted_apart(tight: Emulator) -> None:
    call = tight.call  # type: ignore[attr-defined]
    result = await _interaction(tight)
    tight.advance(1)
    games = tight.channel("games").id
    sent = [await call("POST", f"/channels/{games}/messages", {"content": f"m{n}"}) for n in range(3)]
    assert [status for status, _, _ in sent] == [200, 200, 429], "the global limit of 2 is spent"
    app, token = tight.world.bot.id, result.interaction.token
    created = await call(
        "POST", f"/interactions/{result.id}/{token}/callback", {"type": 4, "data": {"content": "a"}}
    )
    original = await call("PATCH", f"/webhooks/{app}/{token}/messages/@original", {"content": "b"})
    followup = await call("POST", f"/webhooks/{app}/{token}?wait=true", {"content": "c"})
    followup_id = json.loads(followup[1])["id"]
    answers = {
        "Create Interaction Response": created[0],
        "Edit Original Interaction Response": original[0],
        "Create Followup Message": followup[0],
        "Edit Followup Message": (
            await call("PATCH", f"/webhooks/{app}/{token}/messages/{followup_id}", {"content": "d"})
        )[0],
        "Get Followup Message": (await call("GET", f"/webhooks/{app}/{token}/messages/{followup_id}"))[0],
        "Delete Followup Message": (await call("DELETE", f"/webhooks/{app}/{token}/messages/{followup_id}"))[
            0
        ],
        "Get Original Interaction Response": (
            await call("GET", f"/webhooks/{app}/{token}/messages/@original")
        )[0],
        "Delete Original Interaction Response": (
            await call("DELETE", f"/webhooks/{app}/{token}/messages/@original")
        )[0],
    }
    assert all(status in (200, 204) for status in answers.values()), answers
    assert tight.requests_counted == 4  # PUT commands, then three messages (the third refused)
    assert tight.requests_exempt == len(answers)
    assert tight.rate_limited == ["POST /channels/{channel_id}/messages"]


async def test_a_webhook_that_is_not_the_application_s_is_bound_by_the_global_limit(tight: Emulator) -> None:
    call = tight.call  # type: ignore[attr-defined]
    statuses = [
        (await call("POST", "/webhooks/987654321/webhook-token", {"content": "x"}))[0] for _ in range(3)
    ]
    assert statuses[2] == 429 and tight.requests_counted == 3 and tight.requests_exempt == 0


async def test_401_403_and_429_count_as_invalid_and_a_shared_429_does_not(tight: Emulator) -> None:
    call = tight.call  # type: ignore[attr-defined]
    games = tight.channel("games").id
    tight.server.token = "another-token"  # the bot's token no longer valid: 401
    assert (await call("GET", "/users/@me"))[0] == 401
    tight.server.token = tight.token
    assert (await call("GET", f"/applications/{tight.world.bot.id + 1}/commands"))[0] == 403
    assert (await call("GET", f"/channels/{games}/messages/1"))[0] == 404  # not invalid
    tight.force_429("GET /users/@me", scope="shared")
    shared = await call("GET", "/users/@me")
    assert shared[0] == 429 and shared[2]["X-RateLimit-Scope"] == "shared"
    assert tight.invalid_requests() == 2
    tight.force_429("GET /users/@me", scope="user")
    assert (await call("GET", "/users/@me"))[0] == 429
    assert tight.invalid_requests() == 3
    tight.advance(INVALID_WINDOW)  # a sliding 10 minutes on the emulator's clock
    assert tight.invalid_requests() == 0


def test_the_ban_comes_with_the_10001st_invalid_request_within_10_minutes() -> None:
    usage, now = Usage(), 1_000_000.0
    for n in range(INVALID_LIMIT):
        usage.answered("10.0.0.1", (401, 403, 429)[n % 3], "user", now + n * 0.01)
    assert not usage.banned("10.0.0.1", now + 100)
    usage.answered("10.0.0.1", 429, "shared", now + 100)
    assert not usage.banned("10.0.0.1", now + 100), "a shared 429 is not counted against you"
    usage.answered("10.0.0.1", 403, None, now + 100)
    assert usage.banned("10.0.0.1", now + 100) and not usage.banned("10.0.0.2", now + 100)
    assert usage.invalid_peak() == INVALID_LIMIT + 1


def test_invalid_requests_older_than_10_minutes_no_longer_count_toward_the_ban() -> None:
    usage, now = Usage(), 1_000_000.0
    for _ in range(INVALID_LIMIT):
        usage.answered("10.0.0.1", 429, "global", now)
    usage.answered("10.0.0.1", 429, "global", now + INVALID_WINDOW)  # the first 10,000 have slid out
    assert not usage.banned("10.0.0.1", now + INVALID_WINDOW)
    assert usage.invalid_in_window(now + INVALID_WINDOW) == 1


async def test_a_banned_bot_gets_cloudflare_s_page_and_discord_py_does_not_retry(tight: Emulator) -> None:
    call = tight.call  # type: ignore[attr-defined]
    tight.server.usage.invalid_limit = 3  # Discord's 10,000 checked above; the answer is the same
    tight.force_429("GET /users/@me", count=4)
    for _ in range(4):
        assert (await call("GET", "/users/@me"))[0] == 429
    assert tight.banned
    status, body, headers = await call("GET", "/users/@me")
    assert status == 429 and b"1015" in body and headers["Content-Type"].startswith("text/html")
    assert "Via" not in headers and "X-RateLimit-Limit" not in headers
    with tight.point_discord_py():
        client = discord.Client(intents=discord.Intents.default())
        with pytest.raises(discord.HTTPException) as refused:
            await client.login(tight.token)
        await client.close()
    assert refused.value.status == 429 and "1015" in refused.value.text
