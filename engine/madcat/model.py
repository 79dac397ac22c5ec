"""Mad Cat Sad Cat data: options, the state, the actions and what a seat sees."""

from __future__ import annotations

import re
from typing import Literal

from engine.core import Action, Frozen, GameOptions, InvalidInput, Rng
from engine.madcat._dice import COMBOS, Combo, Face, Kind, sort_faces
from lang import _

Pick = Literal["2p", "fh", "4k", "5k", "fail", "none"]
Phase = Literal["roll", "aside", "mooch", "decide", "over"]

MOOCH_CARDS: tuple[Pick, ...] = ("2p", "fh", "4k", "5k", "fail")
PICKS: tuple[Pick, ...] = (*MOOCH_CARDS, "none")


class Options(GameOptions):
    """Table options: the starting player (None: drawn from the game's seed, MC-X1)."""

    first_player: int | None = None

    SEAT_OPTIONS = frozenset({"first_player"})


class State(Frozen):
    """The whole game. `picks` holds secret mooch picks: only `view` decides who sees them."""

    players: int
    rng: Rng
    first: int
    turn: int
    phase: Phase
    supply: int
    cards: tuple[int, ...]
    scores: tuple[int, ...]
    earned: tuple[tuple[int, int, int], ...]
    """Per seat: VPs taken as roller, as moocher from outer cards, and from the catpot."""
    rolled: tuple[Face, ...] = ()
    aside: tuple[Face, ...] = ()
    kind: Kind | None = None
    picks: tuple[Pick | None, ...]
    """This turn's mooch picks; None until picked (and always None for the roller)."""
    paid: tuple[bool, ...]
    """Which picks were revealed this turn (paid, MC-6/MC-9); revealed picks are public."""
    turns: int = 0
    decided: tuple[tuple[int, str], ...] = ()
    """Each (seat, kind of decision) made so far, in the order first made: what first-time hints read."""


class Roll(Action):
    """Roll every die that is not set aside."""

    def encode(self) -> str:
        return "roll"


class SetAside(Action):
    """Set aside these just-rolled dice (a multiset of faces, sorted)."""

    faces: tuple[Face, ...]

    def encode(self) -> str:
        return "a:" + "".join(self.faces)


class Stop(Action):
    """Stop and take the inner card of `combo` of `kind`."""

    combo: Combo
    kind: Kind

    def encode(self) -> str:
        return f"stop:{self.kind}:{self.combo}"


class Mooch(Action):
    """Secretly pick a mooch card ("none": no card, the picking timer's default)."""

    card: Pick

    def encode(self) -> str:
        return f"mooch:{self.card}"


MadcatAction = Roll | SetAside | Stop | Mooch

_FACE_TOKEN = re.compile(r"m[123]|s[12]|w")


def decode(text: str) -> MadcatAction:
    """The action encoded as `text`, or `InvalidInput`."""
    if text == "roll":
        return Roll()
    if text.startswith("a:"):
        body = text[2:]
        tokens = _FACE_TOKEN.findall(body)
        if not tokens or "".join(tokens) != body or len(tokens) > 5:
            raise InvalidInput(
                _("{text} does not name 1 to 5 dice (faces m1 m2 m3 s1 s2 w).", text=repr(text))
            )
        faces = sort_faces(tokens)
        if "".join(faces) != body:
            raise InvalidInput(
                _("{text} must list the dice in order (mad, sad, then wilds).", text=repr(text))
            )
        return SetAside(faces=faces)
    if text.startswith("stop:"):
        parts = text.split(":")
        if len(parts) == 3 and parts[1] in ("mad", "sad") and parts[2] in COMBOS:
            return Stop(kind=parts[1], combo=parts[2])
        raise InvalidInput(_("{text} is not a stop: write stop:<mad|sad>:<2p|fh|4k|5k>.", text=repr(text)))
    if text.startswith("mooch:") and text[6:] in PICKS:
        return Mooch(card=text[6:])
    raise InvalidInput(_("{text} is not a Mad Cat Sad Cat move.", text=repr(text)))


class View(Frozen):
    """What one seat (or the public table, seat None) sees."""

    seat: int | None
    players: int
    to_act: tuple[int, ...]
    prompt: str
    over: bool
    first: int
    turn: int
    phase: Phase
    supply: int
    cards: tuple[int, ...]
    scores: tuple[int, ...]
    rolled: tuple[Face, ...]
    aside: tuple[Face, ...]
    kind: Kind | None
    readings: tuple[Combo, ...]
    """What the set-aside dice can be read as now (MC-5)."""
    picked: tuple[bool, ...]
    """Which seats have picked a mooch card this turn (public: the table waits on the others)."""
    revealed: tuple[Pick | None, ...]
    """Mooch picks revealed this turn."""
    my_pick: Pick | None
    """This seat's own mooch pick this turn, revealed or not."""
    final_round: bool
    """The supply is empty: this turn (2 or 4 players) or this round (3 or 5) is the last (MC-10)."""
    turns: int
