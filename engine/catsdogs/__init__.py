"""Cats & Dogs: an 18-card trick-taking game for 1–5 players (solo, two-player, standard)."""

from engine.catsdogs.ai import PLAYERS
from engine.catsdogs.guide import PAGES
from engine.catsdogs.hints import HINTS
from engine.catsdogs.model import Options, Play, State, View
from engine.catsdogs.rules import CatsDogsRules
from engine.catsdogs.texts import TEXTS
from engine.game import Game
from lang import N_

RULES = CatsDogsRules()
ABOUT = N_("Cats against Dogs in tricks, for the weak cards' ribbons; about 30 minutes, for 1 to 5 players.")
GAME = Game(
    about=ABOUT,
    rules=RULES,
    texts=TEXTS,
    guide=PAGES,
    hints=HINTS,
    players=PLAYERS,
    picture="pictures.catsdogs",
)

__all__ = ["GAME", "RULES", "CatsDogsRules", "Options", "Play", "State", "View"]
