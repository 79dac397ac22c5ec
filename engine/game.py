"""`Game`: the one place that names a game's parts — its rules, its texts, its guide for players and
its computer players. The bot reaches a game only through the `GAMES` registry of these."""

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
