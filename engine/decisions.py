"""A player's own decision, said to them: in the second person, with a word on what it is about the
first time they meet that kind of decision in a game.

Engines word their prompts once for everyone ("{p1} bids or passes …"); a player's own view turns
the sentence to them ("You bid or pass …"). The prompt is built with a marker for the player's own
name, so that only their name — never another player's, nor a word that contains it — is turned.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.core import Frozen
from engine.game import Game

ME = "\x00me\x00"
"""Stands for the player's own name while their prompt is turned to them."""

JOINED_VERBS = frozenset(
    {
        "adopts",
        "answers",
        "bids",
        "calls",
        "chooses",
        "declares",
        "gives",
        "passes",
        "picks",
        "plays",
        "wagers",
    }
)
"""Verbs that may follow "or"/"and" in a prompt and then share its subject."""

_AFTER_CONJUNCTION = re.compile(r"\b(or|and) (\w+)\b")


def base_form(verb: str) -> str:
    """The verb as "you" says it: "chooses" → "choose", "passes" → "pass", "is" → "are"."""
    if verb in ("is", "has"):
        return {"is": "are", "has": "have"}[verb]
    if verb.endswith(("sses", "shes", "ches", "xes")):
        return verb[:-2]
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb


def second_person(prompt: str) -> str:
    """`prompt` (with `ME` for the reader's name) as said to the reader."""
    if prompt.startswith(f"{ME}: "):
        rest = prompt[len(ME) + 2 :]
        prompt = rest[:1].upper() + rest[1:]
    elif prompt.startswith(f"{ME} "):
        verb, _, rest = prompt[len(ME) + 1 :].partition(" ")
        rest = _AFTER_CONJUNCTION.sub(
            lambda m: f"{m[1]} {base_form(m[2]) if m[2] in JOINED_VERBS else m[2]}", rest
        )
        prompt = f"You {base_form(verb)} {rest}".rstrip()
    return prompt.replace(f"{ME}'s", "your").replace(ME, "you")


def your_decision(game: Game, state: Frozen, view: Frozen, seat: int, names: Sequence[str]) -> str:
    """What `seat` is deciding (`view` is theirs), said to them; the first time they meet this kind of
    decision, also a line on what it is about."""
    mine = [ME if other == seat else name for other, name in enumerate(names)]
    text = second_person(game.texts.prompt(view, mine))
    kind = game.rules.first_decision(state, seat)
    if kind is not None and kind in game.hints:
        text += f"\n💡 {game.hints[kind]}"
    return text
