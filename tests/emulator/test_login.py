"""Login, READY/GUILD_CREATE, command registration, reconnects: the real discord.py against the emulator."""

from __future__ import annotations

import discord
import pytest

from emulator import BotCrashed, Emulator, EmulatorFailure
from tests.emulator.conftest import make_bot


async def test_bot_logs_in_and_sees_the_guild_its_channels_and_members(emu: Emulator, bot) -> None:
    guild = bot.get_guild(emu.world.guild_id)
    assert guild.name == "Catnip Test"
    assert [c.name for c in guild.text_channels] == ["games", "lobby"]
    assert {m.display_name for m in guild.members} >= {"Ann", "Bo", "Mo", "Catnip"}
    assert guild.me.guild_permissions.send_messages and guild.me.guild_permissions.create_public_threads
    assert bot.application_id == bot.user.id == emu.world.bot.id
    assert emu.server.gateway.identifies == 1
    fetched = await guild.fetch_member(emu.member("Mo").id)
    assert (
        fetched.guild_permissions.manage_guild
        and not guild.get_member(emu.member("Ann").id).guild_permissions.manage_guild
    )
    assert (await bot.fetch_channel(emu.channel("lobby").id)).name == "lobby"


async def test_synced_commands_are_recorded_with_subcommand_groups_and_choices(emu: Emulator, bot) -> None:
    assert set(emu.commands) == {
        "hello",
        "secret",
        "table",
        "slow",
        "thread",
        "post",
        "feedback",
        "late",
        "later",
        "note",
        "crash",
        "admin",
        "reset",
    }
    admin = emu.commands["admin"]
    group = next(o for o in admin.options if o["name"] == "config")
    assert group["type"] == 2
    set_ = group["options"][0]
    assert set_["type"] == 1 and set_["name"] == "set"
    assert [c["value"] for c in set_["options"][0]["choices"]] == ["timer", "lang"]
    fetched = await bot.tree.fetch_commands()
    assert sorted(c.name for c in fetched) == sorted(emu.commands)


async def test_member_ids_are_stable_and_snowflakes_encode_the_current_time(emu: Emulator, bot) -> None:
    async with Emulator.start(members=["Ann"]) as other:
        assert other.member("Ann").id == emu.member("Ann").id
    result = await emu.member("Ann").slash("hello", name="Bo")
    created = discord.utils.snowflake_time(result.message.id).timestamp()
    assert abs(created - emu.clock.time()) < 5


async def test_dropped_connection_is_resumed_and_missed_events_are_replayed(emu: Emulator, bot) -> None:
    assert await emu.drop_gateway() == 1
    ann = emu.member("Ann")
    await ann.say("games", "sent while the bot was away")
    await emu.wait_for(lambda: emu.server.gateway.connected)
    await emu.wait_for(lambda: "message:sent while the bot was away" in bot.seen)
    assert emu.server.gateway.resumes == 1 and emu.server.gateway.identifies == 1
    result = await ann.slash("hello", name="again")
    assert result.message.content == "Hello again"


async def test_op7_reconnect_resumes_too(emu: Emulator, bot) -> None:
    await emu.request_reconnect()
    await emu.wait_for(lambda: emu.server.gateway.resumes == 1)
    assert (await emu.member("Bo").slash("hello", name="Bo")).ok


async def test_invalidated_session_makes_the_bot_identify_again(emu: Emulator, bot) -> None:
    emu.invalidate_sessions()
    await emu.drop_gateway()
    await emu.wait_for(lambda: emu.server.gateway.identifies == 2 and emu.server.gateway.connected)
    await emu.wait_for(lambda: bot.is_ready() and bot.get_guild(emu.world.guild_id))
    assert (await emu.member("Ann").slash("hello", name="twice")).message.content == "Hello twice"


async def test_an_error_logged_by_discord_py_fails_the_test(emu: Emulator, bot) -> None:
    result = await emu.member("Ann").slash("crash", wait=False)
    with pytest.raises(EmulatorFailure, match="boom"):
        await emu.wait_for(lambda: result.failed)
    emu.take_violations()


async def test_a_dead_bot_task_is_surfaced(emu: Emulator) -> None:
    with emu.point_discord_py():
        client = make_bot()
        emu.token = "wrong-token"
        with pytest.raises(BotCrashed) as crashed:
            await emu.run_bot(client)
        assert isinstance(crashed.value.__cause__, discord.LoginFailure)
        await client.close()
    emu.errors.records.clear()
