"""The emulator in its own process, driven over the control API; and the readable transcript."""

from __future__ import annotations

import asyncio
import os
import signal
import sys

import pytest

from emulator import Emulator
from emulator.remote import RemoteEmulator, RemoteError
from emulator.transcript import render_message, resolve_mentions, transcript_printer
from tests.emulator.conftest import make_bot


async def test_the_control_api_drives_members_like_the_in_process_api(emu: Emulator, bot) -> None:
    async with RemoteEmulator(emu.url) as remote:
        ann, bo = remote.member("Ann"), remote.member("Bo")
        table = (await ann.slash("table")).message
        assert table.content == "Count: 0" and table.custom_ids() == [
            "pick:colour",
            "pick:refresh",
            "pick:rename",
            "counter:0",
        ]
        picked = await bo.select(table, "pick:colour", ["green"])
        assert picked.message.content == "You picked green"
        assert (await bo.click(table, "Count 0")).response_type == 7
        assert [m.content for m in await bo.ephemeral_messages()] == ["You picked green"]
        assert [m.content for m in await ann.visible_messages("games")] == ["Count: 1"]
        opened = await ann.slash("feedback")
        assert (await ann.submit_modal(opened, {"feedback:text": "nice"})).message.content == "Thanks: nice"
        await ann.slash("slow", private=True)
        await remote.settle()
        assert len(await ann.ephemeral_messages("games")) == 2
        with pytest.raises(RemoteError, match="no slash command"):
            await ann.slash("nope")
        await ann.say("lobby", "hi all")
        await emu.wait_for(lambda: "message:hi all" in bot.seen)
        state = await remote.state()
        assert {c["name"] for c in state["channels"]} == {"games", "lobby"}
        assert len(state["timings"]) == 6 and all(t["seconds"] is not None for t in state["timings"])
        assert state["violations"] == [] and state["gateway"]["connected"] == 1


async def test_emulator_in_a_separate_process_serves_a_bot_in_this_one() -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "emulator",
        "--port",
        "0",
        "--members",
        "Ann,Bo",
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    try:
        first = await asyncio.wait_for(process.stdout.readline(), 10)
        assert first.startswith(b"EMULATOR http://127.0.0.1:")
        async with RemoteEmulator(first.split()[1].decode()) as remote:
            with remote.point_discord_py():
                client = make_bot()
                task = asyncio.create_task(client.start("emulator-token"))
                while not (client.is_ready() and client.guilds):
                    assert not task.done(), task
                    await asyncio.sleep(0.01)
                result = await remote.member("Ann").slash("hello", name="process")
                assert result.message.content == "Hello process"
                await client.close()
                await task
            assert (await remote.state())["violations"] == []
    finally:
        process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(process.wait(), 10) == 0


async def test_the_transcript_reads_like_discord(emu: Emulator, bot) -> None:
    lines: list[str] = []
    emu.on_message(transcript_printer(emu.world, lines.append))
    ann = emu.member("Ann")
    table = (await ann.slash("table")).message
    await ann.click(table, "Count 0")
    await ann.slash("secret")
    assert lines[0].splitlines() == [
        "#games · Catnip: Count: 0",
        "  ▾ Pick colours (Red, Green, Blue)",
        "  [Refresh] [Rename] [Count 0]",
    ]
    assert lines[1].startswith("#games · Catnip (edited): Count: 1")
    assert lines[2] == "#games · Catnip → only Ann sees this: Only for Ann"
    assert render_message(emu.world, table, "delete") == "#games · Catnip: (message deleted)"
    now = int(emu.clock.time())
    text = f"<@{emu.member('Bo').id}> in <#{table.channel_id}>, turn ends <t:{now + 5 * 3600 + 60}:R>"
    assert resolve_mentions(emu.world, text) == "@Bo in #games, turn ends in 5 h"
