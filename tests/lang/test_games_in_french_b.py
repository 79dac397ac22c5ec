"""CatSanity and Nine Lives in French: a whole random game of each, everything its players read worded
while French speaks — the table (full and compact), the prompts, every seat's panel and the rest of its
view, every button, option and placeholder, the confirmations, the narration, the refusals of illegal
moves, the result, the guide, the hints and the lobby's line — holds none of the English words the
game's English uses; and the same position still reads in English where English speaks, at the same
time (a table in the server's language beside a panel in a member's)."""

from __future__ import annotations

import re

import pytest

import lang
import pictures
from engine import GAMES
from engine.core import EngineError, fill_names
from engine.testing import RandomPlayer
from engine.texts import Choice
from pictures import kit

NAMES = ("Zoé", "Inès", "Jules", "Maël", "Léa", "Noé")
"""French names, none of them an English word."""
ENGLISH = {
    "catsanity": {
        "the",
        "you",
        "your",
        "and",
        "with",
        "turn",
        "card",
        "cards",
        "wins",
        "pass",
        "passes",
        "bid",
        "bids",
        "adopt",
        "adopts",
        "alley",
        "home",
        "homes",
        "deck",
        "auction",
        "sanity",
        "insane",
        "cat",
        "cats",
        "moon",
        "sun",
        "twin",
        "house",
        "chorus",
        "copy",
        "recall",
        "precious",
        "king",
        "queen",
        "mine",
        "nobody",
        "everyone",
        "each",
        "player",
        "opponent",
        "opponents",
        "choose",
        "pick",
        "returns",
        "return",
        "left",
        "yet",
        "empty",
        "highest",
        "of",
        "to",
        "is",
        "for",
        "no",
        "steal",
    },
    "ninelives": {
        "the",
        "you",
        "your",
        "and",
        "with",
        "turn",
        "turns",
        "card",
        "cards",
        "wins",
        "round",
        "play",
        "plays",
        "take",
        "hand",
        "life",
        "lives",
        "wager",
        "wagered",
        "stack",
        "top",
        "safe",
        "power",
        "skip",
        "swap",
        "steal",
        "forbid",
        "more",
        "allowed",
        "ignore",
        "inspect",
        "replace",
        "deck",
        "discard",
        "give",
        "gives",
        "up",
        "draw",
        "player",
        "next",
        "must",
        "may",
        "order",
        "choose",
        "perfect",
        "nine",
        "over",
        "lost",
        "lose",
        "loses",
        "every",
        "everyone",
        "of",
        "to",
        "is",
        "for",
        "no",
        "cover",
        "shuffle",
        "single",
        "double",
        "pile",
        "counts",
        "count",
        "would",
    },
}
WORD = re.compile(r"[A-Za-zÀ-ÿ']+")


def english_in(text: str, key: str) -> set[str]:
    return {word for word in WORD.findall(text) if word.lower() in ENGLISH[key]}


def everything_read(key: str, players: int, seed: int) -> list[str]:
    """Every text a random game of `key` puts before its players, worded in the language speaking."""
    game = GAMES[key]
    rules, texts = game.rules, game.texts
    names = NAMES[:players]
    player = RandomPlayer(rules, seed)
    state = rules.setup(players, seed)
    said = [texts.hand_label, texts.more_label or "", lang._(game.about)]
    said += [lang._(page.title) + "\n" + lang._(page.text) for page in game.guide]
    said += [lang._(hint) for hint in game.hints.values()]
    said += [reason for reason, _part in rules.hidden(state)]
    with pytest.raises(EngineError) as garbage:
        rules.decode_action("🐾")
    said.append(str(garbage.value))
    while True:
        public = rules.view(state, None)
        said.append(texts.prompt(public, names))
        said += [f"{title}\n{value}" for title, value in texts.table_fields(public, names)]
        said += [f"{title}\n{value}" for title, value in texts.compact_fields(public, names)]
        for seat in range(players):
            view = rules.view(state, seat)
            said.append(texts.prompt(view, names))
            said += [f"{t}\n{v}" for t, v in texts.private_fields(view, public, names)]
            said += [f"{t}\n{v}" for t, v in texts.more_fields(view, public, names)]
            said += [choice.why_not for choice in getattr(view, "choices", ()) if not choice.playable]
        outcome = rules.outcome(state)
        if outcome is not None:
            said.append(outcome.reason)
            said += [line.label for lines in outcome.breakdown for line in lines]
            return [fill_names(text, names) for text in said]
        seat = player.pick_seat(rules.to_act(state))
        view = rules.view(state, seat)
        actions = rules.legal_actions(state, seat)
        choices = [Choice(action.encode(), texts.label(rules, state, seat, action)) for action in actions]
        said += [choice.label for choice in choices]
        for control in texts.controls(view, choices) or ():
            if control.kind != "buttons":
                said.append(control.placeholder)
            said += [f"{choice.label} {choice.description or ''}" for choice in control.choices]
        said += [texts.confirmation(view, choice.value) or "" for choice in choices]
        state, events = rules.apply(state, seat, player.choose(state, seat))
        said += [event.render(names) for event in events]


CASES = [("catsanity", 3, 5), ("catsanity", 5, 11)]


@pytest.mark.parametrize(("key", "players", "seed"), CASES)
def test_a_whole_game_reads_in_french_with_no_english_word(key, players, seed):
    with lang.speaking("fr"):
        said = everything_read(key, players, seed)
    english = {}
    for text in said:
        for word in english_in(text, key):
            english.setdefault(word, text)
    assert not english, english
    assert len(said) > 200, "a whole game was read"


@pytest.mark.parametrize("key", ["catsanity"])
def test_the_same_game_reads_in_english_where_english_speaks(key):
    """English is the texts as the code writes them: the same game worded without a language set, and
    with English set, is the same, word for word; and it is English."""
    plain = everything_read(key, 3, 5)
    with lang.speaking("en"):
        assert everything_read(key, 3, 5) == plain
    assert english_in("\n".join(plain), key) >= {"the", "your"}


@pytest.mark.parametrize("key", ["catsanity"])
def test_one_position_reads_in_english_on_the_table_and_in_french_on_a_panel(key):
    """The table and a member's panel are worded from one state in two languages in turn: neither takes
    the other's words from what the engine keeps between views."""
    rules, texts = GAMES[key].rules, GAMES[key].texts
    state = rules.setup(3, 5)
    names = NAMES[:3]
    for _round in range(2):
        english = texts.prompt(rules.view(state, None), names)
        with lang.speaking("fr"):
            seat = rules.to_act(state)[0]
            french = texts.prompt(rules.view(state, None), names)
            panel = texts.private_fields(rules.view(state, seat), rules.view(state, None), names)
        assert english != french
        assert not english_in(french + str(panel), key)
        assert english_in(english, key)


@pytest.mark.parametrize(("key", "players"), [("catsanity", 2), ("catsanity", 5)])
def test_the_pictures_labels_are_french_and_fit_their_panels(key, players):
    """Each step's picture drawn while French speaks: its words are French, none outside its panel or
    shortened with "…" where the English fits, and none smaller than a phone reads."""
    rules = GAMES[key].rules
    names = NAMES[:players]
    player = RandomPlayer(rules, players)
    state = rules.setup(players, players)
    english, outside, cut = {}, set(), set()
    seen_scenes = set()
    while True:
        outcome = rules.outcome(state)
        for language in ("en", "fr"):
            with lang.speaking(language):
                view, outcome = rules.view(state, None), rules.outcome(state)
                scene = pictures.scene_of(key, view, names, outcome)
                if (language, scene) in seen_scenes:
                    continue
                seen_scenes.add((language, scene))
                with kit.watch() as seen:
                    pictures.paint(key, scene)
            for lettering in seen.letterings:
                if lettering.words in names:
                    continue
                if language == "fr":
                    english.update(dict.fromkeys(english_in(lettering.words, key), lettering.words))
                if not lettering.inside:
                    outside.add((language, lettering.words))
                if lettering.words.endswith("…"):
                    cut.add((language, lettering.words))
        if outcome is not None:
            break
        seat = player.pick_seat(rules.to_act(state))
        state, _events = rules.apply(state, seat, player.choose(state, seat))
    assert not english, english
    assert not outside, sorted(outside)[:5]
    shortened = {language: sum(1 for la, _words in cut if la == language) for language in ("en", "fr")}
    assert shortened["fr"] <= shortened["en"], sorted(cut)
