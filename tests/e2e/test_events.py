"""Gateway events Catnip does not dispatch, or not even read, for itself still reach whatever
listens to them."""

from __future__ import annotations

import asyncio

import pytest

from engine import Rng
from tests.e2e.driver import Table, catnip, open_table, table_of


@pytest.mark.parametrize("hearing", ["listener", "waiter"])
async def test_a_table_edit_reaches_a_listener_or_a_waiter_though_no_part_of_catnip_listens(
    tmp_path, hearing
):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        table = Table(emu, thread, members, Rng.seeded(4))
        heard: list[int] = []
        if hearing == "waiter":
            waiting = asyncio.create_task(bot.wait_for("raw_message_edit", timeout=30))
            await asyncio.sleep(0)
        else:

            async def on_raw_message_edit(payload) -> None:
                heard.append(payload.message_id)

            bot.add_listener(on_raw_message_edit)
        await table.step()
        await bot.presenter.settle()
        await emu.settle()
        if hearing == "waiter":
            heard.append((await waiting).message_id)
        assert table_of(emu, thread).id in heard
