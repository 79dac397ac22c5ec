"""State, options, the one action, and the view of Cats & Dogs."""

from __future__ import annotations

from enum import StrEnum

from engine.core import Action, Frozen, GameOptions, Rng


class Mode(StrEnum):
    """How a player count plays: alone against the table (CD-7), two players with table cards (CD-6),
    or the standard game (3–5)."""

    SOLO = "solo"
    DUO = "two-player"
    STANDARD = "standard"


SOLO, DUO, STANDARD = Mode.SOLO, Mode.DUO, Mode.STANDARD
SOLO_ROUNDS = 4
HAND_SIZE = {1: 5, 2: 5, 3: 5, 4: 4, 5: 3}


def mode_of(players: int) -> Mode:
    """The mode a player count plays: solo, two-player or standard (3–5)."""
    if players == 1:
        return SOLO
    if players == 2:
        return DUO
    return STANDARD


class Options(GameOptions):
    """Table options. `first_player`: who leads the first round; None draws a seat at random (CD-X1)."""

    first_player: int | None = None

    SEAT_OPTIONS = frozenset({"first_player"})


class Play(Action):
    """Play a card from your hand to the current trick."""

    card: str

    def encode(self) -> str:
        return f"p:{self.card}"


class TrickRecord(Frozen):
    """A resolved trick, public: plays in order (seat -1 is the table), sums, winner, collectors."""

    round: int
    number: int
    plays: tuple[tuple[int, str], ...]
    cats: int
    dogs: int
    winner: int | None
    collectors: tuple[int, ...]


class RoundRecord(Frozen):
    """A finished round: the cards each seat and the table collected, and each seat's ribbons."""

    number: int
    collected: tuple[tuple[str, ...], ...]
    table_pile: tuple[str, ...]
    ribbons: tuple[int, ...]


class State(Frozen):
    """The whole game, secrets included. Never shown to anyone as is; see `view`."""

    players: int
    rng: Rng
    round: int
    hands: tuple[tuple[str, ...], ...]
    out: tuple[str, ...]
    table: tuple[str, ...]
    hidden: tuple[str, ...]
    trick: tuple[tuple[int, str], ...]
    trick_no: int
    leader: int
    round_leader: int
    collected: tuple[tuple[str, ...], ...]
    table_pile: tuple[str, ...]
    scores: tuple[int, ...]
    rounds: tuple[RoundRecord, ...]
    last_trick: TrickRecord | None
    last_win: tuple[int, ...]
    tricks_played: int
    over: bool
    decided: tuple[tuple[int, str], ...] = ()
    """Each (seat, kind of decision) made so far, in the order first made: what first-time hints read."""


class View(Frozen):
    """What one seat (or the public table, seat None) may see.

    `hand` is the seat's own hand (empty for the public table); `table` the
    face-up table cards of the tricks still to come, the current one first;
    `collected` and `ribbons` this round's collected cards and their ribbons;
    `round_ribbons` the ribbons of every finished round, per seat; `round_leader` who led the
    round's first trick; `last_win` per seat the game-wide number of the last trick it won (0: none).
    """

    seat: int | None
    players: int
    to_act: tuple[int, ...]
    prompt: str
    over: bool
    mode: Mode
    round: int
    max_rounds: int | None
    target: int
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    leader: int
    round_leader: int
    trick_no: int
    tricks_in_round: int
    trick: tuple[tuple[int, str], ...]
    table: tuple[str, ...]
    hidden_left: int
    out_count: int
    collected: tuple[tuple[str, ...], ...]
    table_pile: tuple[str, ...]
    ribbons: tuple[int, ...]
    scores: tuple[int, ...]
    round_ribbons: tuple[tuple[int, ...], ...]
    last_trick: TrickRecord | None
    last_win: tuple[int, ...]
