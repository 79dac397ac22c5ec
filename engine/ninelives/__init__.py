"""Nine Lives: play cat cards without any cat passing nine; wager lives for powers (2-6 players)."""

from engine.game import Game
from engine.ninelives.ai import PLAYERS
from engine.ninelives.guide import PAGES
from engine.ninelives.hints import HINTS
from engine.ninelives.rules import NineLivesRules
from engine.ninelives.texts import TEXTS
from lang import N_

RULES = NineLivesRules()
ABOUT = N_(
    "Play cat cards toward a perfect nine and keep your nine lives; about 30 minutes, for 2 to 6 players."
)
GAME = Game(
    about=ABOUT,
    rules=RULES,
    texts=TEXTS,
    guide=PAGES,
    hints=HINTS,
    players=PLAYERS,
    picture="pictures.ninelives",
)

__all__ = ["GAME", "RULES", "NineLivesRules"]
