"""The dice: faces, kinds, combinations and how set-aside dice are read (MC-2, MC-5, MC-8).

A handful of dice is a sorted tuple of face names, e.g. ("m1", "m1", "w"): the
order of the dice never matters, only how many show each face.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from typing import Literal

from lang import N_, _

Face = Literal["m1", "m2", "m3", "s1", "s2", "w"]
Kind = Literal["mad", "sad"]
Combo = Literal["2p", "fh", "4k", "5k"]

FACES: tuple[Face, ...] = ("m1", "m2", "m3", "s1", "s2", "w")
WILD: Face = "w"
KINDS: tuple[Kind, ...] = ("mad", "sad")
KIND_FACES: dict[str, tuple[Face, ...]] = {"mad": ("m1", "m2", "m3"), "sad": ("s1", "s2")}
FACE_KIND: dict[str, Kind | None] = {
    "m1": "mad",
    "m2": "mad",
    "m3": "mad",
    "s1": "sad",
    "s2": "sad",
    "w": None,
}
COMBOS: tuple[Combo, ...] = ("2p", "fh", "4k", "5k")
COMBO_NAMES: dict[str, str] = {
    "2p": N_("Two pairs"),
    "fh": N_("Full house"),
    "4k": N_("Four of a kind"),
    "5k": N_("Five of a kind"),
}
"""The combinations' names, in English: `combo_name` says them in the language speaking."""
FACE_LABELS: dict[str, str] = {"m1": "🔥1", "m2": "🔥2", "m3": "🔥3", "s1": "💧1", "s2": "💧2", "w": "🐾"}
"""Mad cats burn red, sad cats drop blue: shapes and colours that stay apart on a phone's screen."""
KIND_LABELS: dict[str, str] = {"mad": N_("🔥 mad"), "sad": N_("💧 sad")}
"""A kind as a label, in English (its emoji is what the pictures draw): `kind_label` says it."""
DICE = 5

_ORDER = {face: index for index, face in enumerate(FACES)}


def sort_faces(faces) -> tuple[Face, ...]:
    """The faces as a canonical sorted tuple (mad faces, sad faces, then wilds)."""
    return tuple(sorted(faces, key=_ORDER.__getitem__))


def show(faces) -> str:
    """Faces as emoji for narration, e.g. "🔥1 🔥1 🐾"; "nothing" when empty."""
    return " ".join(FACE_LABELS[face] for face in faces) or _("nothing")


def combo_name(combo: str) -> str:
    """A combination's name ("Full house")."""
    return _(COMBO_NAMES[combo])


def kind_label(kind: str) -> str:
    """A kind as a label: "🔥 mad", "💧 sad"."""
    return _(KIND_LABELS[kind])


def kind_word(kind: str) -> str:
    """A kind as the word a card's name or a kind's cards take ("mad" in "the mad cards")."""
    if kind == "mad":
        # Translators: a kind of cat as cards are named by it: "the mad cards", "mad Full house".
        return _("mad")
    # Translators: a kind of cat as cards are named by it: "the sad cards", "sad Full house".
    return _("sad")


def cats_of(kind: str) -> str:
    """The cats of a kind: "mad cats", "sad cats"."""
    return _("mad cats") if kind == "mad" else _("sad cats")


def kind_cats(kind: str) -> str:
    """The cats of a kind after their emoji: "🔥 mad cats", "💧 sad cats"."""
    return _("🔥 mad cats") if kind == "mad" else _("💧 sad cats")


def face_word(kind: str | None) -> str:
    """One die's cat: "mad cat", "sad cat" or "wild" (kind None)."""
    if kind is None:
        return _("wild")
    return _("mad cat") if kind == "mad" else _("sad cat")


@lru_cache(maxsize=4096)
def kind_of(faces: tuple[str, ...]) -> str | None:
    """The kind of the non-wild faces: "mad", "sad", None (only wilds) or "mixed"."""
    kinds = {FACE_KIND[face] for face in faces} - {None}
    if len(kinds) > 1:
        return "mixed"
    return next(iter(kinds), None)


@lru_cache(maxsize=4096)
def readings(faces: tuple[str, ...], kind: str | None = None) -> tuple[Combo, ...]:
    """The combinations the set-aside `faces` can be read as, in `COMBOS` order (MC-5, MC-8).

    All wilds take one face of the kind (also a face no die shows); whole face
    groups may be dropped, never part of one. Five wilds read as nothing (they
    take the catpot instead). `kind` is the locked-in kind; it only has to agree
    with the faces, which already tell it unless they are all wild.
    """
    own = kind_of(faces)
    if own == "mixed" or (own is not None and kind is not None and own != kind):
        raise ValueError(f"set-aside dice {faces} mix mad and sad cats")
    kind = own or kind
    wilds = faces.count(WILD)
    if wilds == DICE:
        return ()
    base = Counter(face for face in faces if face != WILD)
    if wilds == 0:
        groupings = [base]
    else:
        # Wilds alone form one group whatever face they take, so any face will do.
        choices = KIND_FACES[kind] if kind is not None else ("m1",)
        groupings = [base + Counter({face: wilds}) for face in choices]
    found: set[str] = set()
    for counts in groupings:
        sizes = list(counts.values())
        if sizes.count(2) >= 2:
            found.add("2p")
        if 3 in sizes and 2 in sizes:
            found.add("fh")
        if 4 in sizes:
            found.add("4k")
        if 5 in sizes:
            found.add("5k")
    return tuple(combo for combo in COMBOS if combo in found)


@lru_cache(maxsize=4096)
def sub_multisets(faces: tuple[str, ...]) -> tuple[tuple[Face, ...], ...]:
    """Every distinct non-empty part of `faces` (dice showing the same face are interchangeable).

    Ordered by size, then face order, so action lists are stable.
    """
    counts = Counter(faces)
    parts: list[tuple[Face, ...]] = [()]
    for face in FACES:
        parts = [part + (face,) * n for part in parts for n in range(counts[face] + 1)]
    parts = [part for part in parts if part]
    parts.sort(key=lambda part: (len(part), [_ORDER[face] for face in part]))
    return tuple(parts)


def can_set_aside(part: tuple[str, ...], locked: str | None) -> bool:
    """Whether `part` may go onto the tray: one kind plus wilds, and the locked-in kind (MC-2, MC-3)."""
    kind = kind_of(part)
    if kind == "mixed":
        return False
    return kind is None or locked is None or kind == locked


@lru_cache(maxsize=8192)
def legal_asides(rolled: tuple[str, ...], locked: str | None) -> tuple[tuple[Face, ...], ...]:
    """The distinct parts of a roll that may be set aside, given the locked-in kind."""
    return tuple(part for part in sub_multisets(rolled) if can_set_aside(part, locked))
