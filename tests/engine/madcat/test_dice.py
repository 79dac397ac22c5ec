"""Reading set-aside dice (MC-5, MC-8) and which parts of a roll may be set aside (MC-2)."""

from __future__ import annotations

from collections import Counter
from itertools import chain, combinations, combinations_with_replacement

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.madcat._dice import FACES, KIND_FACES, legal_asides, readings, sort_faces, sub_multisets

PATTERNS = {(2, 2): "2p", (2, 3): "fh", (4,): "4k", (5,): "5k"}


def brute_force_readings(faces: tuple[str, ...], kind: str) -> set[str]:
    """An independent reader: try every face for the wilds, keep every set of whole groups."""
    wilds = faces.count("w")
    if wilds == 5:
        return set()
    found = set()
    for wild_face in KIND_FACES[kind]:
        counts = Counter(face for face in faces if face != "w")
        counts[wild_face] += wilds
        groups = [face for face, n in counts.items() if n]
        for kept in chain.from_iterable(combinations(groups, r) for r in range(1, len(groups) + 1)):
            pattern = tuple(sorted(counts[face] for face in kept))
            if pattern in PATTERNS:
                found.add(PATTERNS[pattern])
    return found


def all_trays(kind: str):
    for size in range(1, 6):
        yield from combinations_with_replacement((*KIND_FACES[kind], "w"), size)


@pytest.mark.parametrize("kind", ["mad", "sad"])
def test_readings_match_brute_force_for_every_tray_mc5(kind):
    """MC-5: every multiset of 1-5 set-aside faces of one kind (plus wilds) against the brute force."""
    checked = 0
    for tray in all_trays(kind):
        tray = sort_faces(tray)
        assert set(readings(tray, kind)) == brute_force_readings(tray, kind), tray
        checked += 1
    assert checked == (125 if kind == "mad" else 55)  # multisets of 1-5 dice over 4 (or 3) faces


@pytest.mark.parametrize(
    ("tray", "expected"),
    [
        ("w w w w", ("4k",)),  # MC-5/MC-8: four wilds alone read only as four of a kind
        ("m1 m1 m1 m1 m1", ("5k",)),  # five of a kind is not four of a kind
        ("s2 s2 s2 s2 s2", ("5k",)),
        ("m1 m1 m1 m1 w", ("4k", "5k")),  # the wild may take another face and be dropped
        ("m1 m1 w w", ("2p", "4k")),  # MC-5 example
        ("s1 s1 s2 s2 w", ("fh",)),  # MC-5: sad has two faces, the wild must join one
        ("m1 m1 m2 m2 w", ("2p", "fh")),  # mad has a third face for the wild
        ("m1 m1 m2 w w", ("2p", "fh", "4k")),  # rulebook example 2: pick one
        ("m2 w w w", ("4k",)),  # rulebook example 1: four dice, four of a kind only
        ("m1 m2 m3 m3 m3", ()),  # rulebook example 3: no match, the turn fails
        ("w w w w w", ()),  # MC-8: five wilds are no combination, they take the catpot
        ("w w", ()),
        ("m1 m1 m2 m2 m3", ("2p",)),  # the odd die out is dropped
        ("m1 m1 m1 m2 m2", ("fh",)),  # two pairs would drop part of the triple
        ("s1 s1 s1 s1 s2", ("4k",)),
    ],
)
def test_rulebook_and_ruling_examples_mc5(tray, expected):
    assert readings(sort_faces(tray.split())) == expected


def test_readings_refuse_mixed_kinds():
    with pytest.raises(ValueError):
        readings(sort_faces(["m1", "s1"]))
    with pytest.raises(ValueError):
        readings(("m1", "m1"), "sad")


@given(
    st.lists(st.sampled_from(["m1", "m2", "m3", "w"]), min_size=1, max_size=5),
    st.permutations(["m1", "m2", "m3"]),
)
def test_readings_ignore_which_mad_face_is_which(tray, relabel):
    """Renaming the mad faces among themselves never changes what the dice read as."""
    mapping = dict(zip(["m1", "m2", "m3"], relabel, strict=True)) | {"w": "w"}
    renamed = sort_faces(mapping[face] for face in tray)
    assert readings(sort_faces(tray), "mad") == readings(renamed, "mad")


def test_every_roll_offers_at_most_25_set_asides_mc2_mcx6():
    """MC-2, MC-X6: one decision listing distinct face multisets; never more than 25 options."""
    largest = 0
    for size in range(1, 6):
        for roll in combinations_with_replacement(FACES, size):
            roll = sort_faces(roll)
            parts = sub_multisets(roll)
            assert len(parts) == len(set(parts))
            for locked in (None, "mad", "sad"):
                options = legal_asides(roll, locked)
                largest = max(largest, len(options))
                for part in options:
                    kinds = {face[0] for face in part} - {"w"}
                    assert len(kinds) <= 1, "never mad and sad together"
                    assert locked is None or kinds <= {locked[0]}, "only the locked-in kind"
                    assert not Counter(part) - Counter(roll), "only dice that were rolled"
    assert largest == 23  # e.g. m1 m2 m3 w w before lock-in: (2*2*2) * 3 - 1


def test_a_roll_of_only_the_other_kind_offers_nothing_mc2():
    assert legal_asides(("s1", "s1", "s2"), "mad") == ()
    assert legal_asides(("s1", "s1", "w"), "mad") == (("w",),)
