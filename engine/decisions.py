"""A player's own view said to them: their decision in the second person, with a word on what it is
about the first time they meet that kind of decision in a game, and every other line of their panel
that names them ("You played …", "your dice").

Engines word their prompts and events once for everyone ("{p1} bids or passes …", "{p1} plays ⚪⚪");
a player's own view turns the sentence to them ("You bid or pass …", "You play ⚪⚪"). The text is
built with a marker for the player's own name, so that only their name — never another player's, nor a
word that contains it — is turned.

Only English is so turned: its grammar is what the turning knows. In any other language a player's own
lines keep their name, and the verbs, written for it, agree with it ("Zoë joue ⚪⚪").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

import lang
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
        "draws",
        "ends",
        "gives",
        "loses",
        "passes",
        "picks",
        "plays",
        "skips",
        "starts",
        "takes",
        "wagers",
        "wins",
    }
)
"""Verbs that may follow "or"/"and" in a prompt or an event and then share its subject."""

_AFTER_CONJUNCTION = re.compile(r"\b(or|and) (\w+)\b")
IRREGULAR = {"is": "are", "has": "have", "was": "were", "does": "do", "goes": "go"}
NOT_VERBS = frozenset({"and", "or", "as", "plus", "this", "his", "its"})
"""Words that may follow a name without being its verb."""
_MARKS = r"(?:[^\w\s]+\s?)*"
"""Emoji and markdown before a name: "🎲 ", "▶ **"."""
_SUBJECT = re.compile(
    rf"(^|[.!?:;,] |, but |\b(?:and|or|then|while|until|when|only) )({_MARKS}){ME}(?!'s)(?: ([a-z]+)\b)?"
)
_SENTENCE = re.compile(r"(?<=[.!?]) ")
_CAPITAL = re.compile(rf"(^|[.!?:] |· )({_MARKS})(you|your)\b")


def reader_names(names: Sequence[str], seat: int) -> list[str]:
    """The players' names with `seat`'s own as `ME`, for texts `your_words` then turns to that reader;
    as they are in a language other than English (see the module's docstring)."""
    if lang.current() != lang.SOURCE:
        return list(names)
    return [ME if other == seat else name for other, name in enumerate(names)]


def base_form(verb: str) -> str:
    """The verb as "you" says it: "chooses" → "choose", "passes" → "pass", "is" → "are"."""
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
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
    text = second_person(game.texts.prompt(view, reader_names(names, seat)))
    kind = game.rules.first_decision(state, seat)
    if kind is not None and kind in game.hints:
        text += f"\n💡 {lang._(game.hints[kind])}"
    return text


def your_words(text: str, me_object: str = "you") -> str:
    """`text` (with `ME` for the reader's name) as said to its reader, line by line: "ME plays ⚪⚪" →
    "You play ⚪⚪", "🎲 ME's dice" → "🎲 Your dice", "steals from ME" → "steals from you"
    (`me_object`: "yourself" in a button's label, whose subject is the reader)."""
    if ME not in text:
        return text
    return "\n".join(_your_line(line, me_object) for line in text.split("\n"))


@lru_cache(maxsize=4096)
def _your_line(line: str, me_object: str) -> str:
    """One line turned to its reader, sentence by sentence: a sentence whose subject is the reader also
    says "your" for "their" after it ("ME skips their turn" → "You skip your turn").

    Cached: a panel's lines (what happened lately, its fields) mostly read as they did at the panel's
    last showing, and every seat's panel is built again after every move."""
    return " ".join(_your_sentence(sentence, me_object) for sentence in _SENTENCE.split(line))


def _your_sentence(sentence: str, me_object: str) -> str:
    """A sentence turned to its reader. When the reader is its one subject ("ME draws …", not "Bo and
    ME reveal …"), the verbs it shares after "and"/"or" agree, "their" is "your" and the reader named
    again is "yourself" ("You pick yourself")."""

    def subject(match: re.Match[str]) -> str:
        verb = match[3]
        if verb is None:
            return f"{match[1]}{match[2]}you"
        return f"{match[1]}{match[2]}you {verb if verb in NOT_VERBS else base_form(verb)}"

    found = _SUBJECT.search(sentence)
    alone = found is not None and found[3] is not None and found[3] not in NOT_VERBS
    if alone and found[1].strip() not in ("and", "or"):
        head, rest = sentence[: found.end()], sentence[found.end() :]
        rest = re.sub(r"\btheir\b", "your", rest)
        rest = _AFTER_CONJUNCTION.sub(
            lambda m: f"{m[1]} {base_form(m[2]) if m[2] in JOINED_VERBS else m[2]}", rest
        )
        rest = re.sub(rf"{ME}(?!'s)", "yourself", _SUBJECT.sub(subject, rest))
        sentence = _SUBJECT.sub(subject, head) + rest
    sentence = _SUBJECT.sub(subject, sentence)
    sentence = (
        sentence.replace(f"than {ME}'s", "than yours").replace(f"{ME}'s", "your").replace(ME, me_object)
    )
    return _CAPITAL.sub(lambda m: f"{m[1]}{m[2]}{m[3].capitalize()}", sentence)
