"""What each seat may see, built field by field (an allowlist), and the prompt.

`CATS`, `EMOJI`, `LIMIT`, `POWERS` and `life_name` read the cats and life cards a view shows, for whoever
draws it (`EMOJI`: the four cats as the texts write them).
"""

from __future__ import annotations

from functools import lru_cache

from engine.core import build
from engine.ninelives._cards import (
    CATS,
    EMOJI,
    LIMIT,
    POWERS,
    Counts,
    LifeCard,
    PowerKey,
    card_id,
    catalog_text,
    life_id,
    life_name,
)
from engine.ninelives._counting import raw_counts
from engine.ninelives._legal import STEP_WORDS, to_act
from engine.ninelives._plays import hand_plays
from engine.ninelives.model import (
    CardView,
    LifeView,
    Phase,
    Placed,
    PlacedView,
    SeatView,
    State,
    Step,
    View,
)
from lang import _

__all__ = [
    "CATS",
    "EMOJI",
    "LIMIT",
    "POWERS",
    "View",
    "build_view",
    "card_view",
    "life_name",
    "life_view",
    "prompt",
]


@lru_cache(maxsize=4096)
def card_view(card: int, icons: Counts) -> CardView:
    return CardView(id=card_id(card), icons=icons)


@lru_cache(maxsize=4096)
def _life_view(card: int, power: PowerKey, a: int, b: int) -> LifeView:
    return LifeView(id=life_id(card) if card >= 0 else "", power=power, a=a, b=b)


def life_view(card: int, life: LifeCard) -> LifeView:
    return _life_view(card, life.power, life.a, life.b)


@lru_cache(maxsize=4096)
def _placed_view(placed: Placed, icons: Counts) -> PlacedView:
    return PlacedView(card=card_view(placed.card, icons), counts=placed.counts, note=placed.note)


def _cards(state: State, cards: tuple[int, ...]) -> tuple[CardView, ...]:
    cats = state.cats
    return tuple(card_view(c, cats[c]) for c in cards)


def _lives(state: State, cards: tuple[int, ...]) -> tuple[LifeView, ...]:
    lifecards = state.lifecards
    return tuple(life_view(c, lifecards[c]) for c in cards)


def _seat_view(state: State, s: int) -> SeatView:
    stack = state.stacks[s]
    hidden_top = state.phase == Phase.ORDER or not stack
    return SeatView(
        seat=s,
        lives=state.lives(s),
        stack_size=len(stack),
        top=None if hidden_top else life_view(stack[0], state.lifecards[stack[0]]),
        wagered=_lives(state, state.wagered[s]),
        hand_size=len(state.hands[s]),
        open_hand=_cards(state, state.hands[s]) if s in state.open_hands else None,
        safe=s in state.safe,
    )


def prompt(state: State) -> str:
    """What is being decided now, with {pN} placeholders."""
    phase = state.phase
    if phase == Phase.OVER:
        return _("The game is over.")
    if phase == Phase.ORDER:
        return _("Everyone puts their nine lives in order, top card first.")
    if phase == Phase.RETURN:
        seats = ", ".join(seat_mark(s) for s in to_act(state))
        return _(
            "{players}: put your wagered lives back under your stack, in the order you like.", players=seats
        )
    if phase == Phase.CAROUSEL:
        if state.direction == 1:
            return _("Everyone chooses 2 cards to pass to the left.")
        return _("Everyone chooses 2 cards to pass to the right.")
    if phase == Phase.QUEEN:
        tied = ", ".join(seat_mark(s) for s in state.tied)
        return _(
            "{player} picks the next Kittyqueen among {players}.", player=seat_mark(state.queen), players=tied
        )
    words = _(STEP_WORDS[state.step])
    if state.step == Step.PLAY and state.optional_now:
        words = _("take an extra turn or end the turn")
    return _("{player}: {doing}.", player=seat_mark(state.turn), doing=words)


def seat_mark(seat: int) -> str:
    """A seat in a text, named when shown: "{p2}"."""
    return f"{{p{seat}}}"


def table_fields(state: State) -> dict:
    """The fields of every seat's view of `state` that do not depend on the seat: the public table's
    view, in the view's field order."""
    cats = state.cats
    return dict(
        seat=None,
        players=state.players,
        to_act=tuple(to_act(state)),
        prompt=prompt(state),
        over=state.phase == Phase.OVER,
        limited=state.limited,
        phase=state.phase,
        step=state.step,
        round=state.round,
        queen=state.queen,
        turn=state.turn,
        seats=tuple(_seat_view(state, s) for s in range(state.players)),
        table=tuple(tuple(_placed_view(p, cats[p.card]) for p in pile) for pile in state.table),
        counts=raw_counts(state.table),
        ignored=state.ignored,
        deck_size=len(state.deck),
        discard=_cards(state, state.discard),
        catalog=catalog_text(cats),
        power=None if state.power is None else life_view(-1, state.power),
        wagered_now=state.wagered_now,
        wager_rule=state.wager_rule,
        optional_now=state.optional_now,
        owed=state.owed,
        optional=state.optional,
        next_skip=state.next_skip,
        next_double=state.next_double,
        next_wager=state.next_wager,
        held=state.held,
        direction=state.direction,
        shuffle_target=state.shuffle_target,
        tied=state.tied,
        losers=state.losers,
        hand=(),
        plays=(),
        my_stack=(),
        selected=None,
        must_from=(),
        arranging_for=None,
        arranging=(),
        arranged=(),
        gifts=(),
        gift_need=0,
    )


def build_view(state: State, seat: int | None, table: dict) -> View:
    """The view of `seat` (None: the public table).

    `table` is `table_fields(state)`, the part every seat's view shares (it is not changed)."""
    fields = table.copy()
    if seat is not None:
        cats = state.cats
        phase = state.phase
        fields["seat"] = seat
        fields["hand"] = _cards(state, state.hands[seat])
        fields["plays"] = hand_plays(state, seat)
        fields["my_stack"] = _lives(state, state.stacks[seat])
        if seat == state.turn and phase == Phase.PLAY:
            if state.selected is not None:
                fields["selected"] = card_view(state.selected, cats[state.selected])
            fields["must_from"] = tuple(card_id(c) for c in state.must_from)
        if state.arranging[seat]:
            fields["arranging_for"] = state.shuffle_target if phase == Phase.PLAY else seat
        fields["arranging"] = _lives(state, state.arranging[seat])
        fields["arranged"] = _lives(state, state.arranged[seat])
        if phase == Phase.CAROUSEL:
            fields["gifts"] = _cards(state, state.gifts[seat])
            fields["gift_need"] = state.gift_need[seat]
    return build(View, fields)
