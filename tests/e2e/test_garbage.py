"""A move's click, its answer and the table it changes are freed as soon as they are done with.

Under load, discord.py's interactions (each tied to its response in a reference cycle) and the
discord.ui views every message used to carry were left for the garbage collector: about 100
objects a move, and a collection every few dozen moves.
"""

from __future__ import annotations

import gc
from collections import Counter

from discord_door import stored_views
from engine import Rng
from tests.e2e.driver import Table, catnip, open_table


async def test_moves_leave_no_interaction_or_view_of_catnips_for_the_garbage_collector(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 4)
        table = Table(emu, thread, members, Rng.seeded(11))
        await table.step()
        await bot.presenter.settle()
        gc.collect()
        gc.disable()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            moves = 0
            for _ in range(12):
                moves += await table.step() is not None
            await bot.presenter.settle()
            await emu.settle()
            gc.collect()
            kinds = (type(o) for o in gc.garbage)
            left = Counter(kind.__qualname__ for kind in kinds if kind.__module__.startswith("discord"))
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
    assert moves >= 8
    assert left == Counter(), "discord.py objects of Catnip's clicks waited for the garbage collector"


async def test_discord_py_keeps_no_view_of_the_tables_lobbies_and_panels_catnip_sends(tmp_path):
    """Clicks are routed by custom_id: a view kept by discord.py would only ever grow."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        table = Table(emu, thread, members, Rng.seeded(3))
        for _ in range(6):
            await table.step()
        await bot.presenter.settle()
        assert stored_views(bot) == (0, 0)
