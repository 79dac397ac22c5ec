"""The session layer without Discord: lobbies, permissions, stale clicks, timers, resume, rematch, stats."""

from __future__ import annotations

import pytest

from bot.absence import Absence
from bot.clock import ManualClock
from bot.errors import GameClosed, NotHost, NotInGame, Refusal, TableMovedOn
from bot.sessions import GameService
from bot.timers import Timers, TimerSettings
from engine import EngineError

ANN, BO, CY, DI = 101, 102, 103, 104


class Recorder:
    """A listener that remembers what it was told."""

    def __init__(self) -> None:
        self.lobbies, self.changes, self.closed, self.warnings = [], [], [], []

    async def lobby_changed(self, game):
        self.lobbies.append(len(game.record.seats))

    async def game_changed(self, game, events):
        self.changes.append((game.record.version, list(events)))

    async def game_closed(self, game, reason):
        self.closed.append(reason)

    async def timer_warning(self, game, seats, seconds_left):
        self.warnings.append((seats, seconds_left))


@pytest.fixture
async def world(store):
    clock = ManualClock()
    service = GameService(store, clock)
    recorder = Recorder()
    service.show_with(recorder)
    timers = Timers(service, TimerSettings(turn_seconds=120, secret_seconds=60, warning_seconds=30))
    yield store, clock, service, recorder, timers
    await service.shutdown()


async def lobby(service, game="catsdogs", players=(ANN, BO, CY)):
    live = await service.lobby.open_lobby(
        game_key=game, guild_id=1, channel_id=10, thread_id=None, host_id=players[0], host_name="Ann"
    )
    for user in players[1:]:
        await service.lobby.join(live.id, user, f"user{user}")
    return live


async def play_one(service, game, user):
    """Play the first legal action of `user`'s seat, as a click made on the current version."""
    seat = game.seat_of(user)
    action = game.rules.legal_actions(game.state, seat)[0]
    return await service.play(game.id, user, game.record.version, action.encode())


def user_to_act(game):
    seat = game.to_act()[0]
    return game.record.seats[seat].user_id


def seated(game) -> list[int | None]:
    return [seat.user_id for seat in game.record.seats]


async def test_seats_follow_join_order_and_the_host_may_shuffle_them(world):
    """G-1 / G-X6: join order, then a new random order on the host's say-so."""
    _, _, service, recorder, _ = world
    live = await lobby(service, players=(ANN, BO, CY, DI))
    assert seated(live) == [ANN, BO, CY, DI]
    with pytest.raises(NotHost, match="Only Ann"):
        await service.lobby.shuffle_seats(live.id, BO, seed=1)
    orders = set()
    for seed in range(12):
        before = seated(live)
        await service.lobby.shuffle_seats(live.id, ANN, seed=seed)
        assert seated(live) != before and sorted(seated(live)) == sorted(before)
        assert [seat.seat for seat in live.record.seats] == [0, 1, 2, 3]
        orders.add(tuple(seated(live)))
    assert len(orders) > 3, "the order is random"
    assert recorder.lobbies[-1] == 4, "the lobby is shown again"
    last = seated(live)
    started = await service.start(live.id, ANN, seed=5)
    assert seated(started) == last, "the game is played in the shuffled order"


async def test_a_lonely_host_has_nobody_to_change_places_with(world):
    _, _, service, _, _ = world
    live = await lobby(service, players=(ANN,))
    with pytest.raises(Refusal, match="nobody to change places with"):
        await service.lobby.shuffle_seats(live.id, ANN, seed=1)


async def test_who_starts_follows_the_player_through_shuffles_and_leaving(world):
    """G-X6: an option naming a seat names a player: shuffled, they keep it; gone, it is random again."""
    _, _, service, _, _ = world
    live = await lobby(service, players=(ANN, BO, CY))
    await service.lobby.set_option(live.id, ANN, "first_player", 2)  # Cy
    for seed in range(5):
        await service.lobby.shuffle_seats(live.id, ANN, seed=seed)
        assert seated(live)[live.record.options["first_player"]] == CY
    await service.lobby.leave_lobby(live.id, BO)
    assert seated(live)[live.record.options["first_player"]] == CY
    await service.lobby.leave_lobby(live.id, CY)
    assert live.record.options["first_player"] is None
    await service.lobby.set_option(live.id, ANN, "first_player", 1)
    await service.lobby.join(live.id, DI, "Di")
    await service.start(live.id, ANN, seed=1)
    again = await lobby(service, players=(ANN,))
    assert again.record.options["first_player"] == 1, "remembered: the second seat, for now empty"
    await service.lobby.join(again.id, CY, "Cy")
    await service.lobby.shuffle_seats(again.id, ANN, seed=2)
    assert seated(again)[again.record.options["first_player"]] == CY, "whoever took it keeps it"


async def test_a_remembered_seat_nobody_took_is_drawn_at_start(world):
    """G-X6: the lobby shows it as random, and the game starts with a drawn seat."""
    _, _, service, _, _ = world
    live = await lobby(service, players=(ANN, BO, CY))
    await service.lobby.set_option(live.id, ANN, "first_player", 2)
    await service.start(live.id, ANN, seed=3)
    again = await lobby(service, players=(ANN, BO))
    assert again.record.options["first_player"] == 2
    leaders = set()
    for seed in range(12):
        smaller = await lobby(service, players=(ANN, BO))
        leaders.add((await service.start(smaller.id, ANN, seed=seed)).state.leader)
    assert leaders == {0, 1}


async def test_lobby_join_leave_start_and_the_host_rules(world):
    _, _, service, recorder, _ = world
    live = await lobby(service, players=(ANN, BO))
    with pytest.raises(Refusal, match="already seated"):
        await service.lobby.join(live.id, BO, "Bo")
    with pytest.raises(NotHost, match="Only Ann"):
        await service.start(live.id, BO, seed=1)
    with pytest.raises(NotHost):
        await service.lobby.add_computer(live.id, BO, "easy")
    await service.lobby.add_computer(live.id, ANN, "easy")
    assert [s.computer for s in live.record.seats] == [None, None, "easy"]
    await service.lobby.leave_lobby(live.id, BO)
    assert [s.seat for s in live.record.seats] == [0, 1], "seats are renumbered after a leave"
    with pytest.raises(Refusal, match="host"):
        await service.lobby.leave_lobby(live.id, ANN)
    game = await service.start(live.id, ANN, seed=7)
    assert game.state is not None and game.record.status == "active"
    assert recorder.lobbies == [1, 2, 3, 2]
    with pytest.raises(GameClosed, match="already started"):
        await service.lobby.join(live.id, CY, "Cy")


async def test_a_full_table_refuses_more_players(world):
    _, _, service, _, _ = world
    live = await lobby(service, players=(ANN, BO, CY, DI))
    await service.lobby.add_computer(live.id, ANN, "normal")
    with pytest.raises(Refusal, match="full"):
        await service.lobby.join(live.id, 999, "Late")


async def test_start_refuses_a_player_count_the_game_cannot_seat(world):
    _, _, service, _, _ = world
    live = await lobby(service, game="catsanity", players=(ANN,))
    with pytest.raises(Refusal, match="needs 2–5 players"):
        await service.start(live.id, ANN, seed=1)


async def test_remembered_options_carry_to_the_next_lobby_in_the_channel(world):
    _, _, service, _, _ = world
    live = await lobby(service, players=(ANN, BO, CY))
    await service.lobby.set_option(live.id, ANN, "first_player", 2)
    await service.start(live.id, ANN, seed=3)
    again = await lobby(service, players=(ANN, BO, CY))
    assert again.record.options["first_player"] == 2
    with pytest.raises(Refusal, match="valid setting"):
        await service.lobby.set_option(again.id, ANN, "first_player", "banana")


async def test_permission_matrix_refuses_without_touching_the_state(world):
    store, _, service, _, _ = world
    live = await lobby(service)
    game = await service.start(live.id, ANN, seed=11)
    before = (game.record.version, game.state)
    actor = user_to_act(game)
    idle = next(u for u in (ANN, BO, CY) if u != actor)
    with pytest.raises(NotInGame, match="between Ann, user102 and user103"):
        await service.play(game.id, 555, game.record.version, "p:C1")
    idle_seat = game.seat_of(idle)
    idle_card = game.state.hands[idle_seat][0]
    with pytest.raises(Refusal, match="not your turn"):
        await service.play(game.id, idle, game.record.version, f"p:{idle_card}")
    with pytest.raises(EngineError, match="'p:nonsense' is not a card to play; write it like p:C7"):
        await service.play(game.id, actor, game.record.version, "p:nonsense")
    assert (game.record.version, game.state) == before
    assert await store.games.moves(game.id) == []


async def test_a_double_click_is_refused_as_the_table_moved_on(world):
    """G-X1."""
    _, _, service, _, _ = world
    live = await lobby(service)
    game = await service.start(live.id, ANN, seed=12)
    actor = user_to_act(game)
    version = game.record.version
    card = game.rules.legal_actions(game.state, game.seat_of(actor))[0].encode()
    await service.play(game.id, actor, version, card)
    with pytest.raises(TableMovedOn):
        await service.play(game.id, actor, version, card)
    assert game.record.version == version + 1


async def test_a_played_hand_card_stays_out_of_the_debug_log(world, caplog):
    _, _, service, _, _ = world
    live = await lobby(service)
    game = await service.start(live.id, ANN, seed=14)
    actor = user_to_act(game)
    card = game.rules.legal_actions(game.state, game.seat_of(actor))[0].encode()
    with caplog.at_level("DEBUG", logger="catnip"):
        await service.play(game.id, actor, game.record.version, card)
    played = [r.getMessage() for r in caplog.records if " played " in r.getMessage()]
    assert played and all(card not in line for line in played)


async def test_a_finished_game_refuses_clicks_and_records_stats(world):
    store, _, service, _, _ = world
    live = await lobby(service)
    game = await service.start(live.id, ANN, seed=13)
    while game.state is not None and game.rules.outcome(game.state) is None:
        await play_one(service, game, user_to_act(game))
    outcome = game.rules.outcome(game.state)
    with pytest.raises(GameClosed):
        await service.play(game.id, ANN, game.record.version, "p:C1")
    stats = {u: await store.results.stats(1, u) for u in (ANN, BO, CY)}
    assert all(rows[0]["played"] == 1 for rows in stats.values())
    won = {u for u in (ANN, BO, CY) if stats[u][0]["won"]}
    assert won == {game.record.seats[s].user_id for s in outcome.winners}
    board = await store.results.leaderboard(1, "catsdogs")
    assert {row["user_id"] for row in board} == {ANN, BO, CY}


async def test_leaving_hands_the_seat_to_a_computer_that_plays_on(world):
    """G-X4."""
    _, _, service, _, _ = world
    live = await lobby(service)
    game = await service.start(live.id, ANN, seed=14)
    await service.take_over(game.id, BO)
    seat = game.record.seats[1]
    assert seat.user_id is None and seat.computer == "normal"
    for _ in range(200):
        if game.rules.outcome(game.state) is not None:
            break
        if service.computers.to_act(game):
            await service.computers.decide_for(game, service.computers.to_act(game))
        else:
            await play_one(service, game, user_to_act(game))
    assert game.rules.outcome(game.state) is not None


async def test_timers_warn_then_let_the_computer_decide(world):
    store, clock, service, recorder, timers = world
    live = await lobby(service)
    game = await service.start(live.id, ANN, seed=15)
    await timers.arm(game)
    assert [d.game_id for d in await store.timers.deadlines()] == [game.id]
    version = game.record.version
    clock.advance(95)
    await timers.tick()
    assert recorder.warnings and recorder.warnings[0][1] == 25
    assert game.record.version == version, "a warning does not move"
    clock.advance(30)
    await timers.tick()
    assert game.record.version == version + 1
    assert "ran out of time" in game.events[-2].text or "ran out of time" in game.events[-1].text


async def test_an_idle_game_is_abandoned(world):
    """G-X5."""
    _, clock, service, recorder, timers = world
    live = await lobby(service)
    await service.start(live.id, ANN, seed=16)
    timers.settings = TimerSettings(turn_seconds=10_000_000, abandon_after_seconds=3600)
    clock.advance(3601)
    await timers.tick()
    assert live.id not in service.live
    assert "No one played" in recorder.closed[-1]


async def test_restart_resumes_games_and_their_deadlines(world, reopen):
    store, clock, service, _, timers = world
    live = await lobby(service)
    game = await service.start(live.id, ANN, seed=17)
    for _ in range(3):
        await play_one(service, game, user_to_act(game))
    await timers.arm(game)
    pending = await lobby(service, players=(BO, CY))
    state, version = game.state, game.record.version

    reopened = reopen(store)
    await reopened.open()
    fresh = GameService(reopened, clock)
    resumed = {g.id: g for g in await fresh.leases.load_all()}
    assert set(resumed) == {game.id, pending.id}
    again = resumed[game.id]
    assert again.state == state and again.record.version == version
    assert again.events and again.events[-1] == game.events[-1], "the table's narration survives"
    assert resumed[pending.id].state is None
    fresh_timers = Timers(fresh, TimerSettings())
    await fresh_timers.resume()
    assert fresh_timers.due(game.id) == timers.due(game.id)
    await play_one(fresh, again, user_to_act(again))
    assert again.record.version == version + 1
    await reopened.close()


async def test_rematch_starts_a_new_game_with_the_same_players(world):
    _, _, service, _, _ = world
    live = await lobby(service)
    game = await service.start(live.id, ANN, seed=18)
    with pytest.raises(Refusal, match="once the game has finished"):
        await service.rematch(game.id, ANN, seed=1)
    while game.rules.outcome(game.state) is None:
        await play_one(service, game, user_to_act(game))
    with pytest.raises(NotInGame):
        await service.rematch(game.id, 999, seed=1)
    new = await service.rematch(game.id, BO, seed=19)
    assert new.id != game.id and new.record.status == "active"
    assert [s.user_id for s in new.record.seats] == [s.user_id for s in game.record.seats]
    assert new.record.host_id == BO


async def test_cancel_and_end_need_the_host_or_manage_server(world):
    _, _, service, recorder, _ = world
    live = await lobby(service)
    with pytest.raises(NotHost):
        await service.lobby.cancel(live.id, BO)
    await service.lobby.cancel(live.id, BO, can_manage=True)
    assert recorder.closed == ["The host closed the table."]
    other = await lobby(service)
    game = await service.start(other.id, ANN, seed=20)
    with pytest.raises(NotHost):
        await service.end(game.id, CY, can_manage=False)
    await service.end(game.id, ANN, can_manage=False)
    with pytest.raises(GameClosed):
        await service.games.get(game.id)


async def test_a_host_who_leaves_a_running_game_hands_the_host_rights_to_the_next_member(world):
    """G-X7: the leaver can no longer end the game; the next member seated after them can."""
    _, _, service, recorder, _ = world
    live = await lobby(service, players=(ANN, BO, CY))
    game = await service.start(live.id, ANN, seed=21)
    successor = game.record.seats[(game.seat_of(ANN) + 1) % 3].user_id
    await service.take_over(game.id, ANN)
    assert game.record.host_id == successor
    assert "is the host now" in game.events[-1].text
    with pytest.raises(NotHost):
        await service.end(game.id, ANN, can_manage=False)
    assert (await service.games.get(game.id)).record.status == "active"
    await service.end(game.id, successor, can_manage=False)
    assert recorder.closed == ["The game was ended before its finish."]


async def test_a_host_who_leaves_a_lobby_hands_it_on_and_cannot_cancel_it(world):
    """G-X7, in the lobby; a member with Manage Server still may cancel."""
    store, _, service, recorder, _ = world
    live = await lobby(service, players=(ANN, BO, CY))
    await service.lobby.leave_lobby(live.id, ANN)
    assert live.record.host_id == BO and seated(live) == [BO, CY]
    assert (await store.games.get_game(live.id)).host_id == BO, "the new host is stored"
    with pytest.raises(NotHost):
        await service.lobby.cancel(live.id, ANN)
    with pytest.raises(NotHost, match="Only user102"):
        await service.start(live.id, CY, seed=1)
    await service.lobby.cancel(live.id, DI, can_manage=True)
    assert recorder.closed == ["The host closed the table."]


async def test_the_last_member_of_a_running_game_leaving_leaves_it_to_manage_server(world):
    """G-X7 with nobody to hand on to: the leaver keeps no rights; Manage Server can still end it."""
    _, _, service, _, _ = world
    live = await lobby(service, players=(ANN,))
    await service.lobby.add_computer(live.id, ANN, "easy")
    game = await service.start(live.id, ANN, seed=22)
    await service.take_over(game.id, ANN)
    with pytest.raises(NotHost):
        await service.end(game.id, ANN, can_manage=False)
    await service.end(game.id, BO, can_manage=True)


async def test_computer_players_get_distinct_names(world):
    _, _, service, _, _ = world
    live = await lobby(service, players=(ANN,))
    for level in ("easy", "normal", "hard"):
        await service.lobby.add_computer(live.id, ANN, level)
    names = [seat.name for seat in live.record.seats]
    assert len(set(names)) == 4 and all("🤖" in name for name in names[1:])


async def test_a_moocher_whose_timer_runs_out_picks_no_card(world):
    """G-3, G-X2 and MC-X2: the passive default, not the computer's choice, when a mooch timer expires."""
    _, clock, service, _, timers = world
    live = await lobby(service, game="madcat", players=(ANN, BO, CY))
    game = await service.start(live.id, ANN, seed=21)
    for _ in range(200):
        if game.state.phase == "mooch":
            break
        await play_one(service, game, user_to_act(game))
    assert game.state.phase == "mooch"
    moochers = game.to_act()
    await timers.arm(game)
    clock.advance(10_000)
    await timers.tick()
    assert all(game.state.picks[seat] == "none" for seat in moochers)
    assert any("applied the default" in event.text for event in game.events)


async def test_a_table_can_set_its_own_decision_timer(world):
    """G-3, G-X3: timers are set per table; the game's options are untouched by the table setting."""
    _, clock, service, _, timers = world
    live = await lobby(service)
    with pytest.raises(Refusal, match="offered timers"):
        await service.lobby.set_option(live.id, ANN, "turn_timer", 7)
    await service.lobby.set_option(live.id, ANN, "turn_timer", 30)
    await service.lobby.set_option(live.id, ANN, "first_player", 1)
    assert live.record.options == {"first_player": 1, "turn_timer": 30, "pictures": True, "language": "en"}
    game = await service.start(live.id, ANN, seed=22)
    assert game.options() == game.rules.Options(first_player=1)
    await timers.arm(game)
    assert timers.due(game.id) == clock.now() + 30
    again = await lobby(service)
    assert again.record.options["turn_timer"] == 30, "the channel remembers the table's timer"


async def test_simultaneous_pickers_are_not_refused_for_each_others_picks(world):
    """G-X1: a panel shown before another seat's secret pick still works; a second click does not."""
    _, _, service, _, _ = world
    live = await lobby(service, game="madcat", players=(ANN, BO, CY))
    game = await service.start(live.id, ANN, seed=21)
    while game.state.phase != "mooch":
        await play_one(service, game, user_to_act(game))
    shown = game.record.version
    first, second = [game.record.seats[s].user_id for s in game.to_act()]
    await service.play(game.id, first, shown, "mooch:fail")
    await service.play(game.id, second, shown, "mooch:2p")
    assert game.record.version == shown + 2
    with pytest.raises(TableMovedOn):
        await service.play(game.id, second, shown, "mooch:fh")


async def test_a_member_back_before_the_computers_move_gets_the_decision(world):
    """G-X8: a computer move worked out before its member came back is not made for them."""
    _, _, service, recorder, _ = world
    absence = Absence(service, after_timeouts=2, grace_seconds=600)
    live = await lobby(service)
    game = await service.start(live.id, ANN, seed=14)
    seat = game.to_act()[0]
    member = game.record.seats[seat].user_id
    await absence.replace(game.id, ANN, seat, can_manage=False)
    await service.shutdown()  # the computer's turn is held back, as if it were still thinking
    assert await absence.come_back(game.id, member) is game
    version = game.record.version
    await service.computers.decide_for(game, [seat])
    assert game.record.version == version and seat in game.to_act()
    assert game.record.seats[seat].computer is None and "is back" in recorder.changes[-1][1][0].text


async def test_an_away_host_hands_the_host_rights_to_the_next_member_playing(world):
    """G-X7 with G-X8: the host's rights pass over members who are away."""
    _, _, service, _, _ = world
    absence = Absence(service, after_timeouts=2, grace_seconds=600)
    live = await lobby(service)
    game = await service.start(live.id, ANN, seed=14)
    await absence.replace(game.id, ANN, game.seat_of(BO), can_manage=False)
    await absence.replace(game.id, ANN, game.seat_of(ANN), can_manage=False)
    assert game.record.host_id == CY
    with pytest.raises(NotHost):
        await absence.replace(game.id, ANN, game.seat_of(CY), can_manage=False)
    assert await absence.come_back(game.id, ANN) is game
    assert game.record.host_id == CY, "coming back does not take the host's rights back"


async def test_computer_seats_play_on_from_a_newer_version_found_in_the_store(world):
    """A computer move refused because the store already holds a newer version of the game (another
    writer got there first) is decided again on that version: a game of computers never stalls on it."""
    store, clock, service, _, _ = world
    live = await lobby(service, players=(ANN,))
    await service.lobby.add_computer(live.id, ANN, "easy")
    await service.lobby.add_computer(live.id, ANN, "easy")
    game = await service.start(live.id, ANN, seed=5)
    await service.computers.stop_all()
    await service.take_over(game.id, ANN)  # every seat a computer's now
    await service.computers.stop_all()
    other = GameService(store, clock)
    await other.leases.load_all()
    ahead = other.live[game.id]
    await other.computers.decide_for(ahead, ahead.to_act()[:1])
    await other.shutdown()
    assert game.record.version < ahead.record.version, "the live game is behind the store"

    service.computers.schedule(game)
    await service.computers.tasks[game.id]
    assert game.rules.outcome(game.state) is not None, "the computers played the game to its end"
