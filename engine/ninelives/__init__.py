"""Nine Lives: play cat cards without any cat passing nine; wager lives for powers (2-6 players)."""

from engine.ninelives.rules import NineLivesRules

RULES = NineLivesRules()

__all__ = ["RULES", "NineLivesRules"]
