"""Gateway events Catnip does not dispatch for itself still reach whatever listens to them."""

from __future__ import annotations

import asyncio

from engine import Rng
from tests.e2e.driver import Table, catnip, open_table, table_of


async def test_a_table_edit_reaches_a_listener_and_a_waiter_though_no_part_of_catnip_listens(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        table = Table(emu, thread, members, Rng.seeded(4))
        waiting = asyncio.create_task(bot.wait_for("raw_message_edit", timeout=30))
        heard: list[int] = []

        async def on_raw_message_edit(payload) -> None:
            heard.append(payload.message_id)

        bot.add_listener(on_raw_message_edit)
        await table.step()
        await bot.presenter.settle()
        await emu.settle(idle=0.02)
        edited = await waiting
        shown = table_of(emu, thread).id
        assert edited.message_id == shown and shown in heard
