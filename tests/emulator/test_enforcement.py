"""Rule enforcement as the real bot meets it (late answers, expired tokens, old messages, 429s), and the
harness's promises: discord.py is pointed here and nowhere else, and is restored afterwards."""

from __future__ import annotations

import asyncio
import socket

import aiohttp
import discord
import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from emulator import Emulator, NonLoopbackRefused, limits, loopback_only


async def test_an_answer_after_3_seconds_fails_and_the_bot_is_told(emu: Emulator, bot, gate) -> None:
    result = await emu.member("Ann").slash("late", wait=False)
    emu.advance(3.5)
    await emu.invoker.wait(result)
    assert result.failed == "no initial response within 3 s"
    gate.set()
    await emu.wait_for(lambda: "late response refused" in bot.seen)
    assert [v.rule for v in emu.take_violations()] == [limits.DEADLINE]


async def test_a_follow_up_after_15_minutes_is_refused(emu: Emulator, bot, gate) -> None:
    result = await emu.member("Ann").slash("later")
    assert result.response_type == 5
    emu.advance(15 * 60 + 1)
    gate.set()
    await emu.wait_for(lambda: "followup refused 401" in bot.seen)
    assert [v.rule for v in emu.take_violations()] == [limits.TOKEN_EXPIRED]


async def test_editing_a_message_older_than_an_hour_is_refused(emu: Emulator, bot, gate) -> None:
    await emu.member("Ann").slash("note")
    # The command posts its note, then waits for the gate before it edits it: it is never done first.
    await emu.wait_for(lambda: [m.content for m in emu.public_messages("games")] == ["note v1"])
    emu.advance(60 * 60 + 1)
    gate.set()
    await emu.wait_for(lambda: "edit refused 400" in bot.seen)
    assert [m.content for m in emu.public_messages("games")] == ["note v1"]
    assert [v.rule for v in emu.take_violations()] == [limits.EDIT_TOO_OLD]


async def test_the_bot_retries_after_a_429(emu: Emulator, bot) -> None:
    emu.force_429("POST /channels/{channel_id}/messages", count=2, retry_after=0.05)
    result = await emu.member("Ann").slash("post")
    reply = await result.wait_final()
    assert reply.content.startswith("history=['kept (edited)']")
    assert emu.rate_limited == ["POST /channels/{channel_id}/messages"] * 2


async def test_a_429_on_an_interaction_callback_is_retried_too(emu: Emulator, bot) -> None:
    emu.force_429("/callback", retry_after=0.05)
    result = await emu.member("Ann").slash("hello", name="again")
    assert result.message.content == "Hello again" and len(emu.rate_limited) == 1


async def test_discord_py_is_pointed_at_the_emulator_and_restored(emu: Emulator) -> None:
    before = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    with emu.point_discord_py():
        assert emu.api_base == Route.BASE
        assert str(DiscordWebSocket.DEFAULT_GATEWAY) == emu.gateway_url
    assert before == (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)


async def test_non_loopback_connections_are_refused_inside_the_harness(emu: Emulator) -> None:
    with emu.point_discord_py():
        with pytest.raises(NonLoopbackRefused):
            socket.create_connection(("192.0.2.1", 443), timeout=0.2)
        with pytest.raises(NonLoopbackRefused):
            socket.getaddrinfo("discord.com", 443)
        async with aiohttp.ClientSession() as session:
            for url in ("https://discord.com/api/v10/gateway", "http://192.0.2.1/"):
                with pytest.raises(aiohttp.ClientConnectorError) as refused:
                    await session.get(url, timeout=aiohttp.ClientTimeout(total=1))
                assert isinstance(refused.value.os_error, NonLoopbackRefused)
            async with session.get(f"{emu.api_base}/gateway") as response:
                assert response.status == 200
        _reader, writer = await asyncio.open_connection("127.0.0.1", emu.server.port)
        writer.close()
    with loopback_only():
        pass
    assert socket.getaddrinfo.__module__ == "socket"


async def test_a_real_discord_client_never_leaves_the_machine(emu: Emulator) -> None:
    with emu.point_discord_py():
        client = discord.Client(intents=discord.Intents.none())
        Route.BASE = "https://discord.com/api/v10"  # as if something pointed discord.py back at Discord
        with pytest.raises(aiohttp.ClientConnectorError) as refused:
            await client.login("emulator-token")
        assert isinstance(refused.value.os_error, NonLoopbackRefused)
        await client.close()
    assert Route.BASE == "https://discord.com/api/v10"
