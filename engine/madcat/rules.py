"""The Mad Cat Sad Cat rules on the engine contract."""

from __future__ import annotations

from functools import lru_cache

from engine.core import Frozen, IllegalAction, LastOf, Outcome, Rng, Rules, ScoreLine
from engine.madcat import _turn as play
from engine.madcat import hints
from engine.madcat._cards import TOTAL_VPS, card, card_name, setup_cards
from engine.madcat._dice import (
    DICE,
    FACE_KIND,
    cats_of,
    combo_name,
    kind_of,
    kind_word,
    legal_asides,
    readings,
    show,
)
from engine.madcat._turn import joined
from engine.madcat.model import PICKS, MadcatAction, Mooch, Options, Roll, SetAside, State, Stop, View, decode
from engine.madcat.view import seat_view, table_view, to_act
from lang import _, current

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
        return _("Choose at least one of the dice you just rolled.")
    remaining = list(rolled)
    for face in faces:
        if face not in remaining:
            return _("You didn't roll {dice}: your roll is {roll}.", dice=show(faces), roll=show(rolled))
        remaining.remove(face)
    kind = kind_of(faces)
    if kind == "mixed":
        return _(
            "You chose {dice}: set aside only mad cats or only sad cats (plus any wilds), never both.",
            dice=show(faces),
        )
    if locked is not None and kind not in (None, locked):
        strays = show(face for face in faces if FACE_KIND[face] not in (None, locked))
        return _(
            "You're locked in on {cats} this turn: you can't set aside {dice}. Choose {cats} or wilds.",
            cats=cats_of(locked),
            dice=strays,
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
        first, rng = self.chosen_or_drawn_seat(options.first_player, players, rng, _("The starting player"))
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
            return _("This game is already over.")
        if isinstance(action, Mooch):
            if seat == state.turn:
                return _("You're the roller: the other players pick mooch cards.")
            if phase != "mooch":
                return _("Mooch cards are picked right after the roller locks in on mad or sad cats.")
            return _("You've already picked a mooch card this turn.")
        if seat != state.turn:
            if phase == "mooch":
                return _("You've already picked a mooch card; wait for the roller.")
            return _("Only the roller handles the dice.")
        if phase == "mooch":
            return _("Wait until everyone else has picked a mooch card.")
        if isinstance(action, Roll):
            if phase == "aside":
                return _("Set aside at least one of the dice you just rolled first.")
            return _("All five dice are set aside: stop with a combination.")
        if isinstance(action, SetAside):
            return self._aside_refusal(state, action.faces)
        return self._stop_refusal(state, action)

    def _aside_refusal(self, state: State, faces: tuple[str, ...]) -> str:
        if state.phase != "aside":
            return _("You can only set dice aside right after a roll.")
        return aside_refusal(state.rolled, state.kind, faces) or _(
            "You can't set aside {dice} now.", dice=show(faces)
        )

    def _stop_refusal(self, state: State, action: Stop) -> str:
        if state.phase != "decide":
            return _("You can only stop after setting aside dice from your roll.")
        if state.kind is not None and action.kind != state.kind:
            return _(
                "You're locked in on {cats}, so you can only take a {kind} card.",
                cats=cats_of(state.kind),
                kind=kind_word(state.kind),
            )
        if action.combo not in readings(state.aside, state.kind):
            return _(
                "Your set-aside dice {dice} can't be read as {combo}.",
                dice=show(state.aside),
                combo=combo_name(action.combo),
            )
        name = card_name(card(action.kind, action.combo, True), side=False)
        return _("The inner {card} card holds no VPs, so you can't stop with it.", card=name)

    def resolve(self, state: State, seat: int, action: MadcatAction) -> tuple[State, list]:
        if isinstance(action, Roll):
            return play.roll(state)
        if isinstance(action, SetAside):
            return play.set_aside(state, action.faces)
        if isinstance(action, Stop):
            return play.stop(state, action)
        return play.mooch(state, seat, action.card)

    def view(self, state: State, seat: int | None) -> View:
        return seat_view(self._table(state, current()), state, seat)

    _table = LastOf(table_view)
    """The table's part of a view, the same for every seat: built once per state and language."""

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        winner = play.winner_of(state)
        tied = play.tied_leaders(state)
        player = f"{{p{winner}}}"
        reason = _(
            "The supply ran out; {player} has the most VPs ({score}).",
            player=player,
            score=state.scores[winner],
        )
        if len(tied) > 1:
            others = joined(f"{{p{seat}}}" for seat in tied if seat != winner)
            reason += " " + _(
                "{others} tied, but {player} rolled more recently.", others=others, player=player
            )
        breakdown = tuple(
            (
                ScoreLine(label=_("Rolling"), points=r),
                ScoreLine(label=_("Mooching"), points=m),
                ScoreLine(label=_("Catpot"), points=c),
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
            (_("The dice were rolled, so your move stands."), state.rng),
            (_("Mooch picks are secret, so yours stands."), state.picks),
            (_("A mooch pick was shown, so your move stands."), state.paid),
        )

    def actions_are_public(self, state: State, seat: int) -> bool:
        return seat == state.turn and state.phase != "mooch"

    def timeout_action(self, state: State, seat: int) -> Mooch | None:
        """A moocher whose picking timer runs out picks no card (MC-4, MC-X2)."""
        if state.phase == "mooch" and seat != state.turn:
            return Mooch(card="none")
        return None
