"""Interaction tokens Discord loses while they are still valid."""

from __future__ import annotations

import random
from collections import Counter


class LostTokens:
    """Valid interaction tokens Discord answers 404 Unknown Webhook inside their 15 minutes, as users
    report it (discord/discord-api-docs#6851): each webhook request of a token is lost with probability
    `rate`, and a lost token stays lost. Off (0) unless a test or the emulator's ``--lost-tokens`` turns
    it on.

    A run repeats: the draw for the n-th request of a token depends only on the seed, on which
    interaction the token belongs to (counted in the order the members made them) and on n — not on
    the order in which the bot's requests of different tokens happen to arrive."""

    def __init__(self, rate: float = 0.0, seed: int = 6851) -> None:
        self.rate = rate
        self.seed = seed
        self.lost: set[str] = set()
        self._numbers: dict[str, int] = {}  # token -> the how-manieth interaction it belongs to
        self._requests: Counter[str] = Counter()

    def made(self, token: str) -> None:
        """An interaction with `token` was made (in the order the members act)."""
        self._numbers[token] = len(self._numbers)

    def lose(self, token: str) -> bool:
        """Whether this request of `token` is answered 404 (a valid token lost)."""
        if token in self.lost:
            return True
        if self.rate <= 0:
            return False
        self._requests[token] += 1
        draw = random.Random(f"{self.seed}:{self._numbers.get(token, -1)}:{self._requests[token]}")
        if draw.random() < self.rate:
            self.lost.add(token)
            return True
        return False
