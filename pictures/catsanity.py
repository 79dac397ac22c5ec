"""CatSanity: who must act (the headline), the alley they adopt from or auction, and every home's
points and sanity, the acting seat framed.

The alley is drawn big, as cards in the text's order beside the deck: each card is marked as the text
marks it, a sun (☀️ Sun Cat) or a crescent (🌙 Moon Cat), in its kind's colour, with its kind's name
("Queen": the crescent already says Moon). During an auction the deck's place shows the highest bid
and the Moon Cats, not for sale, are greyed. Below, one row per home, its columns aligned: the name,
the sanity left as a gauge and "4/7" (the text's 🧠 4/7), or "insane"; how many Sun Cats and Moon Cats
the home holds (its size is what Cthulhu compares); and its points, which a long name never cuts.
Which cats a home holds, kind by kind, is the text's to say; only a two-player table, whose rows have
the room, also draws them as chips.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image

from engine.catsanity.texts import MOON_MARK, SUN_MARK
from engine.catsanity.view import KIND, TOKENS_BY_PLAYERS, View, is_moon
from engine.core import Outcome, fill_names
from lang import N_, _, n_
from pictures import kit, shapes
from pictures.results import paint_results, results_scene

TITLE = "CatSanity"
COLOURS = {"house": kit.ORANGE, "chorus": kit.GREEN, "fib": kit.PURPLE}
LEFT, RIGHT = 12, kit.WIDTH - 12
ALLEY_TOP, ALLEY_BOTTOM = 50, 118
HOMES_TOP, HOMES_BOTTOM = 126, kit.HEIGHT - 6
GAP = 6
CHIP = 32
"""The height of a kind's chip (a symbol and a name at `kit.SMALL`)."""
GAUGE, SIDE = 56, 100
"""The widths of a sanity gauge and of the deck beside the alley."""


SHORT = {
    "house": N_("House"),
    "chorus": N_("Chorus"),
    "fib": N_("Fibonacci"),
    "copycat": N_("Copy"),
    "ninja": N_("Ninja"),
    "recall": N_("Recall"),
    "cthulhu": N_("Cthulhu"),
    "precious": N_("Precious"),
    "moonking": N_("King"),
    "moonqueen": N_("Queen"),
}
"""Each kind's name as the picture writes it, less the "Cat" every kind has and the "Moon" its
crescent says."""


def short(kind: str) -> str:
    """A kind's name as the picture writes it: "Twin A", "Cthulhu", "Queen"."""
    if kind.startswith("twin"):
        return _("Twin {letter}", letter=kind[4:])
    return _(SHORT[kind])


def mark(moon: bool) -> str:
    """What marks a Moon Cat or a Sun Cat, as the text writes it."""
    return MOON_MARK if moon else SUN_MARK


def colour(kind: str, moon: bool):
    """A kind's colour: Moon Cats yellow, each kind of Sun Cat its own (every Twin sky blue)."""
    if moon:
        return kit.YELLOW
    return kit.SKY if kind.startswith("twin") else COLOURS.get(kind, kit.GREY)


def groups(home: Sequence[str]) -> tuple[tuple[str, bool, int], ...]:
    """A home's cats as (kind, is a Moon Cat, how many), Sun Cats first, in a fixed order."""
    counted = Counter(KIND[card] for card in home)
    moons = {KIND[card] for card in home if is_moon(card)}
    return tuple(
        sorted(((kind, kind in moons, n) for kind, n in counted.items()), key=lambda g: (g[1], g[0]))
    )


def scene(view: View, names: Sequence[str], outcome: Outcome | None) -> tuple:
    """The headline, who acts, the alley's (kind, is a Moon Cat), each home's `groups`, the scores,
    the sanity tokens and how many a player starts with, the deck's size and an auction's highest bid
    (None with no auction), and the words the picture writes in the language speaking (`words`); the
    results picture's once the game is over."""
    if outcome is not None:
        return results_scene(names, outcome)
    homes = tuple(groups(home) for home in view.homes)
    alley = tuple((KIND[card], is_moon(card)) for card in view.alley)
    full = TOKENS_BY_PLAYERS[view.players]
    now = fill_names(view.prompt, names)
    bid = None if view.auction is None else view.auction.high
    kinds = sorted({kind for kind, _moon in alley} | {kind for home in homes for kind, _moon, _n in home})
    table = (view.to_act, alley, homes, view.scores, view.tokens, full, view.deck_size, bid)
    return ("table", tuple(names), now, *table, words(view.scores, kinds))


def words(scores: Sequence[int], kinds: Sequence[str]) -> tuple:
    """What the picture writes, worded when its scene is made (the scene is all a picture is drawn
    from): each score's points, each kind's short name, and its labels (the deck's, the top bid's, an
    empty alley's, an insane home's and a home with no cat's)."""
    points = tuple(n_("{count} pt", "{count} pts", score) for score in scores)
    shorts = tuple((kind, short(kind)) for kind in kinds)
    labels = (_("deck"), _("top bid"), _("The alley is empty"), _("insane"), _("no cats yet"))
    return points, shorts, labels


class Words(NamedTuple):
    """The words of a scene (`words`), by what they are."""

    points: Sequence[str]
    short: dict[str, str]
    deck: str
    top_bid: str
    empty: str
    insane: str
    no_cats: str


def paint(data: tuple) -> Image.Image:
    if data[0] == "results":
        return paint_results(TITLE, *data[1:])
    names, now, to_act, alley, homes, scores, tokens, full, deck, bid, (points, shorts, labels) = data[1:]
    canvas = kit.Canvas(now)
    said = Words(points, dict(shorts), *labels)
    _alley(canvas, alley, deck, bid, said)
    _homes(canvas, names, to_act, homes, scores, tokens, full, said)
    return canvas.image


def chip_label(name: str, count: int) -> str:
    return name + (f" ×{count}" if count > 1 else "")


def chip_width(name: str, count: int) -> float:
    return kit.length(chip_label(name, count), kit.SMALL) + 44


def chip(canvas: kit.Canvas, x: float, y: float, kind: str, moon: bool, count: int, name: str) -> float:
    """A kind's chip at (x, y): its mark in its colour, its `name` and count; returns its right edge."""
    width = chip_width(name, count)
    canvas.panel((x, y, x + width, y + CHIP), fill=kit.DARK, radius=CHIP // 2)
    shapes.symbol(canvas, mark(moon), x + 17, y + CHIP / 2, 10, colour(kind, moon))
    canvas.text((x + 32, y + CHIP / 2), chip_label(name, count), kit.SMALL, kit.INK, anchor="lm")
    return x + width


def _alley(
    canvas: kit.Canvas, alley: Sequence[tuple[str, bool]], deck: int, bid: int | None, said: Words
) -> None:
    """The alley's cards, left to right as the text lists them, and at the right the deck's size, or
    during an auction the highest bid (its Moon Cats, not for sale, greyed)."""
    canvas.record("alley", tuple(alley))
    canvas.record("bid", bid)
    box = (LEFT, ALLEY_TOP, RIGHT, ALLEY_BOTTOM)
    key = (
        "alley",
        alley,
        deck,
        bid,
        said.deck,
        said.top_bid,
        said.empty,
        *(said.short[k] for k, _m in alley),
    )
    shown = canvas.kept_in(key, box, lambda: _alley_cards(canvas, alley, deck, bid, said))
    canvas.record("alley shows", shown)


def _alley_cards(
    canvas: kit.Canvas, alley: Sequence[tuple[str, bool]], deck: int, bid: int | None, said: Words
) -> tuple:
    side = RIGHT - SIDE
    canvas.panel((side, ALLEY_TOP, RIGHT, ALLEY_BOTTOM), fill=kit.DARK, outline=kit.GREY, radius=10)
    number, label = (str(deck), said.deck) if bid is None else (str(bid) if bid else "–", said.top_bid)
    canvas.text((side + SIDE / 2, ALLEY_TOP + 24), number, kit.LARGE, kit.INK, anchor="mm", bold=True)
    canvas.text((side + SIDE / 2, ALLEY_BOTTOM - 16), label, kit.SMALL, kit.MUTED, anchor="mm")
    room = side - GAP - LEFT
    if not alley:
        canvas.panel((LEFT, ALLEY_TOP, side - GAP, ALLEY_BOTTOM))
        middle = (LEFT + room / 2, (ALLEY_TOP + ALLEY_BOTTOM) / 2)
        canvas.text(middle, said.empty, kit.TEXT, kit.MUTED, anchor="mm")
    width = (room - GAP * (len(alley) - 1)) / max(1, len(alley))
    shown = []
    for index, (kind, moon) in enumerate(alley):
        x = LEFT + index * (width + GAP)
        aside = moon and bid is not None
        tint = kit.GREY if aside else colour(kind, moon)
        canvas.panel((x, ALLEY_TOP, x + width, ALLEY_BOTTOM), outline=tint, width=3)
        drawn = shapes.symbol(canvas, mark(moon), x + width / 2, ALLEY_TOP + 22, 13, tint)
        name = canvas.text(
            (x + width / 2, ALLEY_BOTTOM - 18),
            said.short[kind],
            kit.SMALL,
            kit.MUTED if aside else kit.INK,
            anchor="mm",
            bold=True,
            width=width - 10,
        )
        shown.append((drawn, name))
    return tuple(shown)


def _homes(canvas: kit.Canvas, names, to_act, homes, scores, tokens, full: int, said: Words) -> None:
    """One row per home: name, sanity bar, Sun and Moon Cats counted, points; chips where rows have room."""
    step = (HOMES_BOTTOM - HOMES_TOP + GAP) / len(names)
    height = step - GAP
    points = said.points
    points_room = max(kit.length(words, kit.SMALL, True) for words in points)
    counted = [
        tuple(sum(n for _, moon, n in home if moon is kind) for kind in (False, True)) for home in homes
    ]
    count = 24 + max(kit.length(str(n), kit.SMALL, True) for pair in counted for n in pair) + 12
    counts_left = RIGHT - 12 - points_room - 10 - 2 * count
    bar = GAUGE + 6 + kit.length(f"{full}/{full}", kit.SMALL, True)
    bar_left = counts_left - 14 - max(bar, kit.length(said.insane, kit.SMALL, True) + 16)
    shown_names = kit.names_shown(names, kit.SMALL, bar_left - 14 - LEFT - 12)
    chips = height >= 2 * CHIP + 20
    seats, shown = [], []
    for seat, home in enumerate(homes):
        y = HOMES_TOP + seat * step
        mine = seat in to_act
        suns, moons = counted[seat]

        def row(seat=seat, home=home, y=y, mine=mine, suns=suns, moons=moons):
            canvas.panel(
                (LEFT, y, RIGHT, y + height),
                fill=kit.PANEL_LIGHT if mine else kit.PANEL,
                outline=kit.HIGHLIGHT if mine else None,
                width=3,
                radius=10,
            )
            middle = y + (min(height, 40) if chips else height) / 2
            name = canvas.text((LEFT + 12, middle), shown_names[seat], kit.SMALL, kit.INK, anchor="lm")
            value = canvas.text(
                (RIGHT - 12, middle), points[seat], kit.SMALL, kit.INK, anchor="rm", bold=True
            )
            gauge = (round(bar_left) - 1, round(y) + 1, round(counts_left) - 6, round(y + height) - 1)
            sanity = canvas.kept(
                ("sanity", tokens[seat], full, bar_left, middle - y, said.insane),
                gauge,
                lambda: _sanity(canvas, bar_left, middle, tokens[seat], full, said.insane),
            )
            for at, emoji, n in ((counts_left, SUN_MARK, suns), (counts_left + count, MOON_MARK, moons)):
                shapes.symbol(canvas, emoji, at + 10, middle, 10)
                canvas.text((at + 24, middle), str(n), kit.SMALL, kit.INK, anchor="lm", bold=True)
            drawn = None
            if chips:
                line = (LEFT + 4, round(y + height) - CHIP - 12, RIGHT - 4, round(y + height) - 6)
                drawn = canvas.kept(
                    ("chips", home, y % 1, said.no_cats, *(said.short[kind] for kind, _m, _n in home)),
                    line,
                    lambda: _chips(canvas, y + height - CHIP - 10, home, said),
                )
            return name, value, sanity, drawn

        key = ("home", shown_names[seat], points[seat], tokens[seat], full, suns, moons, mine)
        key += (home if chips else None, bar_left, counts_left, count, said.insane, said.no_cats)
        key += tuple(said.short[kind] for kind, _m, _n in home) if chips else ()
        name, value, sanity, drawn = canvas.kept_in(key, (LEFT, y, RIGHT, y + height), row)
        seats.append((name, value, mine))
        shown.append((scores[seat], sanity, suns, moons, drawn, mine))
    canvas.record("seats", tuple(seats))
    canvas.record("homes", tuple(shown))


def _sanity(canvas: kit.Canvas, x: float, y: float, tokens: int, full: int, insane: str) -> str:
    """A home's sanity as the text's bar says it: a gauge filled by the tokens held, then "4/7";
    "insane" on a warning's pill once none is left. Returns the words written."""
    if not tokens:
        canvas.panel(
            (x, y - 14, x + kit.length(insane, kit.SMALL, True) + 16, y + 14), kit.WARNING, radius=14
        )
        return canvas.text((x + 8, y), insane, kit.SMALL, kit.DARK, anchor="lm", bold=True)
    canvas.rounded((x, y - 7, x + GAUGE, y + 7), 7, kit.DARK, kit.YELLOW, 2)
    held = (x, y - 7, x + max(14, GAUGE * tokens / full), y + 7)
    canvas.draw.rounded_rectangle(held, radius=7, fill=kit.INDEX[kit.YELLOW])  # an index: no lookup
    return canvas.text((x + GAUGE + 6, y), f"{tokens}/{full}", kit.SMALL, kit.INK, anchor="lm", bold=True)


def _chips(canvas: kit.Canvas, y: float, home, said: Words) -> tuple[int, str]:
    """A home's kinds as chips in one line, and "+N" for the kinds that do not fit: (chips, "+N")."""
    x, drawn, more = LEFT + 12, 0, ""
    for kind, moon, count in home:
        if x + chip_width(said.short[kind], count) > RIGHT - 60:
            more = canvas.text((x + 4, y + CHIP / 2), f"+{len(home) - drawn}", kit.SMALL, kit.INK, "lm", True)
            break
        x = chip(canvas, x, y, kind, moon, count, said.short[kind]) + GAP
        drawn += 1
    if not home:
        canvas.text((LEFT + 12, y + CHIP / 2), said.no_cats, kit.SMALL, kit.MUTED, anchor="lm")
    return drawn, more
