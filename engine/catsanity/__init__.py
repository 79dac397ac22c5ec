"""CatSanity: adopt the best sets of cats from the alley without losing your mind (2–5 players)."""

from engine.catsanity.rules import CatSanityRules

RULES = CatSanityRules()

__all__ = ["RULES", "CatSanityRules"]
