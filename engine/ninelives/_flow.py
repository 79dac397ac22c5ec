"""How the game moves on: wagers and powers, plays, turn order, round ends and new rounds.

Every function takes a state and returns a new one (never mutating), plus the events.
"""

from __future__ import annotations

from engine.core import Event, build, evolve
from engine.ninelives._cards import EMOJI, POWERS, LifeCard, PowerKey, icons_text, life_name
from engine.ninelives._counting import Option, all_full, effective, note_text, perfect, raw_counts
from engine.ninelives.model import Phase, Placed, State, Step, WagerRule
from lang import _, n_

Events = list[Event]


def public(kind: str, text: str) -> Event:
    return build(Event, {"kind": kind, "text": text, "visible_to": None})


def private(kind: str, text: str, *seats: int) -> Event:
    return build(Event, {"kind": kind, "text": text, "visible_to": tuple(sorted(set(seats)))})


def seat_mark(seat: int) -> str:
    """A seat in narration, named when shown: "{p2}"."""
    return f"{{p{seat}}}"


def cards_text(state: State, cards: tuple[int, ...] | list[int]) -> str:
    return ", ".join(icons_text(state.cats[c]) for c in cards)


def put(items: tuple, index: int, value) -> tuple:
    """`items` with `items[index]` replaced by `value`."""
    return (*items[:index], value, *items[index + 1 :])


def without(items: tuple[int, ...], remove: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    return tuple(i for i in items if i not in remove)


def draw(state: State, seat: int, n: int) -> tuple[State, tuple[int, ...], Events]:
    """Draw up to `n` cards into `seat`'s hand, reshuffling the discard pile when the deck runs out (NL-6)."""
    deck, discard, rng = state.deck, state.discard, state.rng
    drawn: list[int] = []
    events: Events = []
    for _card in range(n):
        if not deck:
            if not discard:
                break
            deck, rng = rng.shuffled(discard)
            discard = ()
            events.append(public("reshuffle", _("The discard pile is shuffled into a new deck.")))
        drawn.append(deck[0])
        deck = deck[1:]
    if not drawn:
        return state, (), events
    hands = put(state.hands, seat, state.hands[seat] + tuple(drawn))
    state = evolve(state, {"deck": deck, "discard": discard, "rng": rng, "hands": hands})
    said = n_(
        "{player} draws {count} card.", "{player} draws {count} cards.", len(drawn), player=seat_mark(seat)
    )
    events.append(public("draw", said))
    events.append(private("drew", _("You drew {cards}.", cards=cards_text(state, drawn)), seat))
    return state, tuple(drawn), events


def next_active(state: State, seat: int) -> int:
    """The next seat clockwise that is not safe (G-1)."""
    for offset in range(1, state.players + 1):
        candidate = (seat + offset) % state.players
        if candidate not in state.safe:
            return candidate
    return seat


TURN_RESET = {
    "phase": Phase.PLAY,
    "step": Step.PLAY,
    "power": None,
    "wagered_now": False,
    "selected": None,
    "must_from": (),
    "shuffle_target": None,
}


def new_turn(
    state: State, seat: int, owed: int, optional: int, optional_now: bool, rule: WagerRule = WagerRule.NONE
) -> State:
    """A fresh turn for `seat` (owed/optional: further turns of this visit, Double Turn)."""
    return evolve(
        state,
        {
            **TURN_RESET,
            "turn": seat,
            "owed": owed,
            "optional": optional,
            "optional_now": optional_now,
            "wager_rule": rule,
        },
    )


def next_visit(state: State, seat: int, events: Events) -> tuple[State, Events]:
    """Pass play on from `seat`, applying what the last player's powers bind the next one to (NL-8).

    Each skip costs one turn the player would take; what a visit skipped whole leaves over (more
    skips, a wager rule) binds the player's next visit, the later wager rule counting (NL-X5).
    """
    nxt = next_active(state, seat)
    skips, turns, rule = state.next_skip, 2 if state.next_double else 1, state.next_wager
    held = tuple(h for h in state.held if h[0] != nxt)
    for _seat, more, earlier in (h for h in state.held if h[0] == nxt):
        skips, rule = skips + more, rule or earlier
    state = evolve(state, {"next_skip": 0, "next_double": False, "next_wager": WagerRule.NONE, "held": held})
    if turns == 2:
        events.append(public("double", _("{player} must take 2 turns.", player=seat_mark(nxt))))
    while skips and turns:
        skips -= 1
        turns -= 1
        events.append(public("skipped", _("{player} must skip a turn.", player=seat_mark(nxt))))
    if not turns:
        if skips or rule:
            state = evolve(state, {"held": (*held, (nxt, skips, rule))})
        return next_visit(state, nxt, events)
    if rule == WagerRule.FORCE and state.stacks[nxt]:
        events.append(public("force", _("{player} must wager a life this turn.", player=seat_mark(nxt))))
    elif rule == WagerRule.FORBID:
        events.append(public("forbid", _("{player} may not wager a life this turn.", player=seat_mark(nxt))))
    return new_turn(state, nxt, turns - 1, 0, False, rule), events


def finish_turn(state: State, seat: int, events: Events) -> tuple[State, Events]:
    """After a play or a skip: the round's end (NL-5), else the rest of the visit, else the next player."""
    if all_full(state):
        return end_round(state, tuple(range(state.players)), _("all cats are at nine"), events)
    active = [s for s in range(state.players) if s not in state.safe]
    if len(active) == 1:
        why = _("only {player} is left without a perfect nine", player=seat_mark(active[0]))
        return end_round(state, (active[0],), why, events)
    if seat not in state.safe:
        if state.owed:
            return new_turn(state, seat, state.owed - 1, state.optional, False), events
        if state.optional:
            events.append(public("extra", _("{player} may take another turn.", player=seat_mark(seat))))
            return new_turn(state, seat, 0, state.optional - 1, True), events
    return next_visit(state, seat, events)


def wager(state: State, seat: int) -> tuple[State, Events]:
    """Move the top life card in front of the player, draw its number, apply its power (NL-3)."""
    top = state.stacks[seat][0]
    life = state.lifecards[top]
    state = evolve(
        state,
        {
            "stacks": put(state.stacks, seat, state.stacks[seat][1:]),
            "wagered": put(state.wagered, seat, (*state.wagered[seat], top)),
            "wagered_now": True,
        },
    )
    said = _(
        "{player} wagers a life: {emoji} {power}.",
        player=seat_mark(seat),
        emoji=POWERS[life.power].emoji,
        power=life_name(life),
    )
    events = [public("wager", said)]
    state, _ids, drawn = draw(state, seat, life.draw)
    return activate(state, seat, life, events + drawn)


def steal_sources(state: State, seat: int, table: bool) -> list[int | None]:
    """Where a Steal may take from: None for the table, or seats with cards in hand."""
    sources: list[int | None] = [None] if table and state.table else []
    return sources + [s for s in range(state.players) if s != seat and state.hands[s]]


def copy_targets(state: State, seat: int) -> list[int]:
    """Other players whose top life card has a power to copy (not Copycat itself, NL-X4)."""
    return [
        s
        for s in range(state.players)
        if s != seat and state.stacks[s] and state.lifecards[state.stacks[s][0]].power != PowerKey.COPYCAT
    ]


def shuffle_targets(state: State) -> list[int]:
    """Stacks that Shuffle Lives can reorder (two cards or more)."""
    return [s for s in range(state.players) if len(state.stacks[s]) > 1]


def activate(state: State, seat: int, life: LifeCard, events: Events) -> tuple[State, Events]:
    """Put `life`'s power in force for this turn and open its first decision, if any (NL-8, NL-10)."""
    key = life.power
    update: dict = {"power": life, "step": Step.PLAY}
    if key == PowerKey.SKIP:
        update["next_skip"] = state.next_skip + 1
    elif key == PowerKey.COPYCAT:
        if copy_targets(state, seat):
            update["step"] = Step.COPY
        else:
            events.append(public("power", _("Nobody has a power to copy.")))
    elif key == PowerKey.INSPECT:
        others = {s for s in range(state.players) if s != seat}
        update["open_hands"] = tuple(sorted(others | set(state.open_hands)))
        said = _("Everyone but {player} plays with an open hand this round.", player=seat_mark(seat))
        events.append(public("power", said))
    elif key == PowerKey.IGNORE:
        update["ignored"] = tuple(sorted({*state.ignored, life.a}))
        events.append(public("power", _("Everyone ignores {cat} this round.", cat=EMOJI[life.a])))
        state = evolve(state, update)
        if all_full(state):
            return end_round(state, tuple(range(state.players)), _("all cats are at nine"), events)
        return state, events
    elif key == PowerKey.WILDCARD_PAID:
        if state.hands[seat]:
            update["step"] = Step.GIVE
    elif key == PowerKey.STEAL:
        if steal_sources(state, seat, table=True):
            update["step"] = Step.FROM
    elif key == PowerKey.STEAL_AND_PLAY:
        if steal_sources(state, seat, table=False):
            update["step"] = Step.FROM
    elif key == PowerKey.DRAW_AND_PLAY:
        state, drawn, more = draw(state, seat, 2)
        events += more
        update["must_from"] = drawn
    elif key == PowerKey.DOUBLE_TURN:
        update["optional"] = state.optional + 1
        update["next_double"] = True
    elif key == PowerKey.CAROUSEL:
        update["step"] = Step.DIR
    elif key == PowerKey.SHUFFLE_LIVES:
        if shuffle_targets(state):
            update["step"] = Step.STACK
    elif key == PowerKey.FORCE_WAGER:
        update["next_wager"] = WagerRule.FORCE
    elif key == PowerKey.FORBID_WAGER:
        update["next_wager"] = WagerRule.FORBID
    return evolve(state, update), events


def copy_power(state: State, seat: int, target: int) -> tuple[State, Events]:
    """Copycat: use `target`'s top life card's power; the draw was the Copycat's (NL-10)."""
    life = state.lifecards[state.stacks[target][0]]
    said = _(
        "{player} copies {other}'s {power}.",
        player=seat_mark(seat),
        other=seat_mark(target),
        power=life_name(life),
    )
    events = [public("copy", said)]
    return activate(state, seat, life, events)


def place(state: State, seat: int, card: int, option: Option) -> tuple[State, Events]:
    """Put `card` from the hand on the table as `option` says; a perfect nine makes the player safe (NL-4)."""
    adds, note = effective(state.cats[card], state.power, option.icon)
    placed = Placed(card=card, counts=adds, note=note)
    hand = without(state.hands[seat], (card,))
    table = state.table
    played = icons_text(state.cats[card])
    if option.mode == "t":
        table = (*table, (placed,))
        text = _("{player} plays {card}", player=seat_mark(seat), card=played)
    else:
        pile = table[option.pile]
        old = icons_text(state.cats[pile[-1].card])
        if option.mode == "cover":
            table = put(table, option.pile, (*pile, placed))
            text = _(
                "{player} plays {card} on top of {other}", player=seat_mark(seat), card=played, other=old
            )
        else:
            table = put(table, option.pile, (*pile[:-1], placed))
            hand = (*hand, pile[-1].card)
            text = _(
                "{player} plays {card}, swapping it for {other}",
                player=seat_mark(seat),
                card=played,
                other=old,
            )
    if note:
        text += f" ({note_text(note)})"
    state = evolve(
        state, {"table": table, "hands": put(state.hands, seat, hand), "selected": None, "step": Step.PLAY}
    )
    events = [public("play", text + ".")]
    nines = perfect(raw_counts(table), adds, state.ignored)
    if nines:
        state = evolve(state, {"safe": tuple(sorted({*state.safe, seat}))})
        cats = _(" and ").join(EMOJI[c] for c in nines)
        said = _("Perfect nine {cats}! {player} is safe this round.", cats=cats, player=seat_mark(seat))
        events.append(public("perfect", said))
    return finish_turn(state, seat, events)


def end_round(state: State, losers: tuple[int, ...], why: str, events: Events) -> tuple[State, Events]:
    """NL-5: losers discard their top life and everything wagered; the table goes to the discard (NL-6)."""
    events.append(public("round_end", _("Round {round} ends: {why}.", round=state.round, why=why)))
    stacks, wagered = list(state.stacks), list(state.wagered)
    for seat in losers:
        lost = len(stacks[seat][:1]) + len(wagered[seat])
        stacks[seat] = stacks[seat][1:]
        wagered[seat] = ()
        events.append(
            public(
                "lose",
                n_(
                    "{player} loses {count} life.",
                    "{player} loses {count} lives.",
                    lost,
                    player=seat_mark(seat),
                ),
            )
        )
    discard = state.discard + tuple(p.card for pile in state.table for p in pile)
    state = evolve(
        state,
        {
            **TURN_RESET,
            "stacks": tuple(stacks),
            "wagered": tuple(wagered),
            "discard": discard,
            "table": (),
            "safe": (),
            "open_hands": (),
            "ignored": (),
            "owed": 0,
            "optional": 0,
            "optional_now": False,
            "wager_rule": WagerRule.NONE,
            "next_skip": 0,
            "next_double": False,
            "next_wager": WagerRule.NONE,
            "held": (),
            "losers": tuple(sorted(losers)),
        },
    )
    if any(state.lives(s) == 0 for s in range(state.players)):
        events.append(public("game_end", _("A player has no lives left: the game is over.")))
        return evolve(state, {"phase": Phase.OVER}), events
    arranging, arranged = list(state.arranging), list(state.arranged)
    for seat in range(state.players):
        if len(wagered[seat]) == 1:
            stacks[seat] = stacks[seat] + wagered[seat]
            wagered[seat] = ()
        elif wagered[seat]:
            arranging[seat], arranged[seat] = wagered[seat], ()
    state = evolve(
        state,
        {
            "stacks": tuple(stacks),
            "wagered": tuple(wagered),
            "arranging": tuple(arranging),
            "arranged": tuple(arranged),
        },
    )
    if any(arranging):
        return evolve(state, {"phase": Phase.RETURN}), events
    return choose_queen(state, events)


def choose_queen(state: State, events: Events) -> tuple[State, Events]:
    """NL-6: the player with the most cards in hand rules next; a tie goes to the current queen's pick."""
    most = max(len(hand) for hand in state.hands)
    tied = tuple(s for s in range(state.players) if len(state.hands[s]) == most)
    if len(tied) > 1:
        names = ", ".join(seat_mark(s) for s in tied)
        said = _(
            "{players} tie for most cards; {player} picks the next Kittyqueen.",
            players=names,
            player=seat_mark(state.queen),
        )
        events.append(public("tie", said))
        return evolve(state, {"phase": Phase.QUEEN, "tied": tied}), events
    return new_round(state, tied[0], events)


def new_round(state: State, queen: int, events: Events) -> tuple[State, Events]:
    """Start the next round with `queen` to move first."""
    state = evolve(state, {"queen": queen, "round": state.round + 1, "tied": ()})
    said = _(
        "{player} is the Kittyqueen 👑 and starts round {round}.", player=seat_mark(queen), round=state.round
    )
    events.append(public("queen", said))
    return new_turn(state, queen, 0, 0, False), events


def arrange(state: State, seat: int, card: int | None) -> tuple[State, bool]:
    """One step of ordering life cards: `card` next, or None to keep the rest as they are.

    Returns the new state and whether `seat`'s arrangement is complete (its cards are in `arranged`).
    """
    remaining, done = state.arranging[seat], state.arranged[seat]
    if card is None:
        remaining, done = (), done + remaining
    else:
        remaining, done = without(remaining, (card,)), (*done, card)
        if len(remaining) == 1:
            remaining, done = (), done + remaining
    state = evolve(
        state,
        {"arranging": put(state.arranging, seat, remaining), "arranged": put(state.arranged, seat, done)},
    )
    return state, not remaining


def clear_arrangement(state: State, seat: int) -> State:
    return evolve(state, {"arranged": put(state.arranged, seat, ())})
