"""Direct messages from the bot as Discord answers them (emulator.direct): the DM channel opens for any
member, once; a member who closed their DMs, or shares no server with the bot, refuses the message with
403, 50007, and Discord counts that answer toward the ban."""

from __future__ import annotations

from emulator import Emulator


async def open_dm(emu: Emulator, api, name: str) -> int:
    status, channel = await api("POST", "/users/@me/channels", {"recipient_id": str(emu.member(name).id)})
    assert status == 200 and channel["type"] == 1
    assert channel["recipients"][0]["id"] == str(emu.member(name).id)
    return int(channel["id"])


async def test_a_dm_channel_opens_once_and_carries_the_bot_s_message(emu: Emulator, api) -> None:
    dm = await open_dm(emu, api, "Ann")
    assert await open_dm(emu, api, "Ann") == dm, "the existing channel is returned"
    status, sent = await api("POST", f"/channels/{dm}/messages", {"content": "hello"})
    assert status == 200 and "guild_id" not in sent
    assert [m.content for m in emu.member("Ann").direct_messages()] == ["hello"]
    assert not emu.member("Bo").direct_messages()
    assert emu.invalid_requests() == 0 and not emu.violations


async def test_a_member_who_closed_direct_messages_refuses_them_with_50007(emu: Emulator, api) -> None:
    emu.member("Ann").close_direct_messages()
    dm = await open_dm(emu, api, "Ann")
    status, body = await api("POST", f"/channels/{dm}/messages", {"content": "hello"})
    assert (status, body["code"]) == (403, 50007)
    assert not emu.member("Ann").direct_messages()
    assert emu.invalid_requests() == 1, "a 403 counts toward the ban"
    assert not emu.violations, "Discord's answer, not a broken rule: the bot could not know"


async def test_a_user_who_shares_no_server_with_the_bot_refuses_direct_messages(emu: Emulator, api) -> None:
    elsewhere = emu.add_guild("Elsewhere")
    stranger = elsewhere.owner
    status, channel = await api("POST", "/users/@me/channels", {"recipient_id": str(stranger.id)})
    assert status == 200
    elsewhere.member_ids.discard(stranger.id)  # they left the one server they shared with the bot
    status, body = await api("POST", f"/channels/{channel['id']}/messages", {"content": "hello"})
    assert (status, body["code"]) == (403, 50007)


async def test_a_dm_to_an_unknown_user_is_refused(emu: Emulator, api) -> None:
    status, body = await api("POST", "/users/@me/channels", {"recipient_id": "12345"})
    assert (status, body["code"]) == (404, 10013)
