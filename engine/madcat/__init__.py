"""Mad Cat Sad Cat: roll five dice into poker combinations while the others mooch off your luck."""

from engine.game import Game
from engine.madcat.ai import PLAYERS
from engine.madcat.guide import PAGES
from engine.madcat.hints import HINTS
from engine.madcat.rules import MadCatRules
from engine.madcat.texts import TEXTS

RULES = MadCatRules()
GAME = Game(rules=RULES, texts=TEXTS, guide=PAGES, hints=HINTS, players=PLAYERS, picture="pictures.madcat")

__all__ = ["GAME", "RULES", "MadCatRules"]
