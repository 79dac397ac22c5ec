"""Literal Nine Lives positions for scenario tests, like a FEN string for a chess board.

Cat cards are written as icon letters: o circle, s square, t triangle, x star, with an optional
count before a letter ("oos", "5x", "2o2t"). A table pile is cards joined by "/" (the last one is
on top, the others covered); "ooo=3s" is a card printed "ooo" that counts as "3s" (an override).
Life cards are power keys with parameters: "skip", "shapeshift:o>s", "forbid:t", "numbershift:x3".
"""

from __future__ import annotations

import re

from engine.core import Rng, events_for
from engine.ninelives import RULES
from engine.ninelives._cards import CATS, LifeCard, card_id, life_id
from engine.ninelives.model import Placed, State

LETTERS = "ostx"
_ICON = re.compile(r"(\d*)([ostx])")


def icons(text: str) -> tuple[int, int, int, int]:
    """ "2os" -> (2, 1, 0, 0)."""
    counts = [0, 0, 0, 0]
    consumed = 0
    for match in _ICON.finditer(text):
        counts[LETTERS.index(match.group(2))] += int(match.group(1) or 1)
        consumed += len(match.group(0))
    assert consumed == len(text), f"bad card {text!r}"
    return tuple(counts)  # type: ignore[return-value]


def life(text: str) -> LifeCard:
    """ "shapeshift:o>s" -> LifeCard(power="shapeshift", a=0, b=1)."""
    key, _, params = text.partition(":")
    if not params:
        return LifeCard(power=key)
    if ">" in params:
        a, b = params.split(">")
        return LifeCard(power=key, a=LETTERS.index(a), b=LETTERS.index(b))
    if len(params) > 1:
        return LifeCard(power=key, a=LETTERS.index(params[0]), b=int(params[1:]))
    return LifeCard(power=key, a=LETTERS.index(params))


def position(
    hands: list[str],
    table: str = "",
    deck: str = "",
    discard: str = "",
    lives: list[str] | None = None,
    wagered: list[str] | None = None,
    turn: int = 0,
    queen: int | None = None,
    safe: tuple[int, ...] = (),
    ignored: str = "",
    limited: bool = False,
    seed: int = 1,
    **extra,
) -> State:
    """A state in the middle of a round, `turn` to move, from literal hands, table, deck and lives.

    Cards get ids in order of appearance: hands (seat 0 first), table, deck, discard.
    Each seat's lives default to three Skip Turn cards.
    """
    players = len(hands)
    cats: list[tuple[int, int, int, int]] = []

    def add(text: str) -> int:
        cats.append(icons(text))
        return len(cats) - 1

    hand_ids = tuple(tuple(add(c) for c in hand.split()) for hand in hands)
    piles = []
    for pile_text in table.split():
        pile = []
        for card_text in pile_text.split("/"):
            printed, _, counted = card_text.partition("=")
            number = add(printed)
            counts = icons(counted) if counted else cats[number]
            pile.append(Placed(card=number, counts=counts, note="override" if counted else ""))
        piles.append(tuple(pile))
    deck_ids = tuple(add(c) for c in deck.split())
    discard_ids = tuple(add(c) for c in discard.split())
    lives = lives if lives is not None else ["skip skip skip"] * players
    wagered = wagered if wagered is not None else [""] * players
    lifecards: list[LifeCard] = []

    def add_life(text: str) -> int:
        lifecards.append(life(text))
        return len(lifecards) - 1

    stacks = tuple(tuple(add_life(t) for t in seat.split()) for seat in lives)
    wagers = tuple(tuple(add_life(t) for t in seat.split()) for seat in wagered)
    fields = {
        "players": players,
        "rng": Rng.seeded(seed),
        "limited": limited,
        "cats": tuple(cats),
        "lifecards": tuple(lifecards),
        "deck": deck_ids,
        "discard": discard_ids,
        "hands": hand_ids,
        "stacks": stacks,
        "wagered": wagers,
        "table": tuple(piles),
        "ignored": tuple(LETTERS.index(c) for c in ignored),
        "safe": tuple(sorted(safe)),
        "queen": turn if queen is None else queen,
        "turn": turn,
        "phase": "play",
        "arranging": ((),) * players,
        "arranged": ((),) * players,
    }
    fields.update(extra)
    return State(**fields)


def card_in(state: State, seat: int, text: str) -> str:
    """The id of the first card in `seat`'s hand printed as `text`."""
    wanted = icons(text)
    for card in state.hands[seat]:
        if state.cats[card] == wanted:
            return card_id(card)
    raise AssertionError(f"no {text!r} in seat {seat}'s hand")


def on_table(state: State, text: str) -> str:
    """The id of the uncovered table card printed as `text`."""
    wanted = icons(text)
    for pile in state.table:
        if state.cats[pile[-1].card] == wanted:
            return card_id(pile[-1].card)
    raise AssertionError(f"no uncovered {text!r} on the table")


def act(state: State, seat: int, text: str):
    """Apply the encoded move `text` for `seat`; returns (state, events)."""
    return RULES.apply(state, seat, RULES.decode_action(text))


def play(state: State, seat: int, card: str, *then: str):
    """Play the hand card printed `card` (then answer the follow-up choices in `then`)."""
    state, events = act(state, seat, f"p:{card_in(state, seat, card)}")
    for text in then:
        state, more = act(state, seat, text)
        events += more
    return state, events


def codes(state: State, seat: int) -> list[str]:
    """Encoded legal moves of `seat`."""
    return [move.encode() for move in RULES.legal_actions(state, seat)]


def playable(state: State, seat: int) -> set[str]:
    """The hand cards `seat` may play now, written as icon letters (e.g. {"oo", "sx"})."""
    result = set()
    for code in codes(state, seat):
        if code.startswith("p:"):
            result.add(letters(state.cats[int(code[3:])]))
    return result


def letters(counts) -> str:
    return "".join(LETTERS[cat] * n for cat, n in enumerate(counts))


def hand(state: State, seat: int) -> list[str]:
    return sorted(letters(state.cats[c]) for c in state.hands[seat])


def table_text(state: State) -> list[str]:
    """Uncovered table cards as letters of how they count."""
    return [letters(pile[-1].counts) for pile in state.table]


def texts(events, seat=None) -> str:
    return " ".join(event.text for event in events_for(events, seat))


def stack_powers(state: State, seat: int) -> list[str]:
    return [state.lifecards[c].power for c in state.stacks[seat]]


def life_ids(state: State, seat: int) -> list[str]:
    return [life_id(c) for c in state.stacks[seat]]


__all__ = ["CATS", "act", "card_in", "codes", "hand", "icons", "life", "playable", "position"]
