"""Skill ratings as players see them: beside the result, in /stats and on /leaderboard; every game rated
and replayed on either store."""

from __future__ import annotations

import re

import pytest

from bench.postgres_server import fresh_schema_url
from engine import Rng
from tests.e2e.driver import Table, catnip, fields, open_table, start_catnip
from tests.e2e.test_commands import answer
from tests.e2e.test_robustness import crash, ends_with_its_next_move


def rating_changes(text: str) -> dict[str, tuple[int, int]]:
    """Each name on a result with a rating change beside it: (change, rating after)."""
    found = re.findall(r"\*\*([^*]+)\*\* — -?\d+ · [📈📉] rating ([+-][\d,]+) → ([\d,]+)", text)
    number = lambda text: int(text.replace(",", ""))  # noqa: E731
    return {name: (number(change), number(after)) for name, change, after in found}


async def test_a_rated_game_shows_each_members_change_and_stats_and_the_leaderboard_show_ratings(tmp_path):
    async with catnip(tmp_path) as (emu, _):
        thread, players = await open_table(emu, "catsdogs", 2, computers=1)
        ann, bo = players
        table = Table(emu, thread, players, Rng.seeded(3))
        while not table.over():
            await table.step()

        result = fields(table.table())
        changes = rating_changes(result)
        assert set(changes) == {"Ann", "Bo"}, result  # the computer player has a fixed rating, not shown
        for change, after in changes.values():
            assert after == 1000 + change != 1000  # everyone starts at 1,000

        stats = await answer(ann, "stats", thread)
        assert f"rating {changes['Ann'][1]:,} from 1 rated game (provisional)" in stats
        board = await answer(bo, "leaderboard", thread, game="catsdogs")
        order = sorted(players, key=lambda member: -changes[member.name][1])
        lines = [line for line in board.splitlines() if line[:1].isdigit()]
        assert [f"<@{member.id}>" in line for member, line in zip(order, lines, strict=True)] == [True, True]
        assert all("1 rated game (provisional)" in line for line in lines)
        assert "No rated games yet" in await answer(bo, "leaderboard", thread, game="madcat")
        place = order.index(bo) + 1
        assert f"<@{bo.id}> is #{place} of 2 here." in board, "the asking member's place"
        assert f"#{order.index(ann) + 1} of 2 here" in stats

        shown = await bo.slash("leaderboard", thread, game="catsdogs", show=True)
        assert shown.ok and not shown.message.ephemeral, "shown to the channel when asked"
        assert f"<@{bo.id}> is #{place} of 2 here." in shown.message.text()
        shown = await ann.slash("stats", thread, show=True)
        assert shown.ok and not shown.message.ephemeral and "rating" in shown.message.text()


async def test_a_member_playing_only_computers_is_not_rated(tmp_path):
    async with catnip(tmp_path) as (emu, _):
        thread, players = await open_table(emu, "catsdogs", 1, computers=2)
        table = Table(emu, thread, players, Rng.seeded(4))
        while not table.over():
            await table.step()
        assert rating_changes(fields(table.table())) == {}
        stats = await answer(players[0], "stats", thread)
        assert "of 1" in stats and "rating" not in stats


@pytest.mark.parametrize(
    ("key", "backend"), [("madcat", "postgres"), ("catsanity", "sqlite"), ("ninelives", "postgres")]
)
async def test_every_game_rates_its_members_and_replays_to_its_result_on_either_store(
    tmp_path, request, key, backend
):
    url = None
    if backend == "postgres":
        url = await fresh_schema_url(request.getfixturevalue("postgres_server").get_uri())
    async with catnip(tmp_path, database_url=url) as (emu, _):
        thread, players = await open_table(emu, key, 2)
        table = Table(emu, thread, players, Rng.seeded(len(key)))
        while not table.over():
            await table.step()
        result = table.table().embeds[0]["description"]
        assert set(rating_changes(result)) == {"Ann", "Bo"}, result
        viewer = (await players[1].slash("game replay", thread, id=1)).message
        assert (await players[1].click(viewer, "End")).ok
        replayed = emu.message(viewer.id).embeds[0]["description"]
        assert result.split("\n")[0] in replayed  # the same winners and reason


async def test_a_result_shown_only_after_a_restart_still_shows_the_rating_changes(tmp_path):
    """The game's end (and its rating) is saved before its table shows it; a bot that dies in between
    shows the result with each member's change when it starts again."""
    async with catnip(tmp_path) as (emu, bot):
        thread, players = await open_table(emu, "catsdogs", 2)
        table = Table(emu, thread, players, Rng.seeded(5))
        game = next(iter(bot.service.live.values()))
        while not ends_with_its_next_move(game):
            await table.step()
        bot.presenter.refresh = lambda game: None  # the bot dies before its table shows the last move
        await table.step()
        assert game.record.status == "finished" and not table.over()
        await crash(emu, bot)

        again = await start_catnip(emu, tmp_path / "catnip.sqlite3", seed=2)
        try:
            await emu.wait_for(table.over)
            assert set(rating_changes(fields(table.table()))) == {"Ann", "Bo"}
        finally:
            await again.close()
