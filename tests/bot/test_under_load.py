"""Races that only show when many tables move at once (found by `python -m bench.bot_load`)."""

from __future__ import annotations

import asyncio

from bot.clock import ManualClock
from bot.sessions import GameService
from bot.storage import SqliteGameStore

ANN, BO = 101, 102


async def test_a_table_shown_while_its_game_starts_never_finds_it_started_without_a_state(tmp_path):
    store = SqliteGameStore(tmp_path / "catnip.sqlite3")
    await store.open()
    service = GameService(store, ManualClock())
    seen: list[tuple[str, bool]] = []

    class Presenter:
        """Looks at the game on every turn of the event loop, as background table updates do."""

        async def lobby_changed(self, game):
            async def watch():
                while game.state is None and game.record.status in ("lobby", "active"):
                    seen.append((game.record.status, game.state is None))
                    await asyncio.sleep(0)

            asyncio.get_running_loop().create_task(watch())

        async def game_changed(self, game, events):
            pass

        async def game_closed(self, game, reason):
            pass

    service.show_with(Presenter())
    live = await service.lobby.open_lobby(
        game_key="catsdogs", guild_id=1, channel_id=10, thread_id=None, host_id=ANN, host_name="Ann"
    )
    await service.lobby.join(live.id, BO, "Bo")
    await service.start(live.id, ANN, seed=1)
    await asyncio.sleep(0)
    assert seen, "the watcher looked at the lobby"
    assert ("active", True) not in seen
    await service.shutdown()
    await store.close()
