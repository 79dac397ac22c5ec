"""The turn steps of CS-1 and the resolution of every decision, as pure functions of the state.

Each function takes the state and a list it appends narration events to, and returns the new state.
"""

from __future__ import annotations

from engine.catsanity._cards import ALLEY_SIZE, COPY, CTHULHU, KIND, MOON, PRECIOUS, SUN, kind_name, name
from engine.catsanity.model import AuctionState, Bid, Phase, RecallState, State
from engine.core import Event, build, evolve
from lang import N_, _, n_

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


def _say(
    events: list[Event], kind: str, text: str, visible_to: tuple[int, ...] | None = None, **values: object
) -> None:
    """Narrate `text` (a marked text) in the language speaking, its placeholders filled from `values`; a
    playout's mute list never has it worded."""
    if events is not MUTE:
        words = _(text, **values)
        events.append(build(Event, {"kind": kind, "text": words, "visible_to": visible_to}))


def _p(seat: int) -> str:
    """A seat in narration, named when shown."""
    return f"{{p{seat}}}"


def _tokens_left(count: int) -> str:
    if count == 0:
        return _("no sanity tokens left")
    return n_("{count} sanity token left", "{count} sanity tokens left", count)


def _names(cards: tuple[str, ...], events: list[Event] | None = None) -> str:
    """The cards by name; for a mute playout's narration, nothing."""
    return "" if events is MUTE else ", ".join(name(card) for card in cards)


def opponents(state: State, seat: int) -> tuple[int, ...]:
    """The other seats in order, starting with the player to the left of `seat` (G-1)."""
    return tuple((seat + k) % state.players for k in range(1, state.players))


def _replace(items: tuple, index: int, value) -> tuple:
    return (*items[:index], value, *items[index + 1 :])


def end_play(state: State, reason: str, events: list[Event]) -> State:
    """Play ends (CS-2); scoring is final."""
    text = (
        N_("The deck is empty at the start of a turn: play ends. Time to admire the homes and score!")
        if reason == "deck"
        else N_("Nobody has any sanity left: play ends. Time to admire the homes and score!")
    )
    _say(events, "end", text)
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
                N_("My precious! {player} loses a sanity token to the Precious Cat ({left})."),
                player=_p(seat),
                left=_tokens_left(tokens[seat]),
            )
        update = {"tokens": tuple(tokens), "deck": deck, "alley": alley, "rng": rng, "turns": turns}
        # Step 2: insane players are skipped; with nobody sane, play ends (CS-2 b).
        if tokens[seat] == 0:
            if not any(tokens):
                return end_play(evolve(state, update), "insane", events)
            _say(events, "skip", N_("{player} is insane and skips the turn."), player=_p(seat))
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
            said = N_("{player}'s turn. New in the alley: {cats}.")
            _say(events, "reveal", said, player=_p(seat), cats=_names(drawn, events))
        else:
            _say(events, "turn", N_("{player}'s turn."), player=_p(seat))
        # Step 5 (CS-3): three Moon Cats in the alley.
        if len(alley) == ALLEY_SIZE and all(card in MOON for card in alley):
            tokens = [max(0, t - 1) for t in tokens]
            deck, rng = rng.shuffled(deck + alley)
            alley = ()
            _say(
                events,
                "catsanity",
                N_(
                    "CatSanity! Three Moon Cats in the alley — everyone loses a sanity token. "
                    "The three cats are shuffled back into the deck and {player}'s turn ends."
                ),
                player=_p(seat),
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
            N_("{player} adopts the {cat} for a sanity token ({left})."),
            player=_p(seat),
            cat=name(card),
            left=_tokens_left(left),
        )
    else:
        _say(events, "adopt", N_("{player} adopts a {cat}."), player=_p(seat), cat=name(card))
    state = evolve(state, {"alley": alley, "homes": homes, "tokens": tokens})
    kind = KIND[card]
    if kind == COPY:
        return evolve(state, {"phase": Phase.COPY, "copy_as": None})
    if kind == "ninja":
        return evolve(state, {"phase": Phase.NINJA})
    if kind == "recall":
        _say(events, "recall", N_("Born free! Every opponent returns 2 cats from their home to the deck."))
        recall = RecallState(adopter=seat, waiting=opponents(state, seat))
        return advance_recall(evolve(state, {"recall": recall}), events)
    if kind == CTHULHU:
        return end_turn(cthulhu(state, seat, events), events)
    return end_turn(state, events)


def declare(state: State, seat: int, kind: str, events: list[Event]) -> State:
    """CS-6: the Copy Cat now mimics `kind` while it stays in this home."""
    said = N_("{player} declares the Copy Cat a {cat}.")
    _say(events, "copy", said, player=_p(seat), cat=kind_name(kind))
    return end_turn(evolve(state, {"copy_as": kind}), events)


def ninja(state: State, seat: int, target: int, events: list[Event]) -> State:
    """CS-7: one of the target's Sun Cats, drawn at random, moves to the adopter's home."""
    suns = [card for card in state.homes[target] if card in SUN]
    if not suns:
        _say(
            events,
            "ninja",
            N_(
                "Banzai! Ninja attack on {target}… who has no Sun Cats. Nothing happens, "
                "and {player} looks a little silly."
            ),
            target=_p(target),
            player=_p(seat),
        )
        return end_turn(state, events)
    index, rng = state.rng.below(len(suns))
    card = suns[index]
    homes = _replace(state.homes, target, tuple(c for c in state.homes[target] if c != card))
    homes = _replace(homes, seat, (*homes[seat], card))
    _say(
        events,
        "ninja",
        N_("Banzai! Ninja attack! {player} liberates a {cat} from {target}'s home."),
        player=_p(seat),
        cat=name(card),
        target=_p(target),
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
        parts.append(f"{_p(other)} −{lost}" if lost else _("{player} (already insane) −0", player=_p(other)))
    _say(
        events,
        "cthulhu",
        N_("The Cat of Cthulhu drives everyone mad: {losses} (homes bigger than {player}'s lose 2)."),
        losses=", ".join(parts),
        player=_p(seat),
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
            N_("You set aside your {cat}; choose one more cat to return."),
            visible_to=(seat,),
            cat=name(card),
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
    _say(
        events,
        "recall",
        N_("{player} returns {cats} to the deck."),
        player=_p(seat),
        cats=_names(cards, events),
    )
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
            _say(events, "recall", N_("{player} has no cats to return."), player=_p(chooser))
        waiting = waiting[1:]
    deck, rng = state.rng.shuffled(state.deck)
    _say(events, "shuffle", N_("The deck is reshuffled."))
    state = evolve(state, {"deck": deck, "rng": rng, "recall": None})
    return end_turn(state, events)


# ---- step 6: auctions ---------------------------------------------------------------------------------


def call_auction(state: State, seat: int, events: list[Event]) -> State:
    """CS-4: bidding goes once around, from the caller's left, ending with the caller."""
    suns = [card for card in state.alley if card in SUN]
    _say(
        events,
        "auction",
        N_("Mine! Mine! Mine! {player} calls an auction for {cats}."),
        player=_p(seat),
        cats=_names(tuple(suns), events),
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
        _say(events, "bid", N_("{player} bids {amount}."), player=_p(seat), amount=amount)
    else:
        _say(events, "bid", N_("{player} passes."), player=_p(seat))
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
        if state.tokens[seat] == 0:
            _say(events, "bid", N_("{player} is insane and passes."), player=_p(seat))
        else:
            said = N_("{player} can't outbid {high} and passes.")
            _say(events, "bid", said, player=_p(seat), high=auction.high)
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
        _say(events, "auction", N_("Nobody bid: the Sun Cats stay in the alley."))  # CS-4: minimum bid 1.
        return end_turn(state, events)
    suns = tuple(card for card in state.alley if card in SUN)
    alley = tuple(card for card in state.alley if card not in SUN)
    left = state.tokens[winner] - auction.high
    _say(
        events,
        "auction",
        N_("{player} wins the auction for {high} and adopts {cats} ({left})."),
        player=_p(winner),
        high=auction.high,
        cats=_names(suns),
        left=_tokens_left(left),
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
