"""A started table held in memory, played move by move without Discord, a store or the session layer:
for the golden playthroughs (tests/golden) and the benchmarks that render whole games (bench.panels,
bench.phone_view, bench.table_height)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.live import LANGUAGE_OPTION, LiveGame
from bot.storage.models import GameRecord, SeatRecord
from engine import GAMES
from lang import SOURCE, speaking

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
GAME_ID = 1
FIRST_USER = 100
LEVEL = "easy"


@dataclass(frozen=True)
class TableCase:
    """Which game, how many seats, its seed, the host's options, the players' names and the table's
    language."""

    game: str
    players: int
    seed: int
    options: tuple[tuple[str, object], ...] = ()
    names: tuple[str, ...] = NAMES
    language: str = SOURCE


@dataclass(frozen=True)
class Move:
    seat: int
    action: str


def new_table(case: TableCase) -> LiveGame:
    """A started table as `GameService.start` leaves it: version 1, the engine's first state, no events."""
    rules = GAMES[case.game].rules
    seats = tuple(
        SeatRecord(seat=seat, user_id=FIRST_USER + seat, name=case.names[seat])
        for seat in range(case.players)
    )
    options = rules.make_options(dict(case.options)).model_dump(mode="json")
    record = GameRecord(
        id=GAME_ID, guild_id=1, channel_id=2, thread_id=None, game=case.game,
        options={**options, LANGUAGE_OPTION: case.language}, seed=case.seed,
        status="active", version=1, host_id=FIRST_USER, table_message_id=None, table_channel_id=None,
        created_at=0.0, updated_at=0.0, seats=seats,
    )  # fmt: skip
    game = LiveGame(record=record, rules=rules)
    game.state = rules.setup(case.players, case.seed, game.options())
    return game


def commit(game: LiveGame, move: Move) -> None:
    """Apply `move` as a commit would: new state, version one up, its events added to the table's."""
    action = game.rules.decode_action(move.action)
    with speaking(game.language):  # a move is told in its table's language, as `bot.moves` tells it
        state, events = game.rules.apply(game.state, move.seat, action)
    game.advance(state, events, version=game.record.version + 1, now=game.record.updated_at)


def computer_move(game: LiveGame) -> Move:
    """The first seat to act, moved by the easy computer player with the session layer's seed."""
    rules, state = game.rules, game.state
    seat = rules.to_act(state)[0]
    seed = game.record.seed * 7919 + game.record.version * 31 + seat
    player = game.game.computer(LEVEL)
    action = player.choose(rules, rules.view(state, seat), seat, rules.legal_actions(state, seat), seed)
    return Move(seat, action.encode())
