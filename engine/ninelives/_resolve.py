"""Applying one checked, legal move."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import evolve
from engine.ninelives._cards import PowerKey, icons_text
from engine.ninelives._counting import Option, options
from engine.ninelives._flow import (
    Events,
    arrange,
    choose_queen,
    clear_arrangement,
    copy_power,
    end_round,
    finish_turn,
    new_round,
    new_turn,
    next_visit,
    place,
    private,
    public,
    put,
    seat_mark,
    wager,
    without,
)
from engine.ninelives._legal import pile_of
from engine.ninelives.model import (
    CarouselDirection,
    CopyPower,
    CountAs,
    Cover,
    Crown,
    EndTurn,
    Give,
    GiveTo,
    GiveUp,
    Keep,
    Move,
    NewCard,
    NextLife,
    Pass,
    Phase,
    Play,
    ReorderStack,
    SkipTurn,
    State,
    StealFrom,
    Step,
    SwapWith,
    Take,
    Wager,
)
from lang import _, n_


def _arranged(state: State, seat: int, move: Keep | NextLife) -> tuple[State, Events]:
    """An ordering step: the setup stack (NL-1), returning wagered lives (NL-5) or Shuffle Lives."""
    state, done = arrange(state, seat, move.life if isinstance(move, NextLife) else None)
    if not done:
        return state, []
    order = state.arranged[seat]
    if state.phase == Phase.ORDER:
        state = clear_arrangement(state, seat)
        state = evolve(state, {"stacks": put(state.stacks, seat, order)})
        events = [public("ordered", _("{player} has ordered their lives.", player=seat_mark(seat)))]
        if any(state.arranging):
            return state, events
        said = _("The stacks are set. {player} is the first Kittyqueen 👑.", player=seat_mark(state.queen))
        events.append(public("start", said))
        return new_turn(evolve(state, {"phase": Phase.PLAY}), state.queen, 0, 0, False), events
    if state.phase == Phase.RETURN:
        state = clear_arrangement(state, seat)
        state = evolve(
            state,
            {
                "stacks": put(state.stacks, seat, state.stacks[seat] + order),
                "wagered": put(state.wagered, seat, ()),
            },
        )
        events = [
            public(
                "returned", _("{player} puts their wagered lives under their stack.", player=seat_mark(seat))
            )
        ]
        if any(state.arranging):
            return state, events
        return choose_queen(state, events)
    target = state.shuffle_target
    state = clear_arrangement(state, seat)
    state = evolve(
        state, {"stacks": put(state.stacks, target, order), "shuffle_target": None, "step": Step.PLAY}
    )
    said = _("{player} has reordered {other}'s lives.", player=seat_mark(seat), other=seat_mark(target))
    return state, [public("shuffled", said)]


def _chosen(state: State, seat: int, move: Play) -> tuple[State, Events]:
    """A hand card picked to play: played at once if there is one way, else its placement is asked."""
    card = move.card
    found = options(state, card)
    if len(found) == 1:
        return place(state, seat, card, found[0])
    single = state.power is not None and state.power.power == PowerKey.SINGLE_CAT
    return evolve(state, {"selected": card, "step": Step.ICON if single else Step.PLACE}), []


def _placed(state: State, seat: int, move: NewCard | Cover | SwapWith | CountAs) -> tuple[State, Events]:
    card = state.selected
    if isinstance(move, CountAs):
        return place(state, seat, card, Option("t", -1, move.cat))
    if isinstance(move, NewCard):
        return place(state, seat, card, Option("t"))
    return place(state, seat, card, Option(move.verb, pile_of(state, move.card)))


def _stolen(state: State, seat: int, move: StealFrom) -> tuple[State, Events]:
    """Steal from a player's hand (at random) or go on to pick a table card (NL-10)."""
    if move.seat is None:
        return evolve(state, {"step": Step.TAKE}), []
    victim = move.seat
    two = state.power.power == PowerKey.STEAL_AND_PLAY
    hand, rng, taken = state.hands[victim], state.rng, []
    for _steal in range(2 if two else 1):
        if not hand:
            break
        index, rng = rng.below(len(hand))
        taken.append(hand[index])
        hand = hand[:index] + hand[index + 1 :]
    hands = put(state.hands, victim, hand)
    hands = put(hands, seat, hands[seat] + tuple(taken))
    update = {"hands": hands, "rng": rng, "step": Step.PLAY}
    if two:
        update["must_from"] = tuple(taken)
    cards = ", ".join(icons_text(state.cats[c]) for c in taken)
    n = len(taken)
    events = [
        public(
            "steal",
            n_(
                "{player} steals {count} card from {other}'s hand.",
                "{player} steals {count} cards from {other}'s hand.",
                n,
                player=seat_mark(seat),
                other=seat_mark(victim),
            ),
        ),
        private(
            "stolen",
            _(
                "{player} stole {cards} from {other}.",
                player=seat_mark(seat),
                cards=cards,
                other=seat_mark(victim),
            ),
            seat,
            victim,
        ),
    ]
    return evolve(state, update), events


def _taken(state: State, seat: int, move: Take) -> tuple[State, Events]:
    """Steal an uncovered table card into the hand; what it covered counts again."""
    index = pile_of(state, move.card)
    pile = state.table[index]
    table = (
        state.table[:index] + state.table[index + 1 :]
        if len(pile) == 1
        else put(state.table, index, pile[:-1])
    )
    hands = put(state.hands, seat, (*state.hands[seat], move.card))
    text = _(
        "{player} steals {card} from the table.",
        player=seat_mark(seat),
        card=icons_text(state.cats[move.card]),
    )
    return evolve(state, {"table": table, "hands": hands, "step": Step.PLAY}), [public("steal", text)]


def _given(state: State, seat: int, move: GiveTo) -> tuple[State, Events]:
    """Wildcard Paid: the picked card goes to another player, then any card may be played."""
    to, card = move.seat, state.selected
    hands = put(state.hands, seat, without(state.hands[seat], (card,)))
    hands = put(hands, to, (*hands[to], card))
    events = [
        public("give", _("{player} gives a card to {other}.", player=seat_mark(seat), other=seat_mark(to))),
        private(
            "gift",
            _(
                "{player} gave {card} to {other}.",
                player=seat_mark(seat),
                card=icons_text(state.cats[card]),
                other=seat_mark(to),
            ),
            seat,
            to,
        ),
    ]
    return evolve(state, {"hands": hands, "selected": None, "step": Step.PLAY}), events


def _carousel_started(state: State, seat: int, move: CarouselDirection) -> tuple[State, Events]:
    """Card Carousel: everyone picks 2 cards (all they have if fewer) to pass at once (NL-10)."""
    direction = 1 if move.left else -1
    need = tuple(min(2, len(hand)) for hand in state.hands)
    gifts = tuple(hand if len(hand) <= 2 else () for hand in state.hands)
    events = [
        public(
            "carousel",
            _("{player} starts a Card Carousel: everyone passes 2 cards to the left.", player=seat_mark(seat))
            if direction == 1
            else _(
                "{player} starts a Card Carousel: everyone passes 2 cards to the right.",
                player=seat_mark(seat),
            ),
        )
    ]
    state = evolve(
        state, {"phase": Phase.CAROUSEL, "direction": direction, "gift_need": need, "gifts": gifts}
    )
    return _carousel_maybe_done(state, events)


def _carousel_maybe_done(state: State, events: Events) -> tuple[State, Events]:
    n = state.players
    if any(len(state.gifts[s]) < state.gift_need[s] for s in range(n)):
        return state, events
    hands = []
    for s in range(n):
        giver = (s - state.direction) % n
        hands.append(without(state.hands[s], state.gifts[s]) + state.gifts[giver])
    for s in range(n):
        if state.gifts[s]:
            to = (s + state.direction) % n
            cards = ", ".join(icons_text(state.cats[c]) for c in state.gifts[s])
            text = _(
                "{player} passed {cards} to {other}.", player=seat_mark(s), cards=cards, other=seat_mark(to)
            )
            events.append(private("passed", text, s, to))
    events.append(public("passed", _("The cards are passed.")))
    state = evolve(
        state, {"hands": tuple(hands), "gifts": (), "gift_need": (), "phase": Phase.PLAY, "step": Step.PLAY}
    )
    return state, events


def _gave_up(state: State, seat: int, move: GiveUp) -> tuple[State, Events]:
    events = [public("give_up", _("{player} can't or won't play, and gives up.", player=seat_mark(seat)))]
    return end_round(state, (seat,), _("{player} gave up", player=seat_mark(seat)), events)


def _skipped(state: State, seat: int, move: SkipTurn) -> tuple[State, Events]:
    return finish_turn(state, seat, [public("skip", _("{player} skips their turn.", player=seat_mark(seat)))])


def _ended(state: State, seat: int, move: EndTurn) -> tuple[State, Events]:
    return next_visit(state, seat, [public("end", _("{player} ends their turn.", player=seat_mark(seat)))])


def _copied(state: State, seat: int, move: CopyPower) -> tuple[State, Events]:
    return copy_power(state, seat, move.seat)


def _picked_gift(state: State, seat: int, move: Give) -> tuple[State, Events]:
    return evolve(state, {"selected": move.card, "step": Step.TO}), []


def _passed(state: State, seat: int, move: Pass) -> tuple[State, Events]:
    gifts = put(state.gifts, seat, (*state.gifts[seat], move.card))
    return _carousel_maybe_done(evolve(state, {"gifts": gifts}), [])


def _reordering(state: State, seat: int, move: ReorderStack) -> tuple[State, Events]:
    target = move.seat
    update = {
        "shuffle_target": target,
        "step": Step.REORDER,
        "arranging": put(state.arranging, seat, state.stacks[target]),
        "arranged": put(state.arranged, seat, ()),
    }
    text = _("{player} reorders {other}'s life stack.", player=seat_mark(seat), other=seat_mark(target))
    return evolve(state, update), [public("shuffle", text)]


def _crowned(state: State, seat: int, move: Crown) -> tuple[State, Events]:
    said = _("{player} picks {other}.", player=seat_mark(seat), other=seat_mark(move.seat))
    return new_round(state, move.seat, [public("pick", said)])


RESOLVERS: dict[type[Move], Callable[[State, int, Any], tuple[State, Events]]] = {
    Keep: _arranged,
    NextLife: _arranged,
    Wager: lambda state, seat, move: wager(state, seat),
    Play: _chosen,
    NewCard: _placed,
    Cover: _placed,
    SwapWith: _placed,
    CountAs: _placed,
    GiveUp: _gave_up,
    SkipTurn: _skipped,
    EndTurn: _ended,
    CopyPower: _copied,
    Give: _picked_gift,
    GiveTo: _given,
    StealFrom: _stolen,
    Take: _taken,
    CarouselDirection: _carousel_started,
    Pass: _passed,
    ReorderStack: _reordering,
    Crown: _crowned,
}
"""What each kind of action does."""


def resolve(state: State, seat: int, move: Move) -> tuple[State, Events]:
    """The state after `seat`'s legal `move`, and what happened."""
    return RESOLVERS[type(move)](state, seat, move)
