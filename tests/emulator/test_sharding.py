"""Gateway sharding in the emulator: each guild's events reach only its shard's session, DMs shard 0,
`GET /gateway/bot` recommends shards, and IDENTIFYs Discord would refuse are closed with its codes."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import aiohttp

from emulator import Emulator
from emulator.gateway import ACK_ROUND_TRIP, GUILD_MESSAGES, GUILDS, shard_of
from emulator.model import Command

INTENTS = GUILDS | GUILD_MESSAGES


class RawSession:
    """One gateway connection spoken by hand: IDENTIFY with a shard, then every dispatch it receives."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.events: list[tuple[str, dict[str, Any]]] = []

    async def read(self, until: str | None = None, timeout: float = 3.0) -> None:
        """Read dispatches until one named `until` (or, without it, until the connection is quiet)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout if until else 0.2):
                async for message in self.ws:
                    if message.type is not aiohttp.WSMsgType.TEXT:
                        return
                    payload = json.loads(message.data)
                    if payload["op"] == 0:
                        self.events.append((payload["t"], payload["d"]))
                        if payload["t"] == until:
                            return

    def guilds(self, event: str) -> set[int]:
        key = "id" if event == "GUILD_CREATE" else "guild_id"
        return {int(d[key]) for t, d in self.events if t == event and key in d}

    def count(self, event: str) -> int:
        return sum(1 for t, _ in self.events if t == event)


@contextlib.asynccontextmanager
async def connected(emu: Emulator, shard: Any):
    async with aiohttp.ClientSession() as http, http.ws_connect(emu.gateway_url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == 10
        identify: dict[str, Any] = {"token": emu.token, "intents": INTENTS, "properties": {}}
        if shard is not None:
            identify["shard"] = shard
        await ws.send_json({"op": 2, "d": identify})
        yield RawSession(ws)


async def closed_with(emu: Emulator, shard: Any) -> int | None:
    async with connected(emu, shard) as session:
        await session.ws.receive()
        return session.ws.close_code


def guilds_of_shards(emu: Emulator, count: int) -> dict[int, list[int]]:
    spread: dict[int, list[int]] = {n: [] for n in range(count)}
    for guild_id in emu.world.guilds:
        spread[shard_of(guild_id, count)].append(guild_id)
    return spread


async def test_each_guilds_events_reach_only_the_session_of_its_shard_and_dms_reach_shard_0():
    async with Emulator.start(members=["Ann"]) as emu:
        for n in range(1, 9):
            emu.add_guild(f"Guild {n}", channels=(f"games-{n}",), members=(f"Member {n}",))
        spread = guilds_of_shards(emu, 2)
        assert spread[0] and spread[1], "the guilds spread over both shards"
        async with connected(emu, [0, 2]) as zero, connected(emu, [1, 2]) as one:
            await zero.read(until="READY")
            await one.read(until="READY")
            await zero.read()
            await one.read()
            for session, shard in ((zero, 0), (one, 1)):
                ready = next(d for t, d in session.events if t == "READY")
                assert {int(g["id"]) for g in ready["guilds"]} == set(spread[shard])
                assert ready["shard"] == [shard, 2]
                assert session.guilds("GUILD_CREATE") == set(spread[shard])
            for n in range(1, 9):
                await emu.member(f"Member {n}").say(f"games-{n}", "hello")
            await emu.member("Ann").say(emu.dm_channel(emu.member("Ann")), "psst")
            await zero.read()
            await one.read()
            assert zero.guilds("MESSAGE_CREATE") | one.guilds("MESSAGE_CREATE") == set(
                spread[0] + spread[1]
            ) - {emu.world.guild_id}
            for session, shard in ((zero, 0), (one, 1)):
                assert session.guilds("MESSAGE_CREATE") <= set(spread[shard])
            direct = {
                name: [d for t, d in session.events if t == "MESSAGE_CREATE" and "guild_id" not in d]
                for name, session in (("zero", zero), ("one", one))
            }
            assert len(direct["zero"]) == 1 and direct["one"] == []


async def test_interactions_go_to_the_shard_of_their_guild():
    async with Emulator.start(members=["Ann"], response_deadline=0.2, strict=False) as emu:
        for n in range(1, 5):
            emu.add_guild(f"Guild {n}", channels=(f"games-{n}",), members=(f"Member {n}",))
        spread = guilds_of_shards(emu, 2)
        guild = next(g for g in spread[1] if g != emu.world.guild_id)
        name = emu.world.guilds[guild].name.replace("Guild", "Member")
        async with connected(emu, [0, 2]) as zero, connected(emu, [1, 2]) as one:
            await zero.read(until="READY")
            await one.read(until="READY")
            command = Command(emu.world.new_id(), "hello", 1, "Say hi", [], None, {"name": "hello"})
            emu.world.commands[command.id] = command
            await emu.member(name).slash("hello", f"games-{name.split()[-1]}", wait=False)
            await zero.read()
            await one.read()
            assert one.guilds("INTERACTION_CREATE") == {guild}
            assert zero.count("INTERACTION_CREATE") == 0


async def test_get_gateway_bot_recommends_one_shard_per_thousand_guilds_and_tells_the_start_limit():
    async with Emulator.start(members=["Ann"], guilds_per_shard=3, max_concurrency=4) as emu:
        for n in range(1, 7):
            emu.add_guild(f"Guild {n}")
        async with aiohttp.ClientSession() as http:
            headers = {"Authorization": f"Bot {emu.token}"}
            async with http.get(f"{emu.api_base}/gateway/bot", headers=headers) as response:
                before = await response.json()
            async with connected(emu, [0, 3]) as session:
                await session.read(until="READY")
            async with http.get(f"{emu.api_base}/gateway/bot", headers=headers) as response:
                after = await response.json()
            async with http.get(f"{emu.api_base}/gateway") as response:
                plain = await response.json()
        assert before["url"] == emu.gateway_url == plain["url"] and set(plain) == {"url"}
        assert before["shards"] == 3  # 7 guilds at 3 per shard
        limit = before["session_start_limit"]
        assert set(limit) == {"total", "remaining", "reset_after", "max_concurrency"}
        assert limit["max_concurrency"] == 4 and limit["remaining"] == limit["total"]
        assert after["session_start_limit"]["remaining"] == limit["total"] - 1
    async with Emulator.start(members=["Ann"]) as emu, aiohttp.ClientSession() as http:
        headers = {"Authorization": f"Bot {emu.token}"}
        async with http.get(f"{emu.api_base}/gateway/bot", headers=headers) as response:
            assert (await response.json())["shards"] == 1


async def test_an_invalid_shard_is_closed_with_4010():
    async with Emulator.start(members=["Ann"]) as emu:
        for shard in ([2, 2], [-1, 2], [0, 0], [0], "0,1", [True, 2]):
            assert await closed_with(emu, shard) == 4010, shard
        assert emu.server.gateway.sessions == {}


async def test_a_session_holding_too_many_guilds_is_closed_with_4011_and_sharding_fixes_it():
    async with Emulator.start(members=["Ann"], max_guilds_per_session=3) as emu:
        for n in range(1, 6):
            emu.add_guild(f"Guild {n}")
        assert await closed_with(emu, None) == 4011
        assert await closed_with(emu, [0, 1]) == 4011
        assert max(len(guilds) for guilds in guilds_of_shards(emu, 3).values()) <= 3
        async with connected(emu, [0, 3]) as session:
            await session.read(until="READY")
            assert session.count("READY") == 1
    async with Emulator.start(members=["Ann"]) as emu:
        assert emu.server.gateway.max_guilds_per_session == 2500


async def test_a_heartbeat_is_acknowledged_a_network_round_trip_later_not_at_once():
    # discord.py times a heartbeat from when its thread finished sending it: an ACK quicker than that
    # was timed from the heartbeat before and logged as "websocket is 41.3s behind" (emulator/gateway.py).
    async with (
        Emulator.start() as emu,
        aiohttp.ClientSession() as http,
        http.ws_connect(emu.gateway_url) as ws,
    ):
        assert (await ws.receive_json())["op"] == 10
        loop = asyncio.get_running_loop()
        sent = loop.time()
        await ws.send_json({"op": 1, "d": None})
        assert (await ws.receive_json())["op"] == 11
        assert loop.time() - sent >= ACK_ROUND_TRIP
