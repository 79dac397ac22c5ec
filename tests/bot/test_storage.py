"""The game store on SQLite and PostgreSQL: durable moves, stale clicks, crash recovery, rebuilt snapshots,
statistics."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import asyncpg
import pytest

import bot.storage.migrations as migrations
from bot.storage import (
    Ending,
    FinalResult,
    GameNotFound,
    GameRecord,
    GameStore,
    SchemaTooNew,
    SeatRecord,
    SqliteGameStore,
    StaleMove,
)
from bot.storage.dialects import SQLITE
from bot.storage.games import ACTIVE_GAMES_SQL, MOVES_SQL
from bot.storage.timers import DEADLINES_SQL
from engine.core import Action, Event, Frozen, IllegalAction, InvalidInput, Outcome, Rng, Rules
from engine.history import replay

REPO = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------- a toy game


class Pull(Action):
    count: int

    def encode(self) -> str:
        return f"pull:{self.count}"


class YarnState(Frozen):
    players: int
    yarn: int
    turn: int
    pulled: tuple[int, ...]
    rng: Rng


class YarnOptions(Frozen):
    most: int = 3


class YarnView(Frozen):
    seat: int | None
    players: int
    to_act: tuple[int, ...]
    prompt: str
    over: bool
    yarn: int


class Yarn(Rules[YarnState, Pull, YarnView]):
    """Seats take turns pulling 1..`most` strands from a ball of yarn; whoever pulls the last one wins."""

    key = "yarn"
    title = "Yarn"
    min_players = 2
    max_players = 4
    Options = YarnOptions
    State = YarnState
    View = YarnView

    def setup(self, players, seed, options=None):
        rng = Rng.seeded(seed)
        extra, rng = rng.below(10)
        return YarnState(players=players, yarn=10 + extra, turn=0, pulled=(0,) * players, rng=rng)

    def most(self, state):
        return min(3, state.yarn)

    def to_act(self, state):
        return [] if state.yarn == 0 else [state.turn]

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        return [Pull(count=n) for n in range(1, self.most(state) + 1)]

    def check(self, state, seat, action):
        if not 1 <= action.count <= self.most(state):
            raise IllegalAction(f"You can pull 1 to {self.most(state)} strands.")

    def resolve(self, state, seat, action):
        pulled = tuple(p + action.count * (s == seat) for s, p in enumerate(state.pulled))
        new = state.model_copy(
            update={"yarn": state.yarn - action.count, "turn": (seat + 1) % state.players, "pulled": pulled}
        )
        return new, [Event(kind="pull", text=f"{{p{seat}}} pulled {action.count}.")]

    def view(self, state, seat):
        return YarnView(
            seat=seat,
            players=state.players,
            to_act=tuple(self.to_act(state)),
            prompt="",
            over=False,
            yarn=state.yarn,
        )

    def outcome(self, state):
        if state.yarn:
            return None
        last = (state.turn - 1) % state.players
        return Outcome(scores=state.pulled, winners=(last,), reason="pulled the last strand")

    def decode_action(self, text):
        if not text.startswith("pull:") or not text[5:].isdigit():
            raise InvalidInput(f"{text!r} is not a move.")
        return Pull(count=int(text[5:]))


RULES = Yarn()


# --------------------------------------------------------------------------- helpers


def member(seat: int, user_id: int, name: str = "") -> SeatRecord:
    return SeatRecord(seat=seat, user_id=user_id, name=name or f"member {user_id}")


def computer(seat: int, level: str = "easy") -> SeatRecord:
    return SeatRecord(seat=seat, user_id=None, name=f"Computer ({level})", computer=level)


async def started_game(
    store: GameStore, *, users=(1, 2), seed=7, guild_id=100, channel_id=200, game="yarn", now=1000.0
) -> GameRecord:
    lobby = await store.games.create_lobby(
        guild_id=guild_id,
        channel_id=channel_id,
        thread_id=None,
        game=game,
        options={"most": 3},
        host=member(0, users[0]),
        now=now,
    )
    seats = [member(i, u) if u is not None else computer(i) for i, u in enumerate(users)]
    state = RULES.setup(len(seats), seed, YarnOptions())
    return await store.games.start_game(
        lobby.id, seed=seed, seats=seats, state_json=state.model_dump_json(), now=now
    )


async def play_move(
    store: GameStore, game_id: int, pick=0, *, now=2000.0, result: FinalResult | None = None
) -> tuple[int, str]:
    """Play the `pick`-th legal action of whoever is to act (with `result` if it ends the game);
    (new version, encoded action)."""
    record = await store.games.get_game(game_id)
    state = await store.games.load_state(record, RULES)
    seat = RULES.to_act(state)[0]
    actions = RULES.legal_actions(state, seat)
    action = actions[pick % len(actions)]
    new, events = RULES.apply(state, seat, action)
    version = await store.games.commit_move(
        game_id,
        expected_version=record.version,
        seat=seat,
        action=action.encode(),
        events=[event.model_dump(mode="json") for event in events],
        state_json=new.model_dump_json(),
        now=now,
        status="finished" if RULES.outcome(new) else None,
        result=result if RULES.outcome(new) else None,
    )
    return version, action.encode()


async def play_to_end(store: GameStore, game_id: int, pick=0, result: FinalResult | None = None) -> Outcome:
    while (await store.games.get_game(game_id)).status == "active":
        await play_move(store, game_id, pick, result=result)
    record = await store.games.get_game(game_id)
    return RULES.outcome(await store.games.load_state(record, RULES))


def replayed(record: GameRecord, moves) -> YarnState:
    log = [(m.seat, m.action) for m in moves]
    return replay(RULES, len(record.seats), record.seed, YarnOptions(**record.options), log)


def raw(path: Path) -> sqlite3.Connection:
    """A second, plain connection to the database file (as a crashing or meddling process would have)."""
    return sqlite3.connect(path, isolation_level=None)


# --------------------------------------------------------------------------- lobby to finish


async def test_a_lobby_fills_starts_and_plays_a_move(store):
    assert isinstance(store, GameStore)
    lobby = await store.games.create_lobby(
        guild_id=1,
        channel_id=2,
        thread_id=None,
        game="yarn",
        options={"most": 2},
        host=member(0, 11, "Ann"),
        now=5.0,
    )
    assert (lobby.status, lobby.version, lobby.seats) == ("lobby", 0, (member(0, 11, "Ann"),))
    assert (lobby.host_id, lobby.seed, lobby.created_at) == (11, None, 5.0)

    seats = [member(0, 11, "Ann"), member(1, 2**62, "Bo"), computer(2, "hard")]
    lobby = await store.games.update_lobby(lobby.id, seats=seats, options={"most": 3}, thread_id=3, now=6.0)
    assert lobby.seats == tuple(seats) and lobby.options == {"most": 3} and lobby.thread_id == 3
    assert lobby.updated_at == 6.0 and lobby.seat_of(2**62) == 1

    state = RULES.setup(3, 42, YarnOptions())
    game = await store.games.start_game(
        lobby.id, seed=42, seats=seats, state_json=state.model_dump_json(), now=7.0
    )
    assert (game.status, game.version, game.seed) == ("active", 1, 42)
    assert await store.games.load_state_json(game.id) == (state.model_dump_json(), 1)

    version, action = await play_move(store, game.id, now=8.0)
    assert version == 2
    [move] = await store.games.moves(game.id)
    assert (move.seq, move.seat, move.action, move.at) == (1, 0, action, 8.0)
    assert [Event.model_validate(e) for e in move.events] == [
        Event(kind="pull", text=f"{{p0}} pulled {action[5:]}.")
    ]
    assert await store.games.get_game(game.id) == game.model_copy(update={"version": 2, "updated_at": 8.0})


async def test_the_lobby_cannot_change_or_start_again_once_started(store):
    game = await started_game(store)
    with pytest.raises(StaleMove):
        await store.games.update_lobby(game.id, seats=[member(0, 1)], now=1.0)
    with pytest.raises(StaleMove):
        await store.games.start_game(game.id, seed=1, seats=game.seats, state_json="{}", now=1.0)
    assert await store.games.get_game(game.id) == game


async def test_seats_must_be_numbered_from_zero_to_start(store):
    lobby = await store.games.create_lobby(
        guild_id=1, channel_id=2, thread_id=None, game="yarn", options={}, host=member(0, 1), now=0.0
    )
    with pytest.raises(ValueError, match="numbered"):
        await store.games.start_game(
            lobby.id, seed=1, seats=[member(0, 1), member(2, 2)], state_json="{}", now=1.0
        )
    assert (await store.games.get_game(lobby.id)).status == "lobby"


async def test_unknown_games_raise_game_not_found(store):
    with pytest.raises(GameNotFound):
        await store.games.get_game(404)
    with pytest.raises(GameNotFound):
        await store.games.load_state_json(404)
    with pytest.raises(GameNotFound):
        await store.games.commit_move(
            404, expected_version=1, seat=0, action="pull:1", events=[], state_json="{}", now=0.0
        )
    with pytest.raises(GameNotFound):
        await store.games.set_status(404, "abandoned", now=0.0)
    with pytest.raises(GameNotFound):
        await store.timers.set_deadline(404, decision="turn", due=1.0)
    with pytest.raises(GameNotFound):
        await store.games.set_table_message(404, channel_id=1, message_id=2, now=0.0)


async def test_a_double_click_commits_once_and_the_other_is_stale(store):
    game = await started_game(store)
    state = await store.games.load_state(game, RULES)
    attempts = []
    for pick in (Pull(count=1), Pull(count=2)):
        new, _ = RULES.apply(state, 0, pick)
        attempts.append(
            store.games.commit_move(
                game.id,
                expected_version=1,
                seat=0,
                action=pick.encode(),
                events=[],
                state_json=new.model_dump_json(),
                now=1.0,
            )
        )
    results = await asyncio.gather(*attempts, return_exceptions=True)
    assert sorted(map(type, results), key=str) == sorted([int, StaleMove], key=str)
    assert str(next(r for r in results if isinstance(r, StaleMove))) == "The table has moved on."
    moves = await store.games.moves(game.id)
    assert len(moves) == 1 and (await store.games.get_game(game.id)).version == 2
    winner = Pull(count=1) if results[0] == 2 else Pull(count=2)
    assert moves[0].action == winner.encode()
    assert (
        await store.games.load_state(await store.games.get_game(game.id), RULES)
        == RULES.apply(state, 0, winner)[0]
    )


async def test_no_move_is_accepted_once_the_game_has_ended(store):
    game = await started_game(store)
    await store.games.set_status(game.id, "abandoned", now=1.0)
    with pytest.raises(StaleMove):
        await store.games.commit_move(
            game.id, expected_version=1, seat=0, action="pull:1", events=[], state_json="{}", now=2.0
        )
    assert await store.games.moves(game.id) == []


async def test_a_finishing_move_ends_the_game_and_its_timer(store):
    game = await started_game(store)
    await store.timers.set_deadline(game.id, decision="pull", due=99.0)
    outcome = await play_to_end(store, game.id)
    record = await store.games.get_game(game.id)
    assert record.status == "finished" and outcome is not None
    assert await store.timers.deadlines() == []
    assert record.version == len(await store.games.moves(game.id)) + 1


async def test_the_move_that_ends_a_game_stores_its_result_with_it(store):
    game = await started_game(store, users=(1, 2))
    await store.timers.set_deadline(game.id, decision="pull", due=99.0)
    await play_to_end(
        store, game.id, result=FinalResult(scores=(3, 5), winners=(1,), reason="Bo pulled last")
    )
    assert (await store.games.get_game(game.id)).status == "finished" and await store.timers.deadlines() == []
    assert await store.results.stats(game.guild_id, 2) == [
        {"game": "yarn", "played": 1, "won": 1, "best": 5, "by_computer": 0}
    ]
    assert await store.results.stats(game.guild_id, 1) == [
        {"game": "yarn", "played": 1, "won": 0, "best": 3, "by_computer": 0}
    ]


async def test_an_ended_game_waits_among_the_endings_to_show_until_its_last_table_is_shown(store):
    ended, refused, playing, closed, quiet = [await started_game(store, users=(1, 2)) for _ in range(5)]
    await play_to_end(store, ended.id, result=FinalResult(scores=(3, 5), winners=(1,), reason=""))
    with pytest.raises(ValueError):
        await play_to_end(store, refused.id, result=FinalResult(scores=(1, 2, 3), winners=(0,), reason=""))
    await play_move(store, playing.id)
    await store.games.set_status(closed.id, "abandoned", now=9.0, reason="Nobody moved for a day.")
    await store.games.set_status(quiet.id, "abandoned", now=9.0)  # no reason: nothing to show
    assert await store.games.endings_to_show() == [
        Ending(record=await store.games.get_game(ended.id)),
        Ending(record=await store.games.get_game(closed.id), reason="Nobody moved for a day."),
    ]
    await store.games.ending_shown(ended.id)
    await store.games.ending_shown(ended.id)  # shown twice (its picture follows the text): no error
    await store.games.ending_shown(closed.id)
    assert await store.games.endings_to_show() == []


async def test_turn_pings_noted_are_handed_over_once_to_whoever_runs_their_games_next(store):
    one, two, three = [await started_game(store) for _ in range(3)]
    await store.timers.save_pings({one.id: (10, 100), two.id: (20, 200)})
    await store.timers.save_pings({two.id: (20, 201), three.id: (30, 300)}, cleared=[one.id])
    assert await store.timers.take_pings([one.id, two.id]) == {two.id: (20, 201)}
    assert await store.timers.take_pings([two.id, three.id]) == {three.id: (30, 300)}, "each handed over once"
    assert await store.timers.take_pings([one.id, two.id, three.id]) == {}


async def test_a_final_move_whose_result_cannot_be_stored_is_refused_whole(store):
    game = await started_game(store, users=(1, 2))
    with pytest.raises(ValueError, match="2 seats but 3 scores"):
        await play_to_end(store, game.id, result=FinalResult(scores=(1, 2, 3), winners=(0,), reason=""))
    record = await store.games.get_game(game.id)
    assert record.status == "active", "the game did not end without its result"
    assert record.version == len(await store.games.moves(game.id)) + 1
    assert await store.results.stats(game.guild_id, 1) == []


async def test_moves_pages_through_the_log_and_recent_moves_gives_the_newest(store):
    game = await started_game(store)
    for _ in range(6):
        await play_move(store, game.id)
    assert [m.seq for m in await store.games.moves(game.id)] == [1, 2, 3, 4, 5, 6]
    assert [m.seq for m in await store.games.moves(game.id, after_seq=2, limit=3)] == [3, 4, 5]
    assert [m.seq for m in await store.games.moves(game.id, after_seq=6)] == []
    assert [m.seq for m in await store.games.recent_moves(game.id, 4)] == [3, 4, 5, 6]
    assert [m.seq for m in await store.games.recent_moves(game.id, 50)] == [1, 2, 3, 4, 5, 6]


@pytest.mark.sqlite_only
async def test_the_action_log_is_append_only(store, tmp_path):
    game = await started_game(store)
    await play_move(store, game.id)
    with raw(tmp_path / "catnip.sqlite3") as db:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute("UPDATE moves SET action = 'pull:3'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute("DELETE FROM moves")
    assert len(await store.games.moves(game.id)) == 1


async def test_a_computer_takes_over_a_seat_and_the_table_message_moves(store):
    game = await started_game(store, users=(1, 2))
    record = await store.games.replace_seat(game.id, computer(1, "normal"), now=3.0)
    assert record.seats == (member(0, 1), computer(1, "normal")) and record.seat_of(2) is None
    assert record.version == game.version and record.updated_at == 3.0
    with pytest.raises(ValueError, match="no seat 5"):
        await store.games.replace_seat(game.id, computer(5), now=4.0)

    await store.games.set_table_message(game.id, channel_id=77, message_id=88, now=5.0)
    record = await store.games.get_game(game.id)
    assert (record.table_channel_id, record.table_message_id) == (77, 88)
    await store.games.set_table_message(game.id, channel_id=77, message_id=None, now=6.0)
    assert (await store.games.get_game(game.id)).table_message_id is None


# --------------------------------------------------------------------------- crash and recovery

CRASHING_PLAYER = """
import asyncio, json, sqlite3, sys, time
from bot.storage import SqliteGameStore

async def main(plan):
    store = SqliteGameStore(plan["path"])
    await store.open()
    for move in plan["moves"]:
        await store.games.commit_move(plan["game"], now=5.0, **move)
    # A move half-written by another connection when the machine dies: never committed.
    other = sqlite3.connect(plan["path"], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    other.execute("UPDATE games SET version = version + 1 WHERE id = ?", (plan["game"],))
    other.execute("INSERT INTO moves VALUES (?, 99, 0, 'pull:1', '[]', 6.0)", (plan["game"],))
    print("committed", flush=True)
    time.sleep(60)

asyncio.run(main(json.loads(sys.stdin.readline())))
"""


@pytest.mark.sqlite_only
async def test_a_write_that_waits_for_anything_but_the_database_is_refused_and_rolled_back(store):
    """Writes run on the store's thread in one go; a body that suspends would need the event loop."""
    game = await started_game(store, users=(1, 2))

    async def body(db):
        await db.execute("UPDATE games SET updated_at = 99 WHERE id = ?", game.id)
        await asyncio.sleep(0)

    with pytest.raises(RuntimeError, match="waited for something other than the database"):
        await store.database.transaction(body)
    assert (await store.games.get_game(game.id)).updated_at != 99
    assert (await store.games.replace_seat(game.id, computer(1), now=7.0)).updated_at == 7.0


async def test_a_killed_process_loses_no_committed_move_and_the_game_resumes(tmp_path):
    """Issue 2: a move applied, the process killed without closing, the database reopened → intact."""
    path = tmp_path / "catnip.sqlite3"
    store = SqliteGameStore(path)
    await store.open()
    game = await started_game(store, seed=3)
    await store.close()

    state, moves = RULES.setup(2, 3, YarnOptions()), []
    for version in (1, 2, 3):
        seat = RULES.to_act(state)[0]
        action = RULES.legal_actions(state, seat)[-1]
        state, events = RULES.apply(state, seat, action)
        moves.append(
            {
                "expected_version": version,
                "seat": seat,
                "action": action.encode(),
                "events": [e.model_dump(mode="json") for e in events],
                "state_json": state.model_dump_json(),
            }
        )
    with subprocess.Popen(
        [sys.executable, "-c", CRASHING_PLAYER],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as child:
        try:
            child.stdin.write(json.dumps({"path": str(path), "game": game.id, "moves": moves}) + "\n")
            child.stdin.flush()
            assert child.stdout.readline().strip() == "committed"
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
    assert child.returncode == -signal.SIGKILL
    assert path.with_name(path.name + "-wal").exists(), "the crash should leave the write-ahead log behind"

    store = SqliteGameStore(path)
    await store.open()
    try:
        record = await store.games.get_game(game.id)
        log = await store.games.moves(game.id)
        assert record.version == 4 and record.status == "active"
        assert [(m.seq, m.seat, m.action) for m in log] == [
            (i + 1, m["seat"], m["action"]) for i, m in enumerate(moves)
        ]
        assert await store.games.load_state_json(game.id) == (moves[-1]["state_json"], 4)
        assert await store.games.load_state(record, RULES) == state == replayed(record, log)
        # ...and play goes on from there.
        assert (await play_move(store, game.id))[0] == 5
        assert [m.seq for m in await store.games.moves(game.id)] == [1, 2, 3, 4]
    finally:
        await store.close()


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        ("DELETE FROM snapshots", "is missing or out of date"),
        ("UPDATE snapshots SET state = '{\"players\": 2'", "does not validate"),
        ('UPDATE snapshots SET state = \'{"players": 2, "yarn": -1}\'', "does not validate"),
        ("UPDATE snapshots SET seq = seq - 1", "is missing or out of date"),
    ],
    ids=["missing", "truncated", "wrong-shape", "behind-the-log"],
)
async def test_a_bad_snapshot_is_rebuilt_from_the_log(store, tmp_path, caplog, damage, problem):
    game = await started_game(store)
    for pick in (0, 2, 1, 2):
        await play_move(store, game.id, pick)
    record = await store.games.get_game(game.id)
    good = await store.games.load_state(record, RULES)
    with raw(tmp_path / "catnip.sqlite3") as db:
        db.execute(damage)

    with caplog.at_level(logging.WARNING, logger="bot.storage"):
        assert await store.games.load_state(record, RULES) == good
    assert f"game={game.id} guild=100: snapshot {problem}" in caplog.text
    assert "rebuilding it from 4 logged moves" in caplog.text
    assert await store.games.load_state_json(game.id) == (good.model_dump_json(), record.version)


async def test_a_rebuilt_snapshot_is_not_written_over_a_newer_move(store):
    game = await started_game(store)
    await play_move(store, game.id)
    state_json, version = await store.games.load_state_json(game.id)
    await play_move(store, game.id)
    assert not await store.games.repair_snapshot(game.id, state_json=state_json, version=version, seq=1)
    assert (await store.games.load_state_json(game.id))[0] != state_json


# --------------------------------------------------------------------------- concurrency


async def test_a_hundred_games_played_at_once_keep_gapless_complete_logs(store):
    """Issue 2: many tasks moving in 100 games at once, each holding the game's lock as the session does."""
    games = [await started_game(store, seed=seed) for seed in range(100)]
    committed: dict[int, list[tuple[int, int, str]]] = {game.id: [] for game in games}
    latest = {game.id: game.version for game in games}
    moved = {game.id: asyncio.Condition() for game in games}

    async def player(game: GameRecord, seat: int, pick: int) -> None:
        while True:
            async with store.lock(game.id):
                record = await store.games.get_game(game.id)
                if record.status != "active":
                    return
                state = await store.games.load_state(record, RULES)
                if seat in RULES.to_act(state):
                    actions = RULES.legal_actions(state, seat)
                    action = actions[pick % len(actions)]
                    new, events = RULES.apply(state, seat, action)
                    version = await store.games.commit_move(
                        game.id,
                        expected_version=record.version,
                        seat=seat,
                        action=action.encode(),
                        events=[e.model_dump(mode="json") for e in events],
                        state_json=new.model_dump_json(),
                        now=3.0,
                        status="finished" if RULES.outcome(new) else None,
                    )
                    committed[game.id].append((version - 1, seat, action.encode()))
                    latest[game.id] = version
            seen = record.version
            async with moved[game.id]:
                if latest[game.id] != seen:
                    moved[game.id].notify_all()
                else:  # not this seat's turn: wait for someone to move
                    await moved[game.id].wait_for(lambda seen=seen: latest[game.id] != seen)

    # Two tasks per seat (a player clicking in two windows), 400 tasks in all.
    await asyncio.gather(*(player(g, seat, pick) for g in games for seat in (0, 1) for pick in (0, 2)))

    assert (await store.games.active_games()) == []
    for game in games:
        record = await store.games.get_game(game.id)
        log = await store.games.moves(game.id)
        assert [m.seq for m in log] == list(range(1, len(log) + 1)), "the log has a gap"
        assert sorted(committed[game.id]) == [(m.seq, m.seat, m.action) for m in log], "a move was lost"
        assert record.status == "finished" and record.version == len(log) + 1
        assert await store.games.load_state(record, RULES) == replayed(record, log)
        assert RULES.outcome(replayed(record, log)) is not None


async def test_racing_clicks_without_the_lock_commit_exactly_one_per_turn(store):
    """Issue 2: in each of 100 games, three clicks per turn on the same version: one wins, two are stale."""
    games = [await started_game(store, seed=seed) for seed in range(100)]
    wins: dict[int, list[tuple[int, str]]] = {game.id: [] for game in games}
    stale: dict[int, int] = dict.fromkeys(wins, 0)
    turns: dict[int, int] = dict.fromkeys(wins, 0)

    async def clicker(game: GameRecord, pick: int, barrier: asyncio.Barrier) -> None:
        while True:
            record = await store.games.get_game(game.id)
            state = await store.games.load_state(record, RULES) if record.status == "active" else None
            await barrier.wait()  # everyone has read the same version
            if state is None:
                return
            seat = RULES.to_act(state)[0]
            actions = RULES.legal_actions(state, seat)
            action = actions[pick % len(actions)]
            new, _ = RULES.apply(state, seat, action)
            try:
                version = await store.games.commit_move(
                    game.id,
                    expected_version=record.version,
                    seat=seat,
                    action=action.encode(),
                    events=[],
                    state_json=new.model_dump_json(),
                    now=1.0,
                    status="finished" if RULES.outcome(new) else None,
                )
                wins[game.id].append((version - 1, action.encode()))
            except StaleMove:
                stale[game.id] += 1
            if pick == 0:
                turns[game.id] += 1
            await barrier.wait()  # everyone has clicked before the next turn is read

    async def table(game: GameRecord) -> None:
        barrier = asyncio.Barrier(3)
        await asyncio.gather(*(clicker(game, pick, barrier) for pick in range(3)))

    await asyncio.gather(*(table(game) for game in games))

    for game in games:
        record = await store.games.get_game(game.id)
        log = await store.games.moves(game.id)
        assert [m.seq for m in log] == list(range(1, len(log) + 1))
        assert wins[game.id] == [(m.seq, m.action) for m in log]
        assert len(log) == turns[game.id] and stale[game.id] == 2 * turns[game.id]
        assert record.status == "finished"
        # Every logged move was legal where it was made: the log replays to the snapshot.
        assert await store.games.load_state(record, RULES) == replayed(record, log)


@pytest.mark.sqlite_only
@pytest.mark.parametrize("written", [False, True], ids=["still-queued", "being-written"])
async def test_a_cancelled_caller_never_leaves_a_half_written_move(store, written):
    """Cancelled while queued, a move is withdrawn; once its transaction has begun, it is committed whole."""
    game = await started_game(store)
    state = await store.games.load_state(game, RULES)
    new, _ = RULES.apply(state, 0, Pull(count=1))
    # Still queued: the write thread is busy with another transaction. Being written: the thread
    # has taken the move and waits for SQLite's write lock, held by another connection.
    blocker = sqlite3.connect(store.database.path, isolation_level=None)
    release, holding = threading.Event(), None
    if written:
        blocker.execute("BEGIN IMMEDIATE")
    else:
        busy = threading.Event()

        def hold_the_thread(db):
            busy.set()
            release.wait(5)

        holding = asyncio.create_task(store.database.sync_transaction(hold_the_thread))
        await asyncio.to_thread(busy.wait, 5)
    task = asyncio.create_task(
        store.games.commit_move(
            game.id,
            expected_version=1,
            seat=0,
            action="pull:1",
            events=[],
            state_json=new.model_dump_json(),
            now=1,
        )
    )
    await asyncio.sleep(0)
    while written and store.database._write_thread.queued:  # until its batch has been taken
        await asyncio.sleep(0.001)
    assert store.database._write_thread.queued == (0 if written else 1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    release.set()
    blocker.close()  # lets go of the write lock
    if holding is not None:
        await holding
    await store.database._write_thread.drain()  # the batch, if it began, runs to its end
    record = await store.games.get_game(game.id)
    log = await store.games.moves(game.id)
    assert [(m.seq, m.action) for m in log] == ([(1, "pull:1")] if written else [])
    assert record.version == len(log) + 1
    assert await store.games.load_state(record, RULES) == (new if written else state)
    # ...and play goes on.
    await play_move(store, game.id)
    assert [m.seq for m in await store.games.moves(game.id)] == list(range(1, len(log) + 2))


async def test_a_failing_move_takes_no_other_game_down_with_it(store, caplog):
    """Moves of several games share a transaction; one that fails half-way is undone alone."""
    games = [await started_game(store, seed=seed) for seed in range(3)]

    async def commit(game: GameRecord, seat):
        return await store.games.commit_move(
            game.id, expected_version=1, seat=seat, action="pull:1", events=[], state_json="{}", now=1.0
        )

    results = await asyncio.gather(
        commit(games[0], 0), commit(games[1], None), commit(games[2], 0), return_exceptions=True
    )
    assert re.search(r"a batch of 3 (moves|writes) failed", caplog.text)
    assert results[0] == results[2] == 2
    # no seat: refused after its version bump
    assert isinstance(results[1], sqlite3.IntegrityError | asyncpg.NotNullViolationError)
    assert [len(await store.games.moves(g.id)) for g in games] == [1, 0, 1]
    assert (await store.games.get_game(games[1].id)).version == 1, (
        "the failed move's version bump was rolled back"
    )
    assert await store.games.load_state_json(games[1].id) == (
        RULES.setup(2, 1, YarnOptions()).model_dump_json(),
        1,
    )


def test_the_per_game_lock_is_shared_per_game(tmp_path):
    store = SqliteGameStore(tmp_path / "x.sqlite3")
    first = store.lock(1)
    assert store.lock(1) is first and store.lock(2) is not first


# --------------------------------------------------------------------------- finding games, timers, options


async def test_active_games_never_include_ended_ones(store):
    lobby = await store.games.create_lobby(
        guild_id=1, channel_id=5, thread_id=6, game="yarn", options={}, host=member(0, 1), now=0.0
    )
    active = await started_game(store, channel_id=5)
    finished = await started_game(store, channel_id=5)
    await play_to_end(store, finished.id)
    abandoned = await started_game(store, channel_id=5)
    await store.games.set_status(abandoned.id, "abandoned", now=1.0)
    cancelled = await store.games.create_lobby(
        guild_id=1, channel_id=5, thread_id=None, game="yarn", options={}, host=member(0, 1), now=0.0
    )
    await store.games.set_status(cancelled.id, "cancelled", now=1.0)
    elsewhere = await started_game(store, channel_id=9)

    assert [g.id for g in await store.games.active_games()] == [lobby.id, active.id, elsewhere.id]
    assert await store.games.active_games() == [
        await store.games.get_game(i) for i in (lobby.id, active.id, elsewhere.id)
    ]
    assert [g.id for g in await store.games.games_in_channel(5)] == [lobby.id, active.id]
    assert [g.id for g in await store.games.games_in_channel(6)] == [lobby.id], "a thread finds its game"
    ended = await store.games.games_in_channel(5, statuses=("finished", "abandoned"))
    assert [g.id for g in ended] == [finished.id, abandoned.id]


async def test_deadlines_are_one_per_game_and_replaced(store):
    first, second = await started_game(store), await started_game(store)
    await store.timers.set_deadline(first.id, decision="pull", due=50.0)
    await store.timers.set_deadline(second.id, decision="pull", due=20.0)
    await store.timers.set_deadline(first.id, decision="pull again", due=10.0)
    assert [(d.game_id, d.decision, d.due) for d in await store.timers.deadlines()] == [
        (first.id, "pull again", 10.0),
        (second.id, "pull", 20.0),
    ]
    await store.timers.clear_deadline(first.id)
    await store.timers.clear_deadline(first.id)
    await store.games.set_status(second.id, "abandoned", now=3.0)
    assert await store.timers.deadlines() == []


async def test_options_are_remembered_per_channel_and_game(store):
    assert await store.games.remembered_options(1, "yarn") is None
    await store.games.remember_options(1, "yarn", {"most": 2})
    await store.games.remember_options(1, "yarn", {"most": 3, "names": ["Ann", "Bö"]})
    await store.games.remember_options(2, "yarn", {"most": 1})
    assert await store.games.remembered_options(1, "yarn") == {"most": 3, "names": ["Ann", "Bö"]}
    assert await store.games.remembered_options(2, "yarn") == {"most": 1}
    assert await store.games.remembered_options(1, "catsdogs") is None


@pytest.mark.sqlite_only
async def test_lookups_use_indexes_not_scans_of_all_games(store, tmp_path):
    """Start-up, the action log and timers stay fast with thousands of finished games."""
    with raw(tmp_path / "catnip.sqlite3") as db:

        def plan(sql: str, *params) -> str:
            return " | ".join(row[3] for row in db.execute("EXPLAIN QUERY PLAN " + SQLITE.sql(sql), params))

        assert "USING INDEX games_live" in plan(ACTIVE_GAMES_SQL)
        assert "SEARCH moves USING PRIMARY KEY (game_id=? AND seq>?)" in plan(MOVES_SQL, 1, 0, -1)
        assert "SCAN g " not in plan(DEADLINES_SQL) and "USING INTEGER PRIMARY KEY" in plan(DEADLINES_SQL)


# --------------------------------------------------------------------------- statistics


async def test_stats_and_leaderboard_count_finished_games_in_this_server(store):
    ann, bo, cy = 1, 2, 3

    async def finished(users, winners, scores, guild_id=100):
        game = await started_game(store, users=users, guild_id=guild_id)
        await store.games.set_status(game.id, "finished", now=9.0)
        await store.games.record_result(game.id, scores=scores, winners=winners, reason="done", now=9.0)

    await finished((ann, bo), (0,), (7, 3))
    await finished((ann, bo), (1,), (2, 9))
    await finished((ann, None), (0,), (12, 1))
    await finished((cy, ann), (0,), (8, 4))
    await finished((cy, bo), (0, 1), (5, 5))  # a shared win
    await finished((ann, bo), (0,), (30, 0), guild_id=999)  # another server
    await started_game(store, users=(ann, bo))  # still being played

    assert await store.results.stats(100, ann) == [
        {"game": "yarn", "played": 4, "won": 2, "best": 12, "by_computer": 0}
    ]
    assert await store.results.stats(100, bo) == [
        {"game": "yarn", "played": 3, "won": 2, "best": 9, "by_computer": 0}
    ]
    assert await store.results.stats(999, ann) == [
        {"game": "yarn", "played": 1, "won": 1, "best": 30, "by_computer": 0}
    ]
    assert await store.results.stats(100, 12345) == []
    assert await store.results.leaderboard(100, "yarn") == [
        {"user_id": cy, "played": 2, "won": 2},
        {"user_id": bo, "played": 3, "won": 2},
        {"user_id": ann, "played": 4, "won": 2},
    ]
    assert await store.results.leaderboard(100, "yarn", limit=1) == [{"user_id": cy, "played": 2, "won": 2}]
    assert await store.results.leaderboard(100, "catsdogs") == []


async def test_recording_a_result_twice_counts_once_and_a_replaced_member_is_not_credited(store):
    game = await started_game(store, users=(1, 2))
    await store.games.replace_seat(game.id, computer(1), now=2.0)
    await play_to_end(store, game.id)
    for _ in range(2):
        await store.games.record_result(game.id, scores=(4, 6), winners=(1,), reason="done", now=9.0)
    assert await store.results.stats(100, 1) == [
        {"game": "yarn", "played": 1, "won": 0, "best": 4, "by_computer": 0}
    ]
    assert await store.results.stats(100, 2) == []
    with pytest.raises(ValueError, match="2 seats but 3 scores"):
        await store.games.record_result(game.id, scores=(1, 2, 3), winners=(0,), reason="", now=9.0)


# --------------------------------------------------------------------------- migrations


async def test_migrations_apply_once_and_reopening_changes_nothing(tmp_path, monkeypatch):
    path = tmp_path / "catnip.sqlite3"
    store = SqliteGameStore(path)
    await store.open()
    await store.open()
    game = await started_game(store)
    await store.close()
    await store.close()
    with raw(path) as db:
        applied = db.execute("SELECT version, applied_at FROM schema_migrations").fetchall()
        assert [version for version, _ in applied] == [m.version for m in migrations.MIGRATIONS]
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)

    store = SqliteGameStore(path)
    await store.open()
    assert await store.games.get_game(game.id) == game
    await store.close()

    # A later release adds a migration: it is applied once, on top of the existing data.
    newest = migrations.MIGRATIONS[-1].version
    added = migrations.Migration(
        newest + 1, "notes", "ALTER TABLE games ADD COLUMN note TEXT;\nCREATE INDEX n ON games (note);"
    )
    monkeypatch.setattr(migrations, "MIGRATIONS", (*migrations.MIGRATIONS, added))
    for _ in range(2):
        store = SqliteGameStore(path)
        await store.open()
        assert await store.games.get_game(game.id) == game
        await store.close()
    with raw(path) as db:
        assert db.execute("SELECT version, applied_at FROM schema_migrations").fetchall()[0] == applied[0]
        assert [v for (v,) in db.execute("SELECT version FROM schema_migrations")] == [
            *(version for version, _ in applied),
            newest + 1,
        ]


async def test_a_failed_migration_leaves_the_database_untouched(tmp_path, monkeypatch):
    path = tmp_path / "catnip.sqlite3"
    broken = migrations.Migration(
        migrations.MIGRATIONS[-1].version + 1,
        "broken",
        "CREATE TABLE fine (x);\nALTER TABLE nowhere ADD COLUMN y;",
    )
    monkeypatch.setattr(migrations, "MIGRATIONS", (*migrations.MIGRATIONS, broken))
    with pytest.raises(sqlite3.OperationalError, match="nowhere"):
        await SqliteGameStore(path).open()
    with raw(path) as db:
        assert db.execute("SELECT name FROM sqlite_master WHERE name IN ('games', 'fine')").fetchall() == []


async def test_a_database_from_a_newer_catnip_is_refused(tmp_path):
    path = tmp_path / "catnip.sqlite3"
    store = SqliteGameStore(path)
    await store.open()
    await store.close()
    with raw(path) as db:
        db.execute("INSERT INTO schema_migrations VALUES (99, 0)")
    with pytest.raises(SchemaTooNew, match="version 99"):
        await SqliteGameStore(path).open()


def test_migration_scripts_split_into_whole_statements():
    written = migrations.MIGRATIONS[0].statements(SQLITE)
    script = "\n".join(s if s.endswith(";") else f"{s};" for s in written)
    parts = SQLITE.split(script)
    assert all(sqlite3.complete_statement(part) for part in parts)
    triggers = [part for part in parts if part.startswith("CREATE TRIGGER")]
    assert len(triggers) == 2 and all(t.endswith("END;") for t in triggers)


async def test_a_game_a_computer_finished_for_an_away_member_counts_as_played_not_won(store):
    """G-X8: the member keeps the seat while a computer plays it; the game is theirs to count, not to win."""
    ann, bo = 1, 2
    game = await started_game(store, users=(ann, bo))
    away = member(1, bo).model_copy(update={"computer": "normal"})
    await store.games.replace_seat(game.id, away, now=5.0)
    await store.games.set_status(game.id, "finished", now=9.0)
    await store.games.record_result(game.id, scores=(3, 8), winners=(1,), reason="done", now=9.0)

    assert await store.results.stats(100, bo) == [
        {"game": "yarn", "played": 1, "won": 0, "best": None, "by_computer": 1}
    ]
    assert await store.results.stats(100, ann) == [
        {"game": "yarn", "played": 1, "won": 0, "best": 3, "by_computer": 0}
    ]
    board = await store.results.leaderboard(100, "yarn")
    assert {row["user_id"]: row["won"] for row in board} == {ann: 0, bo: 0}
