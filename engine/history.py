"""A game's action log read back: its moves, and its take-backs.

The log is append-only. A player who takes back their last move adds an entry of its own, `UNDO` by
that seat, and the game returns to the state before that move; replaying the log replays the
take-back too, so a replay shows it. A move may be taken back only by the seat that made it, only
while it is the log's last entry, and only if it changed nothing some seat may not see
(`Rules.hidden`): no card drawn, no die rolled, no secret shown — then taking it back teaches
nobody anything.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any

from engine.core import Event, Frozen, IllegalAction, Rules, seat_mark
from lang import N_, _

UNDO = "undo"
"""A take-back's entry in the log, in place of an encoded action (no game encodes an action so)."""

NOTHING_TO_TAKE_BACK = N_("There is no move of yours to take back.")


def take_back_refusal(rules: Rules, before: Any, seat: int, action: Any, after: Any) -> str | None:
    """Why `seat` may not take back `action`, which led from `before` to `after`; None if it may."""
    if rules.outcome(after) is not None:
        return _("The game is over: its last move stands.")
    for (reason, was), (_reason, now) in zip(rules.hidden(before), rules.hidden(after), strict=True):
        if was != now:
            return reason
    return None


def take_back(
    rules: Rules, before: Any, mover: int, action: Any, after: Any, seat: int
) -> tuple[Any, list[Event]]:
    """The state after `seat` takes back `mover`'s `action` (which led from `before` to `after`): `before`
    again, and the event telling the table. Raises `IllegalAction` with the reason when it may not."""
    if seat != mover:
        raise IllegalAction(_(NOTHING_TO_TAKE_BACK))
    refusal = take_back_refusal(rules, before, seat, action, after)
    if refusal is not None:
        raise IllegalAction(refusal)
    return before, [Event(kind="undo", text=_("↩️ {player} took back their move.", player=seat_mark(seat)))]


def played(
    rules: Rules, players: int, seed: int, options: Frozen | None, log: Sequence[tuple[int, str]]
) -> Iterator[tuple[Any, list[Event]]]:
    """The state and events after each entry of `log` (encoded actions and take-backs), from `seed`."""
    state = rules.setup(players, seed, options)
    last: tuple[Any, int, Any] | None = None
    """The state before the latest move, its seat and action: what a take-back returns to."""
    for seat, encoded in log:
        if encoded == UNDO:
            if last is None:
                raise IllegalAction(_(NOTHING_TO_TAKE_BACK))
            before, mover, action = last
            state, events = take_back(rules, before, mover, action, state, seat)
            last = None
        else:
            action = rules.decode_action(encoded)
            last = (state, seat, action)
            state, events = rules.apply(state, seat, action)
        yield state, events


def replay(
    rules: Rules, players: int, seed: int, options: Frozen | None, log: Sequence[tuple[int, str]]
) -> Any:
    """The state reached from `seed` by the entries of `log`."""
    last = deque(played(rules, players, seed, options, log), maxlen=1)
    return last[0][0] if last else rules.setup(players, seed, options)
