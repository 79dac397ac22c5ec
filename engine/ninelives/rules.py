"""The Nine Lives `Rules`: setup and the contract's verbs, wired to the game's modules."""

from __future__ import annotations

from engine.core import Event, Frozen, IllegalAction, LastOf, Outcome, Rng, Rules, ScoreLine
from engine.ninelives import hints
from engine.ninelives._cards import HAND_SIZE, LIVES, build_cat_deck, build_life_pool
from engine.ninelives._legal import legal, reason, to_act
from engine.ninelives._resolve import resolve
from engine.ninelives.model import Keep, Move, Options, Phase, State, Step, View, decode
from engine.ninelives.view import build_view, table_fields
from lang import _, current

PUBLIC_STEPS = frozenset({Step.COPY, Step.FROM, Step.TAKE, Step.DIR, Step.STACK})
"""Power choices that involve no hand or hidden stack."""


class NineLivesRules(Rules[State, Move, View]):
    """Nine Lives for 2-6 players (NL-11)."""

    key = "ninelives"
    decision = staticmethod(hints.decision)
    title = "Nine Lives"
    min_players = 2
    max_players = 6
    Options = Options
    State = State
    View = View

    def setup(self, players: int, seed: int, options: Frozen | None = None) -> State:
        """Deal 9 lives and 3 cat cards to each seat; everyone then orders their lives (NL-1)."""
        self.require_players(players)
        opts = options if isinstance(options, Options) else Options()
        rng = Rng.seeded(seed)
        cats, rng = build_cat_deck(rng)
        lifecards, rng = build_life_pool(players, opts.limited_powers, rng)
        deck, rng = rng.shuffled(range(len(cats)))
        hands = tuple(deck[s * HAND_SIZE : (s + 1) * HAND_SIZE] for s in range(players))
        deck = deck[players * HAND_SIZE :]
        queen, rng = self.chosen_or_drawn_seat(opts.first_queen, players, rng, _("The first Kittyqueen"))
        stacks = tuple(tuple(range(s * LIVES, (s + 1) * LIVES)) for s in range(players))
        return State(
            players=players,
            rng=rng,
            limited=opts.limited_powers,
            cats=cats,
            lifecards=lifecards,
            deck=deck,
            hands=hands,
            stacks=stacks,
            wagered=((),) * players,
            queen=queen,
            turn=queen,
            arranging=stacks,
            arranged=((),) * players,
        )

    def to_act(self, state: State) -> list[int]:
        return to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[Move]:
        return list(self._legal(state, seat))

    def check(self, state: State, seat: int, action: Move) -> None:
        if not isinstance(action, Move) or action not in self._legal(state, seat):
            raise IllegalAction(reason(state, seat, action))

    _legal = LastOf(legal)
    """`legal(state, seat)`, kept for the latest state and seat asked: a move is listed (for the
    player, the computer or a test) and then checked against the same list when it is applied."""

    def resolve(self, state: State, seat: int, action: Move) -> tuple[State, list[Event]]:
        return resolve(state, seat, action)

    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, seat, self._table(state, current()))

    _table = LastOf(lambda state, language: table_fields(state))
    """The table's part of a view, the same for every seat: built once per state and language (its
    prompt is worded in the language speaking)."""

    def outcome(self, state: State) -> Outcome | None:
        """Most lives wins, ties share (NL-7)."""
        if state.phase != Phase.OVER:
            return None
        lives = tuple(state.lives(s) for s in range(state.players))
        best = max(lives)
        out = [s for s in range(state.players) if lives[s] == 0]
        names = ", ".join(f"{{p{s}}}" for s in out)
        return Outcome(
            scores=lives,
            winners=tuple(s for s in range(state.players) if lives[s] == best),
            reason=_("{players} ran out of lives; the most lives left wins.", players=names),
            breakdown=tuple((ScoreLine(label=_("Lives left"), points=n),) for n in lives),
        )

    def decode_action(self, text: str) -> Move:
        return decode(text)

    def timeout_action(self, state: State, seat: int) -> Move | None:
        """G-3 defaults: orderings keep their order (NL-1, NL-5), carousel picks are random (NL-10);
        anything else is left to the computer player."""
        moves = legal(state, seat)
        if not moves:
            return None
        if isinstance(moves[0], Keep):
            return moves[0]
        if state.phase == Phase.CAROUSEL:
            index, _rng = state.rng.below(len(moves))
            return moves[index]
        return None

    def hidden(self, state: State) -> tuple[tuple[str, object], ...]:
        """The deck, the hands, the life stacks and the gifts (and the generator): playing, wagering and
        drawing stand. A seat's own working choices (the card picked before saying where it goes, an
        arrangement under way) are nobody else's to see, and can be taken back."""
        return (
            (_("A card was drawn, so your move stands."), (state.rng, state.deck)),
            (_("A card from your hand was shown, so your move stands."), state.hands),
            (_("A life card was turned, so your move stands."), state.stacks),
            (_("Gifts are secret, so yours stands."), state.gifts),
        )

    def actions_are_public(self, state: State, seat: int) -> bool:
        """Tie picks and the power choices that involve no hand or hidden stack may go on the table."""
        if state.phase == Phase.QUEEN:
            return True
        return state.phase == Phase.PLAY and state.step in PUBLIC_STEPS
