"""Mad Cat Sad Cat: roll five dice into poker combinations while the others mooch off your luck."""

from engine.madcat.rules import MadCatRules

RULES = MadCatRules()

__all__ = ["RULES", "MadCatRules"]
