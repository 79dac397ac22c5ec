"""Writes grouped for speed keep their meaning: a batch of moves behaves like the moves one by one,
and deadlines saved in the background reach the store (or are re-armed after a crash)."""

from __future__ import annotations

import asyncio
import sqlite3

import asyncpg
import pytest

from bot.clock import ManualClock
from bot.sessions import GameService
from bot.storage import Deadline, GameNotFound, SeatRecord, SqliteGameStore, StaleMove
from bot.timers import Timers, TimerSettings

ANN, BO, CY = 101, 102, 103


async def active_game(store: SqliteGameStore, channel_id: int = 10) -> int:
    lobby = await store.games.create_lobby(
        guild_id=1,
        channel_id=channel_id,
        thread_id=None,
        game="catsdogs",
        options={},
        host=SeatRecord(seat=0, user_id=ANN, name="Ann"),
        now=1.0,
    )
    seats = [SeatRecord(seat=0, user_id=ANN, name="Ann"), SeatRecord(seat=1, user_id=BO, name="Bo")]
    game = await store.games.start_game(lobby.id, seed=1, seats=seats, state_json='{"n": 0}', now=1.0)
    return game.id


def move(store: SqliteGameStore, game_id: int, expected: int, n: int, status: str | None = None):
    return store.games.commit_move(
        game_id,
        expected_version=expected,
        seat=n % 2,
        action=f"m:{n}",
        events=[{"kind": "move", "n": n}],
        state_json=f'{{"n": {n}}}',
        now=10.0 + n,
        status=status,
    )


async def test_one_batch_commits_each_move_as_if_alone(store):
    first, second = await active_game(store), await active_game(store)
    outcomes = await asyncio.gather(
        move(store, first, 1, 1),
        move(store, first, 2, 2),  # the same game's next move, in the same batch: sees the first
        move(store, first, 2, 3),  # made on the version the previous move replaced: stale
        move(store, second, 1, 1, status="finished"),
        move(store, second, 2, 2),  # the game finished one move earlier in this batch
        move(store, 999, 1, 1),
        return_exceptions=True,
    )
    assert outcomes[:2] == [2, 3]
    assert isinstance(outcomes[2], StaleMove)
    assert outcomes[3] == 2
    assert isinstance(outcomes[4], StaleMove)
    assert isinstance(outcomes[5], GameNotFound)
    assert [(m.seq, m.action) for m in await store.games.moves(first)] == [(1, "m:1"), (2, "m:2")]
    assert await store.games.load_state_json(first) == ('{"n": 2}', 3)
    assert (await store.games.get_game(second)).status == "finished"
    assert [m.action for m in await store.games.moves(second)] == ["m:1"]


async def test_a_move_that_breaks_its_batch_is_refused_alone_and_the_others_commit(store):
    first, second = await active_game(store), await active_game(store)
    broken = store.games.commit_move(
        second, expected_version=1, seat=0, action="m:1", events=[], state_json=None, now=11.0
    )
    outcomes = await asyncio.gather(move(store, first, 1, 1), broken, return_exceptions=True)
    assert outcomes[0] == 2
    assert isinstance(outcomes[1], sqlite3.IntegrityError | asyncpg.NotNullViolationError)
    assert [m.action for m in await store.games.moves(first)] == ["m:1"]
    assert await store.games.moves(second) == [] and (await store.games.get_game(second)).version == 1


@pytest.mark.sqlite_only  # one write thread; PostgreSQL's run side by side, ordered per game by its lock
async def test_writes_run_in_the_order_they_were_asked_for(store):
    """A transaction asked for between two moves of a game sees the first and not the second."""
    game = await active_game(store)

    def version(db: sqlite3.Connection) -> int:
        return db.execute("SELECT version FROM games WHERE id = ?", (game,)).fetchone()[0]

    first, seen, second = await asyncio.gather(
        move(store, game, 1, 1), store.database.sync_transaction(version), move(store, game, 2, 2)
    )
    assert (first, seen, second) == (2, 2, 3)


async def test_closing_the_store_commits_the_moves_still_queued(tmp_path):
    path = tmp_path / "catnip.sqlite3"
    store = SqliteGameStore(path)
    await store.open()
    games = [await active_game(store) for _ in range(5)]
    pending = [asyncio.create_task(move(store, game, 1, 1)) for game in games]
    await asyncio.sleep(0)  # every move handed to the store's thread
    await store.close()
    assert await asyncio.gather(*pending) == [2] * 5
    reopened = SqliteGameStore(path)
    await reopened.open()
    try:
        assert [len(await reopened.games.moves(game)) for game in games] == [1] * 5
    finally:
        await reopened.close()
    with pytest.raises(RuntimeError, match="not open"):
        await move(store, games[0], 2, 2)


async def test_saving_deadlines_in_one_go_skips_games_that_ended(store):
    live, ended = await active_game(store), await active_game(store)
    await store.timers.set_deadline(live, decision="v1", due=5.0)
    await store.games.set_status(ended, "abandoned", now=2.0)
    await store.timers.save_deadlines(
        [Deadline(game_id=ended, decision="v1", due=9.0), Deadline(game_id=404, decision="v1", due=9.0)]
    )
    assert [d.game_id for d in await store.timers.deadlines()] == [live]
    await store.timers.save_deadlines([Deadline(game_id=live, decision="v2", due=7.0)])
    assert [(d.decision, d.due) for d in await store.timers.deadlines()] == [("v2", 7.0)]
    await store.timers.save_deadlines(cleared=[live])
    assert await store.timers.deadlines() == []


@pytest.fixture
async def service(store):
    service = GameService(store, ManualClock())
    yield service
    await service.shutdown()


async def started(service: GameService):
    live = await service.lobby.open_lobby(
        game_key="catsdogs", guild_id=1, channel_id=10, thread_id=None, host_id=ANN, host_name="Ann"
    )
    for user in (BO, CY):
        await service.lobby.join(live.id, user, f"user{user}")
    return await service.start(live.id, ANN, seed=3)


async def test_a_deadline_armed_after_a_move_is_due_at_once_and_stored_soon_after(service):
    timers = Timers(service, TimerSettings(turn_seconds=120))
    game = await started(service)
    timers.arm_soon(game)
    assert timers.due(game.id) == service.clock.now() + 120, "the table can show it straight away"
    await timers.save()
    assert [(d.game_id, d.decision) for d in await service.store.timers.deadlines()] == [(game.id, "v1")]


async def test_a_deadline_lost_before_it_was_stored_is_armed_again_on_resume(service):
    timers = Timers(service, TimerSettings(turn_seconds=120))
    game = await started(service)
    await timers.arm(game)
    seat = game.to_act()[0]
    action = game.rules.legal_actions(game.state, seat)[0]
    await service.play(game.id, game.record.seats[seat].user_id, game.record.version, action.encode())
    timers.arm_soon(game)
    timers._unsaved.clear()  # the bot crashed before the background save ran
    resumed = Timers(service, TimerSettings(turn_seconds=120))
    await resumed.resume()
    assert [d.decision for d in await service.store.timers.deadlines()] == ["v1"], "the stored one is stale"
    service.clock.advance(30)
    await resumed.arm(game)
    assert resumed.due(game.id) == service.clock.now() + 120
    assert [d.decision for d in await service.store.timers.deadlines()] == [f"v{game.record.version}"]


@pytest.mark.sqlite_only  # the write thread's group commit; PostgreSQL's committer batches moves only
async def test_writes_waiting_with_the_moves_share_their_sync_and_one_that_fails_fails_alone(store):
    """The turn deadlines saved after each move used to cost a transaction and a sync of their own,
    as many as the moves' batches under load: now the small writes waiting with the moves join
    their transaction, each in a savepoint, so a failing one takes nothing else down."""
    first, second = await active_game(store), await active_game(store)
    commits: list[str] = []
    release, busy = asyncio.Event(), asyncio.Event()
    loop = asyncio.get_running_loop()

    def hold_the_thread(db: sqlite3.Connection) -> None:
        db.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
        loop.call_soon_threadsafe(busy.set)
        asyncio.run_coroutine_threadsafe(release.wait(), loop).result(5)

    holding = asyncio.create_task(store.database._write_thread.run(hold_the_thread, alone=True))
    await busy.wait()
    waiting = asyncio.gather(
        move(store, first, 1, 1),
        store.timers.save_deadlines([Deadline(game_id=first, decision="v2", due=99.0)]),
        store.database.sync_transaction(lambda db: db.execute("INSERT INTO no_such_table VALUES (1)")),
        move(store, second, 1, 1),
        return_exceptions=True,
    )
    while store.database._write_thread.queued < 4:
        await asyncio.sleep(0.001)
    release.set()
    await holding
    outcomes = await waiting
    assert outcomes[0] == outcomes[3] == 2 and outcomes[1] is None
    assert isinstance(outcomes[2], sqlite3.OperationalError) and "no_such_table" in str(outcomes[2])
    assert len(commits) == 2, "the holding transaction, then one for the four writes waiting"
    assert [(d.game_id, d.decision) for d in await store.timers.deadlines()] == [(first, "v2")]
    for game in (first, second):
        assert [m.action for m in await store.games.moves(game)] == ["m:1"]


@pytest.mark.sqlite_only  # the SQLite store writes a batch's deadlines with one statement per 1,000 games
async def test_deadlines_for_more_games_than_one_statement_takes_are_all_saved_the_last_one_asked_winning(
    store,
):
    games = [await active_game(store) for _ in range(1_001)]
    ended = await active_game(store)
    await move(store, ended, 1, 1, status="finished")
    asked = [Deadline(game_id=game, decision="v1", due=50.0 + index) for index, game in enumerate(games)]
    asked.append(Deadline(game_id=games[0], decision="v2", due=99.0))  # asked again: this one counts
    asked.append(Deadline(game_id=ended, decision="v2", due=99.0))  # the game is over: skipped
    await store.timers.save_deadlines(asked)
    saved = {d.game_id: (d.decision, d.due) for d in await store.timers.deadlines()}
    assert len(saved) == 1_001 and ended not in saved
    assert saved[games[0]] == ("v2", 99.0) and saved[games[-1]] == ("v1", 1_050.0)


def lazy_deadline(store: SqliteGameStore, game_id: int, decision: str):
    return store.timers.save_deadlines([Deadline(game_id=game_id, decision=decision, due=9.0)], lazy=True)


async def taken(store: SqliteGameStore) -> None:
    """Once the write thread has taken what was handed to it."""
    await asyncio.sleep(0)
    while store.database._write_thread.queued:
        await asyncio.sleep(0.001)


async def traced(store: SqliteGameStore) -> list[str]:
    commits: list[str] = []
    await store.database._write_thread.run(
        lambda db: db.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
    )
    commits.clear()
    return commits


@pytest.mark.sqlite_only  # the write thread's group commit
async def test_a_deadline_saved_after_a_move_waits_to_share_the_next_moves_commit(store, monkeypatch):
    """Under load a third of all commits (each with its sync) were the turn deadlines of the move
    just committed; saved lazily, they wait for the next move instead."""
    monkeypatch.setattr("bot.storage.write_thread.LINGER_SECONDS", 30.0)
    first, second = await active_game(store), await active_game(store)
    commits = await traced(store)
    saving = asyncio.create_task(lazy_deadline(store, first, "v2"))
    await taken(store)  # the thread holds the deadline and waits for company
    assert await move(store, second, 1, 1) == 2
    await saving
    assert commits == ["COMMIT"], "the deadline and the move: one transaction"
    assert [(d.game_id, d.decision) for d in await store.timers.deadlines()] == [(first, "v2")]


@pytest.mark.sqlite_only
async def test_a_lazy_deadline_with_no_move_to_join_is_saved_alone_and_none_is_lost_when_the_store_closes(
    store, monkeypatch
):
    game = await active_game(store)
    monkeypatch.setattr("bot.storage.write_thread.LINGER_SECONDS", 0.01)
    await lazy_deadline(store, game, "v2")
    assert [d.decision for d in await store.timers.deadlines()] == ["v2"]
    monkeypatch.setattr("bot.storage.write_thread.LINGER_SECONDS", 30.0)
    saving = asyncio.create_task(lazy_deadline(store, game, "v3"))
    await taken(store)
    await asyncio.wait_for(store.close(), 10)  # closing does not wait out the linger
    await saving
    reopened = SqliteGameStore(store.database.path)
    await reopened.open()
    assert [d.decision for d in await reopened.timers.deadlines()] == ["v3"]
    await reopened.close()


async def two_moves_in_one_commit(store: SqliteGameStore, first: int, second: int) -> None:
    """Hold the write thread while two games' moves queue, so that they share a transaction."""
    release = asyncio.Event()
    loop = asyncio.get_running_loop()
    holding = asyncio.create_task(
        store.database._write_thread.run(
            lambda db: asyncio.run_coroutine_threadsafe(release.wait(), loop).result(5), alone=True
        )
    )
    await taken(store)
    both = asyncio.gather(move(store, first, 1, 1), move(store, second, 1, 1))
    while store.database._write_thread.queued < 2:
        await asyncio.sleep(0.001)
    release.set()
    await holding
    assert await both == [2, 2]


@pytest.mark.sqlite_only  # the write thread's group commit
async def test_on_a_busy_bot_a_move_waits_a_moment_to_share_its_commit_with_the_next(store, monkeypatch):
    """Moves committed together are the sign of a busy bot: the next move waits for company, so that
    one sync and one wake of the event loop serve several moves."""
    monkeypatch.setattr("bot.storage.write_thread.GATHER_SECONDS", 0.5)
    games = [await active_game(store) for _ in range(4)]
    await two_moves_in_one_commit(store, *games[:2])
    commits = await traced(store)  # a write of no move: the bot is still busy
    gathering = asyncio.create_task(move(store, games[2], 1, 1))
    await taken(store)  # the thread holds the move and waits for company
    assert await move(store, games[3], 1, 1) == 2
    assert await gathering == 2
    assert commits == ["COMMIT"], "the two moves: one transaction"


@pytest.mark.sqlite_only
async def test_on_a_quiet_bot_a_move_is_committed_at_once(store, monkeypatch):
    monkeypatch.setattr("bot.storage.write_thread.GATHER_SECONDS", 30.0)
    game = await active_game(store)
    for version in (1, 2, 3):  # each alone in its transaction: none waits for company
        assert await asyncio.wait_for(move(store, game, version, version), 5) == version + 1
