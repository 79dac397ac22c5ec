"""`Game`: the one place that names a game's parts — its rules, its texts, its guide for players, its
computer players and the module that draws its table. The bot reaches a game only through the `GAMES`
registry of these (engine/__init__.py), so a new game is its package under engine/, the module that
draws it under pictures/, and one line in that registry: nothing in bot/, cogs/ or pictures/ names
the games one by one.

The drawing code needs Pillow, which the engine must never import, and imports point one way (engine ←
pictures). So a `Game` carries its picture code by name: `picture` is the dotted name of the module
that draws it, and only the `pictures` package imports that module. The engine holds a string, not an
import; `pictures` finds each drawing through its `Game` rather than by guessing from module names; and
tests/test_layout.py checks that every name leads to a drawing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.ai import LEVELS, ComputerPlayer
from engine.core import Rules
from engine.guide import GuidePage
from engine.texts import Texts


@dataclass(frozen=True)
class Game:
    rules: Rules
    texts: Texts
    guide: tuple[GuidePage, ...] = field(repr=False)
    """What "📖 How to play" and /rules show, page by page."""
    players: Mapping[str, ComputerPlayer]
    picture: str
    """The module that draws the table (e.g. "pictures.madcat"): it defines `scene(view, names, outcome)`,
    the picture's content as plain data from the public view, and `paint(scene)`, its image."""
    about: str = ""
    """One line for the lobby: what the game is, how long it takes and how many can play."""
    hints: Mapping[str, str] = field(default_factory=dict, repr=False)
    """One line per kind of decision (`Rules.decision`), shown the first time a player meets it."""

    @property
    def key(self) -> str:
        return self.rules.key

    @property
    def title(self) -> str:
        return self.rules.title

    def computer(self, level: str) -> ComputerPlayer:
        """The computer player at `level` (one of `LEVELS`)."""
        if level not in self.players:
            raise ValueError(f"Unknown level {level!r}; choose one of {', '.join(LEVELS)}.")
        return self.players[level]
