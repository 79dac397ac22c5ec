"""How a roller's turn unfolds: rolls, set-asides, lock-in, payouts, stop, fail, end (MC-2 … MC-10).

Every function takes a state and the events so far and returns the new state
and events; none mutates its input.
"""

from __future__ import annotations

from engine.core import Event, evolve
from engine.madcat._cards import CATPOT, add_lock_in_vps, card, card_name
from engine.madcat._dice import (
    COMBO_NAMES,
    DICE,
    FACES,
    KINDS,
    WILD,
    cats_of,
    face_word,
    kind_of,
    kind_word,
    legal_asides,
    readings,
    show,
    sort_faces,
)
from engine.madcat.model import State, Stop
from lang import N_, _, n_

ROLLING, MOOCHING, CATPOT_SLOT = 0, 1, 2
PICK_NAMES = {**COMBO_NAMES, "fail": N_("Fail"), "none": N_("no card")}
"""The mooch picks' names, in English: `pick_name` says them in the language speaking."""

Result = tuple[State, list[Event]]


def _p(seat: int) -> str:
    return f"{{p{seat}}}"


def _vps(amount: int) -> str:
    return n_("{count} VP", "{count} VPs", amount)


def pick_name(pick: str) -> str:
    """A mooch pick's name ("Full house", "Fail", "no card")."""
    return _(PICK_NAMES[pick])


def joined(parts) -> str:
    """Names joined for a sentence: "{p0} and {p1} and {p2}"."""
    text = ""
    for part in parts:
        text = _("{first} and {second}", first=text, second=part) if text else part
    return text


def ends_with_the_emptying_turn(players: int) -> bool:
    """Whether the game ends with the turn that empties the supply (2 or 4 players), rather than
    going on until the first player's turn comes round (3 or 5 players, MC-10)."""
    return players in (2, 4)


def stops(state: State) -> list[Stop]:
    """The combinations the roller may stop with now (MC-7): readable, inner card not empty."""
    aside = state.aside
    if not aside or aside.count(WILD) == DICE:
        return []
    combos = readings(aside, state.kind)
    if not combos:
        return []
    kinds = (state.kind,) if state.kind is not None else KINDS
    cards = state.cards
    return [
        Stop(combo=combo, kind=kind)
        for kind in kinds
        for combo in combos
        if cards[card(kind, combo, True)] > 0
    ]


def _take(state: State, index: int, seats: list[int], slot: int) -> tuple[State, int, int]:
    """Split the VPs of card `index` fairly among `seats`; the remainder stays. Returns share and rest."""
    pile = state.cards[index]
    share = pile // len(seats)
    rest = pile - share * len(seats)
    cards = list(state.cards)
    cards[index] = rest
    scores = list(state.scores)
    earned = list(state.earned)
    paid = list(state.paid)
    for seat in seats:
        scores[seat] += share
        gains = list(earned[seat])
        gains[slot] += share
        earned[seat] = tuple(gains)
        if slot != ROLLING:
            paid[seat] = True
    state = evolve(
        state,
        {"cards": tuple(cards), "scores": tuple(scores), "earned": tuple(earned), "paid": tuple(paid)},
    )
    return state, share, rest


def _payout_text(seats: list[int], pick: str, index: int, share: int, rest: int) -> str:
    names = joined(_p(seat) for seat in seats)
    source = _("the catpot") if index == CATPOT else _("the {card} card", card=card_name(index, side=False))
    words = {"players": names, "pick": pick_name(pick), "source": source, "vps": _vps(share)}
    if share == 0:
        text = n_(
            "💰 {players} reveals {pick} but {source} has too few VPs to share",
            "💰 {players} reveal {pick} but {source} has too few VPs to share",
            len(seats),
            **words,
        )
    else:
        text = n_(
            "💰 {players} reveals {pick} and takes {vps} from {source}",
            "💰 {players} reveal {pick} and take {vps} each from {source}",
            len(seats),
            **words,
        )
    if rest:
        text += n_("; {count} VP stays on it", "; {count} VPs stay on it", rest)
    return text + "."


def pay_moochers(state: State, events: list[Event]) -> State:
    """Pay every unpaid moocher whose card the set-aside dice can be read as (MC-6)."""
    kind = state.kind
    for combo in readings(state.aside, kind):
        seats = [s for s, pick in enumerate(state.picks) if pick == combo and not state.paid[s]]
        if seats:
            index = card(kind, combo, False)
            state, share, rest = _take(state, index, seats, MOOCHING)
            events.append(Event(kind="payout", text=_payout_text(seats, combo, index, share, rest)))
    return state


def roll(state: State) -> Result:
    """Roll the dice not set aside; the turn fails if none of them may be set aside (MC-2, MC-9)."""
    rng = state.rng
    faces = []
    for _die in range(DICE - len(state.aside)):
        index, rng = rng.below(6)
        faces.append(FACES[index])
    rolled = sort_faces(faces)
    events = [
        Event(kind="roll", text=_("🎲 {player} rolls {dice}.", player=_p(state.turn), dice=show(rolled)))
    ]
    state = evolve(state, {"rng": rng, "rolled": rolled, "phase": "aside"})
    if not legal_asides(rolled, state.kind):
        return fail(state, events, _("no {cat} or wild to set aside", cat=face_word(state.kind)))
    return state, events


def set_aside(state: State, faces: tuple[str, ...]) -> Result:
    """Put `faces` on the tray; the first mad or sad die locks in and opens mooching (MC-3, MC-4)."""
    aside = sort_faces(state.aside + faces)
    seat = state.turn
    text = _(
        "📥 {player} sets aside {dice} (tray: {tray}).", player=_p(seat), dice=show(faces), tray=show(aside)
    )
    events = [Event(kind="aside", text=text)]
    new_kind = kind_of(faces)
    if state.kind is None and new_kind is not None:
        cards, supply, moved = add_lock_in_vps(state.cards, state.supply, new_kind)
        other = KINDS[1 - KINDS.index(new_kind)]
        if moved:
            text = n_(
                "🔒 {player} is locked in on {cats}: {moved} go onto the catpot and the {kind} cards "
                "({left} left in the supply).",
                "🔒 {player} is locked in on {cats}: {moved} go onto the catpot and the {kind} cards "
                "({left} left in the supply).",
                moved,
                player=_p(seat),
                cats=cats_of(new_kind),
                moved=_vps(moved),
                kind=kind_word(other),
                left=_vps(supply),
            )
        else:
            text = _("🔒 {player} is locked in on {cats}.", player=_p(seat), cats=cats_of(new_kind))
        events.append(Event(kind="lockin", text=text))
        if supply == 0 and state.supply > 0:
            events.append(Event(kind="supply", text=_supply_empty_text(state)))
        events.append(Event(kind="mooching", text=_("🤫 Everyone else now picks a mooch card in secret.")))
        state = evolve(
            state, {"aside": aside, "kind": new_kind, "cards": cards, "supply": supply, "phase": "mooch"}
        )
        return state, events
    state = evolve(state, {"aside": aside})
    return after_aside(state, events)


def _supply_empty_text(state: State) -> str:
    if ends_with_the_emptying_turn(state.players):
        return _("📭 The supply is empty: the game ends after this turn.")
    return _(
        "📭 The supply is empty: play goes on, without adding VPs, until {player}'s turn comes round.",
        player=_p(state.first),
    )


def after_aside(state: State, events: list[Event]) -> Result:
    """Once the tray changed and every moocher picked: payouts, then the roller's next decision."""
    if state.kind is not None:
        state = pay_moochers(state, events)
    if len(state.aside) == DICE:
        if state.aside.count(WILD) == DICE:
            return five_wilds(state, events)
        if not stops(state):
            return fail(state, events, _("the five set-aside dice take no VPs"))
    return evolve(state, {"phase": "decide"}), events


def mooch(state: State, seat: int, pick: str) -> Result:
    """Record a secret pick; when the last one is in, the turn goes on (MC-4)."""
    picks = list(state.picks)
    picks[seat] = pick
    state = evolve(state, {"picks": tuple(picks)})
    events = [
        # the same text for every pick
        Event(kind="mooch", text=_("🤫 {player} has picked a mooch card.", player=_p(seat))),
        Event(kind="mypick", text=_("🤫 You picked {pick}.", pick=pick_name(pick)), visible_to=(seat,)),
    ]
    waiting = any(p is None for s, p in enumerate(picks) if s != state.turn)
    if waiting:
        return state, events
    return after_aside(state, events)


def stop(state: State, action: Stop) -> Result:
    """The roller takes all VPs of the chosen combination's inner card (MC-7)."""
    index = card(action.kind, action.combo, True)
    state, share, _rest = _take(state, index, [state.turn], ROLLING)
    text = _(
        "🏆 {player} stops with {card} and takes {vps}.",
        player=_p(state.turn),
        card=card_name(index, side=False),
        vps=_vps(share),
    )
    return end_turn(state, [Event(kind="stop", text=text)])


def five_wilds(state: State, events: list[Event]) -> Result:
    """Five set-aside wilds: the roller takes the whole catpot, nobody else anything (MC-8, MC-X4)."""
    state, share, _rest = _take(state, CATPOT, [state.turn], CATPOT_SLOT)
    events.append(
        Event(
            kind="fivewilds",
            text=_(
                "🌟 Five wilds! {player} takes the catpot: {vps}.", player=_p(state.turn), vps=_vps(share)
            ),
        )
    )
    return end_turn(state, events)


def fail(state: State, events: list[Event], reason: str) -> Result:
    """A failed turn: no VPs for the roller; moochers who picked Fail split the catpot (MC-9)."""
    text = _("💥 {player}'s turn fails ({reason}): no VPs.", player=_p(state.turn), reason=reason)
    events.append(Event(kind="fail", text=text))
    seats = [s for s, pick in enumerate(state.picks) if pick == "fail" and not state.paid[s]]
    if seats:
        state, share, rest = _take(state, CATPOT, seats, CATPOT_SLOT)
        events.append(Event(kind="payout", text=_payout_text(seats, "fail", CATPOT, share, rest)))
    return end_turn(state, events)


def end_turn(state: State, events: list[Event]) -> Result:
    """Mooch cards go back to hand unrevealed, the dice pass on, or the game ends (MC-10)."""
    players = state.players
    following = (state.turn + 1) % players
    update = {
        "rolled": (),
        "aside": (),
        "kind": None,
        "picks": (None,) * players,
        "paid": (False,) * players,
        "turns": state.turns + 1,
    }
    if state.supply == 0 and (ends_with_the_emptying_turn(players) or following == state.first):
        update["phase"] = "over"
        state = evolve(state, update)
        winner = winner_of(state)
        text = _(
            "🏁 The game is over: {player} wins with {vps}.",
            player=_p(winner),
            vps=_vps(state.scores[winner]),
        )
        events.append(Event(kind="end", text=text))
        return state, events
    update["phase"] = "roll"
    update["turn"] = following
    return evolve(state, update), events


def tied_leaders(state: State) -> list[int]:
    """The seats with the most VPs."""
    best = max(state.scores)
    return [seat for seat, score in enumerate(state.scores) if score == best]


def winner_of(state: State) -> int:
    """Most VPs; among tied seats the one who rolled most recently (MC-10)."""
    tied = tied_leaders(state)
    for back in range(state.players):
        seat = (state.turn - back) % state.players
        if seat in tied:
            return seat
    raise AssertionError("no winner")  # unreachable: tied is never empty
