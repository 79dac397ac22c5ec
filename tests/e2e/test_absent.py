"""Absent members over the emulated Discord (G-X8, G-X9): a computer takes the seat of a member whose timer
ran out twice in a row, or whom the host replaced; they come back by My hand or I'm back; a table
where everyone is away ends after a grace; and all of it survives a restart."""

from __future__ import annotations

import re

import pytest

from emulator import MemberSpec
from engine import Rng
from tests.e2e.driver import MEMBERS, Table, catnip, open_table, start_catnip, table_of
from tests.e2e.test_commands import answer
from tests.e2e.test_hostile_clicks import short_answer
from tests.e2e.test_robustness import crash

HANDED = "Hand a seat to a computer player…"


async def settle(emu, bot) -> None:
    await bot.presenter.settle()
    await emu.settle()


async def run_out(emu, bot, game) -> None:
    """The decision's timer runs out on the virtual clock, and the computer decides for whoever was due."""
    emu.advance(bot.timers.seconds_for(game) + 1)
    await bot.timers.tick()
    await settle(emu, bot)


def live_game(bot):
    return next(iter(bot.service.live.values()))


def table_text(emu, thread) -> str:
    return table_of(emu, thread).text()


def table_labels(emu, thread) -> list[str]:
    return [button.get("label") for button in table_of(emu, thread).buttons()]


def pinged(message) -> set[int]:
    return {int(uid) for uid in re.findall(r"<@(\d+)>", message.content or "")}


def record_pings(emu) -> list:
    """Every turn ping the bot posts from now on, deleted ones too."""
    pings = []
    emu.on_message(
        lambda kind, message: (
            pings.append(message) if kind == "create" and (message.content or "").startswith("🔔") else None
        )
    )
    return pings


async def miss_a_decision(emu, bot, game, seat: int, others: Table) -> None:
    """The others play until `seat` must decide, then its timer runs out."""
    for _ in range(60):
        if seat in game.to_act():
            break
        await others.step()
    assert seat in game.to_act()
    await run_out(emu, bot, game)


async def decide(table: Table, game) -> None:
    """The table's member makes one choice of their own."""
    for _ in range(20):
        version = game.record.version
        await table.step()
        if game.record.version != version:
            return
    raise AssertionError("no choice was made")


async def open_madcat(emu, bot):
    """A two-player Mad Cat game and the seat that rolls first: its roll, then at once its set-aside."""
    thread, members = await open_table(emu, "madcat", 2)
    await settle(emu, bot)
    game = live_game(bot)
    seat = game.to_act()[0]
    return thread, members, game, seat


async def test_two_timeouts_in_a_row_hand_the_seat_to_a_computer_and_its_pings_stop(tmp_path):
    """G-X8: one timeout is not enough, a choice of one's own starts the count again, two in a row hand
    the seat over; the table says so, the computer plays it, and its member is pinged no more."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members, game, seat = await open_madcat(emu, bot)
        absent = members[seat]
        others = Table(emu, thread, [m for m in members if m is not absent], Rng.seeded(2))
        await run_out(emu, bot, game)  # the roll
        assert game.record.seats[seat].computer is None, "one timeout is not an absence"
        await decide(Table(emu, thread, [absent], Rng.seeded(1)), game)
        await settle(emu, bot)
        await miss_a_decision(emu, bot, game, seat, others)
        assert game.record.seats[seat].computer is None, "a choice of their own started the count again"

        pings = record_pings(emu)
        await miss_a_decision(emu, bot, game, seat, others)
        record = game.record.seats[seat]
        assert record.user_id == absent.id and record.computer == "normal", (
            "a computer plays the member's seat"
        )
        text = table_text(emu, thread)
        assert f"A computer plays for {absent.name} until they're back" in text
        details = await others.members[0].click(table_of(emu, thread), "Details")
        assert "missed 2 decisions in a row" in details.message.text(), "what happened, in the details"
        assert "I'm back" in table_labels(emu, thread)
        assert absent.id not in pinged(table_of(emu, thread)), "the table mentions nobody"

        others = Table(emu, thread, [m for m in members if m is not absent], Rng.seeded(3))
        moves_before = len(await bot.store.games.moves(game.id))
        for _ in range(12):
            if game.id not in bot.service.live:
                break
            await others.step()
        moved_for = [m for m in (await bot.store.games.moves(game.id))[moves_before:] if m.seat == seat]
        assert moved_for, "the computer plays the absent member's seat"
        assert pings and all(absent.id not in pinged(ping) for ping in pings), (
            "no ping for a member who is away"
        )


@pytest.mark.parametrize("way_back", ["My view", "I'm back", "/game hand"])
async def test_an_absent_member_comes_back_by_my_hand_or_im_back(tmp_path, way_back):
    """G-X8: each way gives the seat back with a private welcome; the table says so, pings come back."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members, game, seat = await open_madcat(emu, bot)
        absent, other = members[seat], members[1 - seat]
        others = Table(emu, thread, [other], Rng.seeded(4))
        await miss_a_decision(emu, bot, game, seat, others)
        await miss_a_decision(emu, bot, game, seat, others)
        assert game.record.seats[seat].computer == "normal"

        refused = await answer_click(other, table_of(emu, thread), "I'm back")
        assert "already playing your seat" in refused, "only the absent member can come back"

        if way_back.startswith("/"):
            result = await absent.slash(way_back[1:], thread)
        else:
            result = await absent.click(table_of(emu, thread), way_back)
        assert result.ok, result.failed
        welcome = result.message
        assert welcome.ephemeral and welcome.visible_to == absent.id
        assert "Welcome back" in welcome.text() and "your view" in welcome.text()
        await settle(emu, bot)
        assert game.record.seats[seat].computer is None
        assert f"{absent.name} is back and plays again" in table_text(emu, thread)
        assert "I'm back" not in table_labels(emu, thread)

        pings = record_pings(emu)
        for _ in range(40):
            if seat in game.to_act():
                break
            await others.step()
        await settle(emu, bot)
        assert seat in game.to_act() and game.record.seats[seat].computer is None
        assert any(absent.id in pinged(ping) for ping in pings) or absent.id in pinged(
            next(m for m in reversed(emu.public_messages(thread)) if (m.content or "").startswith("🔔"))
        ), "the member is pinged again"


async def answer_click(member, message, target) -> str:
    return await short_answer(await member.click(message, target), member)


async def test_the_host_or_a_manager_replaces_a_player_and_nobody_else_can(tmp_path):
    """G-X8: Replace a player on the table; others get a short private refusal."""
    members = [*MEMBERS[:4], MemberSpec("Mo", ["manage_guild"])]
    async with catnip(tmp_path, members=members) as (emu, bot):
        thread, players = await open_table(emu, "catsdogs", 3)
        await settle(emu, bot)
        game = live_game(bot)
        ann, bo, cy = players
        refused = await answer_click(bo, table_of(emu, thread), "Replace a player")
        assert "Only the host or a member with Manage Server" in refused
        outsider = await answer_click(emu.member("Di"), table_of(emu, thread), "Replace a player")
        assert "This game is between" in outsider

        result = await ann.click(table_of(emu, thread), "Replace a player")
        picker = result.message
        assert picker.ephemeral and picker.visible_to == ann.id
        offered = {o["label"] for o in picker.selects()[0]["options"]}
        assert offered == {f"Seat {game.seat_of(m.id) + 1}: {m.name}" for m in players}
        chosen = await ann.select(picker, HANDED, [str(game.seat_of(cy.id))])
        assert chosen.ok, chosen.failed
        assert f"A computer player now plays for {cy.name}" in emu.message(picker.id).text()
        await settle(emu, bot)
        assert game.record.seats[game.seat_of(cy.id)].computer == "normal"
        assert f"Ann handed {cy.name}'s seat to a computer player" in table_text(emu, thread)

        mo = emu.member("Mo")
        picker = (await mo.click(table_of(emu, thread), "Replace a player")).message
        assert {o["label"] for o in picker.selects()[0]["options"]} == {
            f"Seat {game.seat_of(m.id) + 1}: {m.name}" for m in (ann, bo)
        }, "a seat a computer already plays is not offered"
        assert (await mo.select(picker, HANDED, [str(game.seat_of(bo.id))])).ok
        await settle(emu, bot)
        assert game.record.seats[game.seat_of(bo.id)].computer == "normal"
        assert f"A server manager handed {bo.name}'s seat" in table_text(emu, thread)


async def test_a_game_everyone_is_away_from_waits_then_ends_as_abandoned(tmp_path):
    """G-X9: the computers stop, the table says the game waits, and after the grace it ends for nobody."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members, game, _ = await open_madcat(emu, bot)
        host = members[0]
        for member in (members[1], host):
            picker = (await host.click(table_of(emu, thread), "Replace a player")).message
            assert (await host.select(picker, HANDED, [str(game.seat_of(member.id))])).ok
            await settle(emu, bot)
        assert "Everyone is away" in table_text(emu, thread)
        version = game.record.version

        emu.advance(bot.settings.abandon_taken_over_minutes * 60 - 5)
        await bot.absence.tick()
        await settle(emu, bot)
        assert game.id in bot.service.live and game.record.version == version, "the computers wait"

        emu.advance(10)
        await bot.absence.tick()
        await settle(emu, bot)
        assert game.id not in bot.service.live
        assert (await bot.store.games.get_game(game.id)).status == "abandoned"
        minutes = bot.settings.abandon_taken_over_minutes
        assert f"Everyone was away for {minutes:g} min, so the game was ended" in table_text(emu, thread)


async def test_a_game_finished_by_a_computer_for_you_counts_as_played_not_won(tmp_path):
    """G-X8 and /stats."""
    async with catnip(tmp_path) as (emu, bot):
        thread, (ann, bo) = await open_table(emu, "catsdogs", 2)
        await settle(emu, bot)
        game = live_game(bot)
        picker = (await ann.click(table_of(emu, thread), "Replace a player")).message
        assert (await ann.select(picker, HANDED, [str(game.seat_of(bo.id))])).ok
        await settle(emu, bot)
        table = Table(emu, thread, [ann], Rng.seeded(5))
        for _ in range(400):
            if table.over():
                break
            await table.step()
        assert table.over()
        text = await answer(bo, "stats", thread)
        assert "0 won of 1" in text and "1 finished by a computer for you" in text
        about_bo = await answer(ann, "stats", thread, user=bo.id)
        assert "1 finished by a computer for them" in about_bo
        assert "finished by a computer" not in await answer(ann, "stats", thread)

        assert (await ann.click(table_of(emu, thread), "Rematch")).ok
        await settle(emu, bot)
        rematch = live_game(bot)
        assert rematch.id != game.id and not any(seat.computer for seat in rematch.record.seats), (
            "a rematch seats the member who was away as themselves"
        )


async def test_the_turn_ping_opens_the_pinged_members_private_view(tmp_path):
    """One tap from the ping to the decision; the ping is public, so it shows nobody's secret."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 3)
        await settle(emu, bot)
        game = live_game(bot)
        ping = next(m for m in emu.public_messages(thread) if (m.content or "").startswith("🔔"))
        actor = next(m for m in members if m.id in pinged(ping))
        assert [b.get("label") for b in ping.buttons()] == ["My hand"]

        result = await actor.click(ping, "My hand")
        panel = result.message
        assert panel.ephemeral and panel.visible_to == actor.id
        assert f"{actor.name} — your view" in panel.text() and "Your decision" in panel.text()
        assert any(c.startswith(f"cn:a:{game.id}:") for c in panel.custom_ids())

        bystander = next(m for m in members if m is not actor)
        theirs = (await bystander.click(ping, "My hand")).message
        assert f"{bystander.name} — your view" in theirs.text() and "Nothing to decide now" in theirs.text()
        outsider = await answer_click(emu.member("Ed"), ping, "My hand")
        assert "This game is between" in outsider


async def test_a_waiting_private_view_refreshes_in_place(tmp_path):
    async with catnip(tmp_path) as (emu, bot):
        thread, members = await open_table(emu, "catsdogs", 2)
        await settle(emu, bot)
        game = live_game(bot)
        actor = members[game.to_act()[0]]
        waiting = next(m for m in members if m is not actor)
        panel = (await waiting.click(table_of(emu, thread), "My hand")).message
        assert "Nothing to decide now" in panel.text()
        assert [b.get("label") for b in panel.buttons()] == ["Refresh"]

        await Table(emu, thread, [actor], Rng.seeded(6)).step()
        await settle(emu, bot)
        assert game.seat_of(waiting.id) in game.to_act()
        refreshed = await waiting.click(panel, "Refresh")
        assert refreshed.ok, refreshed.failed
        shown = emu.message(panel.id)
        assert "Your decision" in shown.text(), "the same private message now shows the decision"
        assert any(c.startswith(f"cn:a:{game.id}:") for c in shown.custom_ids())
        fresh = await answer_click(waiting, table_of(emu, thread), "My hand")
        assert "Your decision" in fresh, "My hand still opens a fresh view"
        forged = await waiting.forge_click(table_of(emu, thread), f"cn:rf:{game.id}")
        assert "only on your own private panel" in forged.message.text(), "no private view on the table"


async def test_after_a_decision_the_private_view_shows_its_result_and_the_next_decision(tmp_path):
    """Mad Cat's roll, then the set-aside, in the same private message."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members, game, seat = await open_madcat(emu, bot)
        roller = members[seat]
        panel = (await roller.click(table_of(emu, thread), "My view")).message
        assert (await roller.click(panel, f"cn:a:{game.id}:{game.record.version}:roll")).ok
        shown = emu.message(panel.id)
        assert shown.embeds[0]["description"].startswith("**Your decision:** Set aside")
        result = shown.embeds[0]["fields"][0]
        assert result["name"] == "Recently" and "✅ 🎲 You roll" in result["value"], (
            "the roll's result comes first, marked, said to the roller"
        )
        assert any(c.startswith(f"cn:m:{game.id}:") for c in shown.custom_ids()), (
            "the next decision's control"
        )


async def test_a_restart_in_the_middle_of_an_absence_keeps_it(tmp_path):
    """G-X8 from the store alone: a timeout before a restart counts with one after it, the seat stays the
    computer's over another restart, and the member comes back on the resumed table."""
    async with catnip(tmp_path) as (emu, bot):
        thread, members, game, seat = await open_madcat(emu, bot)
        absent = members[seat]
        await run_out(emu, bot, game)
        await crash(emu, bot)

        again = await start_catnip(emu, tmp_path / "catnip.sqlite3", seed=2)
        try:
            await emu.wait_for(lambda: again.timers.due(game.id))
            await settle(emu, again)
            resumed = again.service.live[game.id]
            assert resumed.record.seats[seat].computer is None
            await run_out(emu, again, resumed)
            assert resumed.record.seats[seat].computer == "normal", "the timeout before the restart counted"
            await crash(emu, again)

            pings = record_pings(emu)
            third = await start_catnip(emu, tmp_path / "catnip.sqlite3", seed=3)
            try:
                await emu.wait_for(
                    lambda: table_of(emu, thread) and "A computer plays for" in table_text(emu, thread)
                )
                await settle(emu, third)
                resumed = third.service.live[game.id]
                assert (
                    resumed.record.seats[seat].computer == "normal"
                    and resumed.record.seats[seat].user_id == absent.id
                )
                assert pings and all(absent.id not in pinged(m) for m in pings), (
                    "no ping after the restart either"
                )
                welcome = await answer_click(absent, table_of(emu, thread), "I'm back")
                assert "Welcome back" in welcome
                await settle(emu, third)
                assert (await third.store.games.get_game(game.id)).seats[seat].computer is None
            finally:
                await third.close()
        finally:
            await again.close()  # crashed above: a dead process closes nothing
