"""The rules of Cats & Dogs: standard (3–5 players), two-player (CD-6) and solo (CD-7)."""

from __future__ import annotations

from engine.catsdogs import hints
from engine.catsdogs._cards import (
    CARDS,
    RIBBONS,
    TABLE,
    TARGET,
    card_name,
    joined,
    names,
    resolve_trick,
    sort_cards,
)
from engine.catsdogs.model import (
    DUO,
    HAND_SIZE,
    SOLO,
    SOLO_ROUNDS,
    STANDARD,
    Options,
    Play,
    RoundRecord,
    State,
    TrickRecord,
    View,
    mode_of,
)
from engine.catsdogs.view import build_view, table_fields
from engine.core import (
    Event,
    Frozen,
    IllegalAction,
    InvalidInput,
    LastOf,
    Outcome,
    Rng,
    Rules,
    ScoreLine,
    evolve,
    seat_mark,
)
from lang import _, current, n_

_PLAY = {card: Play(card=card) for card in CARDS}


_DECODE = {f"p:{card}": play for card, play in _PLAY.items()}


def tricks_per_round(players: int) -> int:
    """How many tricks a round has: the hand size."""
    return HAND_SIZE[players]


def deal(players: int, rng: Rng, round_no: int, leader: int) -> tuple[dict, list[Event]]:
    """The fields of a freshly dealt round (CD-4, CD-6, CD-7) and the events that tell it."""
    deck, rng = rng.shuffled(CARDS)
    size = HAND_SIZE[players]
    hands = tuple(sort_cards(deck[i * size : (i + 1) * size]) for i in range(players))
    rest = deck[players * size :]
    table: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()
    if players == 2:
        table, rest = rest[:5], rest[5:]
    elif players == 1:
        hidden, table, rest = rest[:5], rest[5:10], rest[10:]
    fields = {
        "rng": rng,
        "round": round_no,
        "hands": hands,
        "out": tuple(rest),
        "table": tuple(table),
        "hidden": tuple(hidden),
        "trick": (),
        "trick_no": 0,
        "leader": leader,
        "round_leader": leader,
        "collected": ((),) * players,
        "table_pile": (),
    }
    return fields, deal_events(round_no, leader, hands, tuple(table))


def deal_events(
    round_no: int, leader: int, hands: tuple[tuple[str, ...], ...], table: tuple[str, ...]
) -> list[Event]:
    """The public start of a round and each seat's private hand."""
    players = len(hands)
    player = f"{{p{leader}}}"
    if players == 1:
        start = _(
            "Round {round} of {rounds}: five tricks, each a hidden card and {cards} face up.",
            round=round_no,
            rounds=SOLO_ROUNDS,
            cards=names(table),
        )
    elif players == 2:
        start = _(
            "Round {round}: the table cards are {cards}; {player} plays first.",
            round=round_no,
            cards=names(table),
            player=player,
        )
    else:
        start = _(
            "Round {round}: {count} cards each; {player} leads.",
            round=round_no,
            count=len(hands[0]),
            player=player,
        )
    events = [Event(kind="round", text=start)]
    events += [
        Event(kind="hand", text=_("Your hand: {cards}.", cards=names(hand)), visible_to=(seat,))
        for seat, hand in enumerate(hands)
    ]
    return events


def _next_leader(state: State, plays: tuple[tuple[int, str], ...], winner: int | None) -> int:
    """Who leads the next trick: CD-3 for 3–5 players, CD-6 for two."""
    if state.players == 1:
        return 0
    if state.players == 2:
        # CD-6: the table winning, or a tie, hands the lead to the player who did not play first.
        return winner if winner is not None and winner >= 0 else plays[1][0]
    return winner if winner is not None else plays[-1][0]


def _trick_text(plays: tuple[tuple[int, str], ...], result, collected: dict[int, list[str]]) -> str:
    def who(seat: int) -> str:
        return _("the table") if seat == TABLE else f"{{p{seat}}}"

    if result.cats == result.dogs:
        head = _(
            "Cats {cats} – Dogs {dogs}: a tie, every card goes to whoever played it.",
            cats=result.cats,
            dogs=result.dogs,
        )
    else:
        if result.cats and result.dogs:
            sums = _("Cats {cats} – Dogs {dogs}", cats=result.cats, dogs=result.dogs)
        elif result.cats:
            sums = _("All cats ({sum})", sum=result.cats)
        else:
            sums = _("All dogs ({sum})", sum=result.dogs)
        head = _(
            "{sums}: {player} wins with {card}.",
            sums=sums,
            player=who(result.winner),
            card=card_name(plays[result.best][1]),
        )
    parts = [f"{who(seat)} {names(cards)}" for seat, cards in collected.items()]
    return _("{result} Collected: {collected}.", result=head, collected="; ".join(parts))


class CatsDogsRules(Rules[State, Play, View]):
    """Cats & Dogs for 1–5 players; the mode follows the player count."""

    key = "catsdogs"
    decision = staticmethod(hints.decision)
    title = "Cats & Dogs"
    min_players = 1
    max_players = 5
    Options = Options
    State = State
    View = View

    def setup(self, players: int, seed: int, options: Frozen | None = None) -> State:
        self.require_players(players)
        opts = options if isinstance(options, Options) else Options()
        rng = Rng.seeded(seed)
        if players == 1 and opts.first_player is None:
            leader = 0
        else:
            # CD-X1: the bot can't know who has had the most pets; unless chosen, a seat is drawn.
            leader, rng = self.chosen_or_drawn_seat(opts.first_player, players, rng, _("The first player"))
        fields, _events = deal(players, rng, 1, leader)
        return State(
            players=players,
            scores=(0,) * players,
            rounds=(),
            last_trick=None,
            last_win=(0,) * players,
            tricks_played=0,
            over=False,
            **fields,
        )

    def opening_events(self, state: State) -> list[Event]:
        """The events that tell the first deal (setup itself returns only the state)."""
        return deal_events(state.round, state.round_leader, state.hands, state.table)

    def to_act(self, state: State) -> list[int]:
        if state.over:
            return []
        return [(state.leader + len(state.trick)) % state.players]

    def legal_actions(self, state: State, seat: int) -> list[Play]:
        if state.over or seat != (state.leader + len(state.trick)) % state.players:
            return []
        return [_PLAY[card] for card in state.hands[seat]]

    def check(self, state: State, seat: int, action: Play) -> None:
        if state.over:
            raise IllegalAction(_("This game is already over."))
        if seat != (state.leader + len(state.trick)) % state.players:
            raise IllegalAction(_("It's not your turn to play a card."))
        if not isinstance(action, Play) or action.card not in RIBBONS:
            raise IllegalAction(_("That is not a Cats & Dogs card."))
        if action.card not in state.hands[seat]:
            raise IllegalAction(
                _("You don't hold {card}; you may play any card you hold.", card=card_name(action.card))
            )

    def resolve(self, state: State, seat: int, action: Play) -> tuple[State, list[Event]]:
        card = action.card
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        trick = (*state.trick, (seat, card))
        events = [
            Event(kind="play", text=_("{player} plays {card}.", player=seat_mark(seat), card=card_name(card)))
        ]
        if len(trick) < state.players:
            return evolve(state, {"hands": tuple(hands), "trick": trick}), events
        return self._finish_trick(state, tuple(hands), trick, events)

    def _finish_trick(
        self, state: State, hands: tuple, trick: tuple[tuple[int, str], ...], events: list[Event]
    ) -> tuple[State, list[Event]]:
        table, hidden = state.table, state.hidden
        plays = trick
        if state.players == 2:
            plays = (*trick, (TABLE, table[0]))
            table = table[1:]
        elif state.players == 1:
            plays = (*trick, (TABLE, table[0]), (TABLE, hidden[0]))
            text = _("The hidden card is turned up: {card}.", card=card_name(hidden[0]))
            events.append(Event(kind="reveal", text=text))
            table, hidden = table[1:], hidden[1:]
        result = resolve_trick(plays)
        collected = list(state.collected)
        table_pile = state.table_pile
        taken: dict[int, list[str]] = {}
        for (_by, card), collector in zip(plays, result.collectors, strict=True):
            taken.setdefault(collector, []).append(card)
            if collector == TABLE:
                table_pile = (*table_pile, card)
            else:
                collected[collector] = (*collected[collector], card)
        tricks_played = state.tricks_played + 1
        last_win = state.last_win
        if result.winner is not None and result.winner != TABLE:
            last_win = tuple(tricks_played if s == result.winner else v for s, v in enumerate(last_win))
        leader = _next_leader(state, plays, result.winner)
        trick_no = state.trick_no + 1
        record = TrickRecord(
            round=state.round,
            number=trick_no,
            plays=plays,
            cats=result.cats,
            dogs=result.dogs,
            winner=result.winner,
            collectors=result.collectors,
        )
        events.append(Event(kind="trick", text=_trick_text(plays, result, taken)))
        update = {
            "hands": hands,
            "trick": (),
            "trick_no": trick_no,
            "table": table,
            "hidden": hidden,
            "collected": tuple(collected),
            "table_pile": table_pile,
            "leader": leader,
            "last_trick": record,
            "last_win": last_win,
            "tricks_played": tricks_played,
        }
        if trick_no < HAND_SIZE[state.players]:
            if state.players > 1:
                text = _("{player} leads the next trick.", player=seat_mark(leader))
                events.append(Event(kind="lead", text=text))
            return evolve(state, update), events
        return self._finish_round(evolve(state, update), events)

    def _finish_round(self, state: State, events: list[Event]) -> tuple[State, list[Event]]:
        """Score the round (CD-4), end the game (CD-5, CD-7) or deal the next round."""
        players = state.players
        gained = tuple(sum(RIBBONS[c] for c in pile) for pile in state.collected)
        scores = tuple(a + b for a, b in zip(state.scores, gained, strict=True))
        record = RoundRecord(
            number=state.round, collected=state.collected, table_pile=state.table_pile, ribbons=gained
        )
        parts = ", ".join(
            _(
                "{player} +{ribbons}🎀 (total {total})",
                player=seat_mark(s),
                ribbons=gained[s],
                total=scores[s],
            )
            for s in range(players)
        )
        events.append(
            Event(kind="score", text=_("Round {round} is over: {scores}.", round=state.round, scores=parts))
        )
        state = evolve(state, {"scores": scores, "rounds": (*state.rounds, record)})
        # CD-5 (and CD-X4 for two players); solo: CD-7 with the early success of CD-X3.
        solo_done = players == 1 and state.round >= SOLO_ROUNDS
        if max(scores) >= TARGET or solo_done:
            state = evolve(state, {"over": True})
            events.append(Event(kind="end", text=self.outcome(state).reason))
            return state, events
        if players == 1:
            leader = 0
        elif players == 2:
            # CD-6: the higher total starts; on a tie the player who did not start this round.
            leader = 0 if scores[0] > scores[1] else 1 if scores[1] > scores[0] else 1 - state.round_leader
        else:
            leader = (state.round_leader + 1) % players  # CD-4: left of the previous first leader
        fields, dealt = deal(players, state.rng, state.round + 1, leader)
        return evolve(state, fields), events + dealt

    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, seat, self._table(state, current()))

    _table = LastOf(table_fields)
    """The table's part of a view, the same for every seat: built once per state and language."""

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        scores = state.scores
        breakdown = tuple(
            tuple(
                ScoreLine(label=_("Round {round}", round=r.number), points=r.ribbons[s]) for r in state.rounds
            )
            for s in range(state.players)
        )
        if state.players == 1:
            if scores[0] >= TARGET:
                reason = _(
                    "{player} collected {count} ribbons in {rounds} rounds: success!",
                    player="{p0}",
                    count=scores[0],
                    rounds=state.round,
                )
                return Outcome(scores=scores, winners=(0,), reason=reason, breakdown=breakdown)
            reason = n_(
                "{player} collected {count} ribbons in {rounds} rounds, short of {target}: lost.",
                "{player} collected {count} ribbons in {rounds} rounds, short of {target}: lost.",
                scores[0],
                player="{p0}",
                rounds=SOLO_ROUNDS,
                target=TARGET,
            )
            return Outcome(scores=scores, winners=(), reason=reason, breakdown=breakdown)
        top = max(scores)
        tied = tuple(s for s in range(state.players) if scores[s] == top)
        if len(tied) == 1:
            winners = tied
            reason = _("{player} wins with {count} ribbons.", player=seat_mark(tied[0]), count=top)
        else:
            latest = max(state.last_win[s] for s in tied)
            if latest:
                winners = tuple(s for s in tied if state.last_win[s] == latest)
                reason = _(
                    "{player} wins the tie at {count} ribbons as the tied player "
                    "who most recently won a trick.",
                    player=seat_mark(winners[0]),
                    count=top,
                )
            else:
                winners = tied
                players_tied = joined(f"{{p{s}}}" for s in tied)
                reason = _("{players} share the win with {count} ribbons.", players=players_tied, count=top)
        return Outcome(scores=scores, winners=winners, reason=reason, breakdown=breakdown)

    def decode_action(self, text: str) -> Play:
        try:
            return _DECODE[text.strip().upper().replace("P:", "p:", 1)]
        except KeyError:
            raise InvalidInput(
                _("{text} is not a card to play; write it like p:C7 or p:D3.", text=repr(text))
            ) from None

    def hidden(self, state: State) -> tuple[tuple[str, object], ...]:
        """The hands (and what deals them): every move plays a card from a hand for all to see, so none
        can be taken back."""
        return (
            (_("A card played is shown to everyone, so it stands."), state.hands),
            (_("The cards were dealt, so your move stands."), (state.rng, state.hidden)),
        )

    def actions_are_public(self, state: State, seat: int) -> bool:
        return False


__all__ = ["DUO", "SOLO", "STANDARD", "CatsDogsRules", "mode_of", "tricks_per_round"]
