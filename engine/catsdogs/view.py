"""The allowlist view of Cats & Dogs: what one seat, or the public table, may see.

Shown: your own hand, the cards on the current trick, the face-up table cards,
everyone's collected cards and ribbons this round, hand sizes, scores. Never:
another hand, the cards out of play, a solo card before it is turned, and no
card id of an earlier round (those cards may be out of play or in a hand now).

`RIBBONS`, `STRENGTH` and `TABLE` read the cards and seats a view shows, for whoever draws it.
"""

from __future__ import annotations

from engine.catsdogs._cards import RIBBONS, STRENGTH, TABLE, TARGET, card_name
from engine.catsdogs.model import HAND_SIZE, SOLO_ROUNDS, State, View, mode_of
from engine.core import build
from lang import _

__all__ = ["RIBBONS", "STRENGTH", "TABLE", "View", "build_view", "prompt"]


def prompt(state: State) -> str:
    """What is being decided now, with {pN} placeholders."""
    if state.over:
        return _("The game is over.")
    seat = (state.leader + len(state.trick)) % state.players
    player = f"{{p{seat}}}"
    number = state.trick_no + 1
    if state.players == 1:
        return _(
            "{player} chooses a card for trick {trick} of round {round}",
            player=player,
            trick=number,
            round=state.round,
        )
    if state.players == 2:
        card = card_name(state.table[0])
        if not state.trick:
            return _(
                "{player} plays first to trick {trick} (table card {card})",
                player=player,
                trick=number,
                card=card,
            )
        return _(
            "{player} answers on trick {trick} (table card {card})", player=player, trick=number, card=card
        )
    return _("{player} chooses a card to play to trick {trick}", player=player, trick=number)


_RIBBON = RIBBONS.__getitem__


def table_fields(state: State, language: str = "") -> dict:
    """The fields of every seat's view of `state` that do not depend on the seat (the public table's
    view but for its `seat` and `hand`), in the view's field order. `language` is the one speaking,
    which the prompt is worded in: it tells a kept table of one language from another's."""
    players = state.players
    over = state.over
    last = state.last_trick
    return dict(
        seat=None,
        players=players,
        to_act=() if over else ((state.leader + len(state.trick)) % players,),
        prompt=prompt(state),
        over=over,
        mode=mode_of(players),
        round=state.round,
        max_rounds=SOLO_ROUNDS if players == 1 else None,
        target=TARGET,
        hand=(),
        hand_sizes=tuple(map(len, state.hands)),
        leader=state.leader,
        round_leader=state.round_leader,
        trick_no=state.trick_no,
        tricks_in_round=HAND_SIZE[players],
        trick=state.trick,
        table=state.table,
        hidden_left=len(state.hidden),
        out_count=len(state.out),
        collected=state.collected,
        table_pile=state.table_pile,
        ribbons=tuple(sum(map(_RIBBON, pile)) for pile in state.collected),
        scores=state.scores,
        round_ribbons=tuple(record.ribbons for record in state.rounds),
        last_trick=last if last is not None and last.round == state.round else None,
        last_win=state.last_win,
    )


def build_view(state: State, seat: int | None, table: dict) -> View:
    """The view of `seat` (None: the public table), built field by field from what it may see.

    `table` is `table_fields(state)`, the part every seat's view shares (it is not changed)."""
    fields = table.copy()
    if seat is not None:
        fields["seat"] = seat
        fields["hand"] = state.hands[seat]
    return build(View, fields)
