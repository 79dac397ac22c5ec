"""Skill ratings on SQLite and PostgreSQL: openskill's own numbers, counted once, who is rated and how."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import bot.storage.migrations as migrations
from bench.postgres_server import fresh_schema_url
from bot.storage import FinalResult, PostgresGameStore, SeatRecord, SqliteGameStore
from bot.storage.commits import write_results
from bot.storage.postgres import PgConnection
from bot.storage.ratings import COMPUTER_RATINGS, MODEL, RatingChange, conservative, shown, standings
from tests.bot.test_storage import RULES, computer, play_to_end, started_game

ANN, BO, CY, DI = 1, 2, 3, 4
FRESH = (MODEL.rating().mu, MODEL.rating().sigma)


async def finish(store, users, scores, winners, *, guild_id=100, away=(), levels=None):
    """A game of Yarn between `users` (None: a computer) that ends with `scores` and `winners`; the
    `away` seats are finished by a computer for their member."""
    game = await started_game(store, users=users, guild_id=guild_id)
    for seat, level in (levels or {}).items():
        await store.games.replace_seat(game.id, computer(seat, level), now=2.0)
    for seat in away:
        await store.games.replace_seat(
            game.id, SeatRecord(seat=seat, user_id=users[seat], name="away", computer="normal"), now=2.0
        )
    await play_to_end(store, game.id, result=FinalResult(tuple(scores), tuple(winners), "done"))
    return game.id


def expected(before, ranks):
    """openskill's own update for players rated `before` (μ, σ) finishing at `ranks`."""
    rated = MODEL.rate([[MODEL.rating(mu, sigma)] for mu, sigma in before], ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in rated]


async def rating(store, user, game="yarn", guild_id=100):
    return (await store.results.member_ratings(guild_id, user)).get(game)


def close(pair, other):
    return pair == pytest.approx(other, abs=1e-9)


async def test_a_two_player_upset_moves_both_ratings_as_openskill_says(store):
    for _ in range(3):
        await finish(store, (ANN, CY), (9, 1), (0,))
    ann = (await rating(store, ANN))[:2]
    game_id = await finish(store, (BO, ANN), (8, 2), (0,))  # Bo, new, beats Ann

    bo_after, ann_after = expected([FRESH, ann], [0, 1])
    assert close((await rating(store, BO))[:2], bo_after)
    assert close((await rating(store, ANN))[:2], ann_after)
    changes = await store.results.rating_changes(game_id)
    assert changes[0].shown_before == 1000 and changes[0].shown_after > 1000
    assert changes[1].shown_after < changes[1].shown_before
    assert (await rating(store, ANN))[2] == 4 and (await rating(store, BO))[2] == 1


async def test_a_four_player_game_with_a_tie_ranks_the_tied_players_together(store):
    await finish(store, (ANN, BO, CY, DI), (5, 5, 3, 1), (0, 1))
    ann, bo, cy, di = expected([FRESH] * 4, [0, 0, 1, 2])
    assert close((await rating(store, ANN))[:2], ann) and close((await rating(store, BO))[:2], bo)
    assert close((await rating(store, CY))[:2], cy) and close((await rating(store, DI))[:2], di)
    assert (await rating(store, ANN))[0] == pytest.approx((await rating(store, BO))[0])
    # equal scores behind the winners share a place too
    assert standings((9, 4, 4, 1), (0,)) == [0, 1, 1, 2]


async def test_a_computer_counts_at_its_fixed_rating_which_never_changes(store):
    await finish(store, (ANN, BO, None), (1, 2, 9), (2,), levels={2: "hard"})
    ann, bo, _ = expected([FRESH, FRESH, COMPUTER_RATINGS["hard"]], [2, 1, 0])
    assert close((await rating(store, ANN))[:2], ann) and close((await rating(store, BO))[:2], bo)
    await finish(store, (ANN, BO, None), (1, 2, 9), (2,), levels={2: "hard"})
    assert (await rating(store, ANN))[2] == 2  # the computer was not rated: only members have ratings


async def test_a_member_alone_against_computers_and_an_abandoned_game_rate_nobody(store):
    game_id = await finish(store, (ANN, None), (9, 1), (0,))
    assert await store.results.rating_changes(game_id) == {} and await rating(store, ANN) is None
    abandoned = await started_game(store, users=(ANN, BO))
    await store.games.set_status(abandoned.id, "abandoned", now=5.0, reason="nobody moved")
    assert (
        await store.results.member_ratings(100, ANN) == {}
        and await store.results.member_ratings(100, BO) == {}
    )


async def test_a_seat_a_computer_finished_for_its_member_is_rated_last_even_when_it_won(store):
    await finish(store, (ANN, BO, CY), (9, 5, 1), (0,), away=(0,))
    ann, bo, cy = expected([FRESH] * 3, [2, 0, 1])
    assert close((await rating(store, ANN))[:2], ann) and close((await rating(store, BO))[:2], bo)
    assert close((await rating(store, CY))[:2], cy)


async def test_a_result_written_twice_or_after_a_restart_counts_once(store, reopen):
    game_id = await finish(store, (ANN, BO), (9, 1), (0,))
    once = await store.results.member_ratings(100, ANN)
    await store.games.record_result(game_id, scores=(9, 1), winners=(0,), reason="done", now=9.0)
    await store.close()
    again = reopen(store)
    await again.open()
    try:
        await again.games.record_result(game_id, scores=(9, 1), winners=(0,), reason="done", now=9.0)
        assert await again.results.member_ratings(100, ANN) == once and once["yarn"][2] == 1
        assert set(await again.results.rating_changes(game_id)) == {0, 1}
    finally:
        await again.close()


async def up_to_the_last_move(store, game_id):
    """Play until the next move ends the game; that move (seat, action, state after it)."""
    record = await store.games.get_game(game_id)
    state = await store.games.load_state(record, RULES)
    while True:
        seat = RULES.to_act(state)[0]
        action = RULES.legal_actions(state, seat)[0]
        new, _ = RULES.apply(state, seat, action)
        if RULES.outcome(new) is not None:
            return seat, action, new
        await store.games.commit_move(
            game_id, expected_version=(await store.games.get_game(game_id)).version, seat=seat,
            action=action.encode(), events=[], state_json=new.model_dump_json(), now=3.0,
        )  # fmt: skip
        state = new


async def last_move(store, game_id, seat, action, state):
    """The move that ends the game, seat 0 winning 9 to 1."""
    await store.games.commit_move(
        game_id, expected_version=(await store.games.get_game(game_id)).version, seat=seat,
        action=action.encode(), events=[], state_json=state.model_dump_json(), now=4.0,
        status="finished", result=FinalResult((9, 1), (0,), "done"),
    )  # fmt: skip


async def waiting_on_a_lock(store) -> bool:
    """Whether a transaction on the store's database waits for a row another one holds."""
    async with store.database._open_pool().acquire() as db:
        waiting = await db.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND datname = current_database()"
        )
    return waiting > 0


async def both_ends(store, ending_first: asyncio.Task, second, first_may_go: asyncio.Event) -> None:
    """Start the `second` end; once it waits for a row the first holds, let the first go on, and wait
    for both."""
    ending_second = asyncio.create_task(second)
    while not await waiting_on_a_lock(store):
        assert not ending_second.done(), "the second end did not wait for the first"
    first_may_go.set()
    await asyncio.gather(ending_first, ending_second)


@pytest.mark.parametrize("rated_before", [False, True], ids=["first rating", "rated before"])
async def test_two_games_ending_at_once_for_the_same_member_both_count(store, reopen, rated_before):
    """Each game ends through its own store (as two processes of a fleet would), in transactions of
    their own that both want Ann's rating: her first one, or the one she has from an earlier game."""
    before = FRESH
    if rated_before:
        await finish(store, (ANN, DI), (9, 1), (0,))
        before = (await rating(store, ANN))[:2]
    games = [await started_game(store, users=(ANN, other)) for other in (BO, CY)]
    other = reopen(store)
    await other.open()

    finals = [(game.id, *await up_to_the_last_move(store, game.id)) for game in games]
    try:
        ends = zip((store, other), finals, strict=True)
        await asyncio.gather(*(last_move(by, *final) for by, final in ends))
    finally:
        await other.close()
    ann = await rating(store, ANN)
    assert ann[2] == 2 + rated_before
    first, _ = expected([before, FRESH], [0, 1])
    second, _ = expected([first, FRESH], [0, 1])
    assert close(ann[:2], second)  # the second game started from the first's result, whichever came first


async def test_a_game_ending_while_another_rates_the_same_member_waits_for_that_rating(pg_store, reopen):
    """Ann (rated before) ends a game while her other game's end is written but not yet committed:
    the second end waits for the first to commit, finds her rating changed and is run again from it
    (PostgreSQL: two transactions at once)."""
    await finish(pg_store, (ANN, DI), (9, 1), (0,))
    before = (await rating(pg_store, ANN))[:2]
    games = [await started_game(pg_store, users=(ANN, other)) for other in (BO, CY)]
    other = reopen(pg_store)
    await other.open()
    first_written, commit_first = asyncio.Event(), asyncio.Event()

    async def first(db):
        await write_results(db, [(games[0].id, FinalResult((9, 1), (0,), "done"), 4.0)])
        first_written.set()
        await commit_first.wait()

    try:
        ending_first = asyncio.create_task(pg_store.database.transaction(first))
        await first_written.wait()
        second = [(games[1].id, FinalResult((9, 1), (0,), "done"), 4.0)]
        ending_second = other.database.transaction(lambda db: write_results(db, second))
        await both_ends(other, ending_first, ending_second, commit_first)
    finally:
        await other.close()
    after_first, _ = expected([before, FRESH], [0, 1])
    after_second, _ = expected([after_first, FRESH], [0, 1])
    ann = await rating(pg_store, ANN)
    assert ann[2] == 3 and close(ann[:2], after_second)


class PausedBeforeWriting(PgConnection):
    """A connection whose transaction stops before its write of ratings until `go` is set."""

    def __init__(self, db, read: asyncio.Event, go: asyncio.Event) -> None:
        super().__init__(db)
        self.read, self.go = read, go

    async def fetch(self, sql, *args):
        if "INSERT INTO ratings" in sql:
            self.read.set()
            await self.go.wait()
        return await super().fetch(sql, *args)


@pytest.mark.parametrize("rated_before", [False, True], ids=["first rating", "rated before"])
async def test_a_rating_changed_between_an_ends_read_and_its_write_is_read_again(
    pg_store, reopen, rated_before
):
    """Game 1 (Bo, Cy) reads Bo's rating (or that he has none); before it writes, Bo and Di's game
    ends and gives Bo a new one. Game 1 does not write over it: its transaction runs again, from the
    new rating, and both games count."""
    if rated_before:
        await finish(pg_store, (BO, DI), (1, 9), (1,))
    game = await started_game(pg_store, users=(BO, CY))
    other = reopen(pg_store)
    await other.open()
    read, go = asyncio.Event(), asyncio.Event()
    runs = []

    async def first(db):
        runs.append(db)
        paused = PausedBeforeWriting(db._db, read, go)
        await write_results(paused, [(game.id, FinalResult((9, 1), (0,), "done"), 4.0)])

    try:
        ending = asyncio.create_task(pg_store.database.transaction(first))
        await read.wait()
        await finish(other, (BO, DI), (9, 1), (0,))
        between = (await rating(other, BO))[:2]
        go.set()
        await ending
    finally:
        await other.close()
    assert len(runs) == 2, "the end was run again"
    changes = await pg_store.results.rating_changes(game.id)
    assert close(changes[0].before, between)
    bo = await rating(pg_store, BO)
    assert bo[2] == 2 + rated_before and close(bo[:2], expected([between, FRESH], [0, 1])[0])


async def test_two_games_ending_in_one_transaction_for_the_same_member_both_count(store):
    """A group commit can hold the final moves of two games of the same member: each is rated, the
    second from the first's result, and a result written again changes nothing."""
    games = [await started_game(store, users=(ANN, other)) for other in (BO, CY)]
    finished = [(game.id, FinalResult((9, 1), (0,), "done"), 4.0) for game in games]
    for _ in range(2):
        await store.database.transaction(lambda db: write_results(db, finished))
    first, _ = expected([FRESH, FRESH], [0, 1])
    second, cy = expected([first, FRESH], [0, 1])
    ann = await rating(store, ANN)
    assert ann[2] == 2 and close(ann[:2], second)
    assert close((await rating(store, CY))[:2], cy)
    assert [set(await store.results.rating_changes(game.id)) for game in games] == [{0, 1}, {0, 1}]


async def test_the_leaderboard_orders_by_conservative_rating_per_game_and_server(store):
    for _ in range(5):
        await finish(store, (ANN, BO), (9, 1), (0,))
    await finish(store, (CY, DI), (9, 1), (0,))
    await finish(store, (ANN, BO), (9, 1), (0,), guild_id=999)
    board = await store.results.rating_leaderboard(100, "yarn")
    assert [row["user_id"] for row in board][:2] == [ANN, CY]
    scores = [conservative(row["mu"], row["sigma"]) for row in board]
    assert scores == sorted(scores, reverse=True)
    assert {row["user_id"]: row["games"] for row in board} == {ANN: 5, BO: 5, CY: 1, DI: 1}
    assert await store.results.rating_leaderboard(100, "catsdogs") == []
    assert [row["user_id"] for row in await store.results.rating_leaderboard(999, "yarn")] == [ANN, BO]
    assert shown(*FRESH) == 1000


async def test_a_member_s_rank_is_their_place_on_the_leaderboard_ties_included(store):
    """What `/leaderboard` and `/stats` say ("#2 of 6 here") is the member's row on the board, on both
    databases: tied ratings are ordered as the board orders them (more games, then the older member)."""
    eve, fay = 5, 6
    for _ in range(3):
        await finish(store, (ANN, BO), (9, 1), (0,))
    await finish(store, (CY, DI), (9, 1), (0,))
    await finish(store, (eve, fay), (5, 5), (0, 1))  # a draw from the same start: the very same rating
    await finish(store, (DI, ANN), (9, 1), (0,), guild_id=999)
    assert await rating(store, eve) == await rating(store, fay), "a true tie"

    board = [row["user_id"] for row in await store.results.rating_leaderboard(100, "yarn")]
    assert board.index(eve) + 1 == board.index(fay)
    for place, user in enumerate(board, 1):
        assert await store.results.rating_rank(100, "yarn", user) == (place, 6), f"member {user}"
    assert await store.results.rating_rank(999, "yarn", DI) == (1, 2), "each server ranks its own"
    assert await store.results.rating_rank(999, "yarn", eve) is None, "not rated on that server"
    assert await store.results.rating_rank(100, "catsdogs", ANN) is None, "not rated at that game"


def test_the_readme_publishes_the_computer_players_ratings_as_they_are():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    levels = ("easy", "normal", "hard")
    published = ", ".join(f"{level} {shown(*COMPUTER_RATINGS[level]):,}" for level in levels)
    assert published in readme


# --------------------------------------------------------------------------- schema 6, before migration 7

SCHEMA_6 = 6
"""The last schema that kept rating changes in a table of their own (`rating_changes`)."""


async def a_game_rated_by_schema_6(store) -> tuple[int, dict[int, RatingChange]]:
    """On a store opened at schema 6: Ann (rated before) beats Bo (new), rated as Catnip then stored
    it, changes in `rating_changes`; the game's id and its changes by seat."""
    game = await started_game(store, users=(ANN, BO))
    before = [(27.0, 7.0), FRESH]
    after = expected(before, [0, 1])
    changes = {
        seat: RatingChange(seat, user, before[seat], after[seat]) for seat, user in enumerate((ANN, BO))
    }

    async def body(db) -> None:
        await db.execute("UPDATE games SET status = 'finished' WHERE id = ?", game.id)
        await db.execute("INSERT INTO outcomes VALUES (?, ?, ?)", game.id, "done", 9.0)
        for seat, change in changes.items():
            user = change.user_id
            await db.execute(
                "INSERT INTO results VALUES (?, ?, ?, ?, ?)", game.id, seat, user, 9 - seat, 1 - seat
            )
            await db.execute(
                "INSERT INTO rating_changes VALUES (?, ?, ?, ?, ?, ?, ?)", game.id, seat, user, *before[seat],
                *after[seat],
            )  # fmt: skip
            await db.execute(
                "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?)", 100, "yarn", user, *after[seat], 4, 9.0
            )

    await store.database.transaction(body)
    return game.id, changes


async def test_a_game_rated_before_migration_7_keeps_its_changes_and_is_not_rated_again(
    backend, tmp_path, request, monkeypatch
):
    if backend == "sqlite":
        path = tmp_path / "catnip.sqlite3"
        make = lambda: SqliteGameStore(path)  # noqa: E731
    else:
        url = await fresh_schema_url(request.getfixturevalue("postgres_server").get_uri())
        make = lambda: PostgresGameStore(url)  # noqa: E731
    with monkeypatch.context() as older:
        older.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS[:SCHEMA_6])
        store = make()
        await store.open()
        game_id, changes = await a_game_rated_by_schema_6(store)
        await store.close()

    store = make()
    await store.open()  # migration 7
    try:
        assert await store.results.rating_changes(game_id) == changes
        assert changes[0].shown_after > changes[0].shown_before
        await store.games.record_result(game_id, scores=(9, 8), winners=(0,), reason="done", now=10.0)
        assert await store.results.rating_changes(game_id) == changes
        assert [(await rating(store, user))[2] for user in (ANN, BO)] == [4, 4], "rated once only"
        gone = await store.database.transaction(
            lambda db: db.fetch(db.dialect.table_columns, "rating_changes")
        )
        assert gone == []
    finally:
        await store.close()
