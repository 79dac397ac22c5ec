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
from bench.table_in_memory import TableCase, commit, new_table
from cogs.messages import details_message, table_message
from cogs.panel import panel_screen, private_panel
from cogs.phone import SCREEN, TABLE_BUDGET, phone_lines
from emulator.limits import check_message
from engine import GAMES, Rng
from engine.core import EngineError, fill_names
from engine.testing import RandomPlayer
from engine.texts import Choice
from pictures import kit
from tests.golden.playthrough import Move

NAMES = ("Zoé", "Inès", "Jules", "Maël", "Léa", "Noé")
"""French names, none of them an English word."""
SHARED_ENGLISH = {
    "and",
    "card",
    "cards",
    "choose",
    "deck",
    "everyone",
    "for",
    "is",
    "no",
    "of",
    "player",
    "steal",
    "the",
    "to",
    "turn",
    "wins",
    "with",
    "you",
    "your",
}
"""English words both games' English uses."""
ENGLISH = {
    "catsanity": SHARED_ENGLISH
    | {
        "adopt",
        "adopts",
        "alley",
        "auction",
        "bid",
        "bids",
        "cat",
        "cats",
        "chorus",
        "copy",
        "each",
        "empty",
        "highest",
        "home",
        "homes",
        "house",
        "insane",
        "king",
        "left",
        "mine",
        "moon",
        "nobody",
        "opponent",
        "opponents",
        "pass",
        "passes",
        "pick",
        "precious",
        "queen",
        "recall",
        "return",
        "returns",
        "sanity",
        "sun",
        "twin",
        "yet",
    },
    "ninelives": SHARED_ENGLISH
    | {
        "allowed",
        "count",
        "counts",
        "cover",
        "discard",
        "double",
        "draw",
        "every",
        "forbid",
        "give",
        "gives",
        "hand",
        "ignore",
        "inspect",
        "life",
        "lives",
        "lose",
        "loses",
        "lost",
        "may",
        "more",
        "must",
        "next",
        "nine",
        "order",
        "over",
        "perfect",
        "play",
        "plays",
        "power",
        "replace",
        "round",
        "safe",
        "shuffle",
        "single",
        "skip",
        "stack",
        "swap",
        "take",
        "top",
        "turns",
        "up",
        "wager",
        "wagered",
        "would",
    },
}
WORD = re.compile(r"[A-Za-zÀ-ÿ']+")


def english_in(text: str, key: str) -> set[str]:
    """The English words of `key`'s list in `text`, the game's own name aside."""
    text = text.replace(GAMES[key].title, "")
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


CASES = [("catsanity", 3, 5), ("catsanity", 5, 11), ("ninelives", 3, 20), ("ninelives", 5, 8)]


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


@pytest.mark.parametrize("key", ["catsanity", "ninelives"])
def test_the_same_game_reads_in_english_where_english_speaks(key):
    """English is the texts as the code writes them: the same game worded without a language set, and
    with English set, is the same, word for word; and it is English."""
    plain = everything_read(key, 3, 5)
    with lang.speaking("en"):
        assert everything_read(key, 3, 5) == plain
    assert english_in("\n".join(plain), key) >= {"the", "your"}


@pytest.mark.parametrize("key", ["catsanity", "ninelives"])
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


@pytest.mark.parametrize(
    ("key", "players"), [("catsanity", 2), ("catsanity", 5), ("ninelives", 2), ("ninelives", 6)]
)
def test_the_pictures_labels_are_french_and_fit_their_panels(key, players):
    """Each step's picture drawn while French speaks: its words are French, none outside its panel,
    none smaller than a phone reads, and on the table none but the headline shortened with "…" (a long
    prompt's headline and the results' score lines are shortened in English too)."""
    rules = GAMES[key].rules
    names = NAMES[:players]
    player = RandomPlayer(rules, players)
    state = rules.setup(players, players)
    english, outside, small, cut = {}, set(), set(), set()
    painted = set()
    while True:
        with lang.speaking("fr"):
            scene = pictures.scene_of(key, rules.view(state, None), names, rules.outcome(state))
            if scene not in painted:
                painted.add(scene)
                with kit.watch() as seen:
                    pictures.paint(key, scene)
                headline = scene[2] if scene[0] == "table" else ""
                for lettering in seen.letterings:
                    if lettering.words in names:
                        continue
                    english.update(dict.fromkeys(english_in(lettering.words, key), lettering.words))
                    if not lettering.inside:
                        outside.add(lettering.words)
                    if lettering.shown_size < 12:
                        small.add(lettering.words)
                    shortened = lettering.words.endswith("…") and scene[0] == "table"
                    if shortened and not headline.startswith(lettering.words[:-1]):
                        cut.add(lettering.words)
        if rules.outcome(state) is not None:
            break
        seat = player.pick_seat(rules.to_act(state))
        state, _events = rules.apply(state, seat, player.choose(state, seat))
    assert len(painted) > 10, "a whole game's pictures were drawn"
    assert not english, english
    assert not outside, sorted(outside)[:5]
    assert not small, sorted(small)[:5]
    assert not cut, sorted(cut)[:5]


@pytest.mark.parametrize(
    ("key", "players"), [("catsanity", 3), ("catsanity", 5), ("ninelives", 3), ("ninelives", 6)]
)
def test_a_french_table_and_its_panels_fit_a_phone_wherever_the_english_do(key, players):
    """French runs longer than English. The same moves played on a French and an English table: at every
    step the French table (with its picture and without) takes no more of a phone's lines than the
    budget or, where the English already takes more, than the English; every deciding French panel
    keeps its first control on the first screen; every French message keeps Discord's limits."""
    tables = {
        language: new_table(TableCase(key, players, players, language=language)) for language in ("en", "fr")
    }
    rng = Rng.seeded(players)
    over = []
    while True:
        for picture in (True, False):
            lines = {}
            for language, table in tables.items():
                message = table_message(table, due=1_700_000_000, picture=picture)
                lines[language] = phone_lines(message.content, message.embed)
                assert not check_message(message.as_sent(ephemeral=False)), (language, message.embed.title)
            if lines["fr"] > max(TABLE_BUDGET, lines["en"]):
                over.append((tables["fr"].record.version, picture, lines))
        french = tables["fr"]
        if french.rules.outcome(french.state) is not None:
            break
        with lang.speaking("fr"):
            panels = [private_panel(french, seat) for seat in french.to_act()] + [details_message(french)]
        for panel in panels:
            assert not check_message(panel.as_sent(ephemeral=True)), panel.embed.title
        for panel in panels[:-1]:
            assert panel_screen(panel)[1] <= SCREEN, panel.embed.description
        seat, rng = rng.choice(french.to_act())
        action, rng = rng.choice(french.rules.legal_actions(french.state, seat))
        for table in tables.values():
            commit(table, Move(seat, action.encode()))
    assert not over, over
