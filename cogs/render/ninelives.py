"""Nine Lives at the table: each cat's count against the nine-limit, the cards on the table, every
player's lives, top life card, hand size and safe status, the power in force, open hands while Inspect
lasts, and a control for every decision (wager, play and its follow-ups, the power's choices, life
orders, the Card Carousel and the Kittyqueen tie pick).

Private panels show the owner's hand with what each card would do now and the life stack to browse.
Every line of those fields names its owner ("Ann's ⚪🟦 — …"): no two players' panels, and no public
message, ever hold the same secret line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from cogs.render.base import Choice, Control, Renderer
from engine.ninelives.cards import EMOJI, LIMIT, POWERS, LifeCard, icons_text, life_name, life_text
from engine.ninelives.counting import effective, fits, minus, perfect, plus
from engine.ninelives.model import CardView, LifeView, SeatView, View

Counts = tuple[int, int, int, int]
WILD = frozenset({"wildcard", "wildcard_paid"})
KEYCAPS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟")
BUTTONS = 5
OPTIONS = 25
ROWS = 4
CARD_BUTTONS = 10  # playable cards shown as buttons (two rows); more go into grouped selects
PRIVATE_STEPS = frozenset({"play", "place", "icon", "give", "to", "reorder"})
PRIVATE_PHASES = frozenset({"order", "return", "carousel"})
CHOSEN = {
    "place": "pick below where it goes",
    "icon": "pick below which icon it counts as",
    "to": "pick below who gets it",
}
TABLE_PHASES = frozenset({"play", "carousel"})


# ---- cats and cards as text ------------------------------------------------------------------------------


def bar(count: int) -> str:
    """A nine-slot bar: "▰▰▰▰▰▰▰▱▱" for 7; past the limit the extra shows as "+3"."""
    shown = min(count, LIMIT)
    extra = f"+{count - LIMIT}" if count > LIMIT else ""
    return "▰" * shown + "▱" * (LIMIT - shown) + extra


def count_line(cat: int, count: int, ignored: Sequence[int]) -> str:
    """One cat against the nine-limit: "🟦 `▰▰▰▰▰▰▰▰▰` **9**/9 🔒 full"."""
    head = f"{EMOJI[cat]} `{bar(count)}` **{count}**/{LIMIT}"
    if cat in ignored:
        return f"{head} 🙈 ignored this round"
    if count == LIMIT:
        return f"{head} 🔒 full"
    if count > LIMIT:
        return f"{head} ‼️ over the limit"
    return head


def counts_short(counts: Sequence[int], ignored: Sequence[int]) -> str:
    """The four cats in one line: "⚪ 7/9 · 🟦 9/9 · 🔺 3/9 · ⭐ 8/9" (🙈 for an ignored cat)."""
    return " · ".join(
        f"{EMOJI[cat]} {count}/{LIMIT}" + (" 🙈" if cat in ignored else "")
        for cat, count in enumerate(counts)
    )


def card_text(card: CardView) -> str:
    return icons_text(card.icons)


def life_short(life: LifeView) -> str:
    """A life card by name with its draw: "⏭️ Skip Turn (draw 2)"."""
    card = life.card()
    return f"{POWERS[card.power].emoji} {life_name(card)} (draw {card.draw})"


def life_long(life: LifeView) -> str:
    """A life card with what it does: "⏭️ Skip Turn (draw 2) — You may skip your turn; …"."""
    return f"{life_short(life)} — {life_text(life.card())}"


def keycap(position: int) -> str:
    """1 → "1️⃣" … 10 → "🔟" (a list marker Discord's markdown leaves alone)."""
    return KEYCAPS[position - 1] if 1 <= position <= len(KEYCAPS) else f"`{position}`"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def lives_text(n: int) -> str:
    return f"{n} {'life' if n == 1 else 'lives'}"


def hearts(seat: SeatView, over: bool = False) -> str:
    """Lives as nine hearts: ❤️ in the stack, 💛 wagered (at stake this round), 🖤 lost."""
    if over:
        return "❤️" * seat.lives + "🖤" * max(LIMIT - seat.lives, 0)
    stack, stake = seat.stack_size, len(seat.wagered)
    lost = max(LIMIT - stack - stake, 0)
    return "❤️" * stack + "💛" * stake + "🖤" * lost


# ---- what a card would do ------------------------------------------------------------------------------


class Way(NamedTuple):
    """One legal way to play a card: as a new table card ("t"), or covering/swapping `pile`."""

    mode: str
    pile: int
    icon: int
    before: Counts
    adds: Counts


def ways(view: View, icons: Counts, power: LifeCard | None) -> list[Way]:
    """Every legal way to play a card printed `icons` under `power` (NL-2, NL-3, NL-9, NL-10)."""
    key = power.power if power is not None else ""
    if key == "forbid" and icons[power.a]:
        return []
    allowed = power.a if key == "plus" else -1
    marks = [cat for cat in range(4) if icons[cat]] if key == "single_cat" else [-1]
    base: Counts = tuple(view.counts)  # type: ignore[assignment]
    modes = [("t", -1, base)]
    if key in ("replace", "swap"):
        mode = "cover" if key == "replace" else "swap"
        modes += [(mode, index, minus(base, pile[-1].counts)) for index, pile in enumerate(view.table)]
    found = []
    for mode, pile, before in modes:
        for icon in marks:
            adds, _ = effective(icons, power, icon)
            if key in WILD or fits(before, adds, view.ignored, allowed):
                found.append(Way(mode, pile, icon, before, adds))
    return found


def effect_text(way: Way, ignored: Sequence[int]) -> str:
    """What a play does to the counts: "⚪ 7→9 · 🟦 2→3 · 🎯 perfect nine!"."""
    after = plus(way.before, way.adds)
    parts = [
        f"{EMOJI[cat]} ignored" if cat in ignored else f"{EMOJI[cat]} {way.before[cat]}→{after[cat]}"
        for cat in range(4)
        if way.adds[cat]
    ]
    text = " · ".join(parts) or "adds nothing"
    if perfect(after, way.adds, tuple(ignored)):
        text += " · 🎯 perfect nine!"
    return text


def after_text(way: Way, ignored: Sequence[int]) -> str:
    """Where the cats a play adds end up, for a button: "⚪ 3/9 · 🔺 9/9 🎯"."""
    after = plus(way.before, way.adds)
    parts = [
        f"{EMOJI[cat]} 🙈" if cat in ignored else f"{EMOJI[cat]} {after[cat]}/{LIMIT}"
        for cat in range(4)
        if way.adds[cat]
    ]
    return " · ".join(parts) + (" 🎯" if is_perfect(way, ignored) else "")


def is_perfect(way: Way, ignored: Sequence[int]) -> bool:
    return bool(perfect(plus(way.before, way.adds), way.adds, tuple(ignored)))


class CardStatus(NamedTuple):
    """A hand card's standing now: playable or not, and a few words why / what it would do."""

    ok: bool
    text: str
    perfect: bool = False
    choose: bool = False


def my_turn(view: View) -> bool:
    return view.seat is not None and view.phase == "play" and view.turn == view.seat


def card_status(view: View, card: CardView) -> CardStatus:
    """On your turn: whether the card is legal now under your power; otherwise whether it fits the table."""
    power = view.power.card() if my_turn(view) and view.power is not None else None
    if my_turn(view) and view.must_from and card.id not in view.must_from:
        return CardStatus(False, "you must play one of the cards you just received")
    found = ways(view, card.icons, power)
    if not found:
        if power is not None and power.power == "forbid" and card.icons[power.a]:
            return CardStatus(False, f"🚫 Forbid: no {EMOJI[power.a]} this turn")
        allowed = power.a if power is not None and power.power == "plus" else -1
        over = [
            f"{EMOJI[cat]} would reach {view.counts[cat] + card.icons[cat]}"
            for cat in range(4)
            if card.icons[cat]
            and cat not in view.ignored
            and cat != allowed
            and view.counts[cat] + card.icons[cat] > LIMIT
        ]
        return CardStatus(False, " · ".join(over) or "no legal way to play it now")
    if len(found) == 1:
        way = found[0]
        return CardStatus(True, effect_text(way, view.ignored), is_perfect(way, view.ignored))
    nines = any(is_perfect(way, view.ignored) for way in found)
    new = [way for way in found if way.mode == "t" and way.icon < 0]
    if power is not None and power.power == "single_cat":
        cats = "".join(EMOJI[way.icon] for way in found)
        return CardStatus(True, f"counts as one of {cats}: you choose", nines, True)
    other = len(found) - len(new)
    verb = "cover" if power is not None and power.power == "replace" else "swap with"
    head = effect_text(new[0], view.ignored) if new else "not as a new card"
    return CardStatus(True, f"{head} · or {verb} {plural(other, 'table card')}", nines, True)


def playable_ids(view: View) -> set[str]:
    """Ids of the hand cards `card_status` calls playable."""
    return {card.id for card in view.hand if card_status(view, card).ok}


# ---- private lines (each names its owner) ----------------------------------------------------------------


def hand_line(view: View, name: str, card: CardView) -> str:
    """One card of the owner's hand: "✅ Ann's ⚪⚪🟦 — ⚪ 7→9 · 🎯 perfect nine!"."""
    if view.over:
        return f"🃏 {name}'s {card_text(card)}"
    status = card_status(view, card)
    if view.selected is not None and view.selected.id == card.id:
        return f"👉 {name}'s {card_text(card)} — chosen: {CHOSEN.get(view.step, 'decide below')}"
    if card.id in {gift.id for gift in view.gifts}:
        return f"🎠 {name}'s {card_text(card)} — chosen to pass on"
    marks = ("✅", "⛔") if my_turn(view) else ("🟢", "🔴")
    mark = marks[0] if status.ok else marks[1]
    return f"{mark} {name}'s {card_text(card)} — {status.text}"


def hand_lines(view: View, name: str) -> list[str]:
    return [hand_line(view, name, card) for card in view.hand] or [f"{name}'s hand is empty."]


def stack_line(name: str, position: int, life: LifeView) -> str:
    """One life of the owner's stack: "1️⃣ Ann's ⏭️ Skip Turn (draw 2) — …" (the first is on top)."""
    top = " · 🔝 on top" if position == 1 else ""
    return f"{keycap(position)} {name}'s {life_long(life)}{top}"


def loose_line(name: str, life: LifeView) -> str:
    """A life of the owner not placed yet in the order being made."""
    return f"▫️ {name}'s {life_long(life)}"


def stack_lines(view: View, name: str) -> list[str]:
    return [stack_line(name, index, life) for index, life in enumerate(view.my_stack, start=1)]


def pick_lines(view: View, name: str) -> list[str]:
    """The cards the owner chose to pass in a Card Carousel."""
    return [f"🎠 {name} passes {card_text(card)}" for card in view.gifts]


def secret_lines(view: View, name: str) -> set[str]:
    """Every line that `private_fields` prints in the owner's secret fields (for secrecy tests)."""
    lines = set(hand_lines(view, name)) | set(stack_lines(view, name)) | set(pick_lines(view, name))
    if _arranging_own(view):
        placed = len(view.my_stack) if view.phase == "return" else 0
        lines |= {stack_line(name, placed + i, life) for i, life in enumerate(view.arranged, start=1)}
        lines |= {loose_line(name, life) for life in view.arranging}
    return lines


def _arranging_own(view: View) -> bool:
    return bool(view.arranging) and view.arranging_for == view.seat


# ---- the renderer --------------------------------------------------------------------------------------


class NineLivesRenderer(Renderer):
    hand_label = "My hand"
    emoji = "🐈‍⬛"

    def table_fields(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        fields = []
        if not view.over:
            fields.append(self._cats(view))
            fields += self._situation(view, names)
            opened = self._open_hands(view, names)
            if opened:
                fields.append(opened)
        order = range(view.players)
        if view.over:
            order = sorted(order, key=lambda seat: -view.seats[seat].lives)
        fields += [self._player(view, seat, names) for seat in order]
        return fields

    def private_fields(self, view: View, public: View, names: Sequence[str]) -> list[tuple[str, str]]:
        seat = view.seat
        assert seat is not None
        name = names[seat]
        fields = []
        if view.phase in TABLE_PHASES:
            power = ""
            if my_turn(view) and view.power is not None:
                power = f"\n⚡ Your power this turn: {life_long(view.power)}"
            me = view.seats[seat]
            safe = "\n🛡️ You made a perfect nine: you are safe this round." if me.safe else ""
            fields.append(
                (
                    f"🐾 Cats on the table · round {view.round}",
                    counts_short(view.counts, view.ignored) + power + safe,
                )
            )
        fields.append(self._hand(view, name))
        if view.gift_need:
            side = "left" if view.direction == 1 else "right"
            to = names[(seat + view.direction) % view.players]
            title = f"Your pick — {len(view.gifts)} of {view.gift_need} cards to pass {side} to {to}"
            fields.append((title, "\n".join(pick_lines(view, name)) or f"{name} has not chosen yet."))
        fields += self._stack(view, names)
        wagered = view.seats[seat].wagered
        if wagered and view.phase in TABLE_PHASES:
            lines = [f"💛 {life_short(life)}" for life in wagered]
            fields.append(("🎲 Lives you wagered this round (at stake)", "\n".join(lines)))
        opened = self._open_hands(view, names)
        if opened:
            fields.append(opened)
        return fields

    def prompt(self, view: View, names: Sequence[str]) -> str:
        text = super().prompt(view, names)
        if view.over or view.seat is not None:
            return text
        private = view.phase in PRIVATE_PHASES or (view.phase == "play" and view.step in PRIVATE_STEPS)
        if private:
            text = f"{text.rstrip('.')} — privately, with 🃏 **{self.hand_label}**"
        return text

    # ---- table fields ----

    def _cats(self, view: View) -> tuple[str, str]:
        piles = f"🂠 Deck {view.deck_size} · 🗑️ Discard {len(view.discard)}"
        if view.phase == "order":
            return "🐾 Setting up", f"Round 1 starts once every stack is in order.\n{piles}"
        if view.phase not in TABLE_PHASES:
            return f"🐾 Round {view.round} is over", f"The table is cleared for the next round.\n{piles}"
        lines = [count_line(cat, count, view.ignored) for cat, count in enumerate(view.counts)]
        piles = []
        for pile in view.table:
            top = pile[-1]
            text = f"**{card_text(top.card)}**"
            if top.note:
                text += f" ({top.note})"
            if len(pile) > 1:
                text += f" on {len(pile) - 1} covered"
            piles.append(text)
        if piles:
            rows = [" · ".join(piles[i : i + 6]) for i in range(0, len(piles), 6)]
            lines.append("🃏 On the table: " + "\n".join(rows))
        else:
            lines.append("🃏 No cards on the table yet.")
        lines.append(f"🂠 Deck {view.deck_size} · 🗑️ Discard {len(view.discard)}")
        return f"🐾 Round {view.round} · every cat at most {LIMIT} times", "\n".join(lines)

    def _situation(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        """What the current phase or turn is about: powers in force, who is still choosing, the tie."""
        phase = view.phase
        waiting = set(view.to_act)
        if phase == "order":
            lines = [
                f"⏳ {names[s]} is ordering" if s in waiting else f"✅ {names[s]} is ready"
                for s in range(view.players)
            ]
            title = "📜 Everyone secretly puts their 9 lives in order (top card first)"
            return [(title, "\n".join(lines))]
        if phase == "return":
            lines = [
                f"⏳ {names[s]} puts back " + ", ".join(life_short(life) for life in view.seats[s].wagered)
                for s in view.to_act
            ]
            return [("↩️ Wagered lives go back under their stacks", "\n".join(lines) or "—")]
        if phase == "carousel":
            side = "left" if view.direction == 1 else "right"
            chain = " → ".join(
                names[(view.turn + view.direction * k) % view.players] for k in range(view.players + 1)
            )
            lines = [
                f"⏳ {names[s]} is choosing" if s in waiting else f"✅ {names[s]} has chosen"
                for s in range(view.players)
            ]
            return [
                (f"🎠 Card Carousel: everyone passes 2 cards to the {side}", f"{chain}\n" + " · ".join(lines))
            ]
        if phase == "queen":
            most = view.seats[view.tied[0]].hand_size if view.tied else 0
            tied = ", ".join(names[s] for s in view.tied)
            text = (
                f"{tied} tie with {plural(most, 'card')} in hand.\n"
                f"👑 {names[view.queen]}, the Kittyqueen, picks who rules next."
            )
            return [("👑 Who rules next?", text)]
        if phase != "play":
            return []
        return self._turn(view, names)

    def _turn(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        who = names[view.turn]
        lines = []
        if view.power is not None:
            lines.append(f"⚡ {who}'s power: {life_long(view.power)}")
        target = getattr(view, "shuffle_target", None)
        if view.step == "reorder" and target is not None:
            lines.append(f"🔀 {who} is reordering {names[target]}'s life stack.")
        if view.wager_rule == "force" and not view.wagered_now:
            lines.append(f"⚠️ {who} must wager a life this turn (Force Wager).")
        elif view.wager_rule == "forbid":
            lines.append(f"🔒 {who} may not wager a life this turn (Forbid Wager).")
        elif view.wagered_now and view.power is None:
            lines.append(f"🎲 {who} has wagered this turn.")
        if view.optional_now:
            lines.append(f"⏩ Extra turn: {who} may play again or end the turn.")
        if view.owed:
            lines.append(f"⏩ {who} still owes {plural(view.owed, 'more turn')}.")
        nxt = []
        if view.next_skip:
            nxt.append("must skip a turn" if view.next_skip == 1 else f"must skip {view.next_skip} turns")
        if view.next_double:
            nxt.append("must take 2 turns")
        if view.next_wager == "force":
            nxt.append("must wager a life")
        elif view.next_wager == "forbid":
            nxt.append("may not wager a life")
        if nxt:
            lines.append("➡️ The next player " + ", ".join(nxt) + ".")
        for cat in view.ignored:
            lines.append(f"🙈 Everyone ignores {EMOJI[cat]} this round.")
        if not lines:
            return []
        return [(f"▶ {who}'s turn", "\n".join(lines))]

    def _open_hands(self, view: View, names: Sequence[str]) -> tuple[str, str] | None:
        """Hands played open while an Inspect lasts (only then)."""
        lines = [
            f"👁️ **{names[seat.seat]}**: " + (" · ".join(card_text(c) for c in seat.open_hand) or "no cards")
            for seat in view.seats
            if seat.open_hand is not None
        ]
        if not lines:
            return None
        return "🔍 Open hands (Inspect, until the round ends)", "\n".join(lines)

    def _player(self, view: View, seat: int, names: Sequence[str]) -> tuple[str, str]:
        info = view.seats[seat]
        marks = ""
        if view.over:
            best = max(s.lives for s in view.seats)
            marks = "🏆 " if info.lives == best else "💀 " if info.lives == 0 else ""
        else:
            if seat in view.to_act:
                marks += "▶ "
            if seat == view.queen:
                marks += "👑 "
        safe = " · 🛡️ safe" if info.safe else ""
        title = f"{marks}{names[seat]} — {lives_text(info.lives)} · 🃏 {info.hand_size}{safe}"
        lines = [hearts(info, view.over)]
        if view.over:
            return title, lines[0]
        if info.top is not None:
            lines.append(f"🔝 {life_long(info.top)}")
        elif view.phase == "order":
            lines.append("🔝 Top life hidden until everyone has ordered.")
        else:
            lines.append("🔝 No life left in the stack.")
        if info.wagered:
            lines.append("🎲 At stake: " + " · ".join(life_short(life) for life in info.wagered))
        if info.safe:
            lines.append("🛡️ Perfect nine: safe for the rest of the round.")
        return title, "\n".join(lines)

    # ---- private fields ----

    def _hand(self, view: View, name: str) -> tuple[str, str]:
        cards = len(view.hand)
        ok = sum(card_status(view, card).ok for card in view.hand)
        if my_turn(view) and view.step == "play" and view.wager_rule == "force" and not view.wagered_now:
            note = "you must wager first"
        elif my_turn(view):
            note = f"{ok} playable now"
        else:
            note = f"{ok} would fit the table now"
        opened = " · 🔍 open to everyone" if view.seats[view.seat].open_hand is not None else ""
        title = f"Your hand — {plural(cards, 'card')}, {note}{opened}"
        return title, "\n".join(hand_lines(view, name))

    def _stack(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        seat = view.seat
        name = names[seat]
        fields = []
        arranging_own = _arranging_own(view)
        if not (arranging_own and view.phase == "order"):
            count = len(view.my_stack)
            title = (
                f"Your life stack — {lives_text(count)}, top first" if count else "Your life stack — empty"
            )
            fields.append((title, "\n".join(stack_lines(view, name)) or f"{name}'s stack is empty."))
        if arranging_own:
            placed = len(view.my_stack) if view.phase == "return" else 0
            total = placed + len(view.arranged) + len(view.arranging)
            lines = [stack_line(name, placed + i, life) for i, life in enumerate(view.arranged, start=1)]
            if view.phase == "order":
                title = f"Your life stack — ordering: {len(view.arranged)} of {total} placed"
            elif view.phase == "return":
                title = "Your life stack — wagered lives going back under it"
            else:
                title = f"Your life stack — reordering: {len(view.arranged)} of {total} placed"
            lines += [loose_line(name, life) for life in view.arranging]
            fields.append((title, "\n".join(lines)))
        elif view.arranging and view.arranging_for is not None:
            owner = names[view.arranging_for]
            lines = [f"{keycap(i)} {life_short(life)}" for i, life in enumerate(view.arranged, start=1)]
            lines += [f"▫️ {life_short(life)}" for life in view.arranging]
            fields.append((f"🔀 {owner}'s life stack — you put it in a new order", "\n".join(lines)))
        return fields

    # ---- controls ----

    def controls(self, view: View, choices: Sequence[Choice]) -> list[Control] | None:
        """Wager/skip/give-up buttons and a button or grouped select per playable card, then a control
        per follow-up (where the card goes, which icon, whose power, whom to steal from, …); None when
        a legal action would be missed or the rows do not fit."""
        legal = {choice.value: choice for choice in choices}
        if not legal or view.seat is None:
            return None
        if view.phase in ("order", "return") or (view.phase == "play" and view.step == "reorder"):
            controls = self._order_controls(view, legal)
        elif view.phase == "play" and view.step == "play":
            controls = self._play_controls(view, legal)
        else:
            controls = self._pick_controls(view, legal)
        controls = [control for control in controls if control.choices]
        offered = [choice.value for control in controls for choice in control.choices]
        if set(offered) != set(legal) or len(offered) != len(set(offered)) or len(controls) > ROWS:
            return None
        return controls

    def _play_controls(self, view: View, legal: dict[str, Choice]) -> list[Control]:
        top = []
        if "w" in legal:
            life = view.my_stack[0] if view.my_stack else None
            label = f"🎲 Wager {life_short(life)}" if life is not None else legal["w"].label
            top.append(Choice("w", label))
        if "skip" in legal:
            top.append(Choice("skip", "⏭️ Skip your turn"))
        cards = []
        for card in view.hand:
            value = f"p:{card.id}"
            if value not in legal:
                continue
            status = card_status(view, card)
            label = (
                f"🐱 Play {card_text(card)}"
                + (" 🎯" if status.perfect else "")
                + ("…" if status.choose else "")
            )
            cards.append(Choice(value, label, status.text))
        known = {"w", "skip", "giveup", "end", *(c.value for c in cards)}
        cards += [choice for value, choice in legal.items() if value not in known]
        controls = [Control("buttons", tuple(top), style="primary")]
        if len(cards) <= CARD_BUTTONS:
            controls += [
                Control("buttons", tuple(cards[i : i + BUTTONS]), style="success")
                for i in range(0, len(cards), BUTTONS)
            ]
        else:
            controls += grouped(cards, "🐱 Play a card", rows=ROWS - 2)
        last = []
        if "end" in legal:
            last.append(Choice("end", "✋ End your turn"))
        if "giveup" in legal:
            last.append(Choice("giveup", "🏳️ Give up (lose a life)"))
        controls.append(Control("buttons", tuple(last), style="danger"))
        return controls

    def _order_controls(self, view: View, legal: dict[str, Choice]) -> list[Control]:
        position = len(view.arranged) + 1
        if view.phase == "return":
            position += len(view.my_stack)
        options = tuple(
            Choice(f"n:{life.id}", life_short(life)[:100], life_text(life.card())[:100])
            for life in view.arranging
            if f"n:{life.id}" in legal
        )
        seen: set[str] = set()
        options = tuple(c for c in options if not (c.value in seen or seen.add(c.value)))
        whose = "your" if view.arranging_for in (None, view.seat) else "the"
        placeholder = f"Choose {whose} {ordinal(position)} life (from the top)…"
        keep = tuple(Choice("keep", "✅ Keep the rest in this order") for _ in (0,) if "keep" in legal)
        return [
            Control("select", options, placeholder=placeholder),
            Control("buttons", keep, style="success"),
        ]

    def _pick_controls(self, view: View, legal: dict[str, Choice]) -> list[Control]:
        step = view.step if view.phase == "play" else view.phase
        choices = [self._describe(view, value, choice) for value, choice in legal.items()]
        placeholder = PLACEHOLDERS.get(step, "Choose…")
        if step == "place":
            new = [c for c in choices if c.value == "t"]
            rest = [c for c in choices if c.value != "t"]
            if new and len(rest) > BUTTONS - 1:
                return [
                    Control("buttons", tuple(new), style="success"),
                    *grouped(rest, placeholder, ROWS - 1),
                ]
        return grouped(choices, placeholder, ROWS)

    def _describe(self, view: View, value: str, choice: Choice) -> Choice:
        """A follow-up choice with a useful label and, for selects, what it would do."""
        verb, _, arg = value.partition(":")
        if verb in ("give", "pass"):
            card = next((c for c in view.hand if c.id == arg), None)
            word = "💸 Give" if verb == "give" else "🎠 Pass"
            return Choice(value, f"{word} {card_text(card)}") if card is not None else choice
        if verb in ("t", "cover", "swap", "icon", "take"):
            return self._describe_placing(view, verb, arg, choice)
        if verb in ("copy", "to", "from", "stack", "queen") and arg.isdigit():
            seat = view.seats[int(arg)]
            if verb == "copy":
                return Choice(value, choice.label, life_text(seat.top.card()) if seat.top else None)
            if verb == "stack":
                return Choice(value, choice.label, f"{lives_text(seat.stack_size)} in the stack")
            return Choice(value, choice.label, f"{plural(seat.hand_size, 'card')} in hand")
        if verb == "from" and arg == "t":
            return Choice(value, choice.label, f"{plural(len(view.table), 'uncovered card')} to choose from")
        return choice

    def _describe_placing(self, view: View, verb: str, arg: str, choice: Choice) -> Choice:
        """Where the chosen card goes (new card, cover, swap, which icon), or which table card to take."""
        value = choice.value
        piles = {pile[-1].card.id: index for index, pile in enumerate(view.table)}
        if verb == "take":
            if arg not in piles:
                return choice
            top = view.table[piles[arg]][-1]
            return Choice(
                value, f"🦝 Take {card_text(top.card)}", "into your hand; what it covered counts again"
            )
        if view.selected is None:
            return choice
        power = view.power.card() if view.power is not None else None
        found = ways(view, view.selected.icons, power)
        if verb == "icon":
            found = [way for way in found if way.icon == int(arg)]
            text = f" → {after_text(found[0], view.ignored)}" if found else ""
            return Choice(value, f"☝️ Count it as one {EMOJI[int(arg)]}{text}")
        if verb == "t":
            found = [way for way in found if way.mode == "t"]
            label = "🐱 Play it as a new table card"
        else:
            if arg not in piles:
                return choice
            found = [way for way in found if way.pile == piles[arg]]
            word = "🔁 Cover" if verb == "cover" else "🔄 Swap it for"
            label = f"{word} {card_text(view.table[piles[arg]][-1].card)}"
        if not found:
            return Choice(value, label)
        return Choice(
            value, f"{label} → {after_text(found[0], view.ignored)}", effect_text(found[0], view.ignored)
        )


PLACEHOLDERS = {
    "place": "🔁 Where does your card go?",
    "icon": "☝️ Which icon does your card count as?",
    "copy": "🐈 Whose top life power do you copy?",
    "give": "💸 Which card do you give away?",
    "to": "💸 Who gets your card?",
    "from": "🦝 Where do you steal from?",
    "take": "🦝 Which table card do you take?",
    "dir": "🎠 Which way do the cards go?",
    "stack": "🔀 Whose life stack do you reorder?",
    "carousel": "🎠 Choose a card to pass",
    "queen": "👑 Who becomes the Kittyqueen?",
}


def grouped(choices: Sequence[Choice], placeholder: str, rows: int) -> list[Control]:
    """A button row for up to 5 choices, else selects of up to 25 options each (as many as needed)."""
    if len(choices) <= BUTTONS:
        return [Control("buttons", tuple(choices))]
    chunks = [tuple(choices[i : i + OPTIONS]) for i in range(0, len(choices), OPTIONS)]
    if len(chunks) == 1:
        return [Control("select", chunks[0], placeholder=f"{placeholder}…")]
    return [
        Control("select", chunk, placeholder=f"{placeholder} ({index}/{len(chunks)})…")
        for index, chunk in enumerate(chunks, start=1)
    ]


RENDERER = NineLivesRenderer()
__all__ = ["RENDERER", "NineLivesRenderer", "card_status", "playable_ids", "secret_lines"]
