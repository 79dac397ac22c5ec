"""Discord's rate limits as the emulator answers them, and discord.py waiting for them as on Discord."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
import pytest

from emulator import Emulator
from emulator.ratelimits import DISCORD, RateLimits


@pytest.fixture
async def api(emu: Emulator):
    headers = {"Authorization": f"Bot {emu.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:

        async def call(method: str, path: str, payload: Any = None) -> tuple[int, Any, Any]:
            async with session.request(method, emu.api_base + path, json=payload) as response:
                body = await response.json() if response.content_type == "application/json" else None
                return response.status, body, response.headers

        yield call


async def test_the_sixth_message_in_5_seconds_in_one_channel_gets_discord_s_429(emu: Emulator, api) -> None:
    games, lobby = emu.channel("games").id, emu.channel("lobby").id
    answers = [await api("POST", f"/channels/{games}/messages", {"content": f"m{n}"}) for n in range(6)]
    assert [status for status, _, _ in answers] == [200] * 5 + [429]
    assert [int(headers["X-RateLimit-Remaining"]) for _, _, headers in answers[:5]] == [4, 3, 2, 1, 0]
    _, body, headers = answers[5]
    assert set(body) == {"message", "retry_after", "global"} and body["global"] is False
    assert 0 < body["retry_after"] <= 5 and float(headers["Retry-After"]) == body["retry_after"]
    assert headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
    assert (
        headers["X-RateLimit-Limit"] == "5"
        and headers["X-RateLimit-Bucket"] == answers[0][2]["X-RateLimit-Bucket"]
    )
    assert len(emu.public_messages("games")) == 5
    assert (await api("POST", f"/channels/{lobby}/messages", {"content": "elsewhere"}))[0] == 200
    emu.advance(5)  # the window is on the emulator's clock
    assert (await api("POST", f"/channels/{games}/messages", {"content": "again"}))[0] == 200
    assert emu.rate_limited == ["POST /channels/{channel_id}/messages"]


async def test_sending_editing_and_deleting_are_three_buckets_deleting_the_quickest(
    emu: Emulator, api
) -> None:
    games = emu.channel("games").id
    sent = [(await api("POST", f"/channels/{games}/messages", {"content": f"m{n}"}))[1] for n in range(5)]
    edits = [await api("PATCH", f"/channels/{games}/messages/{m['id']}", {"content": "e"}) for m in sent]
    assert [status for status, _, _ in edits] == [200] * 5
    assert (
        edits[0][2]["X-RateLimit-Reset-After"] == "5.000" or float(edits[0][2]["X-RateLimit-Reset-After"]) > 4
    )
    deletions = [await api("DELETE", f"/channels/{games}/messages/{m['id']}") for m in sent[:5]]
    assert all(status == 204 for status, _, _ in deletions)
    assert float(deletions[0][2]["X-RateLimit-Reset-After"]) <= 1
    assert emu.rate_limited == []


async def test_the_global_limit_spares_interaction_answers() -> None:
    tight = RateLimits(global_per_second=3, routes={}, other=None)
    async with Emulator.start(members=["Ann"], rate_limits=tight) as emu:
        headers = {"Authorization": f"Bot {emu.token}"}
        async with aiohttp.ClientSession(headers=headers) as session:
            statuses = []
            for _ in range(4):
                async with session.get(emu.api_base + "/users/@me") as response:
                    statuses.append(response.status)
                    body, answer = await response.json(), response.headers
            assert statuses == [200, 200, 200, 429]
            assert body["global"] is True and answer["X-RateLimit-Global"] == "true"
            assert answer["X-RateLimit-Scope"] == "global"
            commands = [{"name": "ping", "description": "ping", "type": 1, "options": []}]
            emu.advance(1)
            async with session.put(f"{emu.api_base}/applications/{emu.world.bot.id}/commands", json=commands):
                pass
            for _ in range(2):
                async with session.get(emu.api_base + "/users/@me") as response:
                    assert response.status == 200
            result = await emu.member("Ann").slash("ping", wait=False)
            url = f"{emu.api_base}/interactions/{result.id}/{result.interaction.token}/callback"
            async with session.post(url, json={"type": 4, "data": {"content": "pong"}}) as response:
                assert response.status == 204
        assert emu.rate_limited == ["GET /users/@me"]


async def test_discord_py_waits_for_a_channel_s_bucket_instead_of_failing() -> None:
    """Discord's limits at a quarter of their windows: eight messages sent at once run the channel's
    bucket dry however slow the machine, and discord.py waits for it (a second or so)."""
    async with Emulator.start(rate_limits=DISCORD.scaled(0.25)) as emu:
        with emu.point_discord_py():
            client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
            await emu.run_bot(client)
            channel = client.get_channel(emu.channel("games").id)
            sent = await asyncio.gather(*(channel.send(f"m{n}") for n in range(8)))
            await asyncio.gather(*(message.edit(content="edited") for message in sent))
            await asyncio.gather(*(message.delete() for message in sent[:4]))
            await emu.stop_bot(client)
            assert len(emu.public_messages("games")) == 4
            assert {m.content for m in emu.public_messages("games")} == {"edited"}
            assert emu.rate_limited == [], "discord.py read the headers and waited: no request was refused"
            assert "POST /channels/{channel_id}/messages" in emu.buckets_run_dry
