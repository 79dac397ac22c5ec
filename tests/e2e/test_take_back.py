"""Misclicks forgiven, over the emulated Discord: ↩️ Take back after a move that showed nothing hidden,
its refusals (a move a timer or a computer made for the member among them), a kill between the move
and the take-back, a replay showing it, and the one more tap a costly move asks for."""

from __future__ import annotations

import pytest

from cogs import custom_ids as ids
from engine import Rng
from engine.history import UNDO, take_back_refusal
from tests.e2e.driver import Table, catnip, fields, open_table, start_catnip, table_of
from tests.e2e.test_absent import miss_a_decision, run_out, settle
from tests.e2e.test_robustness import crash

TOOK_BACK = "took back "
"""The table's "↩️ Ann took back their move.", the mover's replay's "↩️ You took back your move."."""


def live(bot):
    return next(iter(bot.service.live.values()))


def take_back_on(message) -> str | None:
    return next((c for c in message.custom_ids() if c.startswith("cn:u:")), None)


async def an_undoable_move(table: Table, bot, limit: int = 400):
    """Random moves until one a member may take back: (the member, the message showing ↩️ Take back,
    the game's state before that move)."""
    for _ in range(limit):
        game = live(bot)
        before = game.state
        result = await table.step()
        await bot.presenter.settle()
        game = live(bot)
        if game.undoable_by is None:
            continue
        member = next(m for m in table.members if game.seat_of(m.id) == game.undoable_by)
        on_panel = result is not None and result.message is not None and result.message.ephemeral
        surface = table.emu.message(result.message.id) if on_panel else table.table()
        assert take_back_on(surface) is not None, "the move's own answer offers ↩️ Take back"
        return member, surface, before
    raise AssertionError("no move could be taken back")


@pytest.mark.parametrize(("key", "players"), [("catsanity", 2), ("madcat", 2), ("ninelives", 2)])
async def test_a_move_that_showed_nothing_is_taken_back_and_the_log_keeps_both(tmp_path, key, players):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, key, players)
        table = Table(emu, thread, members, Rng.seeded(7))
        member, surface, before = await an_undoable_move(table, bot)
        moves = len(await bot.store.games.moves(live(bot).id))
        counted = emu.requests_counted

        result = await member.click(surface, take_back_on(surface))
        assert result.ok
        await emu.settle()
        await bot.presenter.settle()
        assert emu.requests_counted == counted, "it rides the click's own interaction token"

        game = live(bot)
        assert game.state == before, "the game is where it stood before the move"
        log = await bot.store.games.moves(game.id)
        assert len(log) == moves + 1 and log[-1].action == UNDO, "the take-back is a move of its own"
        assert TOOK_BACK in fields(table.table(), skip=set()) + table.table().embeds[0]["description"]
        if surface.ephemeral:
            assert "Your move is taken back" in emu.message(surface.id).embeds[0]["description"]
        assert take_back_on(table.table()) is None, "a take-back is not taken back"


async def test_cats_and_dogs_never_offers_it_and_a_forged_take_back_is_refused_with_the_reason(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        table = Table(emu, thread, members, Rng.seeded(3))
        for _ in range(3):
            await table.step()
            assert live(bot).undoable_by is None
        game = live(bot)
        last = (await bot.store.games.moves(game.id))[-1]
        mover = next(m for m in members if game.seat_of(m.id) == last.seat)
        state = game.state
        forged = ids.undo_id(game.id, game.record.version)
        answer = await mover.forge_click(table.table(), forged)
        assert answer.message.ephemeral
        assert answer.message.content == "A card played is shown to everyone, so it stands."
        assert live(bot).state is state


async def test_only_the_mover_may_take_back_and_only_until_someone_moves(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsanity", 2)
        table = Table(emu, thread, members, Rng.seeded(7))
        member, surface, _ = await an_undoable_move(table, bot)
        other = next(m for m in members if m is not member)
        undo = take_back_on(surface)
        game = live(bot)
        state = game.state

        answer = await other.forge_click(table.table(), undo)  # a modified client's
        assert answer.message.content == "There is no move of yours to take back."
        assert live(bot).state is state

        version = game.record.version
        while live(bot).record.version == version:  # the next move, whoever makes it
            await table.step()
        answer = await member.forge_click(table.table(), undo)
        assert answer.message.content == "Too late to take it back: the game has moved on."


async def test_a_move_survives_a_kill_and_is_taken_back_after_the_restart(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "madcat", 2)
        table = Table(emu, thread, members, Rng.seeded(7))
        member, surface, before = await an_undoable_move(table, bot)
        await crash(emu, bot)

        again = await start_catnip(emu, tmp_path / "catnip.sqlite3", seed=2)
        try:
            await emu.settle()
            assert take_back_on(emu.message(surface.id)) is not None, "the resumed game offers it again"
            result = await member.click(emu.message(surface.id), take_back_on(emu.message(surface.id)))
            assert result.ok
            await emu.settle()
            game = live(again)
            assert game.state == before
            assert (await again.store.games.moves(game.id))[-1].action == UNDO
        finally:
            await again.close()


async def test_a_replay_shows_the_take_back_as_a_move(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "madcat", 2)
        table = Table(emu, thread, members, Rng.seeded(7))
        member, surface, _ = await an_undoable_move(table, bot)
        assert (await member.click(surface, take_back_on(surface))).ok
        await emu.settle()
        game_id = live(bot).id
        while not table.over():
            await table.step()
        moves = await bot.store.games.moves(game_id)
        step = next(m.seq for m in moves if m.action == UNDO)
        opened = await member.slash("game replay", thread, id=game_id)
        viewer = await opened.wait_final()
        for at in range(1, step + 1):  # ▶ Next, move after move, to the take-back
            assert (await member.click(emu.message(viewer.id), ids.replay_id(game_id, at, "next"))).ok
        shown = emu.message(viewer.id)
        assert f"Move {step} of {len(moves)}" in shown.embeds[0]["description"]
        assert TOOK_BACK in fields(shown, skip=set())


async def test_giving_up_asks_once_more_in_the_same_private_answer(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "ninelives", 2)
        table = Table(emu, thread, members, Rng.seeded(5))
        for _ in range(400):
            game = live(bot)
            seat = game.to_act()[0]
            actions = [action.encode() for action in game.rules.legal_actions(game.state, seat)]
            if "giveup" in actions and len(actions) > 1:
                break
            await table.step()
        else:
            raise AssertionError("nobody could give up")
        member = next(m for m in members if game.seat_of(m.id) == seat)
        panel = await table.panel(member)
        give_up = next(c for c in panel.custom_ids() if c.endswith(":giveup") and c.startswith("cn:a:"))
        version = game.record.version
        answer = await member.click(panel, give_up)
        asked = emu.message(panel.id)
        assert answer.ok and asked.embeds[0]["description"].startswith("**Give up the round and lose")
        assert live(bot).record.version == version, "nothing is played yet"
        assert [b["label"] for b in asked.buttons()][1] == "Not now"

        answer = await member.click(asked, "Not now")
        assert live(bot).record.version == version
        assert any(c.endswith(":giveup") for c in emu.message(panel.id).custom_ids())

        await member.click(emu.message(panel.id), give_up)
        confirm = next(c for c in emu.message(panel.id).custom_ids() if c.startswith("cn:c:"))
        assert (await member.click(emu.message(panel.id), confirm)).ok
        await emu.settle()
        assert (await bot.store.games.moves(game.id))[-1].action == "giveup"


async def test_an_auction_called_from_the_table_asks_first_in_a_private_answer(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsanity", 2)
        table = Table(emu, thread, members, Rng.seeded(2))
        for _ in range(200):
            auction = next((c for c in table.table().custom_ids() if c.endswith(":auction")), None)
            if auction is not None:
                break
            await table.step()
        else:
            raise AssertionError("no auction could be called")
        game = live(bot)
        member = next(m for m in members if game.seat_of(m.id) == game.to_act()[0])
        version = game.record.version
        asked = await member.click(table.table(), auction)
        assert asked.message.ephemeral and asked.message.embeds[0]["description"].startswith("**Auction the")
        assert live(bot).record.version == version, "nothing is played yet"
        confirm = next(c for c in asked.message.custom_ids() if c.startswith("cn:c:"))
        assert (await member.click(asked.message, confirm)).ok
        await emu.settle()
        assert (await bot.store.games.moves(game.id))[-1].action == "auction"
        assert take_back_on(emu.message(asked.message.id)) is not None, "and it can be taken back"


async def a_move_made_for(emu, bot, table: Table, limit: int = 200):
    """A timer runs out until the move it makes for a member is one the member could have taken back
    had they made it: (the member, the state the move left). A member who just missed a decision makes
    their next one themselves, so no seat is handed to a computer on the way (G-X8)."""
    missed: set[int] = set()
    for _ in range(limit):
        game = live(bot)
        seat = game.to_act()[0]
        if seat in missed:
            missed.discard(seat)
            await table.step()
            await settle(emu, bot)
            continue
        before = game.state
        await run_out(emu, bot, game)
        game = live(bot)
        last = (await bot.store.games.moves(game.id))[-1]
        missed.add(last.seat)
        action = game.rules.decode_action(last.action)
        if last.seat == seat and take_back_refusal(game.rules, before, seat, action, game.state) is None:
            return next(m for m in table.members if game.seat_of(m.id) == seat), game.state
    raise AssertionError("no timer made a move that could be taken back")


async def test_a_move_a_timer_made_for_a_member_stands_and_their_take_back_is_answered_why(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsanity", 2)
        table = Table(emu, thread, members, Rng.seeded(7))
        member, state = await a_move_made_for(emu, bot, table)
        game = live(bot)
        assert game.record.seats[game.seat_of(member.id)].computer is None, "the member still plays the seat"
        assert take_back_on(table.table()) is None, "↩️ Take back is not offered for it"
        moves = len(await bot.store.games.moves(game.id))

        answer = await member.forge_click(table.table(), ids.undo_id(game.id, game.record.version))
        assert (
            answer.message.ephemeral and answer.message.content == "That move was made for you, so it stands."
        )
        assert live(bot).state is state, "the game's state is untouched"
        assert len(await bot.store.games.moves(game.id)) == moves, "nothing is written to the log"


async def test_a_move_a_computer_made_in_a_member_s_seat_stands_too(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsanity", 2)
        await settle(emu, bot)
        game = live(bot)
        absent = next(m for m in members if game.seat_of(m.id) == game.to_act()[0])
        seat = game.seat_of(absent.id)
        others = Table(emu, thread, [m for m in members if m is not absent], Rng.seeded(3))
        await miss_a_decision(emu, bot, game, seat, others)
        await miss_a_decision(emu, bot, game, seat, others)  # two in a row: a computer takes the seat
        assert live(bot).record.seats[seat].computer is not None
        for _ in range(60):
            await settle(emu, bot)
            game = live(bot)
            last = (await bot.store.games.moves(game.id))[-1]
            if last.seat == seat:
                break
            await others.step()
        else:
            raise AssertionError("the computer never played the member's seat")
        state, moves = game.state, last.seq

        answer = await absent.forge_click(table_of(emu, thread), ids.undo_id(game.id, game.record.version))
        assert (
            answer.message.ephemeral and answer.message.content == "That move was made for you, so it stands."
        )
        assert live(bot).state is state, "the game's state is untouched"
        assert (await bot.store.games.moves(game.id))[-1].seq == moves, "nothing is written to the log"
