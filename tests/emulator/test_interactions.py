"""Every interaction path end to end: slash commands, buttons, selects, modals, deferrals, follow-ups,
threads and channel messages, through the real discord.py client."""

from __future__ import annotations

import pytest

from emulator import Emulator, InvalidInvocation
from tests.emulator.conftest import make_bot


async def test_slash_command_with_typed_options_gets_a_public_reply(emu: Emulator, bot) -> None:
    ann, bo = emu.member("Ann"), emu.member("Bo")
    result = await ann.slash("hello", name="Bo", times=2, loud=True)
    assert result.ok and result.response_type == 4
    assert result.message.content == "HELLO BO HELLO BO"
    assert result.message.type == 20 and not result.message.ephemeral
    assert bo.visible_messages("games") == ann.visible_messages("games") == emu.public_messages("games")
    assert result.latency >= 0  # timed (Discord's 3 s are the emulator's to enforce, not the machine's)


async def test_options_are_checked_like_discord_s_client_would(emu: Emulator, bot) -> None:
    ann = emu.member("Ann")
    with pytest.raises(InvalidInvocation, match="needs option 'name'"):
        await ann.slash("hello")
    with pytest.raises(InvalidInvocation, match="not a whole number"):
        await ann.slash("hello", name="x", times="two")
    with pytest.raises(InvalidInvocation, match="no slash command /nope"):
        await ann.slash("nope")
    with pytest.raises(InvalidInvocation, match="not one of the choices"):
        await ann.slash("admin config set", key="colour", value=1)
    assert emu.world.interactions == {}


async def test_subcommand_group_with_choices(emu: Emulator, bot) -> None:
    result = await emu.member("Ann").slash("admin config set", key="Turn timer", value=90)
    assert result.message.content == "timer=90"
    assert result.message.ephemeral


async def test_member_permissions_reach_the_bot_and_hide_restricted_commands(emu: Emulator, bot) -> None:
    result = await emu.member("Mo").slash("reset")
    assert result.message.content == "reset allowed=True"
    with pytest.raises(InvalidInvocation, match="lacks the permissions"):
        await emu.member("Ann").slash("reset")
    newcomer = emu.add_member("Di", ["manage_guild"])
    assert (await newcomer.slash("reset")).message.content == "reset allowed=True"


async def test_ephemeral_reply_is_seen_only_by_its_member(emu: Emulator, bot) -> None:
    ann, bo = emu.member("Ann"), emu.member("Bo")
    result = await ann.slash("secret")
    assert result.message.content == "Only for Ann"
    assert ann.visible_messages("games") == [result.message] == ann.ephemeral_messages()
    assert bo.visible_messages("games") == [] and emu.public_messages("games") == []
    with pytest.raises(InvalidInvocation, match="cannot see"):
        await bo.click(result.message, "anything")


async def test_persistent_button_updates_its_message_and_survives_a_restart(emu: Emulator, bot) -> None:
    ann = emu.member("Ann")
    table = (await ann.slash("table")).message
    clicked = await ann.click(table, "Count 0")
    assert clicked.response_type == 7 and clicked.message.id == table.id
    assert table.content == "Count: 1" and [b["label"] for b in table.buttons()] == ["Count 1"]
    await emu.stop_bot(bot, clean=False)
    replacement = make_bot()
    await emu.run_bot(replacement)
    assert (await emu.member("Bo").click(table, "counter:1")).ok
    assert table.content == "Count: 2"
    await emu.stop_bot(replacement)


async def test_select_values_reach_the_bot(emu: Emulator, bot) -> None:
    ann = emu.member("Ann")
    table = (await ann.slash("table")).message
    picked = await ann.select(table, "Pick colours", ["blue", "red"])
    assert picked.message.content == "You picked blue, red" and picked.message.ephemeral
    with pytest.raises(InvalidInvocation, match="offers"):
        await ann.select(table, "pick:colour", ["purple"])


async def test_deferred_update_then_an_edit_of_the_original_changes_the_clicked_message(
    emu: Emulator, bot
) -> None:
    ann = emu.member("Ann")
    table = (await ann.slash("table")).message
    refreshed = await ann.click(table, "Refresh")
    assert refreshed.response_type == 6 and refreshed.message is table
    # The bot edits its original response after the deferral: nothing is in flight in between, so wait
    # for the edit itself (on a loaded machine `settle` could return before the bot sent it).
    await emu.wait_for(lambda: table.content == "Refreshed")
    assert "pick:refresh" in table.custom_ids()


async def test_a_modal_opened_by_a_button_can_update_that_button_s_message(emu: Emulator, bot) -> None:
    ann = emu.member("Ann")
    table = (await ann.slash("table")).message
    opened = await ann.click(table, "Rename")
    submitted = await ann.submit_modal(opened, {"rename:name": "Whiskers"})
    assert submitted.response_type == 7 and submitted.message is table
    assert table.content == "Renamed to Whiskers"


async def test_deferred_reply_follow_ups_and_edits(emu: Emulator, bot) -> None:
    result = await emu.member("Ann").slash("slow")
    assert result.response_type == 5
    await result.wait_for(lambda r: len(r.followups) == 1 and r.followups[0].edited_at)
    assert result.message.content == "Done thinking (edited)" and not result.message.loading
    assert [m.content for m in result.followups] == ["A second note (edited)"]
    assert [m.content for m in emu.public_messages("games")] == [
        "Done thinking (edited)",
        "A second note (edited)",
    ]


async def test_private_deferred_reply_stays_private(emu: Emulator, bot) -> None:
    result = await emu.member("Ann").slash("slow", private=True)
    await result.wait_for(lambda r: r.followups and r.followups[0].edited_at)
    assert all(m.visible_to == emu.member("Ann").id for m in result.messages)
    assert emu.public_messages("games") == [] and emu.member("Bo").visible_messages() == []


async def test_threads_from_a_channel_and_from_a_message(emu: Emulator, bot) -> None:
    result = await emu.member("Ann").slash("thread", name="Game 1")
    await emu.settle()
    loose, started = emu.channel("Game 1"), emu.channel("Game 1 (from message)")
    assert loose.type == 11 and loose.parent_id == emu.channel("games").id
    assert started.id == result.message.id and result.message.thread_id == started.id
    assert [m.content for m in emu.public_messages(loose)] == ["Welcome to the thread"]
    assert [m.content for m in emu.member("Bo").visible_messages(started)] == [
        "Welcome to the message thread"
    ]
    assert {"thread:Game 1", "thread:Game 1 (from message)"} <= set(bot.seen)
    assert bot.get_channel(loose.id) is not None


async def test_channel_messages_are_sent_edited_deleted_and_read_back(emu: Emulator, bot) -> None:
    result = await emu.member("Ann").slash("post")
    reply = await result.wait_final()
    assert reply.content == "history=['kept (edited)'] fetched=kept (edited)"
    kept = emu.public_messages("games")
    assert [m.content for m in kept] == ["kept (edited)"] and kept[0].embeds[0]["title"] == "Table"
    assert kept[0].edited_at is not None
    assert any(m.deleted and m.content == "to be deleted" for m in emu.world.messages.values())
    assert "message:kept" in bot.seen


async def test_modal_is_shown_and_submitted(emu: Emulator, bot) -> None:
    ann = emu.member("Ann")
    opened = await ann.slash("feedback")
    assert opened.response_type == 9 and opened.modal["title"] == "Feedback"
    submitted = await ann.submit_modal(opened, {"What do you think?": "purrfect"})
    assert submitted.message.content == "Thanks: purrfect"
    with pytest.raises(InvalidInvocation, match="someone else"):
        await emu.member("Bo").submit_modal(opened, {"feedback:text": "x"})


async def test_settle_waits_for_the_bot_to_go_quiet(emu: Emulator, bot) -> None:
    await emu.member("Ann").slash("post", wait=False)
    await emu.settle()
    assert emu.server.in_flight == 0 and emu.invoker.pending == 0
    assert [m.content for m in emu.public_messages("games")] == ["kept (edited)"]


async def test_every_interaction_is_timed(emu: Emulator, bot) -> None:
    await emu.member("Ann").slash("hello", name="x")
    await emu.member("Bo").slash("secret")
    timings = emu.interaction_timings()
    assert [t.label for t in timings] == ["Ann: /hello name:x", "Bo: /secret"]
    assert all(t.seconds is not None and t.seconds >= 0 for t in timings)
