"""The turn steps of CS-1 and the resolution of every decision, as pure functions of the state.

Each function takes the state and a list it appends narration events to, and returns the new state.
"""

from __future__ import annotations

from engine.catsanity._cards import ALLEY_SIZE, COPY, CTHULHU, KIND, MOON, PRECIOUS, SUN, name
from engine.catsanity.model import AuctionState, Bid, Phase, RecallState, State
from engine.core import Event, build, evolve

KIND_ORDER = (
    "house",
    *(f"twin{letter}" for letter in "ABCDEFGH"),
    "chorus",
    "fib",
    COPY,
    "ninja",
    "recall",
    CTHULHU,
    PRECIOUS,
    "moonking",
    "moonqueen",
)


class _Mute(list):
    """An event list that keeps nothing: for playouts, where nobody reads the narration."""

    def append(self, item: Event) -> None:
        pass


MUTE: list[Event] = _Mute()


def _say(events: list[Event], kind: str, text: str, visible_to: tuple[int, ...] | None = None) -> None:
    if events is not MUTE:
        events.append(build(Event, {"kind": kind, "text": text, "visible_to": visible_to}))


def _tokens_left(count: int) -> str:
    if count == 0:
        return "no sanity tokens left"
    return "1 sanity token left" if count == 1 else f"{count} sanity tokens left"


def _names(cards: tuple[str, ...]) -> str:
    return ", ".join(name(card) for card in cards)


def opponents(state: State, seat: int) -> tuple[int, ...]:
    """The other seats in order, starting with the player to the left of `seat` (G-1)."""
    return tuple((seat + k) % state.players for k in range(1, state.players))


def _replace(items: tuple, index: int, value) -> tuple:
    return (*items[:index], value, *items[index + 1 :])


def end_play(state: State, reason: str, events: list[Event]) -> State:
    """Play ends (CS-2); scoring is final."""
    text = (
        "The deck is empty at the start of a turn: play ends."
        if reason == "deck"
        else "Nobody has any sanity left: play ends."
    )
    _say(events, "end", text + " Time to admire the homes and score!")
    return evolve(state, {"phase": Phase.OVER, "end_reason": reason, "auction": None, "recall": None})


def start_turn(state: State, seat: int, events: list[Event]) -> State:
    """Run steps 1–5 of CS-1 from `seat`'s turn on, until a sane player has a choice or play ends."""
    tokens = list(state.tokens)
    deck, alley, rng, turns = state.deck, state.alley, state.rng, state.turns
    players = state.players
    while True:
        # Step 1 (CS-10): the Precious Cat costs its owner a token, even the very last one.
        if tokens[seat] and PRECIOUS in state.homes[seat]:
            tokens[seat] -= 1
            _say(
                events,
                "precious",
                f"My precious! {{p{seat}}} loses a sanity token to the Precious Cat "
                f"({_tokens_left(tokens[seat])}).",
            )
        update = {"tokens": tuple(tokens), "deck": deck, "alley": alley, "rng": rng, "turns": turns}
        # Step 2: insane players are skipped; with nobody sane, play ends (CS-2 b).
        if tokens[seat] == 0:
            if not any(tokens):
                return end_play(evolve(state, update), "insane", events)
            _say(events, "skip", f"{{p{seat}}} is insane and skips the turn.")
            seat = (seat + 1) % players
            continue
        # Step 3 (CS-2 a): an empty deck ends play, even with cats left in the alley.
        if not deck:
            return end_play(evolve(state, update), "deck", events)
        turns += 1
        # Step 4: refill the alley to 3 cards from the top of the deck.
        drawn = deck[-(ALLEY_SIZE - len(alley)) :] if len(alley) < ALLEY_SIZE else ()
        if drawn:
            drawn = drawn[::-1]
            deck = deck[: len(deck) - len(drawn)]
            alley = alley + drawn
            _say(events, "reveal", f"{{p{seat}}}'s turn. New in the alley: {_names(drawn)}.")
        else:
            _say(events, "turn", f"{{p{seat}}}'s turn.")
        # Step 5 (CS-3): three Moon Cats in the alley.
        if len(alley) == ALLEY_SIZE and all(card in MOON for card in alley):
            tokens = [max(0, t - 1) for t in tokens]
            deck, rng = rng.shuffled(deck + alley)
            alley = ()
            _say(
                events,
                "catsanity",
                f"CatSanity! Three Moon Cats in the alley — everyone loses a sanity token. "
                f"The three cats are shuffled back into the deck and {{p{seat}}}'s turn ends.",
            )
            seat = (seat + 1) % players
            continue
        update = {"tokens": tuple(tokens), "deck": deck, "alley": alley, "rng": rng, "turns": turns}
        return evolve(state, {**update, "phase": Phase.TURN, "turn": seat, "auction": None, "recall": None})


def end_turn(state: State, events: list[Event]) -> State:
    """Step 8: the turn goes to the next player."""
    return start_turn(state, (state.turn + 1) % state.players, events)


# ---- step 7: adoption and the Moon Cats' special actions ----------------------------------------------


def adopt(state: State, seat: int, card: str, events: list[Event]) -> State:
    """Adopt `card` from the alley (CS-5), then start its special action if it has one."""
    index = state.alley.index(card)
    alley = state.alley[:index] + state.alley[index + 1 :]
    homes = _replace(state.homes, seat, (*state.homes[seat], card))
    tokens = state.tokens
    if card in MOON:
        left = tokens[seat] - 1
        tokens = _replace(tokens, seat, left)
        _say(
            events,
            "adopt",
            f"{{p{seat}}} adopts the {name(card)} for a sanity token ({_tokens_left(left)}).",
        )
    else:
        _say(events, "adopt", f"{{p{seat}}} adopts a {name(card)}.")
    state = evolve(state, {"alley": alley, "homes": homes, "tokens": tokens})
    kind = KIND[card]
    if kind == COPY:
        return evolve(state, {"phase": Phase.COPY, "copy_as": None})
    if kind == "ninja":
        return evolve(state, {"phase": Phase.NINJA})
    if kind == "recall":
        _say(events, "recall", "Born free! Every opponent returns 2 cats from their home to the deck.")
        recall = RecallState(adopter=seat, waiting=opponents(state, seat))
        return advance_recall(evolve(state, {"recall": recall}), events)
    if kind == CTHULHU:
        return end_turn(cthulhu(state, seat, events), events)
    return end_turn(state, events)


def declare(state: State, seat: int, kind: str, events: list[Event]) -> State:
    """CS-6: the Copy Cat now mimics `kind` while it stays in this home."""
    _say(events, "copy", f"{{p{seat}}} declares the Copy Cat a {name_of_kind(kind)} Cat.")
    return end_turn(evolve(state, {"copy_as": kind}), events)


def name_of_kind(kind: str) -> str:
    """A Sun kind the Copy Cat may mimic, as a word before "Cat": "House", "Twin A", "Fibonacci"."""
    if kind.startswith("twin"):
        return f"Twin {kind[4]}"
    return {"house": "House", "chorus": "Chorus", "fib": "Fibonacci"}.get(kind, kind)


def ninja(state: State, seat: int, target: int, events: list[Event]) -> State:
    """CS-7: one of the target's Sun Cats, drawn at random, moves to the adopter's home."""
    suns = [card for card in state.homes[target] if card in SUN]
    if not suns:
        _say(
            events,
            "ninja",
            f"Banzai! Ninja attack on {{p{target}}}… who has no Sun Cats. Nothing happens, "
            f"and {{p{seat}}} looks a little silly.",
        )
        return end_turn(state, events)
    index, rng = state.rng.below(len(suns))
    card = suns[index]
    homes = _replace(state.homes, target, tuple(c for c in state.homes[target] if c != card))
    homes = _replace(homes, seat, (*homes[seat], card))
    _say(
        events,
        "ninja",
        f"Banzai! Ninja attack! {{p{seat}}} liberates a {name(card)} from {{p{target}}}'s home.",
    )
    return end_turn(evolve(state, {"homes": homes, "rng": rng}), events)


def cthulhu(state: State, seat: int, events: list[Event]) -> State:
    """CS-9: every opponent loses 1 token, and 1 more with a bigger home than the adopter's."""
    mine = len(state.homes[seat])
    tokens = list(state.tokens)
    parts = []
    for other in opponents(state, seat):
        loss = 2 if len(state.homes[other]) > mine else 1
        lost = min(loss, tokens[other])
        tokens[other] -= lost
        parts.append(f"{{p{other}}} −{lost}" if lost else f"{{p{other}}} (already insane) −0")
    _say(
        events,
        "cthulhu",
        "The Cat of Cthulhu drives everyone mad: "
        + ", ".join(parts)
        + f" (homes bigger than {{p{seat}}}'s lose 2).",
    )
    return evolve(state, {"tokens": tuple(tokens)})


def return_pick(state: State, seat: int, kind: str, events: list[Event]) -> State:
    """CS-8: the chooser sets aside one cat of `kind`; after the second, both go back to the deck."""
    recall = state.recall
    assert recall is not None
    card = next(c for c in reversed(state.homes[seat]) if KIND[c] == kind and c not in recall.picked)
    picked = (*recall.picked, card)
    if len(picked) < 2:
        _say(
            events,
            "recall-pick",
            f"You set aside your {name(card)}; choose one more cat to return.",
            visible_to=(seat,),
        )
        return evolve(state, {"recall": evolve(recall, {"picked": picked})})
    state = _return_cards(state, seat, picked, events)
    recall = evolve(recall, {"waiting": recall.waiting[1:], "picked": ()})
    return advance_recall(evolve(state, {"recall": recall}), events)


def _return_cards(state: State, seat: int, cards: tuple[str, ...], events: list[Event]) -> State:
    home = tuple(card for card in state.homes[seat] if card not in cards)
    update: dict = {"homes": _replace(state.homes, seat, home), "deck": state.deck + cards}
    if COPY in cards:
        update["copy_as"] = None  # CS-6: a Copy Cat back in the deck forgets its declaration.
    _say(events, "recall", f"{{p{seat}}} returns {_names(cards)} to the deck.")
    return evolve(state, update)


def advance_recall(state: State, events: list[Event]) -> State:
    """Let the next opponent choose; homes of 2 cards or fewer return everything without a choice."""
    recall = state.recall
    assert recall is not None
    waiting = recall.waiting
    while waiting:
        chooser = waiting[0]
        home = state.homes[chooser]
        if len(home) > 2:
            recall = evolve(recall, {"waiting": waiting, "picked": ()})
            return evolve(state, {"phase": Phase.RECALL, "recall": recall})
        if home:
            state = _return_cards(state, chooser, home, events)
        else:
            _say(events, "recall", f"{{p{chooser}}} has no cats to return.")
        waiting = waiting[1:]
    deck, rng = state.rng.shuffled(state.deck)
    _say(events, "shuffle", "The deck is reshuffled.")
    state = evolve(state, {"deck": deck, "rng": rng, "recall": None})
    return end_turn(state, events)


# ---- step 6: auctions ---------------------------------------------------------------------------------


def call_auction(state: State, seat: int, events: list[Event]) -> State:
    """CS-4: bidding goes once around, from the caller's left, ending with the caller."""
    suns = [card for card in state.alley if card in SUN]
    _say(
        events,
        "auction",
        f"Mine! Mine! Mine! {{p{seat}}} calls an auction for {_names(tuple(suns))}.",
    )
    waiting = (*opponents(state, seat), seat)
    auction = AuctionState(caller=seat, waiting=waiting)
    return advance_auction(evolve(state, {"phase": Phase.AUCTION, "auction": auction}), events)


def bid(state: State, seat: int, amount: int, events: list[Event]) -> State:
    """Record a bid (0 passes) and move on to the next bidder."""
    auction = state.auction
    assert auction is not None
    update: dict = {"waiting": auction.waiting[1:], "bids": (*auction.bids, Bid(seat=seat, amount=amount))}
    if amount:
        update["high"] = amount
        update["high_seat"] = seat
        _say(events, "bid", f"{{p{seat}}} bids {amount}.")
    else:
        _say(events, "bid", f"{{p{seat}}} passes.")
    return advance_auction(evolve(state, {"auction": evolve(auction, update)}), events)


def advance_auction(state: State, events: list[Event]) -> State:
    """Skip bidders who cannot outbid (CS-X1), then wait for the next one or settle the auction."""
    auction = state.auction
    assert auction is not None
    waiting = auction.waiting
    bids = auction.bids
    while waiting and state.tokens[waiting[0]] <= auction.high:
        seat = waiting[0]
        bids = (*bids, Bid(seat=seat, amount=0))
        reason = "is insane" if state.tokens[seat] == 0 else f"can't outbid {auction.high}"
        _say(events, "bid", f"{{p{seat}}} {reason} and passes.")
        waiting = waiting[1:]
    auction = evolve(auction, {"waiting": waiting, "bids": bids})
    if waiting:
        return evolve(state, {"auction": auction})
    return _settle(evolve(state, {"auction": auction}), events)


def _settle(state: State, events: list[Event]) -> State:
    auction = state.auction
    assert auction is not None
    winner = auction.high_seat
    if winner is None:
        _say(events, "auction", "Nobody bid: the Sun Cats stay in the alley.")  # CS-4: minimum bid 1.
        return end_turn(state, events)
    suns = tuple(card for card in state.alley if card in SUN)
    alley = tuple(card for card in state.alley if card not in SUN)
    left = state.tokens[winner] - auction.high
    _say(
        events,
        "auction",
        f"{{p{winner}}} wins the auction for {auction.high} and adopts {_names(suns)} "
        f"({_tokens_left(left)}).",
    )
    state = evolve(
        state,
        {
            "alley": alley,
            "homes": _replace(state.homes, winner, state.homes[winner] + suns),
            "tokens": _replace(state.tokens, winner, left),
        },
    )
    return end_turn(state, events)
