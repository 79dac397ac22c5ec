"""Every game's table and results pictures are made from the public view only, and draw the texts'
emoji as shapes of their own. (Whole random games at every player count, every step's picture within
the size budget and at the fixed size, are test_phone.py's: it paints each step once for all it checks.)"""

from __future__ import annotations

import colorsys

import pytest
from PIL import Image

import pictures
from engine import GAMES, Rng
from engine.core import evolve
from engine.testing import random_playout
from pictures import kit, shapes

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def scene_of(key: str, state) -> tuple:
    rules = GAMES[key].rules
    return pictures.scene_of(
        key, rules.view(state, None), NAMES[: rules.player_count(state)], rules.outcome(state)
    )


def pixels_of(key: str, state) -> bytes:
    """The picture of `state`, pixel for pixel (equal pixels make equal PNGs; no PNG is needed to
    compare them)."""
    return pictures.paint(key, scene_of(key, state)).tobytes()


def _hidden_variants(key: str, state):
    """Copies of `state` that differ only in what nobody may see: the deck's order, who holds which
    hidden card, a secret pick."""
    if key == "catsanity":
        yield evolve(state, {"deck": tuple(reversed(state.deck))})
    elif key == "ninelives":
        yield evolve(state, {"deck": tuple(reversed(state.deck))})
        yield evolve(state, {"hands": tuple(tuple(reversed(hand)) for hand in state.hands)[::-1]})
    elif key == "catsdogs":
        yield evolve(state, {"hidden": tuple(reversed(state.hidden))})
        yield evolve(state, {"hands": state.hands[::-1]})
    elif key == "madcat":
        other = {None: None, "none": "fail", "fail": "2p", "2p": "fh", "fh": "4k", "4k": "5k", "5k": "none"}
        picks = tuple(
            pick if paid else other[pick] for pick, paid in zip(state.picks, state.paid, strict=True)
        )
        yield evolve(state, {"picks": picks})


@pytest.mark.parametrize("key", sorted(GAMES))
def test_the_table_picture_shows_nothing_hidden(key):
    """Two positions that differ only in hidden cards (their public views are equal) give the very
    same picture, pixel for pixel."""
    rules = GAMES[key].rules
    compared = 0
    for seed in range(3):
        playout = random_playout(rules, rules.max_players, seed=seed, keep_states=True)
        for state in playout.states[::3]:
            public = rules.view(state, None)
            picture = None
            for variant in _hidden_variants(key, state):
                if variant == state or rules.view(variant, None) != public:
                    continue
                picture = picture or pixels_of(key, state)
                assert pixels_of(key, variant) == picture
                compared += 1
    assert compared >= 10, "enough positions with hidden differences were compared"


def test_a_seats_own_view_is_never_drawn():
    rules = GAMES["madcat"].rules
    state = rules.setup(2, 1)
    with pytest.raises(ValueError, match="public view"):
        pictures.scene_of("madcat", rules.view(state, 0), NAMES[:2], None)


def test_mad_sad_and_wild_dice_differ_in_shape_not_only_in_colour():
    """Drawn in grey, the three kinds of die still look different (colour-blind players)."""
    from pictures.madcat import die

    looks = []
    for face in ("m1", "s1", "w"):
        canvas = kit.Canvas("")
        die(canvas, face, 60, 60)
        looks.append(canvas.image.crop((30, 30, 90, 90)).convert("1").tobytes())
    assert len(set(looks)) == 3


EMOJI_COLOURS = {
    "🔥": "red",
    "💧": "blue",
    "⚪": "white",
    "🟦": "blue",
    "🔺": "red",
    "⭐": "yellow",
    "☀️": "yellow",
    "🌙": "yellow",
}
"""The colour each emoji shows in Discord's emoji set, which the picture's drawing of it must share (a
text saying 🟦 while the picture's blue thing is another cat would mislead). 🐾's colour varies from
one emoji set to another: its drawing is held to its shape only."""


def colour_family(rgb) -> str:
    """A colour as a player names it: white, grey, red, yellow, green, blue or purple."""
    hue, saturation, value = colorsys.rgb_to_hsv(*(channel / 255 for channel in rgb))
    if saturation < 0.2:
        return "white" if value > 0.85 else "grey"
    degrees = hue * 360
    for name, below in (("red", 35), ("yellow", 70), ("green", 170), ("blue", 260), ("purple", 330)):
        if degrees < below:
            return name
    return "red"


def drawn(emoji: str) -> Image.Image:
    canvas = kit.Canvas("")
    shapes.symbol(canvas, emoji, 100, 150, 40)
    return canvas.image.crop((50, 100, 150, 200)).convert("RGB")


def test_every_kind_the_texts_mark_with_an_emoji_is_drawn_as_that_emoji():
    """Mad Cat's dice and kinds, Nine Lives' cats and CatSanity's Sun and Moon Cats are drawn as the
    emoji the texts write for them (the font has none): each its own shape, in the emoji's colour."""
    from engine.catsanity.texts import MOON_MARK, SUN_MARK
    from engine.madcat.texts import FACE_LABELS, KIND_LABELS
    from engine.ninelives.view import EMOJI
    from pictures.madcat import split_label

    written = {split_label(label)[0] for label in [*FACE_LABELS.values(), *KIND_LABELS.values()]}
    written |= {*EMOJI, SUN_MARK, MOON_MARK}
    assert written == set(shapes.SYMBOLS), "every emoji the texts mark a kind with, and no other, is drawn"
    for emoji, family in EMOJI_COLOURS.items():
        colours = [(n, c) for n, c in drawn(emoji).getcolors(10_000) if c != kit.BACKGROUND]
        assert colour_family(max(colours)[1]) == family, emoji
    outlines = [drawn(e).convert("L").point(lambda v: v > 60 and 255).tobytes() for e in shapes.SYMBOLS]
    assert len(set(outlines)) == len(shapes.SYMBOLS), "no two emoji are drawn alike"


def test_the_picture_changes_when_the_table_does():
    rules = GAMES["madcat"].rules
    state = rules.setup(3, Rng.seeded(2).state)
    before = pictures.scene_key(pictures.scene_of("madcat", rules.view(state, None), NAMES[:3], None))
    seat = rules.to_act(state)[0]
    after_state, _ = rules.apply(state, seat, rules.legal_actions(state, seat)[0])
    after = pictures.scene_key(pictures.scene_of("madcat", rules.view(after_state, None), NAMES[:3], None))
    assert before != after


@pytest.mark.parametrize("key", sorted(GAMES))
def test_a_picture_pasted_from_kept_drawings_is_the_picture_drawn_afresh(key):
    """`Canvas.kept` pastes a seat, a card or a die drawn before: every picture of a whole game, painted
    with what earlier pictures kept, is pixel for pixel the picture drawn afresh (as under `watch`)."""
    rules = GAMES[key].rules
    for state in random_playout(rules, rules.max_players, 3, keep_states=True).states:
        scene = scene_of(key, state)
        with kit.watch():
            afresh = pictures.paint(key, scene).tobytes()
        pictures.paint(key, scene)
        assert pictures.paint(key, scene).tobytes() == afresh
