"""The pictures on a phone: every character Catnip writes is in the fonts, every letter is at least
12 px tall and every text has WCAG AA contrast when the picture is shown 286 px wide (the embed's
picture on a 390 px phone), every text stays inside its panel, every shape that carries meaning stands
out 3:1 from what is under it, players' names are drawn (never "?") and never look alike, what a picture
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
from bench.pictures import NAMES
from engine import GAMES
from engine.catsanity.texts import MOON_MARK, SUN_MARK
from engine.catsdogs.texts import cards_line, short, who
from engine.catsdogs.view import TABLE
from engine.madcat.texts import vps
from engine.madcat.view import View as MadcatView
from engine.testing import RandomPlayer
from pictures import kit, letters
from pictures.catsanity import groups

CASES = [
    (key, players)
    for key, game in sorted(GAMES.items())
    for players in range(game.rules.min_players, game.rules.max_players + 1)
]
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
    """The code points the pictures draw: both weights of DejaVu, and the fallback face."""
    return (letters.characters(False) & letters.characters(True)) | letters.fallback_characters()


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


def test_what_the_fonts_lack_is_left_out_never_a_box_or_a_question_mark():
    assert kit.drawable("Ann 🐾🧠") == "Ann"
    assert kit.drawable("José") == "José"  # a decomposed é is composed first
    for name in ("李雷", "王小明", "さくら", "Маша"):
        assert kit.drawable(name) == name, "drawn in the fallback face, letter for letter"
    assert kit.names_shown(["𓀀𓀁", "Ann"], kit.SMALL, 200) == ["#1", "Ann"], "no letter drawable: its seat"


def test_a_line_mixing_scripts_draws_each_run_in_a_face_that_has_it():
    """The fallback face has no Latin: "王小明 bids" is the name in the fallback and " bids" in
    DejaVu, on one baseline, never boxes for the Latin letters."""
    assert letters.runs("王小明 bids") == (("王小明", True), (" bids", False))
    mixed, _ = letters.lettering("王小明 bids", kit.SMALL, "ls", False)
    latin, _ = letters.lettering("bids", kit.SMALL, "ls", False)
    tail = mixed.crop((mixed.width - latin.width - 1, 0, mixed.width, mixed.height))
    ink, expected = (sum(level * n for level, n in enumerate(m.histogram())) for m in (tail, latin))
    assert abs(ink - expected) < expected * 0.05, "the Latin run drawn as DejaVu draws it, not as boxes"
    box = tail.getbbox()
    assert abs((box[3] - box[1]) - latin.height) <= 1, "on one baseline, at one size"


def test_two_names_never_look_the_same_however_short_the_room():
    names = [
        "Bartholomew-Alexander Vanderbilt",
        "Bartholomew-Alexander Smith",
        "王小明",
        "王小红",
        "Ann",
        "Ann",
    ]
    for room in (90, 120, 160, 240):
        shown = kit.names_shown(names, kit.SMALL, room)
        assert len(set(shown)) == len(names), (room, shown)
        assert all(kit.length(words, kit.SMALL) <= room + 1 for words in shown), (room, shown)
        assert "?" not in "".join(shown)
    assert kit.names_shown(["Zoë", "Маша"], kit.SMALL, 200) == ["Zoë", "Маша"], "short names as they are"


@pytest.mark.parametrize(("key", "players"), CASES)
def test_a_whole_game_reads_on_a_phone_agrees_with_its_text_and_is_drawn_within_budget(key, players):
    rules = GAMES[key].rules
    names = NAMES[:players]
    lacking: dict[str, str] = {}
    too_small, too_faint, outside, faint_shapes, seat_names = set(), set(), set(), set(), set()
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
        for kind, colour, under in seen.markings:
            if kit.contrast(colour, under) < 3:
                faint_shapes.add((kind, colour, under))
        for name, _, _ in seen.states[0].get("seats", ()):
            seat_names.add(name)
        for lettering in seen.letterings:
            if not lettering.inside:
                outside.add((lettering.words, lettering.box, lettering.within))
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
    assert not too_small, f"lettering under 12 px at 286 px wide: {sorted(too_small)[:5]}"
    assert not too_faint, f"lettering under WCAG AA contrast: {sorted(too_faint)[:5]}"
    assert not outside, f"lettering outside its panel: {sorted(outside)[:5]}"
    assert not faint_shapes, f"shapes under 3:1 against what is under them: {sorted(faint_shapes)[:5]}"
    assert not any("?" in name for name in seat_names), seat_names
    assert "王小明" in seat_names or players < 5, "a CJK name is drawn as it is written"


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
    """The dice are drawn as the text writes them: "🔥1" is the flame 🔥 stands for, marked 1; the kind
    drawn as locked, the catpot and every card drawn ("outer / inner") are the text's."""
    from engine.madcat._dice import COMBOS, KIND_LABELS, show
    from engine.madcat.texts import SHORT_COMBOS

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
    assert states["lock"] == view.kind
    if view.kind:
        assert f"🔒 {KIND_LABELS[view.kind]} cats" in text, "the kind drawn as locked is the text's"
    assert f"🍯 Catpot **{states['catpot']}**" in text
    kinds = (view.kind,) if view.kind else ("mad", "sad")
    assert [(kind, combo) for kind, combo, _, _ in states["cards"]] == [
        (kind, combo) for combo in COMBOS for kind in kinds
    ], "every combination's cards of the locked kind (of both kinds before a lock)"
    grid = text.split("```")[1].splitlines()
    for kind, combo, outer, inner in states["cards"]:
        (line,) = [line for line in grid if line.startswith(SHORT_COMBOS[combo])]
        cells = re.findall(r"(\d+) /\s*(\d+)", line)
        assert cells[("mad", "sad").index(kind)] == (str(outer), str(inner)), (kind, combo, line)
    for seat, (_, value, _) in enumerate(states["seats"]):
        assert value == f"{view.scores[seat]} VP"
        assert f"**{names[seat]}** · {vps(view.scores[seat])}" in text


def _catsdogs(view, names, text: str, states: dict) -> None:
    """The trick as the text writes it, with the cats' and dogs' sums (but solo, where a card of it is
    hidden); the last trick in its place while the trick is empty; the table cards still to come as
    the text lists them; each seat's ribbons."""
    trick = states["trick"]
    if not trick:
        assert "No card played yet." in text
        last = view.last_trick
        assert ("last" in states) == (last is not None), "the last trick stands in for an empty one"
        if last is not None:
            title, plays, winner = states["last"]
            assert (plays, winner) == (last.plays, last.winner)
            result = "tie" if winner is None else f"{who(winner, names)} wins"
            assert f": {result}" in text, "the text's last trick has the same result"
            shown = title.removeprefix("Last trick: ").removesuffix("…")
            assert title.startswith("Last trick: ")
            assert f"a {result}".startswith(shown) or result.startswith(shown), (title, result)
    if "sums" in states:
        assert states["sums"] == tuple(
            sum(int(card[1]) for _, card in trick if card[0] == kind) for kind in "CD"
        )
    assert ("sums" in states) == (bool(trick) and (TABLE, None) not in trick), "solo has no sums"
    if view.players <= 2:
        coming = states["coming"]
        assert coming == tuple(view.table[1:])
        if coming:
            assert f"\n{cards_line(coming)}" in text, "the cards to come as the text lists them"
    else:
        assert "coming" not in states
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
    text lists the alley twice: in full, and in the compact table); an auction's highest bid is the
    text's; each home's points and sanity are the text's, its Sun and Moon Cats counted add up to the
    text's count of its cats, and where its kinds are drawn as chips, a home cut short says how many
    kinds more."""
    alley = [line for line in text.splitlines() if line.startswith((SUN_MARK, MOON_MARK))]
    shown = states["alley shows"]
    assert len(alley) == 2 * len(shown)
    for line, (mark, name) in zip(alley, shown * 2, strict=True):
        assert line.startswith(f"{mark} ") and name.removesuffix("…") in line, (line, mark, name)
    bid = states["bid"]
    assert (bid is None) == (view.auction is None)
    if bid:
        assert f"Highest bid: **{bid}**" in text
    elif bid is not None:
        assert "No bid yet" in text
    for seat, (score, sanity, suns, moons, chips, _) in enumerate(states["homes"]):
        assert score == view.scores[seat]
        tokens = view.tokens[seat]
        words = f"🧠 {sanity}" if tokens else "😵 insane"
        cats = suns + moons
        assert moons == sum(n for _, moon, n in groups(view.homes[seat]) if moon)
        assert f"**{names[seat]}** · {score} pt{'s' if score != 1 else ''} · {words} · {cats} cat" in text
        if chips is not None:
            drawn, more = chips
            kinds = len(groups(view.homes[seat]))
            assert drawn + (int(more[1:]) if more else 0) == kinds, "a cut home says how many kinds more"


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
