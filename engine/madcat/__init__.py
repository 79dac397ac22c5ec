"""Mad Cat Sad Cat: roll five dice into poker combinations while the others mooch off your luck."""

from engine.game import Game
from engine.madcat.ai import PLAYERS
from engine.madcat.guide import PAGES
from engine.madcat.hints import HINTS
from engine.madcat.rules import MadCatRules
from engine.madcat.texts import TEXTS
from lang import N_

RULES = MadCatRules()
ABOUT = N_(
    "Roll dice into combos while the others mooch off your luck; about 20 minutes, for 2 to 5 players."
)
GAME = Game(
    about=ABOUT,
    rules=RULES,
    texts=TEXTS,
    guide=PAGES,
    hints=HINTS,
    players=PLAYERS,
    picture="pictures.madcat",
)

__all__ = ["GAME", "RULES", "MadCatRules"]
