"""The pictures on a phone: every character Catnip writes is in the font, every letter is at least
12 px tall and every text has WCAG AA contrast when the picture is shown 400 px wide, what a picture
states (who must act, dice, cards, scores, lives) agrees with the table's text at every step, and every
table and results picture is a PNG of the fixed size within the size budget.

One random game of every kind at every player count is walked once; each step's picture is painted once,
under `kit.watch`, which collects every text drawn with its own colours and what the picture records,
and that very image is encoded as the PNG the table would show."""

from __future__ import annotations

import functools
import io
import re
import unicodedata

import pytest
from PIL import Image

import pictures
from engine import GAMES
from engine.catsanity.texts import MOON_MARK, SUN_MARK
from engine.catsdogs.texts import short, who
from engine.catsdogs.view import TABLE
from engine.madcat.texts import vps
from engine.madcat.view import View as MadcatView
from engine.testing import RandomPlayer
from pictures import kit
from pictures.catsanity import groups

CASES = [
    (key, players)
    for key, game in sorted(GAMES.items())
    for players in range(game.rules.min_players, game.rules.max_players + 1)
]
NAMES = ["Zoë", "José", "Siobhán", "Łukasz", "Dvořák", "Ærøskøbing Søren-Ødegård"]
REAL_NAMES = [
    *NAMES,
    "Søren",
    "Ærøskøbing",
    "François",
    "Nuño",
    "Małgorzata",
    "Şükrü Çelik",
    "Ðorđe",
    "Þórunn",
    "Jürgen Groß",
    "Kateřina Nováková",
    "Ľudovít",
    "Œdipe",
    "Ŧ Ŋ ĸ ŉ ſ",
    "Wolfeschlegelsteinhausenbergerdorff",
    "Anne-Marie O'Neill",
    "Grete «Gigi» Ström",
]
NOT_LETTERING = {"So", "Sk", "Cf", "Mn", "Me", "Cc", "Cs", "Co"}
"""Unicode categories of emoji, symbols, joiners and marks: the text's, which the picture leaves out."""


def must_draw(words: str) -> set[str]:
    """The characters of `words` the font must have: letters, digits, punctuation, arrows, spaces."""
    chars = set(unicodedata.normalize("NFC", words))
    return {char for char in chars if unicodedata.category(char) not in NOT_LETTERING and char != "\n"}


@functools.cache
def known() -> frozenset[int]:
    """The code points both faces of the font draw."""
    return kit.characters(False) & kit.characters(True)


def missing(words: str) -> set[str]:
    drawn = known()
    return {char for char in must_draw(words) if ord(char) not in drawn}


def walk(key: str, players: int, seed: int):
    """Every step of a random game: (state, its public view, the texts it produced)."""
    rules = GAMES[key].rules
    texts = GAMES[key].texts
    player = RandomPlayer(rules, seed)
    state = rules.setup(players, seed)
    while True:
        produced = []
        if (outcome := rules.outcome(state)) is not None:
            produced += [line.label for lines in outcome.breakdown for line in lines] + [outcome.reason]
        yield state, produced
        if outcome is not None:
            return
        seat = player.pick_seat(rules.to_act(state))
        actions = rules.legal_actions(state, seat)
        produced += [texts.label(rules, state, seat, action) for action in actions]
        action = player.choose(state, seat)
        state, events = rules.apply(state, seat, action)
        produced += [event.text for event in events]


def table_text(key: str, view, names) -> str:
    texts = GAMES[key].texts
    fields = texts.table_fields(view, names) + texts.compact_fields(view, names)
    return "\n".join([texts.prompt(view, names), *(f"{title}\n{value}" for title, value in fields)])


def test_real_world_names_are_drawn_letter_for_letter():
    for name in REAL_NAMES:
        assert not missing(name), name
        assert kit.drawable(name) == unicodedata.normalize("NFC", name)


def test_what_the_font_lacks_is_left_out_or_marked_never_a_box():
    assert kit.drawable("Ann 🐾🧠") == "Ann"
    assert kit.drawable("李雷") == kit.DROPPED * 2
    assert kit.drawable("José") == "José"  # a decomposed é is composed first


@pytest.mark.parametrize(("key", "players"), CASES)
def test_a_whole_game_reads_on_a_phone_agrees_with_its_text_and_is_drawn_within_budget(key, players):
    rules = GAMES[key].rules
    names = NAMES[:players]
    lacking: dict[str, str] = {}
    too_small, too_faint = set(), set()
    painted: dict[tuple, kit.Watched] = {}
    for state, produced in walk(key, players, seed=players * 7 + len(key)):
        view = rules.view(state, None)
        text = table_text(key, view, names)
        for words in [*produced, text]:
            for char in missing(words):
                lacking[char] = words
        outcome = rules.outcome(state)
        scene = pictures.scene_of(key, view, names, outcome)
        if scene not in painted:  # a picture is its scene's: the same scene paints the same picture
            with kit.watch() as painted[scene]:
                image = pictures.paint(key, scene)
            within_budget(kit.to_png(image))
        seen = painted[scene]
        for lettering in seen.letterings:
            if lettering.shown_size < 12:
                too_small.add((lettering.words, lettering.shown_size))
            needed = 3 if lettering.shown_size >= 18 else 4.5
            if lettering.contrast < needed:
                too_faint.add(
                    (lettering.words, lettering.fill, lettering.background, round(lettering.contrast, 2))
                )
        (states,) = seen.states
        if outcome is None:
            agrees(key, view, names, text, states)
        else:
            results_agree(outcome, states)
    assert outcome is not None, "the last picture is the results picture"
    assert not lacking, f"characters the font cannot draw: {lacking}"
    assert not too_small, f"lettering under 12 px at 400 px wide: {sorted(too_small)[:5]}"
    assert not too_faint, f"lettering under WCAG AA contrast: {sorted(too_faint)[:5]}"


def within_budget(png: bytes) -> None:
    """The picture as the table shows it: a PNG of the fixed size, within the size budget."""
    assert len(png) <= pictures.MAX_BYTES
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        assert image.size == (kit.WIDTH, kit.HEIGHT)


def agrees(key: str, view, names, text: str, states: dict) -> None:
    """What the table picture states is what the text says."""
    now = states["now"]
    prompt = kit.drawable(GAMES[key].texts.prompt(view, names))
    assert prompt.startswith(now.removesuffix("…").rstrip(".")), (now, prompt)
    seats = states.get("seats")
    if seats is not None:
        assert [seat for seat, (_, _, marked) in enumerate(seats) if marked] == list(view.to_act)
    CHECKS[key](view, names, text, states)


def _madcat(view: MadcatView, names, text: str, states: dict) -> None:
    """The dice are drawn as the text writes them: "🔥1" is the flame 🔥 stands for, marked 1."""
    from engine.madcat._dice import show

    if view.phase != "roll":
        tray = f"On the tray: **{show(view.aside)}**" if view.aside else "On the tray: nothing yet"
        assert tray in text
    assert states["tray"] == tuple(view.aside)
    if view.aside:
        assert f"On the tray: **{states['tray shows']}**" in text, "the tray's dice as drawn"
    if states["rolled"]:
        assert f"Just rolled: **{show(states['rolled'])}**" in text
        assert f"Just rolled: **{states['rolled shows']}**" in text, "the dice just rolled as drawn"
    else:
        assert "Just rolled" not in text
    for seat, (_, value, _) in enumerate(states["seats"]):
        assert value == f"{view.scores[seat]} VP"
        assert f"**{names[seat]}** · {vps(view.scores[seat])}" in text


def _catsdogs(view, names, text: str, states: dict) -> None:
    trick = states["trick"]
    if not trick:
        assert "No card played yet." in text
    solo = (TABLE, None) in trick
    for index, (seat, card) in enumerate(trick):
        if card is None:
            assert "hidden card 🂠" in text
        elif solo and index == 0:
            assert f"Face-up: {short(card)}" in text
        else:
            assert f"{who(seat, names)}: {short(card)}" in text
    assert set(view.trick) <= set(trick), "every card played is drawn"
    for seat, (_, value, _) in enumerate(states["seats"]):
        assert value == f"{view.scores[seat]} +{view.ribbons[seat]}"
        assert f"🎀 {view.scores[seat]}/{view.target} · this round +{view.ribbons[seat]}" in text


def _ninelives(view, names, text: str, states: dict) -> None:
    """The four cats are drawn as the text writes them, each with its count; the power in force as
    the text names it."""
    assert states["counts"] == tuple(view.counts)
    counter = r"(`[▰▱]+` \*\*)?{}(\*\*)?/9"
    if re.search(counter.format(r"\d+"), text):  # the text shows the counts once play has begun
        for cat, count in zip(states["cats"], view.counts, strict=True):
            assert re.search(f"{cat} " + counter.format(count), text), (cat, count)
    if states.get("power"):
        name, *cats = states["power"]
        assert f"{name.removeprefix('Power: ')} {''.join(cats)}" in text, states["power"]
    for seat, (_, value, _) in enumerate(states["seats"]):
        info = view.seats[seat]
        assert value == f"{info.lives}" + (" safe" if info.safe else "")
        assert re.search(rf"{re.escape(names[seat])}\*{{0,2}} — {info.lives} li(fe|ves)\b", text), names[seat]


def _catsanity(view, names, text: str, states: dict) -> None:
    """The alley's cats are marked as the text marks them, Sun Cat ☀️ or Moon Cat 🌙, in order (the
    text lists the alley twice: in full, and in the compact table)."""
    alley = [line for line in text.splitlines() if line.startswith((SUN_MARK, MOON_MARK))]
    shown = states["alley shows"]
    assert len(alley) == 2 * len(shown)
    for line, (mark, name) in zip(alley, shown * 2, strict=True):
        assert line.startswith(f"{mark} ") and name.removesuffix("…") in line, (line, mark, name)
    for seat, (score, sanity, drawn, more, _) in enumerate(states["homes"]):
        assert score == view.scores[seat]
        tokens = view.tokens[seat]
        words = f"🧠 {sanity.removeprefix('sanity ')}" if tokens else "😵 insane"
        assert f"**{names[seat]}** · {score} pt{'s' if score != 1 else ''} · {words}" in text
        kinds = len(groups(view.homes[seat]))
        assert drawn + (int(more[1:]) if more else 0) == kinds, "a home cut short says how many kinds more"


CHECKS = {"madcat": _madcat, "catsdogs": _catsdogs, "ninelives": _ninelives, "catsanity": _catsanity}


def results_agree(outcome, states: dict) -> None:
    """A results picture's score lines add up to the winner's score, the cut ones summed and counted."""
    lines = states.get("score lines")
    if lines is None or not outcome.winners:
        return
    winner = outcome.winners[0]
    assert sum(points for _, points in lines) == sum(line.points for line in outcome.breakdown[winner])
    cut = len(outcome.breakdown[winner]) - len(lines) + 1
    if cut > 1:
        assert lines[-1][0] == f"{cut} more lines"
