"""CatSanity on the engine contract: setup, legal actions, one check, resolution, views, outcome."""

from __future__ import annotations

import re

from engine.catsanity import _flow as flow
from engine.catsanity import hints
from engine.catsanity._cards import (
    ALL_CARDS,
    KIND,
    KIND_NAMES,
    SUN,
    SUN_KINDS,
    TOKENS_BY_PLAYERS,
    kind_name,
    name,
)
from engine.catsanity._scoring import score_lines
from engine.catsanity.model import (
    Adopt,
    CallAuction,
    CatSanityAction,
    Declare,
    NinjaTarget,
    Options,
    Phase,
    PlaceBid,
    PossibleChoice,
    ReturnCat,
    State,
    View,
)
from engine.catsanity.view import build_view, table_fields, to_act
from engine.core import Event, Frozen, IllegalAction, InvalidInput, LastOf, Outcome, Rng, Rules, build
from lang import N_, _, current, n_

_KIND_RANK = {kind: index for index, kind in enumerate(flow.KIND_ORDER)}
_DECLARE = tuple(Declare(kind=kind) for kind in SUN_KINDS)
_AUCTION = CallAuction()
_BIDS = tuple(PlaceBid(amount=n) for n in range(max(TOKENS_BY_PLAYERS.values()) + 1))
_ADOPT = {card: Adopt(card=card) for card in ALL_CARDS}
_NINJA = tuple(NinjaTarget(target=seat) for seat in range(max(TOKENS_BY_PLAYERS)))
_RETURN = {kind: ReturnCat(kind=kind) for kind in KIND_NAMES}
_NUMBER = re.compile("[0-9]{1,2}")
"""A bid or a seat: ASCII digits only (`str.isdigit` and `int` take "٣" and "²" for digits too)."""


def _home_kinds(state: State, seat: int, leave_out: tuple[str, ...] = ()) -> list[str]:
    """The kinds of cat in `seat`'s home, but for the cards in `leave_out`, in the deck's kind order."""
    kinds = {KIND[card] for card in state.homes[seat] if card not in leave_out}
    return sorted(kinds, key=_KIND_RANK.__getitem__)


def decode(text: str) -> CatSanityAction:
    """The action encoded as `text`; `InvalidInput` if it is not a CatSanity move."""
    if text == "auction":
        return _AUCTION
    verb, _sep, arg = text.partition(":")
    if verb == "adopt" and arg in KIND:
        return Adopt(card=arg)
    if verb == "copy" and arg in SUN_KINDS:
        return Declare(kind=arg)
    if verb == "return" and arg in KIND_NAMES:
        return ReturnCat(kind=arg)
    if verb in ("bid", "ninja") and _NUMBER.fullmatch(arg):
        return PlaceBid(amount=int(arg)) if verb == "bid" else NinjaTarget(target=int(arg))
    raise InvalidInput(_("{move} is not a CatSanity move.", move=repr(text)))


_EXPECTED = {
    Phase.TURN: N_("Right now you need to adopt a cat from the alley or call an auction."),
    Phase.AUCTION: N_("Right now you need to bid or pass in the auction."),
    Phase.COPY: N_("Right now you need to declare what the Copy Cat mimics."),
    Phase.NINJA: N_("Right now you need to pick an opponent for the Ninja attack."),
    Phase.RECALL: N_("Right now you need to choose a cat to return to the deck."),
}
"""What the game waits for in each phase, as a refusal."""


class CatSanityRules(Rules[State, CatSanityAction, View]):
    """Adopt the best sets of cats without losing your mind (2–5 players)."""

    key = "catsanity"
    decision = staticmethod(hints.decision)
    title = "CatSanity"
    min_players = 2
    max_players = 5
    Options = Options
    State = State
    View = View

    def setup(self, players: int, seed: int, options: Frozen | None = None) -> State:
        """A shuffled deck, 2 cards dealt to the alley (CS-1), tokens by player count, the first turn."""
        self.require_players(players)
        opts = options if isinstance(options, Options) else Options()
        rng = Rng.seeded(seed)
        deck, rng = rng.shuffled(ALL_CARDS)
        first, rng = self.chosen_or_drawn_seat(opts.first_seat, players, rng, _("The first player"))
        state = State(
            players=players,
            rng=rng,
            deck=deck[:-2],
            alley=deck[-2:][::-1],
            homes=((),) * players,
            tokens=(TOKENS_BY_PLAYERS[players],) * players,
            turn=first,
            phase=Phase.TURN,
        )
        return flow.start_turn(state, first, [])

    def to_act(self, state: State) -> list[int]:
        return list(to_act(state))

    def legal_actions(self, state: State, seat: int) -> list[CatSanityAction]:
        if seat not in to_act(state):
            return []
        phase = state.phase
        if phase == Phase.TURN:
            actions: list[CatSanityAction] = [_ADOPT[card] for card in state.alley]
            if any(card in SUN for card in state.alley):
                actions.append(_AUCTION)
            return actions
        if phase == Phase.AUCTION:
            high = state.auction.high  # type: ignore[union-attr]
            return [_BIDS[0], *(_BIDS[n] for n in range(high + 1, state.tokens[seat] + 1))]
        if phase == Phase.COPY:
            return list(_DECLARE)
        if phase == Phase.NINJA:
            return [_NINJA[other] for other in flow.opponents(state, seat)]
        picked = state.recall.picked if state.recall else ()
        return [_RETURN[kind] for kind in _home_kinds(state, seat, picked)]

    def possible_actions(self, state: State, seat: int) -> list[CatSanityAction]:
        """What `seat` could consider doing now, legal or not: every alley card and the auction, every
        bid, every declaration, every seat as the Ninja's target, every kind of cat in its home."""
        if seat not in to_act(state):
            return []
        phase = state.phase
        if phase == Phase.TURN:
            return [*(_ADOPT[card] for card in state.alley), _AUCTION]
        if phase == Phase.AUCTION:
            return list(_BIDS)
        if phase == Phase.COPY:
            return list(_DECLARE)
        if phase == Phase.NINJA:
            return list(_NINJA[: state.players])
        return [_RETURN[kind] for kind in _home_kinds(state, seat)]

    def choices(self, state: State, seat: int | None) -> tuple[PossibleChoice, ...]:
        """`seat`'s possible actions, each with the engine's own verdict: playable (one of the legal
        actions, which are exactly those `check` accepts), or why not (the reason `check` gives)."""
        if seat is None or seat not in to_act(state):
            return ()
        legal = {action.encode() for action in self.legal_actions(state, seat)}
        return tuple(
            build(PossibleChoice, {"action": encoded, "playable": True, "why_not": ""})
            if (encoded := action.encode()) in legal
            else build(
                PossibleChoice,
                {"action": encoded, "playable": False, "why_not": self._reason(state, seat, action)},
            )
            for action in self.possible_actions(state, seat)
        )

    def check(self, state: State, seat: int, action: CatSanityAction) -> None:
        kind, encoded = type(action), action.encode()
        if any(
            type(legal) is kind and legal.encode() == encoded for legal in self.legal_actions(state, seat)
        ):
            return
        raise IllegalAction(self._reason(state, seat, action))

    def _reason(self, state: State, seat: int, action: CatSanityAction) -> str:
        """Why `action` is refused, in a sentence for the player."""
        phase = state.phase
        if isinstance(action, Adopt) and phase == Phase.TURN:
            return _("There is no {cat} in the alley to adopt.", cat=self._card_text(action.card))
        if isinstance(action, CallAuction) and phase == Phase.TURN:
            return _("An auction needs at least one Sun Cat in the alley.")
        if isinstance(action, PlaceBid) and phase == Phase.AUCTION:
            auction = state.auction
            assert auction is not None
            if action.amount > state.tokens[seat]:
                return n_(
                    "You only have {count} sanity tokens, you can't bid {amount}.",
                    "You only have {count} sanity tokens, you can't bid {amount}.",
                    state.tokens[seat],
                    amount=action.amount,
                )
            return _("A bid must be higher than {high}; bid more or pass.", high=auction.high)
        if isinstance(action, Declare) and phase == Phase.COPY:
            return _("The Copy Cat can mimic House, Chorus, Fibonacci, or a Twin with a letter A–H.")
        if isinstance(action, NinjaTarget) and phase == Phase.NINJA:
            return _("The Ninja Cat must attack one of your opponents.")
        if isinstance(action, ReturnCat) and phase == Phase.RECALL:
            cat = kind_name(action.kind) if action.kind in KIND_NAMES else action.kind
            return _("You have no {cat} left in your home to return.", cat=cat)
        expected = _EXPECTED.get(phase)
        return _(expected) if expected else _("Right now you need to wait.")

    @staticmethod
    def _card_text(card: str) -> str:
        return name(card) if card in KIND else repr(card)

    def resolve(self, state: State, seat: int, action: CatSanityAction) -> tuple[State, list[Event]]:
        events: list[Event] = []
        return self.advance(state, seat, action, events), events

    def advance(self, state: State, seat: int, action: CatSanityAction, events: list[Event]) -> State:
        """The state after a legal `action`; narration goes to `events` (`flow.MUTE` drops it)."""
        if isinstance(action, Adopt):
            new = flow.adopt(state, seat, action.card, events)
        elif isinstance(action, CallAuction):
            new = flow.call_auction(state, seat, events)
        elif isinstance(action, PlaceBid):
            new = flow.bid(state, seat, action.amount, events)
        elif isinstance(action, Declare):
            new = flow.declare(state, seat, action.kind, events)
        elif isinstance(action, NinjaTarget):
            new = flow.ninja(state, seat, action.target, events)
        else:
            new = flow.return_pick(state, seat, action.kind, events)
        return new

    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, seat, self.choices(state, seat), self._table(state, current()))

    _table = LastOf(lambda state, language: table_fields(state))
    """The table's part of a view, the same for every seat: built once per state and language (its
    prompt is worded in the language speaking)."""

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != Phase.OVER:
            return None
        breakdown = tuple(score_lines(home, state.copy_as) for home in state.homes)
        scores = tuple(sum(line.points for line in lines) for lines in breakdown)
        best = max(scores)
        winners = tuple(seat for seat, total in enumerate(scores) if total == best)
        reason = (
            _("The deck ran out at the start of a turn.")
            if state.end_reason == "deck"
            else _("Every player went insane.")
        )
        return Outcome(scores=scores, winners=winners, reason=reason, breakdown=breakdown)

    def decode_action(self, text: str) -> CatSanityAction:
        return decode(text)

    def hidden(self, state: State) -> tuple[tuple[str, object], ...]:
        """The deck and the generator that shuffles it, and a Recall's secret first pick: adopting (which
        refills the alley) and the auction's last bid (which ends the turn) stand; a bid, the auction's
        call, a Copy Cat's declaration or the Ninja's target can be taken back."""
        return (
            (_("New cats came out of the deck, so your move stands."), state.deck),
            (_("The deck was shuffled, so your move stands."), state.rng),
            (_("Recall picks are secret, so yours stands."), state.recall.picked if state.recall else ()),
        )

    def actions_are_public(self, state: State, seat: int) -> bool:
        """Every decision is public except the Recall picks, which stay secret until both are made."""
        return state.phase != Phase.RECALL
