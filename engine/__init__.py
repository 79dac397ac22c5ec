"""Pure game rules: one package per game, no Discord and no I/O.

`GAMES` maps each game's key to its `Rules`; the bot uses nothing else of a game.
"""

from importlib import import_module

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

GAME_PACKAGES = ("catsanity", "madcat", "catsdogs", "ninelives")


def _load_games() -> dict[str, Rules]:
    games: dict[str, Rules] = {}
    for name in GAME_PACKAGES:
        try:
            module = import_module(f"engine.{name}")
        except ModuleNotFoundError as error:
            if error.name != f"engine.{name}":
                raise
            continue
        rules = getattr(module, "RULES", None)
        if rules is not None:
            games[rules.key] = rules
    return games


GAMES: dict[str, Rules] = _load_games()

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
