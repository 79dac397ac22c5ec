"""Moves: a member's click applied, stored and told, and a seat given to someone else mid-game."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.errors import NotInGame, Refusal, RunElsewhere, TableMovedOn
from bot.live import UNDOABLE, LiveGame, describe_players, undoable
from bot.running_games import RunningGames
from bot.storage import FinalResult, NotOwner, SeatRecord, StaleMove, StoreUnavailable
from engine import EngineError, Event, Frozen
from engine.core import seat_mark
from engine.history import NOTHING_TO_TAKE_BACK, UNDO, replay, take_back, take_back_refusal
from lang import N_, _, speaking

if TYPE_CHECKING:
    from bot.metrics import Metrics

log = logging.getLogger("catnip.sessions")

TOO_LATE = N_("Too late to take it back: the game has moved on.")
MADE_FOR_YOU = N_("That move was made for you, so it stands.")


class Moves:
    """Applies moves to running games: each one committed before anyone hears of it."""

    def __init__(self, games: RunningGames) -> None:
        self.games = games
        self.metrics: Metrics | None = None
        """Where committed moves and the store's refusals are counted (bot/metrics.py), if anywhere."""

    def check_player(self, game: LiveGame, user_id: int) -> int:
        """The seat of `user_id` in `game`, or a refusal naming the players."""
        seat = game.seat_of(user_id)
        if seat is None:
            raise NotInGame(_("This game is between {players}.", players=describe_players(game.names)))
        return seat

    async def play(self, game: LiveGame, user_id: int, version: int, encoded: str) -> None:
        """Apply the move `encoded` clicked by `user_id` on a component made at `version`."""
        seat = self.check_player(game, user_id)
        async with self.games.store.lock(game.id):
            await self._check_fresh(game, seat, version)
            to_act = game.to_act()
            if seat not in to_act:
                waiting = describe_players([game.names[s] for s in to_act])
                raise Refusal(
                    _("It's not your turn — waiting for {players}.", players=waiting)
                    if waiting
                    else _("Nothing to do now.")
                )
            action = game.rules.decode_action(encoded)
            await self.commit(game, seat, action, human=True)

    async def _check_fresh(self, game: LiveGame, seat: int, version: int) -> None:
        """Refuse clicks made on an out-of-date table (G-X1).

        A panel shown before other seats' moves still works as long as this
        seat has not moved since: that keeps simultaneous secret choices
        smooth, and in turn-by-turn play a seat's own move is the only thing
        that can happen while it is to act. The engine still checks the move.
        """
        current = game.record.version
        if version == current:
            return
        if version > current or version < 1:
            raise TableMovedOn()
        since = await self.games.store.games.moves(game.id, after_seq=version - 1)
        if any(move.seat == seat for move in since):
            raise TableMovedOn()

    async def commit(
        self, game: LiveGame, seat: int, action: Frozen, *, human: bool, told: Sequence[Event] = ()
    ) -> list[Event]:
        """Apply and store `action`; `told` (a timeout's notice) goes into the log before its events."""
        # A private choice (a hand card, a mooch or recall pick) never goes into the log, which is
        # written only when it is read (the debug line below).
        debug = log.isEnabledFor(logging.DEBUG)
        public = debug and game.rules.actions_are_public(game.state, seat)
        state, events = self._apply(game, seat, action)
        undoable = human and take_back_refusal(game.rules, game.state, seat, action, state) is None
        logged = [*told, *events, UNDOABLE] if undoable else [*told, *events]
        await self._store(game, seat, action.encode(), state, logged, human=human)
        if debug:
            said = action.encode() if public else "a private choice"
            log.debug("%s seat=%d played %s", game.log_prefix(), seat, said)
        return [*told, *events]

    @staticmethod
    def _apply(game: LiveGame, seat: int, action: Frozen) -> tuple[Frozen, list[Event]]:
        """`action` applied, its events told in the game's language: they go into the log and the
        table's narration. A refusal speaks the language of whoever is answered: the same move is
        tried again there (the engine is pure, so it is refused again, for the same reason)."""
        try:
            with speaking(game.language):
                return game.rules.apply(game.state, seat, action)
        except EngineError:
            game.rules.apply(game.state, seat, action)
            raise

    async def take_back(self, game: LiveGame, user_id: int, version: int) -> None:
        """`user_id` takes back their last move, shown on a panel made at `version` (engine/history.py):
        the take-back is a move of its own in the log, committed like any other."""
        seat = self.check_player(game, user_id)
        async with self.games.store.lock(game.id):
            if version != game.record.version:
                raise Refusal(TOO_LATE)
            moves = await self.games.store.games.moves(game.id)
            last = moves[-1] if moves else None
            if last is None or last.seat != seat or last.action == UNDO:
                raise Refusal(NOTHING_TO_TAKE_BACK)
            if game.record.seats[seat].computer:  # the member is away: a computer plays their seat
                raise Refusal(MADE_FOR_YOU)
            rules, record = game.rules, game.record
            log_before = [(move.seat, move.action) for move in moves[:-1]]
            before = replay(rules, len(record.seats), record.seed, game.options(), log_before)
            action = rules.decode_action(last.action)
            try:
                with speaking(game.language):
                    state, events = take_back(rules, before, seat, action, game.state, seat)
            except EngineError:  # its reason in the member's language, as `_apply` does
                take_back(rules, before, seat, action, game.state, seat)
                raise
            if not undoable(last):  # the engine would allow it: a computer or a timer made it
                raise Refusal(MADE_FOR_YOU)
            await self._store(game, seat, UNDO, state, events, human=True)

    async def _store(
        self,
        game: LiveGame,
        seat: int,
        encoded: str,
        state: Frozen,
        events: list[Event],
        *,
        human: bool,
    ) -> None:
        """Commit the log entry `encoded` by `seat` leading to `state`, then take it in and tell it."""
        outcome = game.rules.outcome(state)
        store, now = self.games.store, self.games.clock.now()
        started = time.perf_counter()
        try:
            version = await store.games.commit_move(
                game.id,
                expected_version=game.record.version,
                seat=seat,
                action=encoded,
                events=[event.model_dump(mode="json") for event in events],
                state_json=state.model_dump_json(),
                now=now,
                status="finished" if outcome is not None else None,
                result=None
                if outcome is None
                else FinalResult(outcome.scores, outcome.winners, outcome.reason),
            )
        except Exception as error:
            if self.metrics is not None:
                self.metrics.not_committed(error)
            if isinstance(error, NotOwner):  # another process took the game over: no longer this one's
                self.games.live.pop(game.id, None)
                raise RunElsewhere(str(error)) from error
            if not isinstance(error, StaleMove):
                raise
            game.record = await store.games.get_game(game.id)
            game.state = await store.games.load_state(game.record, game.rules)
            raise TableMovedOn() from error
        if self.metrics is not None:
            self.metrics.committed(human=human, seconds=time.perf_counter() - started)
        shown = [event for event in events if event is not UNDOABLE]
        game.advance(state, shown, version=version, now=now)
        game.undoable_by = seat if len(shown) < len(events) else None
        if outcome is not None:
            await self._read_rating_changes(game)
        if human:
            game.last_human_at = now
        if outcome is not None:
            log.info("%s finished: winners %s", game.log_prefix(), outcome.winners)
        await self.games.tell_game(game, shown)
        if outcome is not None:
            self.games.live.pop(game.id, None)

    async def _read_rating_changes(self, game: LiveGame) -> None:
        """What the finished game did to ratings, for its result (stored with it: an unreadable store
        only leaves them off the table)."""
        try:
            game.rating_changes = await self.games.store.results.rating_changes(game.id)
        except StoreUnavailable:
            log.warning("%s finished; its rating changes could not be read for the table", game.log_prefix())

    async def take_over(self, game: LiveGame, user_id: int) -> None:
        """`user_id` leaves the running `game`; a computer player takes the seat."""
        seat = self.check_player(game, user_id)
        old = game.record.seats[seat]
        replacement = SeatRecord(seat=seat, user_id=None, name=f"{old.name} 🤖", computer="normal")
        with speaking(game.language):
            text = _("{player} left; a computer player took over the seat.", player=old.name)
        await self.reseat(game, replacement, Event(kind="leave", text=text), pass_host=True)

    async def reseat(self, game: LiveGame, replacement: SeatRecord, event: Event, *, pass_host: bool) -> None:
        """Give seat `replacement.seat` to `replacement` and tell the table `event`; with `pass_host`, a
        host losing the seat hands the host's rights on (G-X7) and the table is told who has them."""
        successor = None
        if pass_host and game.record.seats[replacement.seat].user_id == game.record.host_id:
            successor = next_host(game.record.seats, replacement.seat)
        game.record = await self.games.store.games.replace_seat(
            game.id, replacement, host_id=successor, now=self.games.clock.now()
        )
        if successor is not None:
            with speaking(game.language):
                host_now = _("{player} is the host now.", player=seat_mark(game.seat_of(successor)))
            event = event.model_copy(update={"text": f"{event.text} {host_now}"})
        game.events = [*game.events, event]
        game.undoable_by = None  # a seat changing hands keeps its last move
        await self.games.tell_game(game, [event])


def next_host(seats: Sequence[SeatRecord], leaving: int | None) -> int | None:
    """The member playing next after seat `leaving` (in seat order, going round; nobody away), who becomes
    host (G-X7)."""
    count = len(seats)
    start = 0 if leaving is None else leaving + 1
    following = sorted(seats, key=lambda seat: (seat.seat - start) % count) if count else []
    return next(
        (s.user_id for s in following if s.user_id is not None and not s.computer and s.seat != leaving), None
    )
