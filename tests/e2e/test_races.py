"""Two controls pressed at the same moment over the emulated Discord: each gets a sensible answer, the game
ends up as one of them left it, and nobody is told "Sorry — something went wrong"."""

from __future__ import annotations

import asyncio
import logging

import pytest

from engine import Rng
from tests.e2e.driver import Table, catnip, open_table, table_of

LOBBY_ACTIONS = {
    # name: (member, how they press it, whether it shows in the game's record)
    "join": ("Cy", lambda m, lobby: m.click(lobby, "Join", wait=False), lambda r: "Cy" in names(r)),
    "add computer": (
        "Ann",
        lambda m, lobby: m.select(lobby, "Add computer player (host)…", ["easy"], wait=False),
        lambda r: any(s.computer for s in r.seats),
    ),
    "leave": ("Bo", lambda m, lobby: m.click(lobby, "Leave", wait=False), lambda r: "Bo" not in names(r)),
    "option": (
        "Ann",
        lambda m, lobby: m.select(lobby, "Decision timer…", ["300"], wait=False),
        lambda r: r.options.get("turn_timer") == 300,
    ),
}
CONTROLS = {
    # name: (store method that makes it, status after it, the refusal a lobby click after it gets)
    "Start": ("start_game", "active", "This game has already started."),
    "Cancel": ("set_status", "cancelled", "This game was cancelled."),
}


def names(record) -> list[str]:
    return [seat.name for seat in record.seats]


def private_answer(result, member, panel=None) -> str | None:
    """The text of the private message a click was answered with, if any (not the `panel` it updated)."""
    for message in result.messages:
        if message.ephemeral and message.visible_to == member.id and message.id != getattr(panel, "id", None):
            return message.text()
    return None


def slowed(bot, method: str, seconds: float = 0.2) -> None:
    """The store's `method` takes `seconds` longer, holding its game's lobby meanwhile."""
    original = getattr(bot.store.games, method)

    async def slow(*args, **kwargs):
        await asyncio.sleep(seconds)
        return await original(*args, **kwargs)

    setattr(bot.store.games, method, slow)


def no_errors(emu, results, caplog) -> None:
    assert all(result.ok for result in results), [result.failed for result in results]
    for result in results:
        assert not any("Sorry" in message.text() for message in result.messages)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert not emu.violations


async def open_lobby(emu, game: str = "catsdogs"):
    """Ann's lobby of `game` with Bo joined: its thread and the lobby message."""
    ann, bo = emu.member("Ann"), emu.member("Bo")
    await (await ann.slash("play", game=game)).wait_final()
    thread = await emu.wait_for(lambda: (emu.threads("games") or [None])[-1])
    lobby = await emu.wait_for(lambda: table_of(emu, thread))
    assert (await bo.click(lobby, "Join")).ok
    await emu.settle()
    return thread, table_of(emu, thread)


async def press_in_order(emu, bot, game_id: int, first, second):
    """Press `first`, and `second` while the first one's change is on its way to the store."""
    early = await first()
    await emu.wait_for(lambda: bot.store.lock(game_id).locked() or early.ok)
    late = await second()
    for result in (early, late):
        await emu.invoker.wait(result)
    await emu.settle()
    return early, late


@pytest.mark.parametrize("control", CONTROLS)
@pytest.mark.parametrize("action", LOBBY_ACTIONS)
@pytest.mark.parametrize("first", ["lobby action", "control"])
async def test_a_lobby_click_racing_start_or_cancel_is_applied_or_refused_as_such(
    tmp_path, caplog, action, control, first
):
    caplog.set_level(logging.INFO)
    name, press, shows = LOBBY_ACTIONS[action]
    method, status, refusal = CONTROLS[control]
    async with catnip(tmp_path) as (emu, bot):
        _thread, lobby = await open_lobby(emu)
        game_id = next(iter(bot.service.live))
        ann, member = emu.member("Ann"), emu.member(name)

        def press_action():
            return press(member, lobby)

        def press_control():
            return ann.click(lobby, control, wait=False)

        if first == "lobby action":
            slowed(bot, "update_lobby")
            done, pressed = await press_in_order(emu, bot, game_id, press_action, press_control)
        else:
            slowed(bot, method)
            pressed, done = await press_in_order(emu, bot, game_id, press_control, press_action)
        record = await bot.store.games.get_game(game_id)

        assert record.status == status
        assert private_answer(pressed, ann) is None, "the control did what it says"
        if first == "lobby action":
            assert private_answer(done, member) is None and shows(record)
        else:
            assert private_answer(done, member) == refusal and not shows(record)
        live = bot.service.live.get(game_id)
        if live is not None:
            assert live.record.seats == record.seats, "what the bot shows is what the store holds"
        no_errors(emu, [pressed, done], caplog)


async def test_join_and_leave_at_the_same_moment_both_apply(tmp_path, caplog):
    async with catnip(tmp_path) as (emu, bot):
        thread, lobby = await open_lobby(emu)
        game_id = next(iter(bot.service.live))
        cy, bo = emu.member("Cy"), emu.member("Bo")
        results = await asyncio.gather(cy.click(lobby, "Join"), bo.click(lobby, "Leave"))
        await emu.settle()

        record = await bot.store.games.get_game(game_id)
        assert names(record) == ["Ann", "Cy"], "neither change undid the other"
        assert bot.service.live[game_id].record.seats == record.seats
        assert "Cy" in table_of(emu, thread).text() and "Bo" not in table_of(emu, thread).text()
        assert all(private_answer(result, m) is None for result, m in zip(results, (cy, bo), strict=True))
        no_errors(emu, results, caplog)


async def finished_game(emu, bot):
    """A catsdogs game between Ann and Bo, played to its end by first legal moves; its thread and id."""
    thread, _members = await open_table(emu, "catsdogs", 2)
    game = next(iter(bot.service.live.values()))
    while game.rules.outcome(game.state) is None:
        seat = game.to_act()[0]
        action = game.rules.legal_actions(game.state, seat)[0]
        user = game.record.seats[seat].user_id
        await bot.service.play(game.id, user, game.record.version, action.encode())
    await emu.settle()
    assert any(b.get("label") == "Rematch" for b in table_of(emu, thread).buttons())
    return thread, game.id


@pytest.mark.parametrize("who", ["two players", "one player twice"])
async def test_rematch_pressed_twice_makes_one_rematch_table(tmp_path, caplog, who):
    async with catnip(tmp_path) as (emu, bot):
        thread, game_id = await finished_game(emu, bot)
        final = table_of(emu, thread)
        ann, bo = emu.member("Ann"), emu.member("Bo")
        clickers = (ann, bo) if who == "two players" else (ann, ann)
        results = await asyncio.gather(*(m.click(final, "Rematch") for m in clickers))
        await emu.settle()

        rematches = [g for g in bot.service.live.values() if g.id != game_id]
        assert len(rematches) == 1
        assert len(await bot.store.games.games_in_channel(thread.id)) == 1
        titles = [m.embeds[0].get("title") or "" for m in emu.public_messages(thread) if m.embeds]
        assert sum(f"table #{rematches[0].id}" in title for title in titles) == 1
        for result, member in zip(results, clickers, strict=True):
            assert f"table #{rematches[0].id}" in (private_answer(result, member) or "")
        no_errors(emu, results, caplog)


@pytest.mark.parametrize("first", ["move", "timer"])
async def test_a_move_against_its_running_out_timer_applies_once(tmp_path, caplog, first):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        game = next(iter(bot.service.live.values()))
        await emu.settle()
        seat, version = game.to_act()[0], game.record.version
        card = game.state.hands[seat][0]
        actor = members[seat]
        panel = await Table(emu, thread, members, Rng.seeded(1)).panel(actor)
        slowed(bot, "commit_move")
        emu.advance(bot.timers.seconds_for(game) + 1)

        def click():
            custom_id = f"cn:a:{game.id}:{version}:p:{card}"
            return actor.click(panel, custom_id, force=True, wait=False)

        async def timer():
            await bot.timers.tick()
            return None

        if first == "move":
            clicked = await click()
            await emu.wait_for(lambda: bot.store.lock(game.id).locked())
            await timer()
        else:
            ticking = asyncio.create_task(timer())
            await emu.wait_for(lambda: bot.store.lock(game.id).locked())
            clicked = await click()
            await ticking
        await emu.invoker.wait(clicked)
        await emu.settle()

        moves = await bot.store.games.moves(game.id)
        assert [m.seat for m in moves][:1] == [seat] and sum(m.seat == seat for m in moves) == 1
        timed_out = any(event.kind == "timeout" for event in game.events)
        assert private_answer(clicked, actor, panel) is None, "the panel itself answers the click"
        shown = emu.message(panel.id).text()
        if first == "move":
            assert not timed_out and "moved on" not in shown
        else:
            assert timed_out and "moved on" in shown
        no_errors(emu, [clicked], caplog)
