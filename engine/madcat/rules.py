"""The Mad Cat Sad Cat rules on the engine contract."""

from __future__ import annotations

from functools import lru_cache

from engine.core import Frozen, IllegalAction, LastOf, Outcome, Rng, Rules, ScoreLine
from engine.madcat import _turn as play
from engine.madcat import hints
from engine.madcat._cards import TOTAL_VPS, card, card_name, setup_cards
from engine.madcat._dice import COMBO_NAMES, DICE, FACE_KIND, kind_of, legal_asides, readings, show
from engine.madcat.model import PICKS, MadcatAction, Mooch, Options, Roll, SetAside, State, Stop, View, decode
from engine.madcat.view import seat_view, table_view, to_act

_ROLL = Roll()
_MOOCHES = tuple(Mooch(card=pick) for pick in PICKS)


@lru_cache(maxsize=8192)
def _asides(rolled: tuple[str, ...], locked: str | None) -> tuple[SetAside, ...]:
    """The set-aside actions of `legal_asides`, made once per roll and lock-in (actions are immutable)."""
    return tuple(SetAside(faces=part) for part in legal_asides(rolled, locked))


def aside_refusal(rolled: tuple[str, ...], locked: str | None, faces: tuple[str, ...]) -> str | None:
    """Why `faces` may not go from the roll `rolled` onto the tray under the lock-in `locked`, as a
    sentence for the player; None when they may (MC-2, MC-3). The set-aside check and the dice
    multi-select both ask this, so a refusal reads the same wherever it is met."""
    if not faces:
        return "Choose at least one of the dice you just rolled."
    remaining = list(rolled)
    for face in faces:
        if face not in remaining:
            return f"You didn't roll {show(faces)}: your roll is {show(rolled)}."
        remaining.remove(face)
    kind = kind_of(faces)
    if kind == "mixed":
        return (
            f"You chose {show(faces)}: set aside only mad cats or only sad cats (plus any wilds), never both."
        )
    if locked is not None and kind not in (None, locked):
        strays = show(face for face in faces if FACE_KIND[face] not in (None, locked))
        return (
            f"You're locked in on {locked} cats this turn: you can't set aside {strays}. "
            f"Choose {locked} cats or wilds."
        )
    return None


class MadCatRules(Rules[State, MadcatAction, View]):
    """Mad Cat Sad Cat for 2 to 5 players."""

    key = "madcat"
    decision = staticmethod(hints.decision)
    title = "Mad Cat Sad Cat"
    min_players = 2
    max_players = 5
    Options = Options
    State = State
    View = View

    def setup(self, players: int, seed: int, options: Frozen | None = None) -> State:
        self.require_players(players)
        options = options if options is not None else Options()
        rng = Rng.seeded(seed)
        first, rng = self.chosen_or_drawn_seat(options.first_player, players, rng, "The starting player")
        cards = setup_cards()
        return State(
            players=players,
            rng=rng,
            first=first,
            turn=first,
            phase="roll",
            supply=TOTAL_VPS - sum(cards),
            cards=cards,
            scores=(0,) * players,
            earned=((0, 0, 0),) * players,
            picks=(None,) * players,
            paid=(False,) * players,
        )

    def to_act(self, state: State) -> list[int]:
        return to_act(state)

    def legal_actions(self, state: State, seat: int) -> list[MadcatAction]:
        phase = state.phase
        if phase == "over":
            return []
        if phase == "mooch":
            if seat == state.turn or state.picks[seat] is not None:
                return []
            return list(_MOOCHES)
        if seat != state.turn:
            return []
        if phase == "roll":
            return [_ROLL]
        if phase == "aside":
            return list(_asides(state.rolled, state.kind))
        actions: list[MadcatAction] = [_ROLL] if len(state.aside) < DICE else []
        return actions + play.stops(state)

    def check(self, state: State, seat: int, action: MadcatAction) -> None:
        if not self._allows(state, seat, action):
            raise IllegalAction(self._refusal(state, seat, action))

    def _allows(self, state: State, seat: int, action: MadcatAction) -> bool:
        """Whether `action` is among `legal_actions(state, seat)`, without building the list."""
        phase = state.phase
        if isinstance(action, Mooch):
            return phase == "mooch" and seat != state.turn and state.picks[seat] is None
        if seat != state.turn or phase in ("over", "mooch"):
            return False
        if isinstance(action, SetAside):
            return phase == "aside" and action.faces in legal_asides(state.rolled, state.kind)
        if isinstance(action, Roll):
            return phase == "roll" or (phase == "decide" and len(state.aside) < DICE)
        return phase == "decide" and action in play.stops(state)

    def _refusal(self, state: State, seat: int, action: MadcatAction) -> str:
        """Why `action` is not legal for `seat` now, as a sentence for the player."""
        phase = state.phase
        if phase == "over":
            return "This game is already over."
        if isinstance(action, Mooch):
            if seat == state.turn:
                return "You're the roller: the other players pick mooch cards."
            if phase != "mooch":
                return "Mooch cards are picked right after the roller locks in on mad or sad cats."
            return "You've already picked a mooch card this turn."
        if seat != state.turn:
            if phase == "mooch":
                return "You've already picked a mooch card; wait for the roller."
            return "Only the roller handles the dice."
        if phase == "mooch":
            return "Wait until everyone else has picked a mooch card."
        if isinstance(action, Roll):
            if phase == "aside":
                return "Set aside at least one of the dice you just rolled first."
            return "All five dice are set aside: stop with a combination."
        if isinstance(action, SetAside):
            return self._aside_refusal(state, action.faces)
        return self._stop_refusal(state, action)

    def _aside_refusal(self, state: State, faces: tuple[str, ...]) -> str:
        if state.phase != "aside":
            return "You can only set dice aside right after a roll."
        return aside_refusal(state.rolled, state.kind, faces) or f"You can't set aside {show(faces)} now."

    def _stop_refusal(self, state: State, action: Stop) -> str:
        if state.phase != "decide":
            return "You can only stop after setting aside dice from your roll."
        if state.kind is not None and action.kind != state.kind:
            return f"You're locked in on {state.kind} cats, so you can only take a {state.kind} card."
        if action.combo not in readings(state.aside, state.kind):
            return f"Your set-aside dice {show(state.aside)} can't be read as {COMBO_NAMES[action.combo]}."
        name = card_name(card(action.kind, action.combo, True)).replace(" (inner)", "")
        return f"The inner {name} card holds no VPs, so you can't stop with it."

    def resolve(self, state: State, seat: int, action: MadcatAction) -> tuple[State, list]:
        if isinstance(action, Roll):
            return play.roll(state)
        if isinstance(action, SetAside):
            return play.set_aside(state, action.faces)
        if isinstance(action, Stop):
            return play.stop(state, action)
        return play.mooch(state, seat, action.card)

    def view(self, state: State, seat: int | None) -> View:
        return seat_view(self._table(state), state, seat)

    _table = LastOf(table_view)
    """The table's part of a view, the same for every seat: built once per state."""

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        winner = play.winner_of(state)
        tied = play.tied_leaders(state)
        reason = f"The supply ran out; {{p{winner}}} has the most VPs ({state.scores[winner]})."
        if len(tied) > 1:
            others = " and ".join(f"{{p{seat}}}" for seat in tied if seat != winner)
            reason += f" {others} tied, but {{p{winner}}} rolled more recently."
        breakdown = tuple(
            (
                ScoreLine(label="Rolling", points=r),
                ScoreLine(label="Mooching", points=m),
                ScoreLine(label="Catpot", points=c),
            )
            for r, m, c in state.earned
        )
        return Outcome(scores=state.scores, winners=(winner,), reason=reason, breakdown=breakdown)

    def decode_action(self, text: str) -> MadcatAction:
        return decode(text)

    def hidden(self, state: State) -> tuple[tuple[str, object], ...]:
        """The dice still to roll (the generator) and the mooch picks: a roll stands, and so does a stop
        (the next roller's dice); setting dice aside can be taken back."""
        return (
            ("The dice were rolled, so your move stands.", state.rng),
            ("Mooch picks are secret, so yours stands.", state.picks),
            ("A mooch pick was shown, so your move stands.", state.paid),
        )

    def actions_are_public(self, state: State, seat: int) -> bool:
        return seat == state.turn and state.phase != "mooch"

    def timeout_action(self, state: State, seat: int) -> Mooch | None:
        """A moocher whose picking timer runs out picks no card (MC-4, MC-X2)."""
        if state.phase == "mooch" and seat != state.turn:
            return Mooch(card="none")
        return None
