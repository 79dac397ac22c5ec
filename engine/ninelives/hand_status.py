"""What a Nine Lives card would do if played now: the ways it can be placed, the counts it would
reach, and whether it is playable — so the private hand can mark each card ✅ or ⛔ with the reason.

It follows the engine's own counting (`engine.ninelives.counting`), and the renderer's whole-game
test checks the marks against the engine's legal plays in every state.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from engine.ninelives.cards import EMOJI, LIMIT, Counts, LifeCard
from engine.ninelives.counting import Placement as Way
from engine.ninelives.counting import effective, perfect, placements, plus
from engine.ninelives.model import CardView, View


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def ways(view: View, icons: Counts, power: LifeCard | None) -> list[Way]:
    """Every legal way to play a card printed `icons` under `power`, as the engine allows them."""
    return placements(icons, power, tuple(view.counts), view.table, view.ignored)  # type: ignore[arg-type]


def is_perfect(way: Way, ignored: Sequence[int]) -> bool:
    """NL-4: a cat on the played card reaches exactly nine."""
    return bool(perfect(plus(way.before, way.adds), way.adds, tuple(ignored)))


def _changes(way: Way, ignored: Sequence[int], hidden: str, shown: Callable[[int, int], str]) -> str:
    """The cats a play adds to, each as `shown(cat, count after)` or `hidden` when ignored."""
    after = plus(way.before, way.adds)
    return " · ".join(
        f"{EMOJI[cat]} {hidden if cat in ignored else shown(cat, after[cat])}"
        for cat in range(4)
        if way.adds[cat]
    )


def effect_text(way: Way, ignored: Sequence[int]) -> str:
    """What a play does to the counts: "⚪ 7→9 · 🟦 2→3 · 🎯 perfect nine!"."""
    text = _changes(way, ignored, "ignored", lambda cat, count: f"{way.before[cat]}→{count}")
    return text + (" · 🎯 perfect nine!" if is_perfect(way, ignored) else "")


def after_text(way: Way, ignored: Sequence[int]) -> str:
    """Where the cats of a play end up, short enough for a button: "⚪ 3/9 · 🔺 9/9 🎯"."""
    text = _changes(way, ignored, "🙈", lambda cat, count: f"{count}/{LIMIT}")
    return text + (" 🎯" if is_perfect(way, ignored) else "")


class CardStatus(NamedTuple):
    """A hand card now: playable or not, a few words why or what it would do, whether it can make a
    perfect nine and whether playing it asks a follow-up question."""

    ok: bool
    text: str
    perfect: bool = False
    choose: bool = False


def my_turn(view: View) -> bool:
    return view.seat is not None and view.phase == "play" and view.turn == view.seat


def power_now(view: View) -> LifeCard | None:
    return view.power.card() if view.power is not None else None


def card_status(view: View, card: CardView) -> CardStatus:
    """On your turn, whether the card is legal under your power; otherwise whether it fits the table."""
    mine = my_turn(view)
    power = power_now(view) if mine else None
    if mine and view.must_from and card.id not in view.must_from:
        return CardStatus(False, "you must play one of the cards you just received")
    found = ways(view, card.icons, power)
    if not found:
        if power is not None and power.power == "forbid":
            return CardStatus(False, f"🚫 Forbid: no {EMOJI[power.a]} this turn")
        adds, _ = effective(card.icons, power)
        allowed = power.a if power is not None and power.power == "plus" else -1
        over = [
            f"{EMOJI[cat]} would reach {view.counts[cat] + adds[cat]}"
            for cat in range(4)
            if adds[cat]
            and cat not in view.ignored
            and cat != allowed
            and view.counts[cat] + adds[cat] > LIMIT
        ]
        return CardStatus(False, " · ".join(over) or "no legal way to play it now")
    nines = any(is_perfect(way, view.ignored) for way in found)
    if len(found) == 1:
        return CardStatus(True, effect_text(found[0], view.ignored), nines)
    if power is not None and power.power == "single_cat":
        cats = "".join(EMOJI[way.icon] for way in found)
        return CardStatus(True, f"counts as one of {cats}: you choose", nines, True)
    new = [way for way in found if way.mode == "t"]
    head = effect_text(new[0], view.ignored) if new else "not as a new card"
    verb = "cover" if power is not None and power.power == "replace" else "swap with"
    return CardStatus(True, f"{head} · or {verb} {plural(len(found) - len(new), 'table card')}", nines, True)


def playable_ids(view: View) -> set[str]:
    """Ids of the hand cards that `card_status` calls playable."""
    return {card.id for card in view.hand if card_status(view, card).ok}


# ---- the owner's secret lines (each names its owner) -----------------------------------------------------
