"""Cats & Dogs: an 18-card trick-taking game for 1–5 players (solo, two-player, standard)."""

from engine.catsdogs.model import Options, Play, State, View
from engine.catsdogs.rules import CatsDogsRules

RULES = CatsDogsRules()

__all__ = ["RULES", "CatsDogsRules", "Options", "Play", "State", "View"]
