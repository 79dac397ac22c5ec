"""Nine Lives at the table: each cat's count against the nine-limit, the cards on the table, every
player's lives, top life card, hand size and safe status, the power in force, open hands while an
Inspect lasts, and a control for every decision (wager, play and its follow-ups, the power's choices,
life orders, Card Carousel picks and the Kittyqueen tie pick).

Private panels show the owner's hand with what each card would do now, and the life stack to browse.
Every line of those fields names its owner ("✅ Ann's ⚪🟦 — …"), so no public message and no other
player's panel ever holds the same line.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ninelives.cards import EMOJI, LIMIT, POWERS, icons_text, life_name, life_text
from engine.ninelives.hand_status import (
    after_text,
    card_status,
    effect_text,
    my_turn,
    plural,
    power_now,
    ways,
)
from engine.ninelives.model import CardView, LifeView, SeatView, View
from engine.texts import Choice, Control, Texts

KEYCAPS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟")
BUTTONS, OPTIONS, ROWS = 5, 25, 4
CARD_BUTTONS = 10  # playable cards as buttons (two rows); more go into selects of 25
PILES_PER_LINE = 6
TOP_MISSING = ("No life left in the stack.", "Top life hidden until everyone has ordered.")
TABLE_PHASES = frozenset({"play", "carousel"})
PRIVATE_PHASES = frozenset({"order", "return", "carousel"})
PRIVATE_STEPS = frozenset({"play", "place", "icon", "give", "to", "reorder"})
CHOSEN = {
    "place": "pick below where it goes",
    "icon": "pick below which icon it counts as",
    "to": "pick below who gets it",
}
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


# ---- words and emoji -----------------------------------------------------------------------------------


def lives_text(n: int) -> str:
    return f"{n} {'life' if n == 1 else 'lives'}"


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


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
        return f"{head} 🙈 ignored this round"
    if count == LIMIT:
        return f"{head} 🔒 full"
    return f"{head} ‼️ over the limit" if count > LIMIT else head


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
    return f"{POWERS[card.power].emoji} {life_name(card)} (draw {card.draw})"


def life_long(life: LifeView) -> str:
    """A life card with what it does: "⏭️ Skip Turn (draw 2) — You may skip your turn; …"."""
    return f"{life_short(life)} — {life_text(life.card())}"


def hearts(seat: SeatView, over: bool = False) -> str:
    """Lives as nine hearts: ❤️ in the stack, 💛 wagered (at stake this round), 🖤 lost."""
    if over:
        return "❤️" * seat.lives + "🖤" * max(LIMIT - seat.lives, 0)
    stake = len(seat.wagered)
    return "❤️" * seat.stack_size + "💛" * stake + "🖤" * max(LIMIT - seat.stack_size - stake, 0)


def hand_line(view: View, name: str, card: CardView) -> str:
    """One card of the owner's hand: "✅ Ann's ⚪⚪🟦 — ⚪ 7→9 · 🎯 perfect nine!" (🟢/🔴 off turn)."""
    if view.over:
        return f"🃏 {name}'s {card_text(card)}"
    if view.selected is not None and view.selected.id == card.id:
        return f"👉 {name}'s {card_text(card)} — chosen: {CHOSEN.get(view.step, 'decide below')}"
    if any(gift.id == card.id for gift in view.gifts):
        return f"🎠 {name}'s {card_text(card)} — chosen to pass on"
    status = card_status(view, card)
    marks = ("✅", "⛔") if my_turn(view) else ("🟢", "🔴")
    return f"{marks[0] if status.ok else marks[1]} {name}'s {card_text(card)} — {status.text}"


def hand_lines(view: View, name: str) -> list[str]:
    return [hand_line(view, name, card) for card in view.hand] or [f"{name}'s hand is empty."]


def stack_line(name: str, position: int, life: LifeView) -> str:
    """One life of the owner's stack: "1️⃣ Ann's ⏭️ Skip Turn (draw 2) — … · 🔝 on top"."""
    return f"{keycap(position)} {name}'s {life_long(life)}" + (" · 🔝 on top" if position == 1 else "")


def loose_line(name: str, life: LifeView) -> str:
    """A life of the owner not placed yet in the order being made."""
    return f"▫️ {name}'s {life_long(life)}"


def stack_lines(view: View, name: str) -> list[str]:
    return [stack_line(name, index, life) for index, life in enumerate(view.my_stack, start=1)]


def arranging_lines(view: View, name: str) -> list[str]:
    """The owner's own order in the making: lives placed so far (after the stack when returning
    wagered lives, NL-5), then those still to place."""
    placed = len(view.my_stack) if view.phase == "return" else 0
    lines = [stack_line(name, placed + i, life) for i, life in enumerate(view.arranged, start=1)]
    return lines + [loose_line(name, life) for life in view.arranging]


def pick_lines(view: View, name: str) -> list[str]:
    """The cards the owner chose to pass in a Card Carousel."""
    return [f"🎠 {name} passes {card_text(card)}" for card in view.gifts]


def arranging_own(view: View) -> bool:
    return bool(view.arranging) and view.arranging_for == view.seat


def secret_lines(view: View, name: str) -> set[str]:
    """Every line that `private_fields` prints in the owner's secret fields (for secrecy tests)."""
    lines = {*hand_lines(view, name), *stack_lines(view, name), *pick_lines(view, name)}
    return lines | set(arranging_lines(view, name)) if arranging_own(view) else lines


# ---- the renderer --------------------------------------------------------------------------------------


class NineLivesTexts(Texts):
    hand_label = "My hand"
    emoji = "🐈‍⬛"

    def table_fields(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        fields = []
        if not view.over:
            fields.append(self._cats(view, names))
            fields += self._situation(view, names)
            fields += self._open_hands(view, names)
        order = (
            sorted(range(view.players), key=lambda s: -view.seats[s].lives)
            if view.over
            else range(view.players)
        )
        return fields + [self._player(view, seat, names) for seat in order]

    def private_fields(self, view: View, public: View, names: Sequence[str]) -> list[tuple[str, str]]:
        seat = view.seat
        assert seat is not None
        name, me = names[seat], view.seats[seat]
        fields = []
        if view.phase in TABLE_PHASES:
            lines = [counts_short(view.counts, view.ignored)]
            if my_turn(view) and view.power is not None:
                lines.append(f"⚡ Your power this turn: {life_long(view.power)}")
            if me.safe:
                lines.append("🛡️ You made a perfect nine: you are safe this round.")
            fields.append((f"🐾 Cats on the table · round {view.round}", "\n".join(lines)))
        fields.append(self._hand(view, name))
        if view.discard and view.phase != "order":
            fields.append(self._discard(view))
        if view.gift_need:
            side = "left" if view.direction == 1 else "right"
            to = names[(seat + view.direction) % view.players]
            title = f"Your pick — {len(view.gifts)} of {view.gift_need} cards to pass {side} to {to}"
            fields.append((title, "\n".join(pick_lines(view, name)) or f"{name} has not chosen yet."))
        fields += self._stack(view, names)
        if me.wagered and view.phase in TABLE_PHASES:
            lines = [f"💛 {life_short(life)}" for life in me.wagered]
            fields.append(("🎲 Lives you wagered this round (at stake)", "\n".join(lines)))
        return fields + self._open_hands(view, names)

    def prompt(self, view: View, names: Sequence[str]) -> str:
        """The engine's prompt; on the table, private decisions point to the private panel."""
        text = super().prompt(view, names)
        private = view.phase in PRIVATE_PHASES or (view.phase == "play" and view.step in PRIVATE_STEPS)
        if view.seat is None and private:
            return f"{text.rstrip('.')} — privately, with 🃏 **{self.hand_label}**"
        return text

    @staticmethod
    def _discard(view: View) -> tuple[str, str]:
        """The discard pile, newest first, with its icons per cat: public (NL-X11), for counting."""
        icons = " · ".join(
            f"{EMOJI[cat]} {sum(card.icons[cat] for card in view.discard)}" for cat in range(len(EMOJI))
        )
        cards = " · ".join(card_text(card) for card in reversed(view.discard))
        title = f"🗑️ Discard pile — {plural(len(view.discard), 'card')}, newest first"
        return title, f"{icons} icons\n{cards}"

    # ---- table fields ----

    def _cats(self, view: View, names: Sequence[str]) -> tuple[str, str]:
        stock = f"🂠 Deck {view.deck_size} · 🗑️ Discard {len(view.discard)}"
        if view.phase == "order":
            return "🐾 Setting up", f"Round 1 starts once every stack is in order.\n{stock}"
        if view.phase not in TABLE_PHASES:
            lost = ", ".join(names[s] for s in view.losers)
            text = f"💔 Lost a life: {lost}\n" if lost else ""
            return (
                f"🐾 Round {view.round} is over",
                f"{text}The table is cleared for the next round.\n{stock}",
            )
        lines = [count_line(cat, count, view.ignored) for cat, count in enumerate(view.counts)]
        piles = []
        for pile in view.table:
            top = pile[-1]
            note = f" ({top.note})" if top.note else ""
            covered = f" on {len(pile) - 1} covered" if len(pile) > 1 else ""
            piles.append(f"**{card_text(top.card)}**{note}{covered}")
        rows = [" · ".join(piles[i : i + PILES_PER_LINE]) for i in range(0, len(piles), PILES_PER_LINE)]
        lines.append("🃏 On the table: " + "\n".join(rows) if rows else "🃏 No cards on the table yet.")
        lines.append(stock)
        return f"🐾 Round {view.round} · every cat at most {LIMIT} times", "\n".join(lines)

    def _situation(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        """What the phase is about: who is still ordering or choosing, the tie, or the turn's powers."""
        phase, waiting = view.phase, set(view.to_act)
        progress = [
            f"⏳ {names[s]} is choosing" if s in waiting else f"✅ {names[s]} is done"
            for s in range(view.players)
        ]
        if phase == "order":
            return [
                ("📜 Everyone secretly puts their 9 lives in order (top card first)", "\n".join(progress))
            ]
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
            title = f"🎠 Card Carousel: everyone passes 2 cards to the {side}"
            return [(title, f"{chain}\n" + " · ".join(progress))]
        if phase == "queen":
            most = view.seats[view.tied[0]].hand_size if view.tied else 0
            text = (
                f"{', '.join(names[s] for s in view.tied)} tie with {plural(most, 'card')} in hand.\n"
                f"👑 {names[view.queen]}, the Kittyqueen, picks who rules next."
            )
            return [("👑 Who rules next?", text)]
        return self._turn(view, names) if phase == "play" else []

    def _turn(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        """The power in force, what binds this player and the next (NL-8), Ignore, Shuffle Lives."""
        who = names[view.turn]
        lines = [f"⚡ {who}'s power: {life_long(view.power)}"] if view.power is not None else []
        target = getattr(view, "shuffle_target", None)
        if view.step == "reorder" and target is not None:
            lines.append(f"🔀 {who} is reordering {names[target]}'s life stack.")
        if view.wager_rule == "force" and not view.wagered_now:
            lines.append(f"⚠️ {who} must wager a life this turn (Force Wager).")
        elif view.wager_rule == "forbid":
            lines.append(f"🔒 {who} may not wager a life this turn (Forbid Wager).")
        if view.optional_now:
            lines.append(f"⏩ Extra turn: {who} may play again or end the turn.")
        if view.owed:
            lines.append(f"⏩ {who} still owes {plural(view.owed, 'more turn')}.")
        binds = []
        if view.next_skip:
            binds.append("must skip a turn" if view.next_skip == 1 else f"must skip {view.next_skip} turns")
        if view.next_double:
            binds.append("must take 2 turns")
        if view.next_wager:
            binds.append("must wager a life" if view.next_wager == "force" else "may not wager a life")
        if binds:
            lines.append("➡️ The next player " + ", ".join(binds) + ".")
        for seat, skips, rule in view.held:
            held = [f"still skips {plural(skips, 'turn')}"] if skips else []
            if rule:
                held.append("must wager a life" if rule == "force" else "may not wager a life")
            lines.append(f"⏳ On their next turn {names[seat]} " + " and ".join(held) + ".")
        lines += [f"🙈 Everyone ignores {EMOJI[cat]} this round." for cat in view.ignored]
        return [(f"▶ {who}'s turn", "\n".join(lines))] if lines else []

    def _open_hands(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        """Hands played open while an Inspect lasts (only then, NL-8)."""
        lines = [
            f"👁️ **{names[seat.seat]}**: " + (" · ".join(card_text(c) for c in seat.open_hand) or "no cards")
            for seat in view.seats
            if seat.open_hand is not None
        ]
        return [("🔍 Open hands (Inspect, until the round ends)", "\n".join(lines))] if lines else []

    def _player(self, view: View, seat: int, names: Sequence[str]) -> tuple[str, str]:
        info = view.seats[seat]
        if view.over:
            best = max(s.lives for s in view.seats)
            marks = "🏆 " if info.lives == best else "💀 " if info.lives == 0 else ""
        else:
            marks = ("▶ " if seat in view.to_act else "") + ("👑 " if seat == view.queen else "")
        safe = " · 🛡️ safe" if info.safe else ""
        title = f"{marks}{names[seat]} — {lives_text(info.lives)} · 🃏 {info.hand_size}{safe}"
        if view.over:
            return title, hearts(info, over=True)
        top = life_long(info.top) if info.top is not None else TOP_MISSING[view.phase == "order"]
        lines = [hearts(info), f"🔝 {top}"]
        if info.wagered:
            lines.append("🎲 At stake: " + " · ".join(life_short(life) for life in info.wagered))
        if info.safe:
            lines.append("🛡️ Perfect nine: safe for the rest of the round.")
        return title, "\n".join(lines)

    # ---- private fields ----

    def _hand(self, view: View, name: str) -> tuple[str, str]:
        ok = sum(card_status(view, card).ok for card in view.hand)
        if my_turn(view) and view.step == "play" and view.wager_rule == "force" and not view.wagered_now:
            note = "you must wager first"
        else:
            note = f"{ok} playable now" if my_turn(view) else f"{ok} would fit the table now"
        if view.over:
            note = "the game is over"
        opened = " · 🔍 open to everyone" if view.seats[view.seat].open_hand is not None else ""
        title = f"Your hand — {plural(len(view.hand), 'card')}, {note}{opened}"
        return title, "\n".join(hand_lines(view, name))

    def _stack(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        """The life stack to browse, the owner's order in the making, or the stack a Shuffle Lives
        reorders (shown in the shuffler's own words, NL-10)."""
        name = names[view.seat]
        fields = []
        own = arranging_own(view)
        if not (own and view.phase == "order"):
            count = len(view.my_stack)
            title = (
                f"Your life stack — {lives_text(count)}, top first" if count else "Your life stack — empty"
            )
            fields.append((title, "\n".join(stack_lines(view, name)) or f"{name}'s stack is empty."))
        if own:
            total = len(view.arranged) + len(view.arranging)
            if view.phase == "return":
                title = "Your life stack — wagered lives going back under it"
            else:
                doing = "ordering" if view.phase == "order" else "reordering"
                title = f"Your life stack — {doing}: {len(view.arranged)} of {total} placed"
            fields.append((title, "\n".join(arranging_lines(view, name))))
        elif view.arranging and view.arranging_for is not None:
            lines = [f"{keycap(i)} {life_short(life)}" for i, life in enumerate(view.arranged, start=1)]
            lines += [f"▫️ {life_short(life)}" for life in view.arranging]
            title = f"🔀 {names[view.arranging_for]}'s life stack — you put it in a new order"
            fields.append((title, "\n".join(lines)))
        return fields

    # ---- controls ----

    def controls(self, view: View, choices: Sequence[Choice]) -> list[Control] | None:
        """Wager/skip buttons, a button (or grouped select) per playable card and give up/end last; a
        select of lives for every ordering; a control per follow-up (where the card goes, which icon,
        whose power, whom to steal from, …). None when a legal action would be missed."""
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
        if sorted(offered) != sorted(legal) or len(controls) > ROWS:
            return None
        return controls

    def _play_controls(self, view: View, legal: dict[str, Choice]) -> list[Control]:
        first = []
        if "w" in legal:
            label = f"🎲 Wager {life_short(view.my_stack[0])}" if view.my_stack else legal["w"].label
            first.append(Choice("w", label))
        if "skip" in legal:
            first.append(Choice("skip", "⏭️ Skip your turn"))
        last = [Choice("end", "✋ End your turn")] if "end" in legal else []
        if "giveup" in legal:  # NL-5: the top life and every life wagered this round
            me = view.seats[view.seat]
            last.append(
                Choice("giveup", f"🏳️ Give up (lose {lives_text(min(me.stack_size, 1) + len(me.wagered))})")
            )
        cards = []
        for card in view.hand:
            if f"p:{card.id}" in legal:
                status = card_status(view, card)
                label = f"🐱 Play {card_text(card)}" + " 🎯" * status.perfect + "…" * status.choose
                cards.append(Choice(f"p:{card.id}", label, status.text[:100]))
        known = {choice.value for choice in (*first, *last, *cards)}
        cards += [choice for value, choice in legal.items() if value not in known]
        if len(cards) <= CARD_BUTTONS:
            middle = [
                Control("buttons", tuple(cards[i : i + BUTTONS]), style="success")
                for i in range(0, len(cards), BUTTONS)
            ]
        else:
            middle = grouped(cards, "🐱 Play a card")
        return [
            Control("buttons", tuple(first), style="primary"),
            *middle,
            Control("buttons", tuple(last), style="danger"),
        ]

    def _order_controls(self, view: View, legal: dict[str, Choice]) -> list[Control]:
        """The next life of an ordering (NL-1 setup, NL-5 return, Shuffle Lives) and Keep the rest."""
        position = len(view.arranged) + 1 + (len(view.my_stack) if view.phase == "return" else 0)
        lives = {f"n:{life.id}": life for life in view.arranging}
        options = tuple(
            Choice(value, life_short(lives[value]), life_text(lives[value].card())[:100])
            if value in lives
            else choice
            for value, choice in legal.items()
            if value != "keep"
        )
        whose = "your" if view.arranging_for in (None, view.seat) else "the"
        keep = (Choice("keep", "✅ Keep the rest in this order"),) if "keep" in legal else ()
        return [
            *grouped(options, f"Choose {whose} {ordinal(position)} life (from the top)", buttons=False),
            Control("buttons", keep, style="success"),
        ]

    def _pick_controls(self, view: View, legal: dict[str, Choice]) -> list[Control]:
        """One follow-up decision: buttons for a few choices, selects for many; a new table card keeps
        its own button when the covers or swaps need a select."""
        step = view.step if view.phase == "play" else view.phase
        choices = [self._describe(view, choice) for choice in legal.values()]
        placeholder = PLACEHOLDERS.get(step, "Choose")
        new = [choice for choice in choices if choice.value == "t"]
        rest = [choice for choice in choices if choice.value != "t"]
        if new and len(choices) > BUTTONS:
            return [Control("buttons", tuple(new), style="success"), *grouped(rest, placeholder)]
        return grouped(choices, placeholder)

    def _describe(self, view: View, choice: Choice) -> Choice:
        """A follow-up choice with a telling label and, for selects, a description."""
        value = choice.value
        verb, _, arg = value.partition(":")
        if verb in ("give", "pass"):
            card = next((c for c in view.hand if c.id == arg), None)
            word = "💸 Give" if verb == "give" else "🎠 Pass"
            return Choice(value, f"{word} {card_text(card)}") if card is not None else choice
        if verb in ("t", "cover", "swap", "icon", "take"):
            return self._describe_placing(view, verb, arg, choice)
        if arg.isdigit() and int(arg) < view.players:
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
        """Where the chosen card goes (as a new card, covering, swapping, as which icon) and what that
        does to the counts, or which table card a Steal takes."""
        piles = {pile[-1].card.id: index for index, pile in enumerate(view.table)}
        if verb in ("cover", "swap", "take") and arg not in piles:
            return choice
        if verb == "take":
            top = view.table[piles[arg]][-1].card
            return Choice(
                choice.value, f"🦝 Take {card_text(top)}", "into your hand; what it covered counts again"
            )
        if view.selected is None:
            return choice
        found = ways(view, view.selected.icons, power_now(view))
        if verb == "icon":
            found = [way for way in found if way.icon == int(arg)]
            label = f"☝️ Count it as one {EMOJI[int(arg)]}"
        elif verb == "t":
            found = [way for way in found if way.mode == "t"]
            label = "🐱 Play it as a new table card"
        else:
            found = [way for way in found if way.pile == piles[arg]]
            word = "🔁 Cover" if verb == "cover" else "🔄 Swap it for"
            label = f"{word} {card_text(view.table[piles[arg]][-1].card)}"
        if not found:
            return Choice(choice.value, label)
        way = found[0]
        return Choice(
            choice.value, f"{label} → {after_text(way, view.ignored)}", effect_text(way, view.ignored)
        )


def grouped(choices: Sequence[Choice], placeholder: str, buttons: bool = True) -> list[Control]:
    """A button row for up to 5 choices (if `buttons`), else selects of up to 25 options each."""
    if buttons and len(choices) <= BUTTONS:
        return [Control("buttons", tuple(choices))]
    chunks = [tuple(choices[i : i + OPTIONS]) for i in range(0, len(choices), OPTIONS)]
    if len(chunks) == 1:
        return [Control("select", chunks[0], placeholder=f"{placeholder}…")]
    return [
        Control("select", chunk, placeholder=f"{placeholder} ({index}/{len(chunks)})…")
        for index, chunk in enumerate(chunks, start=1)
    ]


TEXTS = NineLivesTexts()
