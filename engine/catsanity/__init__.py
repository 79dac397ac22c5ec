"""CatSanity: adopt the best sets of cats from the alley without losing your mind (2–5 players)."""

from engine.catsanity.ai import PLAYERS
from engine.catsanity.guide import PAGES
from engine.catsanity.hints import HINTS
from engine.catsanity.rules import CatSanityRules
from engine.catsanity.texts import TEXTS
from engine.game import Game
from lang import N_

RULES = CatSanityRules()
ABOUT = N_("Adopt cats and bid your sanity for the Sun Cats; about 20 minutes, for 2 to 5 players.")
GAME = Game(
    about=ABOUT,
    rules=RULES,
    texts=TEXTS,
    guide=PAGES,
    hints=HINTS,
    players=PLAYERS,
    picture="pictures.catsanity",
)

__all__ = ["GAME", "RULES", "CatSanityRules"]
