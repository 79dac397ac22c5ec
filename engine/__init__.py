"""Pure game rules: one package per game, no Discord and no I/O.

`GAMES` maps each game's key to its `Game` (rules, texts, guide, computer players, the module that
draws it); the bot reaches a game through nothing else, and a new game is one more line here.
"""

from engine.catsanity import GAME as CATSANITY
from engine.catsdogs import GAME as CATSDOGS
from engine.core import (
    Action,
    EngineError,
    Event,
    Frozen,
    GameOver,
    IllegalAction,
    InvalidInput,
    NotYourTurn,
    Outcome,
    OutOfDate,
    Rng,
    Rules,
    ScoreLine,
    events_for,
    fill_names,
)
from engine.game import Game
from engine.madcat import GAME as MADCAT
from engine.ninelives import GAME as NINELIVES

GAMES: dict[str, Game] = {game.key: game for game in (CATSANITY, MADCAT, CATSDOGS, NINELIVES)}

__all__ = [
    "GAMES",
    "Action",
    "EngineError",
    "Event",
    "Frozen",
    "Game",
    "GameOver",
    "IllegalAction",
    "InvalidInput",
    "NotYourTurn",
    "OutOfDate",
    "Outcome",
    "Rng",
    "Rules",
    "ScoreLine",
    "events_for",
    "fill_names",
]
