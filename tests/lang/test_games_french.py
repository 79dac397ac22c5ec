"""Cats & Dogs and Mad Cat Sad Cat in French: whole seeded games played with French speaking, and
everything the games themselves say to their players — the table's fields and prompt, each seat's
panel, its buttons and selects, the narration, the refusals of illegal moves, what a take-back says,
the result and its breakdown, the guide, the hints, the lobby's line and every word drawn in the
pictures — holds none of the English words these games use; and the same game read without a
language set still reads in English (the golden playthroughs hold it word for word)."""

from __future__ import annotations

import re

import pytest

import lang
import pictures
from bench.table_in_memory import TableCase, commit, computer_move, new_table
from cogs.messages import details_message, table_message, table_screen
from cogs.panel import panel_screen, private_panel
from cogs.phone import PANEL_BUDGET, SCREEN, TABLE_BUDGET, phone_lines
from emulator.limits import check_message
from engine import GAMES, Rng
from engine.catsdogs.model import Play
from engine.core import EngineError, fill_names
from engine.madcat.model import Mooch, Roll, SetAside, Stop
from engine.testing import RandomPlayer, random_playout
from engine.texts import Choice
from pictures import kit
from tests.golden.playthrough import Move, flatten

NAMES = ("Zoë", "Kofi", "Maëlle", "Ngozi", "Søren")
"""Players' names in no language the check looks for."""
ENGLISH = re.compile(
    r"\b(?:the|you|your|and|with|turn|turns|card|cards|win|wins|round|rounds|trick|tricks|"
    r"score|hand|play|plays|pass|take|takes|dice|die|roll|rolls|rolled|bid|cat|cats|dog|dogs|mad|sad|"
    r"wild|wilds|ribbon|ribbons|catpot|mooch|mooches|mooching|tray|supply|vp|vps|nothing|hidden|"
    r"over|game|first|next|last|left|player|players|leads|set|aside|choose|pick|picks|picked|fail|"
    r"fails|yet|only|can|not|no|is|are|of|to|in|it|at|by|from|each|every|this|that|tie|collected)\b",
    re.IGNORECASE,
)
KEPT_AS_NAMES = re.compile(r"Cats & Dogs|Mad Cat Sad Cat")
"""The games' names, which French keeps."""
SYNTAX = re.compile(r"\S*[:<|>]\S*[a-z0-9>]|\bm1 m2 m3 s1 s2 w\b")
"""How a move is typed ("p:C7", "stop:<mad|sad>:<2p|fh|4k|5k>"): code, the same in every language."""
PROBES = {
    "catsdogs": [Play(card="C1"), Play(card="D9"), Play(card="C5")],
    "madcat": [
        Roll(),
        Mooch(card="2p"),
        Stop(kind="mad", combo="2p"),
        Stop(kind="sad", combo="5k"),
        SetAside(faces=("m1", "s1")),
        SetAside(faces=("m2", "m2", "m2", "m2", "m2")),
        SetAside(faces=("s2",)),
    ],
}
"""Moves tried by every seat at every step: those the rules refuse give their refusals."""
FLATTENED = re.compile(r"^\s*row \S+ · (?:button \w+|select(?: pick \S+)?)(?: \(disabled\))?:|→ \S+|^footer:")
"""What `flatten` adds to a message's own words: a control's row, kind and custom_id."""
CASES = [("catsdogs", 1), ("catsdogs", 2), ("catsdogs", 4), ("madcat", 2), ("madcat", 5)]


def english_in(text: str) -> set[str]:
    bare = SYNTAX.sub(" ", KEPT_AS_NAMES.sub(" ", text))
    return {word.lower() for word in ENGLISH.findall(bare)}


def controls_said(texts, view, choices) -> list[str]:
    """The labels and placeholders of the seat's controls, within Discord's limits (a button's label
    80 characters, a select option's 100)."""
    said = []
    for control in texts.controls(view, choices) or []:
        limit = 80 if control.kind == "buttons" else 100
        if control.kind != "buttons":
            said.append(control.placeholder)
        for choice in control.choices:
            assert len(choice.label) <= limit, choice.label
            said.append(choice.label)
    return said


def everything_said(key: str, players: int, seed: int) -> list[str]:
    """What a seeded random game of `key` says to its players, from the first deal to the result."""
    game = GAMES[key]
    rules, texts = game.rules, game.texts
    names = NAMES[:players]
    said = [lang._(texts.hand_label), lang._(game.about)]
    said += [lang._(page.title) + "\n" + lang._(page.text) for page in game.guide]
    said += [lang._(hint) for hint in game.hints.values()]
    player = RandomPlayer(rules, seed)
    state = rules.setup(players, seed)
    said += [event.render(names) for event in getattr(rules, "opening_events", lambda _state: [])(state)]
    said += [str(refusal) for refusal in _bad_input(rules)]
    while True:
        public = rules.view(state, None)
        said.append(texts.prompt(public, names))
        fields = texts.table_fields(public, names) + texts.compact_fields(public, names)
        for seat in range(players):
            view = rules.view(state, seat)
            said.append(texts.prompt(view, names))
            fields += texts.private_fields(view, public, names) + texts.more_fields(view, public, names)
            legal = rules.legal_actions(state, seat)
            labels = [fill_names(texts.label(rules, state, seat, action), names) for action in legal]
            said += labels
            said += controls_said(
                texts, view, [Choice(a.encode(), label) for a, label in zip(legal, labels, strict=True)]
            )
            if rules.outcome(state) is None:
                said += [str(refusal) for refusal in _refusals(rules, state, seat, legal)]
        for name, value in fields:
            assert len(name) <= 256, name
            said += [name, value]
        said += [reason for reason, _secret in rules.hidden(state)]
        outcome = rules.outcome(state)
        if outcome is not None:
            said.append(fill_names(outcome.reason, names))
            said += [line.label for lines in outcome.breakdown for line in lines]
            return said
        seat = player.pick_seat(rules.to_act(state))
        state, events = rules.apply(state, seat, player.choose(state, seat))
        said += [event.render(names) for event in events]


def _refusals(rules, state, seat: int, legal) -> list[EngineError]:
    refused = []
    for action in PROBES[rules.key]:
        if action in legal:
            continue
        try:
            rules.check(state, seat, action)
        except EngineError as refusal:
            refused.append(refusal)
    return refused


def _bad_input(rules) -> list[EngineError]:
    refused = []
    for typed in ("zz9", "a:m1m1m1m1m1m1", "a:wm1", "stop:zz", "p:X1"):
        try:
            rules.decode_action(typed)
        except EngineError as refusal:
            refused.append(refusal)
    return refused


@pytest.mark.parametrize(("key", "players"), CASES)
def test_a_whole_game_speaks_french_to_a_french_table(key, players):
    with lang.speaking("fr"):
        said = everything_said(key, players, seed=players * 11 + len(key))
    untranslated = {}
    for text in said:
        for word in english_in(text):
            untranslated.setdefault(word, text)
    assert not untranslated, untranslated
    assert len(said) > 200, "a whole game says a great deal"


@pytest.mark.parametrize(("key", "players"), CASES)
def test_without_a_language_the_same_game_still_speaks_english(key, players):
    """The check above would find English here: it finds what it looks for."""
    found = set().union(*map(english_in, everything_said(key, players, seed=players * 11 + len(key))))
    assert {"the", "you", "your"} <= found


EVERY_COUNT = [
    (key, players)
    for key in ("catsdogs", "madcat")
    for players in range(GAMES[key].rules.min_players, GAMES[key].rules.max_players + 1)
]


@pytest.mark.parametrize(("key", "players"), EVERY_COUNT)
def test_the_pictures_of_a_whole_game_are_labelled_in_french_and_every_label_fits(key, players):
    """Every picture of a game, drawn with French speaking: no English word, and every label inside its
    panel and at least 12 px tall on a phone (French words run longer)."""
    rules = GAMES[key].rules
    names = NAMES[:players]
    scenes = {}
    with lang.speaking("fr"):
        for state in random_playout(rules, players, 5, keep_states=True).states:
            scene = pictures.scene_of(key, rules.view(state, None), names, rules.outcome(state))
            if scene not in scenes:
                with kit.watch() as scenes[scene]:
                    pictures.paint(key, scene)
    letterings = [lettering for seen in scenes.values() for lettering in seen.letterings]
    drawn = {lettering.words for lettering in letterings} - set(names)
    assert not {word: words for words in drawn for word in english_in(words)}
    assert not [lettering.words for lettering in letterings if not lettering.inside]
    assert not [lettering.words for lettering in letterings if lettering.shown_size < 12]
    assert len(scenes) > 10


@pytest.mark.parametrize("key", ["catsdogs", "madcat"])
def test_a_position_read_in_french_is_read_in_english_by_the_next_english_reader(key):
    """The table's part of a view is kept once per state: kept per language too, so a French table's
    prompt never reaches an English member's panel of the same position, in words or in pictures."""
    rules = GAMES[key].rules
    names = NAMES[: rules.max_players]
    for state in random_playout(rules, rules.max_players, 9, keep_states=True).states[:40]:
        with lang.speaking("fr"):
            french = rules.view(state, None)
            pictures.paint(key, pictures.scene_of(key, french, names, None))
        english = rules.view(state, None)
        assert rules.view(state, 0).prompt == english.prompt == lang_free(rules, state), french.prompt
        scene = pictures.scene_of(key, english, names, None)
        with kit.watch():
            afresh = pictures.paint(key, scene).tobytes()
        assert pictures.paint(key, scene).tobytes() == afresh, "a kept French drawing in an English picture"


def lang_free(rules, state) -> str:
    """The prompt as a fresh rules object words it, with nothing kept from before."""
    return type(rules)().view(state, None).prompt


@pytest.mark.parametrize(("key", "players"), [("catsdogs", 2), ("catsdogs", 4), ("madcat", 5)])
def test_a_french_table_s_messages_hold_no_english_from_first_move_to_result(key, players):
    """The table, its details and every seat's private panel as the bot sends them (embeds, buttons,
    selects) at every move of a game on a French table, played by computer players, to the result."""
    table = new_table(TableCase(key, players, 3, language="fr"))
    untranslated: dict[str, str] = {}
    while True:
        with lang.speaking("fr"):  # a member's answers speak their language: a French member here
            answers = [details_message(table), *(private_panel(table, seat) for seat in range(players))]
        messages = [table_message(table, due=None), *answers]
        for message in messages:
            assert not check_message(message.as_sent(ephemeral=message is not messages[0])), (
                message.embed.title
            )
        for line in (line for message in messages for line in flatten(message)):
            for word in english_in(FLATTENED.sub("", line)):
                untranslated.setdefault(word, line)
        if table.rules.outcome(table.state) is not None:
            break
        commit(table, computer_move(table))
    assert not untranslated, untranslated


@pytest.mark.parametrize(("key", "players"), EVERY_COUNT)
def test_a_french_table_and_its_panels_keep_to_a_phone_s_budgets(key, players):
    """French runs longer than English: at every step of a random game on a French table, the table
    (with its picture and without) keeps to the phone's line budget with its "Now" line and first
    control on the first screen, every deciding panel keeps its first control there, and every message
    keeps Discord's limits."""
    game = new_table(TableCase(key, players, players, language="fr"))
    rng = Rng.seeded(players)
    while True:
        for picture in (True, False):
            message = table_message(game, due=1_700_000_000, picture=picture)
            moment = f"move {game.record.version - 1}, picture {picture}"
            assert phone_lines(message.content, message.embed) <= TABLE_BUDGET, moment
            assert not check_message(message.as_sent(ephemeral=False)), moment
            if picture:
                screen, first = table_screen(game, message, picture=True)
                assert screen.now <= SCREEN and (first is None or first <= SCREEN), moment
        if game.rules.outcome(game.state) is not None:
            return
        with lang.speaking("fr"):
            panels = [private_panel(game, seat) for seat in game.to_act()]
        for panel in panels:
            _screen, first = panel_screen(panel)
            assert phone_lines(None, panel.embed) <= PANEL_BUDGET and first <= SCREEN, panel.embed.description
            assert not check_message(panel.as_sent(ephemeral=True)), panel.embed.description
        seat, rng = rng.choice(game.to_act())
        action, rng = rng.choice(game.rules.legal_actions(game.state, seat))
        commit(game, Move(seat, action.encode()))
