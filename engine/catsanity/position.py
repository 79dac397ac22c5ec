"""Literal CatSanity positions for tests, examples and benchmarks (like a chess FEN, but readable).

    position('''
        turn 1
        alley ninja1 house1 twinA1
        p0 7 house2 twinA2
        p1 5 chorus1 copycat=twinB
    ''')

Lines: `players N` (else the number of `pN` lines), `turn N`, `phase turn|copy|ninja|over`,
`alley CARDS`, `deck CARDS` (bottom first, top last), and one `pN TOKENS CARDS` line per seat.
`copycat=KIND` puts the Copy Cat in that home declared as KIND. Without a `deck` line the deck is
every card not placed elsewhere, drawn in the printed order (House Cats first, Moon Cats last).
With an explicit `deck` line the cards named nowhere are out of the game (a short deck for
end-game scenarios). No card may appear twice.
"""

from __future__ import annotations

from collections import Counter

from engine.catsanity._cards import ALL_CARDS, COPY, KIND, SUN_KINDS
from engine.catsanity.model import State
from engine.core import Rng


def position(text: str, *, seed: int = 0) -> State:
    """The state described by `text`."""
    players = None
    turn = 0
    phase = "turn"
    alley: tuple[str, ...] = ()
    deck: tuple[str, ...] | None = None
    seats: dict[int, tuple[int, tuple[str, ...]]] = {}
    copy_as = None
    for raw in text.strip().splitlines():
        words = raw.split()
        if not words:
            continue
        head, rest = words[0], words[1:]
        if head == "players":
            players = int(rest[0])
        elif head == "turn":
            turn = int(rest[0])
        elif head == "phase":
            phase = rest[0]
        elif head == "alley":
            alley = tuple(rest)
        elif head == "deck":
            deck = tuple(rest)
        elif head.startswith("p") and head[1:].isdigit():
            cards = []
            for word in rest[1:]:
                card, _, declared = word.partition("=")
                if card == COPY and declared:
                    if declared not in SUN_KINDS:
                        raise ValueError(f"the Copy Cat cannot be declared {declared!r}")
                    copy_as = declared
                cards.append(card)
            seats[int(head[1:])] = (int(rest[0]), tuple(cards))
        else:
            raise ValueError(f"unknown position line {raw!r}")
    players = players or len(seats)
    homes = tuple(seats.get(seat, (0, ()))[1] for seat in range(players))
    tokens = tuple(seats.get(seat, (0, ()))[0] for seat in range(players))
    placed = [card for home in homes for card in home] + list(alley)
    if deck is None:
        deck = tuple(card for card in reversed(ALL_CARDS) if card not in placed)
    everything = placed + list(deck)
    unknown = [card for card in everything if card not in KIND]
    twice = sorted(card for card, n in Counter(everything).items() if n > 1)
    if unknown or twice:
        raise ValueError(f"position must hold known cards at most once (unknown {unknown}, twice {twice})")
    return State(
        players=players,
        rng=Rng.seeded(seed),
        deck=deck,
        alley=alley,
        homes=homes,
        tokens=tokens,
        turn=turn,
        phase=phase,
        copy_as=copy_as,
    )
