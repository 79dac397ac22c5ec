"""Who decides now, what they may do, and why anything else is refused."""

from __future__ import annotations

from engine.ninelives.cards import EMOJI, LIMIT, card_id, life_id
from engine.ninelives.counting import Option, blocking, fits, forbidden_by_power, options, raw_counts
from engine.ninelives.flow import copy_targets, shuffle_targets, steal_sources
from engine.ninelives.model import Move, State, mv

KEEP = mv("keep")
WAGER = mv("w")
GIVE_UP = mv("giveup")
SKIP = mv("skip")
END = mv("end")
NEW_CARD = mv("t")


PLAY_CHANGING = frozenset(
    (
        "wildcard",
        "wildcard_paid",
        "replace",
        "swap",
        "shapeshift",
        "numbershift",
        "single_cat",
        "forbid",
        "plus",
    )
)
"""The powers that change which plays are legal (the others leave the plain nine-limit)."""


def to_act(state: State) -> list[int]:
    """The seats the game waits for."""
    phase = state.phase
    if phase == "play":
        return [state.turn]
    if phase in ("order", "return"):
        return [s for s in range(state.players) if state.arranging[s]]
    if phase == "carousel":
        return [s for s in range(state.players) if len(state.gifts[s]) < state.gift_need[s]]
    if phase == "queen":
        return [state.queen]
    return []


def can_wager(state: State, seat: int) -> bool:
    """A player may wager once per turn, with a life in the stack, unless Forbid Wager binds them."""
    return not state.wagered_now and bool(state.stacks[seat]) and state.wager_rule != "forbid"


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
    return [KEEP] + [mv("n", life_id(c)) for c in state.arranging[seat]]


def turn_moves(state: State, seat: int) -> list[Move]:
    """The choices of the player whose turn it is, at the current step."""
    step = state.step
    if step == "play":
        if state.wager_rule == "force" and can_wager(state, seat):
            return [WAGER]
        moves = [WAGER] if can_wager(state, seat) else []
        moves += [mv("p", card_id(c)) for c in playable(state, seat)]
        if state.power is not None and state.power.power == "skip":
            moves.append(SKIP)
        moves.append(END if state.optional_now else GIVE_UP)
        return moves
    if step in ("place", "icon"):
        found = options(state, state.selected)
        if step == "icon":
            return [mv("icon", str(o.icon)) for o in found]
        return [
            NEW_CARD if o.mode == "t" else mv(o.mode, card_id(state.table[o.pile][-1].card)) for o in found
        ]
    if step == "reorder":
        return arrange_moves(state, seat)
    if step == "copy":
        return [mv("copy", str(s)) for s in copy_targets(state, seat)]
    if step == "give":
        return [mv("give", card_id(c)) for c in state.hands[seat]]
    if step == "to":
        return [mv("to", str(s)) for s in range(state.players) if s != seat]
    if step == "from":
        table = state.power is not None and state.power.power == "steal"
        return [mv("from", a) for a in steal_sources(state, seat, table)]
    if step == "take":
        return [mv("take", card_id(pile[-1].card)) for pile in state.table]
    if step == "dir":
        return [mv("dir", "l"), mv("dir", "r")]
    if step == "stack":
        return [mv("stack", str(s)) for s in shuffle_targets(state)]
    return []


def legal(state: State, seat: int) -> list[Move]:
    """Every legal move of `seat`, in a fixed order; [] when it is not to act."""
    if seat not in to_act(state):
        return []
    phase = state.phase
    if phase == "play":
        return turn_moves(state, seat)
    if phase in ("order", "return"):
        return arrange_moves(state, seat)
    if phase == "carousel":
        given = state.gifts[seat]
        return [mv("pass", card_id(c)) for c in state.hands[seat] if c not in given]
    if phase == "queen":
        return [mv("queen", str(s)) for s in state.tied]
    return []


def pile_of(state: State, card: int) -> int:
    """The index of the pile whose top card is `card`, or -1."""
    for index, pile in enumerate(state.table):
        if pile[-1].card == card:
            return index
    return -1


STEP_WORDS = {
    "play": "wager, play a card or give up",
    "place": "choose where your card goes",
    "icon": "choose which icon your card counts as",
    "reorder": "put the life stack in order",
    "copy": "choose whose power to copy",
    "give": "choose a card to give away",
    "to": "choose who gets your card",
    "from": "choose where to steal from",
    "take": "choose a table card to take",
    "dir": "choose the carousel's direction",
    "stack": "choose a life stack to reorder",
}
PHASE_WORDS = {
    "order": "put your life stack in order",
    "return": "put your wagered lives back in order",
    "carousel": "choose cards to pass",
    "queen": "pick the next Kittyqueen",
}


def _play_reason(state: State, seat: int, card: int) -> str:
    if card not in state.hands[seat]:
        return "That card is not in your hand."
    if state.must_from and card not in state.must_from:
        return "You must play one of the cards you just received."
    if forbidden_by_power(state, card):
        return f"Your Forbid power stops you playing a card showing {EMOJI[state.power.a]} this turn."
    cats = blocking(state, card, Option("t"))
    if cats:
        names = " and ".join(EMOJI[c] for c in cats)
        return f"That card would take {names} above {LIMIT}: no cat may appear more than {LIMIT} times."
    return "You can't play that card now."


def reason(state: State, seat: int, move: Move) -> str:
    """A sentence saying why `move` is not legal for `seat` now."""
    phase, verb = state.phase, move.verb
    if phase == "play" and state.step == "play":
        if verb == "p":
            return _play_reason(state, seat, move.number)
        if verb == "w":
            if state.wagered_now:
                return "You already wagered a life this turn."
            if not state.stacks[seat]:
                return "You have no life left in your stack to wager."
            return "Forbid Wager: you may not wager a life this turn."
        if state.wager_rule == "force" and can_wager(state, seat):
            return "Force Wager: you must wager a life before anything else."
        if verb == "skip":
            return "Only the Skip Turn power lets you skip your turn."
        if verb == "end":
            return "This turn is not optional: play a card or give up."
        if verb == "giveup":
            return "This extra turn is optional: end it instead of giving up."
    if phase == "play" and state.step in ("place", "icon") and verb in ("t", "cover", "swap", "icon"):
        return "Your card can't go there: no cat may appear more than 9 times."
    doing = STEP_WORDS.get(state.step, "decide") if phase == "play" else PHASE_WORDS.get(phase, "decide")
    if verb in ("n", "pass", "give", "take", "cover", "swap"):
        return f"That card is not one you can choose now: {doing}."
    return f"You can't do that now: {doing}."
