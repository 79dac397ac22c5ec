"""Nine Lives words and emoji shared by the table, the private panels and the controls: counts
against the nine-limit, cards, lives, and the owner's secret lines (each names its owner, so no public
message and no other player's panel ever holds the same line).

What a hand card would do, or why it can't be played, is the view's (`View.plays`, worked out by the
engine); these functions only put it into words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from engine.core import LastOf
from engine.ninelives._cards import EMOJI, LIMIT, POWERS, icons_text, life_name, life_text
from engine.ninelives.model import (
    CardView,
    HandPlay,
    LifeView,
    Phase,
    PlayWay,
    SeatView,
    Step,
    Unplayable,
    View,
)
from lang import N_, _, current, n_, p_

KEYCAPS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟")
CHOSEN = {
    Step.PLACE: N_("pick below where it goes"),
    Step.ICON: N_("pick below which icon it counts as"),
    Step.TO: N_("pick below who gets it"),
}


def cards_text(n: int) -> str:
    return n_("{count} card", "{count} cards", n)


def lives_text(n: int) -> str:
    return n_("{count} life", "{count} lives", n)


def ordinal(n: int) -> str:
    """A life's place in a stack: "1st", "2nd" …"""
    if 10 <= n % 100 <= 20 or n % 10 not in (1, 2, 3):
        return p_("a life's place in a stack", "{n}th", n=n)
    if n % 10 == 1:
        return p_("a life's place in a stack", "{n}st", n=n)
    if n % 10 == 2:
        return p_("a life's place in a stack", "{n}nd", n=n)
    return p_("a life's place in a stack", "{n}rd", n=n)


def keycap(position: int) -> str:
    """1 → "1️⃣" … 10 → "🔟": a list marker that Discord's markdown leaves alone."""
    return KEYCAPS[position - 1] if 1 <= position <= len(KEYCAPS) else f"`{position}`"


def bar(count: int) -> str:
    """A nine-slot bar: "▰▰▰▰▰▰▰▱▱" for 7; past the limit the extra shows as "+3"."""
    shown = min(count, LIMIT)
    return "▰" * shown + "▱" * (LIMIT - shown) + (f"+{count - LIMIT}" if count > LIMIT else "")


def count_line(cat: int, count: int, ignored: Sequence[int]) -> str:
    """One cat against the nine-limit: "🟦 `▰▰▰▰▰▰▰▰▰` **9**/9 🔒 full"."""
    head = f"{EMOJI[cat]} `{bar(count)}` **{count}**/{LIMIT}"
    if cat in ignored:
        return head + " " + _("🙈 ignored this round")
    if count == LIMIT:
        return head + " " + _("🔒 full")
    return head + " " + _("‼️ over the limit") if count > LIMIT else head


def counts_short(counts: Sequence[int], ignored: Sequence[int]) -> str:
    """The four cats in one line: "⚪ 7/9 · 🟦 9/9 · 🔺 3/9 · ⭐ 8/9" (🙈 marks an ignored cat)."""
    return " · ".join(
        f"{EMOJI[cat]} {count}/{LIMIT}" + (" 🙈" if cat in ignored else "")
        for cat, count in enumerate(counts)
    )


def card_text(card: CardView) -> str:
    return icons_text(card.icons)


def life_short(life: LifeView) -> str:
    """A life card by name with its draw: "⏭️ Skip Turn (draw 2)"."""
    card = life.card()
    return _(
        "{emoji} {power} (draw {count})",
        emoji=POWERS[card.power].emoji,
        power=life_name(card),
        count=card.draw,
    )


def life_glance(life: LifeView) -> str:
    """A life card by its power alone, for a player's line on the table: "⏭️ Skip Turn"."""
    card = life.card()
    return f"{POWERS[card.power].emoji} {life_name(card)}"


def life_long(life: LifeView) -> str:
    """A life card with what it does: "⏭️ Skip Turn (draw 2) — You may skip your turn; …"."""
    return f"{life_short(life)} — {life_text(life.card())}"


def hearts(seat: SeatView, over: bool = False) -> str:
    """Lives as nine hearts: ❤️ in the stack, 💛 wagered (at stake this round), 🖤 lost."""
    if over:
        return "❤️" * seat.lives + "🖤" * max(LIMIT - seat.lives, 0)
    stake = len(seat.wagered)
    return "❤️" * seat.stack_size + "💛" * stake + "🖤" * max(LIMIT - seat.stack_size - stake, 0)


def _changes(way: PlayWay, ignored: Sequence[int], hidden: str, shown: Callable[[int, int], str]) -> str:
    """The cats a play adds to, each as `shown(cat, count after)` or `hidden` when ignored."""
    return " · ".join(
        f"{EMOJI[cat]} {hidden if cat in ignored else shown(cat, way.after[cat])}"
        for cat in range(4)
        if way.adds[cat]
    )


def effect_text(way: PlayWay, ignored: Sequence[int]) -> str:
    """What a play does to the counts: "⚪ 7→9 · 🟦 2→3 · 🎯 perfect nine!"."""
    text = _changes(way, ignored, _("ignored"), lambda cat, count: f"{way.before[cat]}→{count}")
    return text + (" · " + _("🎯 perfect nine!") if way.nines else "")


def after_text(way: PlayWay, ignored: Sequence[int]) -> str:
    """Where the cats of a play end up, short enough for a button: "⚪ 3/9 · 🔺 9/9 🎯"."""
    text = _changes(way, ignored, "🙈", lambda cat, count: f"{count}/{LIMIT}")
    return text + (" 🎯" if way.nines else "")


class CardStatus(NamedTuple):
    """A hand card now in words: playable or not, a few words why or what it would do, whether it can
    make a perfect nine and whether playing it asks a follow-up question."""

    ok: bool
    text: str
    perfect: bool = False
    choose: bool = False


def my_turn(view: View) -> bool:
    return view.seat is not None and view.phase == Phase.PLAY and view.turn == view.seat


def play_of(view: View, card_id: str) -> HandPlay | None:
    """The view's word on hand card `card_id`: whether and how it can be played now."""
    return next((play for play in view.plays if play.card == card_id), None)


def unplayable_text(play: HandPlay) -> str:
    if play.why_not == Unplayable.MUST_PLAY_RECEIVED:
        return _("you must play one of the cards you just received")
    if play.why_not == Unplayable.FORBIDDEN:
        return _("🚫 Forbid: no {cat} this turn", cat=EMOJI[play.forbidden])
    over = " · ".join(_("{cat} would reach {count}", cat=EMOJI[cat], count=count) for cat, count in play.over)
    return over or _("no legal way to play it now")


_statuses: LastOf[View, dict[str, CardStatus]] = LastOf(lambda view, language: {})
"""The latest view's card statuses by card id, in the language speaking: a panel words each hand card
several times (the hand's title counts the playable ones, its lines and its controls say each), from the
same view."""


def card_status(view: View, card: CardView) -> CardStatus:
    """What the view says of a hand card, in words: on your turn whether it is legal under your power,
    otherwise whether it fits the table."""
    statuses = _statuses(view, current())
    status = statuses.get(card.id)
    if status is None:
        status = statuses[card.id] = _card_status(view, card)
    return status


def _card_status(view: View, card: CardView) -> CardStatus:
    play = play_of(view, card.id)
    if play is None or not play.playable:
        return CardStatus(
            False, unplayable_text(play) if play is not None else _("no legal way to play it now")
        )
    found = play.ways
    nines = any(way.nines for way in found)
    if len(found) == 1:
        return CardStatus(True, effect_text(found[0], view.ignored), nines)
    if any(way.icon >= 0 for way in found):
        cats = "".join(EMOJI[way.icon] for way in found)
        return CardStatus(True, _("counts as one of {cats}: you choose", cats=cats), nines, True)
    new = [way for way in found if way.mode == "t"]
    cover = any(way.mode == "cover" for way in found)
    count = len(found) - len(new)
    if not new:
        cards = n_("{count} table card", "{count} table cards", count)
        text = _("cover only ({cards})", cards=cards) if cover else _("swap with only ({cards})", cards=cards)
        return CardStatus(True, text, nines, True)
    effect = effect_text(new[0], view.ignored)
    if cover:
        return CardStatus(True, _("{effect} · or cover {count}", effect=effect, count=count), nines, True)
    return CardStatus(True, _("{effect} · or swap with {count}", effect=effect, count=count), nines, True)


def hand_line(view: View, card: CardView) -> str:
    """One card of the owner's hand: "✅ ⚪⚪🟦 — ⚪ 7→9 · 🎯 perfect nine!" (🟢/🔴 off turn)."""
    if view.over:
        return f"🃏 {card_text(card)}"
    if view.selected is not None and view.selected.id == card.id:
        what = CHOSEN.get(view.step)
        return _(
            "👉 {card} — chosen: {what}", card=card_text(card), what=_(what) if what else _("decide below")
        )
    if any(gift.id == card.id for gift in view.gifts):
        return _("🎠 {card} — chosen to pass on", card=card_text(card))
    status = card_status(view, card)
    marks = ("✅", "⛔") if my_turn(view) else ("🟢", "🔴")
    return f"{marks[0] if status.ok else marks[1]} {card_text(card)} — {status.text}"


def hand_lines(view: View) -> list[str]:
    """The owner's hand, a line per card, so that a big hand still fits a phone's screen: the cards held
    back share a line per reason ("⛔ ⚪⚪ · 🟦 — 🚫 Forbid: no ⭐ this turn"; "would take 🟦 over 9"),
    and once a card is picked (NL-X10) the others share one."""
    if view.over or not view.hand:
        return [hand_line(view, card) for card in view.hand] or [_("Your hand is empty.")]
    chosen = view.selected
    if chosen is not None and any(card.id == chosen.id for card in view.hand):
        rest = [card_text(card) for card in view.hand if card.id != chosen.id]
        others = [_("🃏 Your other cards: {cards}", cards=" · ".join(rest))] if rest else []
        return [hand_line(view, chosen), *others]
    lines: list[str] = []
    held: dict[str, list[str]] = {}
    over: set[int] = set()
    for card in view.hand:
        status = card_status(view, card)
        play = play_of(view, card.id)
        if status.ok or any(gift.id == card.id for gift in view.gifts):
            lines.append(hand_line(view, card))
        elif play is not None and play.why_not == Unplayable.LIMIT:
            over.update(cat for cat, _ in play.over)
            held.setdefault("", []).append(card_text(card))
        else:
            held.setdefault(status.text, []).append(card_text(card))
    mark = "⛔" if my_turn(view) else "🔴"
    too_many = _(
        "would take {cats} over {limit}", cats="/".join(EMOJI[cat] for cat in sorted(over)), limit=LIMIT
    )
    return lines + [f"{mark} {' · '.join(cards)} — {why or too_many}" for why, cards in held.items()]


def stack_line(position: int, life: LifeView) -> str:
    """One life of the owner's stack: the top one with what it does, "1️⃣ ⏭️ Skip Turn (draw 2) — … · 🔝
    on top", the others by name, "2️⃣ ⏭️ Skip Turn (draw 2)" (one line each on a phone; the guide says
    what every power does)."""
    if position == 1:
        return f"{keycap(position)} {life_long(life)} · " + _("🔝 on top")
    return f"{keycap(position)} {life_short(life)}"


def top_line(life: LifeView) -> str:
    """The owner's top life with what it does, in their panel: "🔝 ⏭️ Skip Turn (draw 2) — …" (as the
    table shows everyone's once the stacks are ordered, NL-X11)."""
    return f"🔝 {life_long(life)}"


def loose_line(life: LifeView) -> str:
    """A life of the owner not placed yet in the order being made, by name: the select to place it
    says what each does."""
    return f"▫️ {life_short(life)}"


def stack_lines(view: View) -> list[str]:
    return [stack_line(index, life) for index, life in enumerate(view.my_stack, start=1)]


def arranging_lines(view: View) -> list[str]:
    """The owner's own order in the making: lives placed so far (after the stack when returning
    wagered lives, NL-5), then those still to place."""
    placed = len(view.my_stack) if view.phase == Phase.RETURN else 0
    lines = [stack_line(placed + i, life) for i, life in enumerate(view.arranged, start=1)]
    return lines + [loose_line(life) for life in view.arranging]


def pick_lines(view: View) -> list[str]:
    """The cards the owner chose to pass in a Card Carousel."""
    return [f"🎠 {card_text(card)}" for card in view.gifts]


def arranging_own(view: View) -> bool:
    return bool(view.arranging) and view.arranging_for == view.seat


def secret_lines(view: View) -> set[str]:
    """Every line of the owner's secret fields in their panel and behind its more button, for secrecy
    tests: their hand, their stack (its top too while the stacks are being ordered, NL-X11), their
    Carousel pick and the order they are making. Another seat's own view may print some of the same
    lines (the same card, the same life): a test looks for those its own view does not print."""
    lines = {*hand_lines(view), *stack_lines(view), *pick_lines(view)}
    if view.my_stack and view.phase == Phase.ORDER:
        lines.add(top_line(view.my_stack[0]))
    return lines | set(arranging_lines(view)) if arranging_own(view) else lines
