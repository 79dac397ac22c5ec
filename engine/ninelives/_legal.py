"""Who decides now, what they may do, and why anything else is refused."""

from __future__ import annotations

from engine.ninelives._cards import EMOJI, LIMIT, PowerKey
from engine.ninelives._counting import Option, blocking, fits, forbidden_by_power, options, raw_counts
from engine.ninelives._flow import copy_targets, shuffle_targets, steal_sources
from engine.ninelives.model import (
    CardMove,
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
    WagerRule,
)
from lang import N_, _

KEEP = Keep.of()
WAGER = Wager.of()
GIVE_UP = GiveUp.of()
SKIP = SkipTurn.of()
END = EndTurn.of()
NEW_CARD = NewCard.of()
PLACING = {"t": NewCard, "cover": Cover, "swap": SwapWith}
"""The action that plays the picked card in each `Option.mode`."""


PLAY_CHANGING = frozenset(
    (
        PowerKey.WILDCARD,
        PowerKey.WILDCARD_PAID,
        PowerKey.REPLACE,
        PowerKey.SWAP,
        PowerKey.SHAPESHIFT,
        PowerKey.NUMBERSHIFT,
        PowerKey.SINGLE_CAT,
        PowerKey.FORBID,
        PowerKey.PLUS,
    )
)
"""The powers that change which plays are legal (the others leave the plain nine-limit)."""


def to_act(state: State) -> list[int]:
    """The seats the game waits for."""
    phase = state.phase
    if phase == Phase.PLAY:
        return [state.turn]
    if phase in (Phase.ORDER, Phase.RETURN):
        return [s for s in range(state.players) if state.arranging[s]]
    if phase == Phase.CAROUSEL:
        return [s for s in range(state.players) if len(state.gifts[s]) < state.gift_need[s]]
    if phase == Phase.QUEEN:
        return [state.queen]
    return []


def can_wager(state: State, seat: int) -> bool:
    """A player may wager once per turn, with a life in the stack, unless Forbid Wager binds them."""
    return not state.wagered_now and bool(state.stacks[seat]) and state.wager_rule != WagerRule.FORBID


def playable(state: State, seat: int) -> list[int]:
    """Hand cards with at least one legal way to play them this turn."""
    hand = state.hands[seat]
    if state.must_from:
        hand = tuple(c for c in hand if c in state.must_from)
    base = raw_counts(state.table)
    if state.power is None or state.power.power not in PLAY_CHANGING:
        cats, ignored = state.cats, state.ignored
        return [card for card in hand if fits(base, cats[card], ignored)]
    return [card for card in hand if options(state, card, base)]


def arrange_moves(state: State, seat: int) -> list[Move]:
    return [KEEP] + [NextLife.of(c) for c in state.arranging[seat]]


def turn_moves(state: State, seat: int) -> list[Move]:
    """The choices of the player whose turn it is, at the current step."""
    step = state.step
    if step == Step.PLAY:
        if state.wager_rule == WagerRule.FORCE and can_wager(state, seat):
            return [WAGER]
        moves: list[Move] = [WAGER] if can_wager(state, seat) else []
        moves += [Play.of(c) for c in playable(state, seat)]
        if state.power is not None and state.power.power == PowerKey.SKIP:
            moves.append(SKIP)
        moves.append(END if state.optional_now else GIVE_UP)
        return moves
    if step in (Step.PLACE, Step.ICON):
        found = options(state, state.selected)
        if step == Step.ICON:
            return [CountAs.of(o.icon) for o in found]
        return [
            NEW_CARD if o.mode == "t" else PLACING[o.mode].of(state.table[o.pile][-1].card) for o in found
        ]
    if step == Step.REORDER:
        return arrange_moves(state, seat)
    if step == Step.COPY:
        return [CopyPower.of(s) for s in copy_targets(state, seat)]
    if step == Step.GIVE:
        return [Give.of(c) for c in state.hands[seat]]
    if step == Step.TO:
        return [GiveTo.of(s) for s in range(state.players) if s != seat]
    if step == Step.FROM:
        table = state.power is not None and state.power.power == PowerKey.STEAL
        return [StealFrom.of(source) for source in steal_sources(state, seat, table)]
    if step == Step.TAKE:
        return [Take.of(pile[-1].card) for pile in state.table]
    if step == Step.DIR:
        return [CarouselDirection.of(True), CarouselDirection.of(False)]
    if step == Step.STACK:
        return [ReorderStack.of(s) for s in shuffle_targets(state)]
    return []


def legal(state: State, seat: int) -> list[Move]:
    """Every legal move of `seat`, in a fixed order; [] when it is not to act."""
    if seat not in to_act(state):
        return []
    phase = state.phase
    if phase == Phase.PLAY:
        return turn_moves(state, seat)
    if phase in (Phase.ORDER, Phase.RETURN):
        return arrange_moves(state, seat)
    if phase == Phase.CAROUSEL:
        given = state.gifts[seat]
        return [Pass.of(c) for c in state.hands[seat] if c not in given]
    if phase == Phase.QUEEN:
        return [Crown.of(s) for s in state.tied]
    return []


def pile_of(state: State, card: int) -> int:
    """The index of the pile whose top card is `card`, or -1."""
    for index, pile in enumerate(state.table):
        if pile[-1].card == card:
            return index
    return -1


STEP_WORDS = {
    Step.PLAY: N_("wager, play a card or give up"),
    Step.PLACE: N_("choose where your card goes"),
    Step.ICON: N_("choose which icon your card counts as"),
    Step.REORDER: N_("put the life stack in order"),
    Step.COPY: N_("choose whose power to copy"),
    Step.GIVE: N_("choose a card to give away"),
    Step.TO: N_("choose who gets your card"),
    Step.FROM: N_("choose where to steal from"),
    Step.TAKE: N_("choose a table card to take"),
    Step.DIR: N_("choose the carousel's direction"),
    Step.STACK: N_("choose a life stack to reorder"),
}
"""What a step of a turn waits for, in English: worded with `_` where it is said."""
PHASE_WORDS = {
    Phase.ORDER: N_("put your life stack in order"),
    Phase.RETURN: N_("put your wagered lives back in order"),
    Phase.CAROUSEL: N_("choose cards to pass"),
    Phase.QUEEN: N_("pick the next Kittyqueen"),
}


def _play_reason(state: State, seat: int, card: int) -> str:
    if card not in state.hands[seat]:
        return _("That card is not in your hand.")
    if state.must_from and card not in state.must_from:
        return _("You must play one of the cards you just received.")
    if forbidden_by_power(state, card):
        return _(
            "Your Forbid power stops you playing a card showing {cat} this turn.", cat=EMOJI[state.power.a]
        )
    cats = blocking(state, card, Option("t"))
    if cats:
        names = _(" and ").join(EMOJI[c] for c in cats)
        return _(
            "That card would take {cats} above {limit}: no cat may appear more than {limit} times.",
            cats=names,
            limit=LIMIT,
        )
    return _("You can't play that card now.")


def reason(state: State, seat: int, move: Move) -> str:
    """A sentence saying why `move` is not legal for `seat` now."""
    phase = state.phase
    if phase == Phase.PLAY and state.step == Step.PLAY:
        if isinstance(move, Play):
            return _play_reason(state, seat, move.card)
        if isinstance(move, Wager):
            if state.wagered_now:
                return _("You already wagered a life this turn.")
            if not state.stacks[seat]:
                return _("You have no life left in your stack to wager.")
            return _("Forbid Wager: you may not wager a life this turn.")
        if state.wager_rule == WagerRule.FORCE and can_wager(state, seat):
            return _("Force Wager: you must wager a life before anything else.")
        if isinstance(move, SkipTurn):
            return _("Only the Skip Turn power lets you skip your turn.")
        if isinstance(move, EndTurn):
            return _("This turn is not optional: play a card or give up.")
        if isinstance(move, GiveUp):
            return _("This extra turn is optional: end it instead of giving up.")
    placing = (NewCard, Cover, SwapWith, CountAs)
    if phase == Phase.PLAY and state.step in (Step.PLACE, Step.ICON) and isinstance(move, placing):
        return _("Your card can't go there: no cat may appear more than 9 times.")
    words = STEP_WORDS.get(state.step) if phase == Phase.PLAY else PHASE_WORDS.get(phase)
    doing = _(words) if words else _("decide")
    if isinstance(move, CardMove | NextLife) and not isinstance(move, Play):
        return _("That card is not one you can choose now: {doing}.", doing=doing)
    return _("You can't do that now: {doing}.", doing=doing)
