"""Pure game rules: one package per game, no Discord and no I/O.

`GAMES` maps each game's key to its `Rules`; the bot uses nothing else of a game.
"""

from engine.catsanity import RULES as CATSANITY
from engine.catsdogs import RULES as CATSDOGS
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
    Rng,
    Rules,
    ScoreLine,
    events_for,
)
from engine.madcat import RULES as MADCAT
from engine.ninelives import RULES as NINELIVES

GAMES: dict[str, Rules] = {rules.key: rules for rules in (CATSANITY, MADCAT, CATSDOGS, NINELIVES)}

__all__ = [
    "GAMES",
    "Action",
    "EngineError",
    "Event",
    "Frozen",
    "GameOver",
    "IllegalAction",
    "InvalidInput",
    "NotYourTurn",
    "Outcome",
    "Rng",
    "Rules",
    "ScoreLine",
    "events_for",
]
