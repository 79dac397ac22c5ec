"""Over the emulated Discord: a crash mid-game and a restart, and every kind of bad click."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import sys

from bot.errors import Refusal
from emulator.callbacks import DEFERRED_UPDATE
from engine import Rng
from tests.e2e.driver import Table, catnip, open_table, private_reply, start_catnip, table_of


async def crash(emu, bot) -> None:
    """Kill the bot as a dead process would stop: no clean shutdown, nothing flushed or closed."""
    tasks = [*bot._background, *bot.presenter.schedule._workers, *bot.service.computers.tasks.values()]
    await emu.stop_bot(bot, clean=False)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def test_a_crashed_bot_restarts_and_the_game_goes_on_through_its_old_buttons(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        table = Table(emu, thread, members, Rng.seeded(3))
        for _ in range(8):
            await table.step()
        before = table_of(emu, thread)
        moves_before = len(await bot.store.games.moves(next(iter(bot.service.live))))
        await crash(emu, bot)

        again = await start_catnip(emu, tmp_path / "catnip.sqlite3", seed=2)
        try:
            await emu.settle()
            assert table_of(emu, thread).id == before.id, "the resumed table is edited in place"
            game = next(iter(again.service.live.values()))
            assert len(await again.store.games.moves(game.id)) == moves_before
            for _ in range(2000):
                if table.over():
                    break
                await table.step()
            assert table.over()
            assert "🏆" in table_of(emu, thread).embeds[0]["description"]
        finally:
            await again.close()


def ends_with_its_next_move(game) -> bool:
    rules, state = game.rules, game.state
    return any(
        rules.outcome(rules.apply(state, seat, action)[0]) is not None
        for seat in rules.to_act(state)
        for action in rules.legal_actions(state, seat)
    )


async def test_a_game_that_ended_as_the_bot_died_shows_its_result_when_the_bot_is_back(tmp_path):
    """The move that ends a game is saved before its table shows it. A bot that dies in between shows
    the final table (the result and the Rematch button) when it starts again, and only that once:
    finished games are otherwise never loaded, so the table would show a turn forever."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 1)
        table = Table(emu, thread, members, Rng.seeded(5))
        game = next(iter(bot.service.live.values()))
        while not ends_with_its_next_move(game):
            await table.step()
        bot.presenter.refresh = lambda game: None  # the bot dies before its table shows the last move
        await table.step()
        assert game.record.status == "finished" and not table.over()
        shown_before = table_of(emu, thread).embeds[0]["footer"]["text"]
        await crash(emu, bot)

        again = await start_catnip(emu, tmp_path / "catnip.sqlite3", seed=2)
        try:
            # Once ready, the new process shows the last table: the result, with its Rematch button.
            await emu.wait_for(table.over)
            await again.presenter.settle()
            final = table_of(emu, thread)
            assert final.embeds[0]["footer"]["text"] != shown_before
            assert not again.service.live, "the finished game is shown, not run"
            assert await again.store.games.endings_to_show() == []
            assert (await members[0].click(final, "Rematch")).ok
            await emu.settle()
            assert len(again.service.live) == 1, "the rematch started"
        finally:
            await again.close()


async def test_a_game_closed_as_the_bot_died_says_so_when_the_bot_is_back(tmp_path):
    """A game closed (here abandoned) is saved as closed before its table says so: a bot that dies in
    between marks the table closed, with the reason, when it starts again."""
    async with catnip(tmp_path) as (emu, bot):
        thread, _ = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))

        async def dies_first(game, reason):
            pass

        bot.presenter.game_closed = dies_first
        await bot.service.endings.abandon(game, "Nobody moved for a day.")
        assert "closed" not in table_of(emu, thread).embeds[0]["title"]
        await crash(emu, bot)

        again = await start_catnip(emu, tmp_path / "catnip.sqlite3", seed=2)
        try:
            await emu.wait_for(lambda: table_of(emu, thread).embeds[0]["title"].endswith("closed"))
            closed = table_of(emu, thread).embeds[0]
            assert closed["description"] == "Nobody moved for a day."
            assert not table_of(emu, thread).buttons()
            await emu.wait_for(lambda: not rows(tmp_path, "SELECT game_id FROM endings_to_show"))
        finally:
            await again.close()


def rows(tmp_path, sql: str) -> list[tuple]:
    """What `sql` reads from the bot's SQLite file right now (as another process would)."""
    with contextlib.closing(sqlite3.connect(tmp_path / "catnip.sqlite3")) as db:
        return db.execute(sql).fetchall()


async def test_bad_clicks_get_a_private_answer_and_change_nothing(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        tab = table_of(emu, thread)
        stranger = emu.member("Flo")
        version = game.record.version
        acting = game.to_act()[0]
        actor = members[acting]
        idle = members[(acting + 1) % 3]
        actor_card = game.state.hands[acting][0]
        idle_card = game.state.hands[(acting + 1) % 3][0]

        panels = Table(emu, thread, members, Rng.seeded(1))
        actor_panel, idle_panel = await panels.panel(actor), await panels.panel(idle)

        assert "This game is between" in await private_reply(stranger, tab, f"cn:v:{game.id}", force=True)
        assert "private panel" in await private_reply(
            stranger, tab, f"cn:a:{game.id}:{version}:p:{actor_card}", force=True
        )
        assert "private panel" in await private_reply(
            actor, tab, f"cn:a:{game.id}:{version}:p:{actor_card}", force=True
        )
        assert "not your turn" in await private_reply(
            idle, idle_panel, f"cn:a:{game.id}:{version}:p:{idle_card}", force=True
        )
        assert "isn't valid any more" in await private_reply(actor, tab, "totally-forged", force=True)
        assert "isn't valid any more" in await private_reply(
            actor, actor_panel, f"cn:a:{game.id}:x:p:C1", force=True
        )
        assert "can't find" in await private_reply(
            actor, tab, f"cn:a:999999:{version}:p:{actor_card}", force=True
        )
        assert game.record.version == version and await bot.store.games.moves(game.id) == []

        first = await actor.click(actor_panel, f"cn:a:{game.id}:{version}:p:{actor_card}", force=True)
        assert first.ok
        await emu.settle()
        assert "moved on" in await private_reply(
            actor, actor_panel, f"cn:a:{game.id}:{version}:p:{actor_card}", force=True
        )
        assert game.record.version == version + 1

        table = Table(emu, thread, members, Rng.seeded(9))
        while not table.over():
            await table.step()
        finished = await private_reply(
            actor, table_of(emu, thread), f"cn:a:{game.id}:{game.record.version}:p:C1", force=True
        )
        assert "finished" in finished
        assert not emu.violations


async def test_an_unexpected_failure_gets_an_apology_and_a_log_line_naming_the_game(tmp_path, caplog):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))

        async def broken(*args, **kwargs):
            raise RuntimeError("disk on fire")

        bot.service.play = broken
        actor = members[game.to_act()[0]]
        card = game.state.hands[game.to_act()[0]][0]
        panel = await Table(emu, thread, members, Rng.seeded(1)).panel(actor)
        text = await private_reply(actor, panel, f"cn:a:{game.id}:{game.record.version}:p:{card}", force=True)
        assert "Sorry" in text and "disk on fire" not in text
        logged = [r for r in caplog.records if r.name == "catnip.components"]
        assert logged and f"game={game.id}" in logged[-1].getMessage() and "seat=" in logged[-1].getMessage()
        assert card not in logged[-1].getMessage(), "the hand card clicked stays out of the log"


async def test_a_click_answered_too_late_logs_one_warning_and_its_move_is_kept(tmp_path, caplog):
    """Discord drops a click not answered within 3 s ("Unknown interaction"): that is the bot being
    behind, not a fault of the click, so it is one warning line, no traceback, and the move it made
    stays made and shown."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        version, actor = game.record.version, members[game.to_act()[0]]
        panel = await Table(emu, thread, members, Rng.seeded(1)).panel(actor)
        card = game.state.hands[game.to_act()[0]][0]
        emu.world.response_deadline = 0.0  # every answer from now on comes too late
        result = await actor.click(panel, f"cn:a:{game.id}:{version}:p:{card}")
        await bot.presenter.settle()
        await emu.settle()
        assert result.failed and "no initial response" in result.failed
        assert game.record.version == version + 1, "the move was made"
        assert f"move {version}" in table_of(emu, thread).embeds[0]["footer"]["text"], "and is shown"
        late = [r for r in caplog.records if "answered too late" in r.getMessage()]
        assert len(late) == 1 and late[0].levelname == "WARNING" and late[0].exc_info is None
        assert not [r for r in caplog.records if r.levelname == "ERROR" and r.name.startswith("catnip")]
        (dropped,) = emu.take_violations()  # the emulator's record of the click Discord dropped
        assert dropped.rule == "deadline" and result.failed in dropped.detail


async def test_a_refusal_answered_too_late_is_the_same_one_warning(tmp_path, caplog):
    """A click refused (out of turn) when the bot is too far behind to answer it in time: the refusal
    cannot reach the player either, and that is the same one warning line, not an error."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        version, idle = game.record.version, (game.to_act()[0] + 1) % 3
        panel = await Table(emu, thread, members, Rng.seeded(1)).panel(members[idle])
        emu.world.response_deadline = 0.0
        card = game.state.hands[idle][0]
        result = await members[idle].click(panel, f"cn:a:{game.id}:{version}:p:{card}", force=True)
        await emu.wait_for(lambda: [r for r in caplog.records if "answered too late" in r.getMessage()])
        await emu.settle()
        assert result.failed and game.record.version == version
        late = [r for r in caplog.records if "answered too late" in r.getMessage()]
        assert len(late) == 1 and late[0].levelname == "WARNING" and late[0].exc_info is None
        assert not [r for r in caplog.records if r.levelname == "ERROR"]
        emu.take_violations()


def answer_soon(monkeypatch) -> None:
    """Acknowledge clicks after 50 ms (in the cog module the running bot loaded: each bot loads its own)."""
    monkeypatch.setattr(sys.modules["cogs.play._components"], "ANSWER_WITHIN", 0.05)


def slowed(work, seconds: float):
    """`work`, called only after `seconds` have passed."""

    async def slow(*args, **kwargs):
        await asyncio.sleep(seconds)
        return await work(*args, **kwargs)

    return slow


async def test_a_move_slow_to_save_is_acknowledged_in_time_and_its_result_follows(tmp_path, monkeypatch):
    async with catnip(tmp_path) as (emu, bot):
        answer_soon(monkeypatch)
        thread, members = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        seat = game.to_act()[0]
        panel = await Table(emu, thread, members, Rng.seeded(1)).panel(members[seat])
        saving, saved = asyncio.Event(), []
        commit = bot.store.games.commit_move

        async def saved_once_acknowledged(*args, **kwargs):
            await saving.wait()  # held until the click is acknowledged: as slow as it takes
            saved.append(await commit(*args, **kwargs))
            return saved[-1]

        monkeypatch.setattr(bot.store.games, "commit_move", saved_once_acknowledged)
        card = game.state.hands[seat][0]
        result = await members[seat].click(panel, f"cn:a:{game.id}:{game.record.version}:p:{card}")

        assert result.ok and result.response_type == DEFERRED_UPDATE and not saved, "acknowledged first"
        saving.set()
        shown = await result.wait_for(lambda r: r.message and r.message.edited_at and r.message)
        assert card not in {c.get("custom_id", "").rsplit(":", 1)[-1] for c in shown.interactive()}
        assert len(await bot.store.games.moves(game.id)) == 1
        assert not [m for m in result.followups if m.ephemeral], "the result is no message of its own"
        assert not emu.violations


async def test_a_refusal_after_the_click_was_acknowledged_comes_as_a_private_follow_up(tmp_path, monkeypatch):
    async def refuse(*args, **kwargs):
        raise Refusal("It's not your turn — waiting for someone else.")

    async with catnip(tmp_path) as (emu, bot):
        answer_soon(monkeypatch)
        thread, members = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        seat = game.to_act()[0]
        monkeypatch.setattr(bot.service, "play", slowed(refuse, 0.2))
        card = game.state.hands[seat][0]
        panel = await Table(emu, thread, members, Rng.seeded(1)).panel(members[seat])
        custom_id = f"cn:a:{game.id}:{game.record.version}:p:{card}"
        result = await members[seat].click(panel, custom_id, force=True)
        note = await result.wait_followup()
        assert result.response_type == DEFERRED_UPDATE
        assert note.ephemeral and note.visible_to == members[seat].id and "not your turn" in note.text()
        assert await bot.store.games.moves(game.id) == [] and not emu.violations
