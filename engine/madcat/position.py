"""Build Mad Cat Sad Cat positions from a compact literal description, and rig the next roll."""

from __future__ import annotations

from engine.core import Rng
from engine.madcat._cards import TOTAL_VPS
from engine.madcat._dice import DICE, FACES, kind_of, sort_faces
from engine.madcat.model import State

_PICK_CODES = {".": None, "-": "none", "2p": "2p", "fh": "fh", "4k": "4k", "5k": "5k", "fail": "fail"}


def _faces(text: str) -> tuple:
    return sort_faces(text.split())


def _piles(text: str) -> list[int]:
    """ "1/2 1/2 2/3 2/3" -> [1, 2, 1, 2, 2, 3, 2, 3] (outer/inner per combination)."""
    piles = []
    for pair in text.split():
        outer, inner = pair.split("/")
        piles += [int(outer), int(inner)]
    assert len(piles) == 8, text
    return piles


def position(
    players: int = 4,
    *,
    turn: int = 0,
    first: int = 0,
    phase: str = "decide",
    tray: str = "",
    rolled: str = "",
    kind: str | None = None,
    picks: str = "",
    mad: str = "1/2 1/2 2/3 2/3",
    sad: str = "1/2 1/2 2/3 2/3",
    pot: int = 0,
    scores: str = "",
    supply: int | None = None,
    seed: int = 1,
) -> State:
    """A state from literal parts, e.g. position(tray="m1 m1 w", picks=". 2p fh! -").

    `picks` has one token per seat: "." not picked (or the roller), "-" no card,
    a card name (2p fh 4k 5k fail), with "!" when already revealed and paid.
    The locked-in kind defaults to the tray's; the supply defaults to what keeps 160 VPs in play.
    """
    aside = _faces(tray)
    if kind is None:
        found = kind_of(aside)
        kind = found if found in ("mad", "sad") else None
    tokens = picks.split() or ["."] * players
    assert len(tokens) == players, picks
    pick_values = tuple(_PICK_CODES[token.rstrip("!")] for token in tokens)
    paid = tuple(token.endswith("!") for token in tokens)
    cards = (*_piles(mad), *_piles(sad), pot)
    score_values = tuple(int(s) for s in scores.split()) or (0,) * players
    if supply is None:
        supply = TOTAL_VPS - sum(cards) - sum(score_values)
    return State(
        players=players,
        rng=Rng.seeded(seed),
        first=first,
        turn=turn,
        phase=phase,
        supply=supply,
        cards=cards,
        scores=score_values,
        earned=tuple((s, 0, 0) for s in score_values),
        rolled=_faces(rolled),
        aside=aside,
        kind=kind,
        picks=pick_values,
        paid=paid,
    )


def _roll_with(rng: Rng, count: int) -> tuple:
    faces = []
    for _ in range(count):
        index, rng = rng.below(6)
        faces.append(FACES[index])
    return sort_faces(faces)


def rigged(state: State, faces: str) -> State:
    """`state` with a generator whose next roll of the free dice shows exactly `faces`."""
    wanted = _faces(faces)
    assert len(wanted) == DICE - len(state.aside), "rig one face per die left to roll"
    for seed in range(1_000_000):
        rng = Rng.seeded(seed)
        if _roll_with(rng, len(wanted)) == wanted:
            return state.model_copy(update={"rng": rng})
    raise AssertionError(f"no seed rolls {faces}")
