"""Absent members: a computer plays their seat until they come back (G-X8, G-X9).

Nothing here lives only in memory. A member who is away keeps their seat's `user_id` and the seat
gets a computer level: the seats table says who is away. The decisions a seat missed are the
moves of the log that carry a timeout notice, so a restart finds every seat as it was.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.errors import NotHost, NotInGame, Refusal
from bot.live import LiveGame, describe_players, is_away
from bot.sessions import GameService
from bot.storage import MoveRecord
from engine import Event
from engine.core import seat_mark
from lang import _, n_, speaking

log = logging.getLogger("catnip.absence")

TIMED_OUT = "timeout"
"""The kind of the notice a timer's decision carries in the move log."""
LOOKBACK = 100
"""Moves read back to count a seat's missed decisions: more than any one seat misses in a row."""
LEVEL = "normal"


def missed_in_a_row(moves: Sequence[MoveRecord], seat: int) -> int:
    """How many of `seat`'s latest moves in `moves` (oldest first) its timer made since its own choice."""
    count = 0
    for move in reversed(moves):
        if move.seat != seat:
            continue
        if not any(event.get("kind") == TIMED_OUT for event in move.events):
            break
        count += 1
    return count


class Absence:
    """Hands the seats of absent members to computer players, gives them back, ends deserted games."""

    def __init__(self, service: GameService, *, after_timeouts: int, grace_seconds: float) -> None:
        self.service = service
        self.after_timeouts = after_timeouts
        self.grace_seconds = grace_seconds

    # -------------------------------------------------------------- listening to the game service

    async def lobby_changed(self, game: LiveGame) -> None:
        """Nobody is away from a lobby."""

    async def game_changed(self, game: LiveGame, events: Sequence[Event]) -> None:
        """After a timer decided for a seat: its member is away once it has missed enough in a row.

        Told inside the timer's move, before anything else can move the game.
        """
        if not self.after_timeouts or game.record.status != "active":
            return
        if not any(event.kind == TIMED_OUT for event in events):
            return
        moves = await self.service.store.games.recent_moves(game.id, LOOKBACK)
        seat = moves[-1].seat
        record = game.record.seats[seat]
        if record.computer or record.user_id is None:
            return
        missed = missed_in_a_row(moves, seat)
        if missed >= self.after_timeouts:
            log.info(
                "%s seat=%d missed %d decisions in a row; a computer plays for them",
                game.log_prefix(),
                seat,
                missed,
            )
            with speaking(game.language):
                # Translators: the English says "decisions" however many (at least one).
                text = n_(
                    "💤 {player} missed {count} decisions in a row: "
                    "a computer plays for them until they're back.",
                    "💤 {player} missed {count} decisions in a row: "
                    "a computer plays for them until they're back.",
                    missed,
                    player=seat_mark(seat),
                )
            await self._hand_over(game, seat, text)

    async def game_closed(self, game: LiveGame, reason: str) -> None:
        """Nothing to undo: the seats stay as they ended."""

    async def games_resumed(self, games: Sequence[LiveGame]) -> None:
        """The seats say who is away; nothing to restore."""

    # -------------------------------------------------------------- what members do

    async def come_back(self, game_id: int, user_id: int) -> LiveGame | None:
        """`user_id` plays their seat again; the game, or None if no computer was playing it for them."""
        game = self.service.live.get(game_id)
        seat = game.seat_of(user_id) if game is not None else None
        if seat is None or not is_away(game.record.seats[seat]):
            return None
        async with self.service.store.lock(game.id):
            record = game.record.seats[seat]
            if not is_away(record) or game_id not in self.service.live:
                return None
            log.info("%s seat=%d is back", game.log_prefix(), seat)
            back = record.model_copy(update={"computer": None})
            with speaking(game.language):
                text = _("👋 {player} is back and plays again.", player=seat_mark(seat))
            event = Event(kind="back", text=text)
            await self.service.reseat(game, back, event, pass_host=False)
        return game

    async def replace(self, game_id: int, user_id: int, seat: int, *, can_manage: bool) -> LiveGame:
        """The host (or Manage Server) hands `seat` to a computer player until its member is back."""
        game = await self.service.games.get(game_id)
        self.check_may_replace(game, user_id, can_manage)
        async with self.service.store.lock(game.id):
            if not 0 <= seat < len(game.record.seats):
                raise Refusal(_("There is no such seat at this table."))
            record = game.record.seats[seat]
            if record.computer:
                raise Refusal(_("A computer already plays {name}'s seat.", name=record.name))
            by = game.seat_of(user_id)
            with speaking(game.language):
                if by is not None:
                    text = _(
                        "🤖 {player} handed {away}'s seat to a computer player until they're back.",
                        player=seat_mark(by),
                        away=seat_mark(seat),
                    )
                else:
                    text = _(
                        "🤖 A server manager handed {away}'s seat to a computer player until they're back.",
                        away=seat_mark(seat),
                    )
            log.info("%s seat=%d handed to a computer by user %s", game.log_prefix(), seat, user_id)
            await self._hand_over(game, seat, text)
        return game

    def check_may_replace(self, game: LiveGame, user_id: int, can_manage: bool) -> None:
        """Refuse unless the game is running and `user_id` is its seated host or may manage the server."""
        if game.state is None:
            raise Refusal(_("The game hasn't started yet."))
        playing = game.seat_of(user_id) is not None and not game.record.seats[game.seat_of(user_id)].computer
        if can_manage or (user_id == game.record.host_id and playing):
            return
        if game.seat_of(user_id) is None:
            raise NotInGame(_("This game is between {players}.", players=describe_players(game.names)))
        raise NotHost(_("Only the host or a member with Manage Server can hand a seat to a computer player."))

    # -------------------------------------------------------------- the clock

    async def tick(self) -> None:
        """End the games nobody has played since the grace after the last member went away (G-X9)."""
        now = self.service.clock.now()
        for game in list(self.service.live.values()):
            if game.state is None or not game.nobody_playing():
                continue
            if now - game.record.updated_at > self.grace_seconds:
                minutes = f"{self.grace_seconds / 60:g}"
                with speaking(game.language):
                    reason = _(
                        "Everyone was away for {minutes} min, so the game was ended. It counts for nobody.",
                        minutes=minutes,
                    )
                await self.service.endings.abandon(game, reason)

    async def _hand_over(self, game: LiveGame, seat: int, text: str) -> None:
        record = game.record.seats[seat]
        if not any(not s.computer for s in game.record.seats if s.seat != seat):
            minutes = f"{self.grace_seconds / 60:g}"
            with speaking(game.language):
                text += _(
                    " Everyone is away now: unless someone is back within {minutes} min, the game ends.",
                    minutes=minutes,
                )
        computer = record.model_copy(update={"computer": LEVEL})
        await self.service.reseat(game, computer, Event(kind="away", text=text), pass_host=True)
