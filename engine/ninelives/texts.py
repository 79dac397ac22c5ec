"""Nine Lives at the table: each cat's count against the nine-limit, the cards on the table, every
player's lives, top life card, hand size and safe status, the power in force, open hands while an
Inspect lasts, and a control for every decision (wager, play and its follow-ups, the power's choices,
life orders, Card Carousel picks and the Kittyqueen tie pick).

Private panels show the owner's hand with what each card would do now and their lives in short; the
whole life stack, the discard pile and open hands are one button away ("Life stack & more").
Those fields speak to their owner ("Your hand": "✅ ⚪🟦 — …").
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.core import Action, Frozen, Rules
from engine.ninelives._cards import EMOJI, LIMIT, life_text
from engine.ninelives._controls import action_label, arrange
from engine.ninelives._counting import note_text
from engine.ninelives._words import (
    arranging_lines,
    arranging_own,
    card_status,
    card_text,
    count_line,
    counts_short,
    hand_lines,
    hearts,
    keycap,
    life_glance,
    life_long,
    life_short,
    lives_text,
    my_turn,
    pick_lines,
    stack_lines,
    top_line,
)
from engine.ninelives.model import Phase, Step, View, WagerRule
from engine.texts import Choice, Control, Texts
from lang import N_, _, current, n_

PILES_PER_LINE = 6
TOP_MISSING = (N_("No life left in the stack."), N_("Top life hidden until everyone has ordered."))
TABLE_PHASES = frozenset({Phase.PLAY, Phase.CAROUSEL})
PRIVATE_PHASES = frozenset({Phase.ORDER, Phase.RETURN, Phase.CAROUSEL})
PRIVATE_STEPS = frozenset({Step.PLAY, Step.PLACE, Step.ICON, Step.GIVE, Step.TO, Step.REORDER})


# ---- the renderer --------------------------------------------------------------------------------------


class NineLivesTexts(Texts):
    emoji = "🐈‍⬛"

    @property
    def hand_label(self) -> str:  # type: ignore[override]
        return _("My hand")

    @property
    def more_label(self) -> str:  # type: ignore[override]
        return _("Life stack & more")

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

    def compact_fields(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        """The counts in one line, the turn's power by name, open hands by who, and one line per
        player; the final scores stand in for the players when the game is over."""
        if view.over:
            return []
        lines = [self._player_line(view, seat, names) for seat in range(view.players)]
        if any(seat.open_hand is not None for seat in view.seats):
            lines.append(_("👁️ Open hand (Inspect): the cards are in 🔎 Details"))
        return [
            self._cats(view, names, compact=True),
            *self._situation(view, names, compact=True),
            (_("🐱 ❤️ lives · 💛 at stake · 🔝 top life"), "\n".join(lines)),
        ]

    def private_fields(self, view: View, public: View, names: Sequence[str]) -> list[tuple[str, str]]:
        """The decision first: the round's counts, your power and your lives in short (the top one, those
        at stake), then your hand, your Card Carousel pick, the order you are making; the whole stack,
        the discard pile and open hands are `more_fields`."""
        seat = view.seat
        assert seat is not None
        fields = [self._round(view)] if view.phase in TABLE_PHASES else []
        fields.append(self._hand(view))
        if view.gift_need:
            to = names[(seat + view.direction) % view.players]
            chosen, need = len(view.gifts), view.gift_need
            if view.direction == 1:
                title = _(
                    "Your pick — {chosen} of {need} cards to pass left to {player}",
                    chosen=chosen,
                    need=need,
                    player=to,
                )
            else:
                title = _(
                    "Your pick — {chosen} of {need} cards to pass right to {player}",
                    chosen=chosen,
                    need=need,
                    player=to,
                )
            fields.append((title, "\n".join(pick_lines(view)) or _("You have not chosen yet.")))
        return fields + self._lives(view, names)

    def more_fields(self, view: View, public: View, names: Sequence[str]) -> list[tuple[str, str]]:
        """Your whole life stack, the lives you wagered, the discard pile and the hands played open."""
        seat = view.seat
        assert seat is not None
        fields = []
        if not (arranging_own(view) and view.phase == Phase.ORDER):
            fields.append(self._stack(view))
        wagered = view.seats[seat].wagered
        if wagered and view.phase in TABLE_PHASES:
            lines = [f"💛 {life_short(life)}" for life in wagered]
            fields.append((_("🎲 Lives you wagered this round (at stake)"), "\n".join(lines)))
        if view.discard:
            fields.append(self._discard(view))
        return fields + self._open_hands(view, names)

    def prompt(self, view: View, names: Sequence[str]) -> str:
        """The engine's prompt; on the table, private decisions point to the private panel."""
        text = super().prompt(view, names)
        private = view.phase in PRIVATE_PHASES or (view.phase == Phase.PLAY and view.step in PRIVATE_STEPS)
        if view.seat is None and private:
            return text.rstrip(".") + _(" — privately, with 🃏 **{button}**", button=self.hand_label)
        return text

    @staticmethod
    def _discard(view: View) -> tuple[str, str]:
        """The discard pile, newest first, with its icons per cat: public (NL-X11), for counting."""
        icons = " · ".join(
            f"{EMOJI[cat]} {sum(card.icons[cat] for card in view.discard)}" for cat in range(len(EMOJI))
        )
        cards = " · ".join(card_text(card) for card in reversed(view.discard))
        title = n_(
            "🗑️ Discard pile — {count} card, newest first",
            "🗑️ Discard pile — {count} cards, newest first",
            len(view.discard),
        )
        return title, _("{icons} icons", icons=icons) + "\n" + cards

    # ---- table fields ----

    def _cats(self, view: View, names: Sequence[str], compact: bool = False) -> tuple[str, str]:
        stock = _("🂠 Deck {deck} · 🗑️ Discard {discard}", deck=view.deck_size, discard=len(view.discard))
        if view.phase == Phase.ORDER:
            return _("🐾 Setting up"), _("Round 1 starts once every stack is in order.") + "\n" + stock
        if view.phase not in TABLE_PHASES:
            lost = ", ".join(names[s] for s in view.losers)
            text = _("💔 Lost a life: {players}", players=lost) + "\n" if lost else ""
            return (
                _("🐾 Round {round} is over", round=view.round),
                text + _("The table is cleared for the next round.") + "\n" + stock,
            )
        if compact:
            lines = [counts_short(view.counts, view.ignored)]
        else:
            lines = [count_line(cat, count, view.ignored) for cat, count in enumerate(view.counts)]
        piles = []
        for pile in view.table:
            top = pile[-1]
            note = f" ({note_text(top.note)})" if top.note else ""
            covered = _(" on {count} covered", count=len(pile) - 1) if len(pile) > 1 else ""
            piles.append(f"**{card_text(top.card)}**{note}{covered}")
        per_line = max(len(piles), 1) if compact else PILES_PER_LINE  # a phone wraps one flowing line best
        rows = [" · ".join(piles[i : i + per_line]) for i in range(0, len(piles), per_line)]
        lines.append(
            _("🃏 On the table: {cards}", cards="\n".join(rows))
            if rows
            else _("🃏 No cards on the table yet.")
        )
        lines.append(stock)
        return _(
            "🐾 Round {round} · every cat at most {limit} times", round=view.round, limit=LIMIT
        ), "\n".join(lines)

    def _situation(self, view: View, names: Sequence[str], compact: bool = False) -> list[tuple[str, str]]:
        """What the phase is about: who is still ordering or choosing, the tie, or the turn's powers;
        `compact` puts who is done in one line and names the power without its text."""
        phase, waiting = view.phase, set(view.to_act)
        progress = [
            _("⏳ {player} is choosing", player=names[s])
            if s in waiting
            else _("✅ {player} is done", player=names[s])
            for s in range(view.players)
        ]
        if phase == Phase.ORDER:
            title = _("📜 Everyone secretly puts their 9 lives in order (top card first)")
            return [(title, (" · " if compact else "\n").join(progress))]
        going_back = _("↩️ Wagered lives go back under their stacks")
        if phase == Phase.RETURN and compact:
            waiting_names = ", ".join(names[s] for s in view.to_act)
            return [(going_back, _("⏳ Still choosing: {players}", players=waiting_names))]
        if phase == Phase.RETURN:
            lines = [
                _(
                    "⏳ {player} puts back {lives}",
                    player=names[s],
                    lives=", ".join(life_short(life) for life in view.seats[s].wagered),
                )
                for s in view.to_act
            ]
            return [(going_back, "\n".join(lines) or "—")]
        if phase == Phase.CAROUSEL:
            chain = " → ".join(
                names[(view.turn + view.direction * k) % view.players] for k in range(view.players + 1)
            )
            if view.direction == 1:
                title = _("🎠 Card Carousel: everyone passes 2 cards to the left")
            else:
                title = _("🎠 Card Carousel: everyone passes 2 cards to the right")
            return [(title, f"{chain}\n" + " · ".join(progress))]
        if phase == Phase.QUEEN:
            most = view.seats[view.tied[0]].hand_size if view.tied else 0
            tied = ", ".join(names[s] for s in view.tied)
            text = (
                n_(
                    "{players} tie with {count} card in hand.",
                    "{players} tie with {count} cards in hand.",
                    most,
                    players=tied,
                )
                + "\n"
                + _("👑 {player}, the Kittyqueen, picks who rules next.", player=names[view.queen])
            )
            return [(_("👑 Who rules next?"), text)]
        return self._turn(view, names, compact) if phase == Phase.PLAY else []

    def _turn(self, view: View, names: Sequence[str], compact: bool = False) -> list[tuple[str, str]]:
        """The power in force, what binds this player and the next (NL-8), Ignore, Shuffle Lives."""
        who = names[view.turn]
        power = life_short if compact else life_long
        lines = (
            [_("⚡ {player}'s power: {power}", player=who, power=power(view.power))]
            if view.power is not None
            else []
        )
        target = getattr(view, "shuffle_target", None)
        if view.step == Step.REORDER and target is not None:
            lines.append(
                _("🔀 {player} is reordering {other}'s life stack.", player=who, other=names[target])
            )
        if view.wager_rule == WagerRule.FORCE and not view.wagered_now:
            lines.append(_("⚠️ {player} must wager a life this turn (Force Wager).", player=who))
        elif view.wager_rule == WagerRule.FORBID:
            lines.append(_("🔒 {player} may not wager a life this turn (Forbid Wager).", player=who))
        if view.optional_now:
            lines.append(_("⏩ Extra turn: {player} may play again or end the turn.", player=who))
        if view.owed:
            lines.append(
                n_(
                    "⏩ {player} still owes {count} more turn.",
                    "⏩ {player} still owes {count} more turns.",
                    view.owed,
                    player=who,
                )
            )
        binds = []
        if view.next_skip:
            binds.append(n_("must skip a turn", "must skip {count} turns", view.next_skip))
        if view.next_double:
            binds.append(_("must take 2 turns"))
        if view.next_wager:
            binds.append(
                _("must wager a life") if view.next_wager == WagerRule.FORCE else _("may not wager a life")
            )
        if binds:
            lines.append(_("➡️ The next player {binds}.", binds=", ".join(binds)))
        for seat, skips, rule in view.held:
            held = [n_("still skips {count} turn", "still skips {count} turns", skips)] if skips else []
            if rule:
                held.append(_("must wager a life") if rule == WagerRule.FORCE else _("may not wager a life"))
            lines.append(
                _("⏳ On their next turn {player} {binds}.", player=names[seat], binds=_(" and ").join(held))
            )
        lines += [_("🙈 Everyone ignores {cat} this round.", cat=EMOJI[cat]) for cat in view.ignored]
        return [(_("▶ {player}'s turn", player=who), "\n".join(lines))] if lines else []

    def _open_hands(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        """Hands played open while an Inspect lasts (only then, NL-8)."""
        lines = [
            f"👁️ **{names[seat.seat]}**: "
            + (" · ".join(card_text(c) for c in seat.open_hand) or _("no cards"))
            for seat in view.seats
            if seat.open_hand is not None
        ]
        return [(_("🔍 Open hands (Inspect, until the round ends)"), "\n".join(lines))] if lines else []

    def _player(self, view: View, seat: int, names: Sequence[str]) -> tuple[str, str]:
        info = view.seats[seat]
        if view.over:
            best = max(s.lives for s in view.seats)
            marks = "🏆 " if info.lives == best else "💀 " if info.lives == 0 else ""
        else:
            marks = ("▶ " if seat in view.to_act else "") + ("👑 " if seat == view.queen else "")
        safe = " · " + _("🛡️ safe") if info.safe else ""
        title = f"{marks}{names[seat]} — {lives_text(info.lives)} · 🃏 {info.hand_size}{safe}"
        if view.over:
            return title, hearts(info, over=True)
        top = life_long(info.top) if info.top is not None else _(TOP_MISSING[view.phase == Phase.ORDER])
        lines = [hearts(info), f"🔝 {top}"]
        if info.wagered:
            lines.append(
                _("🎲 At stake: {lives}", lives=" · ".join(life_short(life) for life in info.wagered))
            )
        if info.safe:
            lines.append(_("🛡️ Perfect nine: safe for the rest of the round."))
        return title, "\n".join(lines)

    def _player_line(self, view: View, seat: int, names: Sequence[str]) -> str:
        """One player in a line: "▶ 👑 **Di** 🛡️ · ❤️ 4 💛 3 · 🃏 5 · 🔝 🪄 Shapeshift 🟦→⭐"."""
        info = view.seats[seat]
        marks = ("▶ " if seat in view.to_act else "") + ("👑 " if seat == view.queen else "")
        marks += f"**{names[seat]}**" + (" 👁️" if info.open_hand is not None else "")
        marks += " 🛡️" if info.safe else ""
        lives = f"❤️ {info.stack_size}" + (f" 💛 {len(info.wagered)}" if info.wagered else "")
        top = f" · 🔝 {life_glance(info.top)}" if info.top is not None else ""
        return f"{marks} · {lives} · 🃏 {info.hand_size}{top}"

    # ---- private fields ----

    def _hand(self, view: View) -> tuple[str, str]:
        ok = sum(card_status(view, card).ok for card in view.hand)
        if (
            my_turn(view)
            and view.step == Step.PLAY
            and view.wager_rule == WagerRule.FORCE
            and not view.wagered_now
        ):
            note = _("you must wager first")
        else:
            note = (
                _("{count} playable now", count=ok)
                if my_turn(view)
                else _("{count} would fit the table now", count=ok)
            )
        if view.over:
            note = _("the game is over")
        opened = " · " + _("🔍 open to everyone") if view.seats[view.seat].open_hand is not None else ""
        cards = n_("{count} card", "{count} cards", len(view.hand))
        title = _("Your hand — {cards}, {note}", cards=cards, note=note) + opened
        return title, "\n".join(hand_lines(view))

    def _lives(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        """Your lives in short — the top one with what it does, those at stake — or the order you are
        making, or the stack a Shuffle Lives has you reorder (in the shuffler's own words, NL-10)."""
        if arranging_own(view):
            total = len(view.arranged) + len(view.arranging)
            if view.phase == Phase.RETURN:
                title = _("Your life stack — wagered lives going back under it")
            elif view.phase == Phase.ORDER:
                title = _(
                    "Your life stack — ordering: {placed} of {total} placed",
                    placed=len(view.arranged),
                    total=total,
                )
            else:
                title = _(
                    "Your life stack — reordering: {placed} of {total} placed",
                    placed=len(view.arranged),
                    total=total,
                )
            return [(title, "\n".join(arranging_lines(view)))]
        fields = []
        if view.arranging and view.arranging_for is not None:
            lines = [f"{keycap(i)} {life_short(life)}" for i, life in enumerate(view.arranged, start=1)]
            lines += [f"▫️ {life_short(life)}" for life in view.arranging]
            title = _(
                "🔀 {player}'s life stack — you put it in a new order", player=names[view.arranging_for]
            )
            fields.append((title, "\n".join(lines)))
        if view.phase in TABLE_PHASES:
            return fields  # in `_round`
        title = _("❤️ Your lives — {lives} in your stack", lives=lives_text(len(view.my_stack)))
        return [*fields, (title, top_line(view.my_stack[0]) if view.my_stack else _("Your stack is empty."))]

    @staticmethod
    def _round(view: View) -> tuple[str, str]:
        """The counts, your power this turn and your lives: the top one (with what it does while you may
        still wager it) and those at stake, as the table counts them ("❤️ 4 · 💛 3")."""
        me = view.seats[view.seat]
        title = _("🐾 Round {round} · your lives: ❤️ {count}", round=view.round, count=len(view.my_stack))
        lines = [counts_short(view.counts, view.ignored)]
        if my_turn(view) and view.power is not None:
            power = view.power
            lines.append(
                _(
                    "⚡ Your power this turn: {power} — {text}",
                    power=life_glance(power),
                    text=life_text(power.card()),
                )
            )
        if me.safe:
            lines.append(_("🛡️ You made a perfect nine: you are safe this round."))
        if view.my_stack:
            top = view.my_stack[0]
            wager = my_turn(view) and view.step == Step.PLAY and not view.wagered_now
            wager = wager and view.wager_rule != WagerRule.FORBID
            lines.append(top_line(top) if wager else f"🔝 {life_short(top)}")
        else:
            lines.append(_("🔝 No life left in your stack."))
        if me.wagered:
            title += f" · 💛 {len(me.wagered)}"
            lines.append(
                _("💛 At stake: {lives}", lives=" · ".join(life_glance(life) for life in me.wagered))
            )
        return title, "\n".join(lines)

    @staticmethod
    def _stack(view: View) -> tuple[str, str]:
        """The whole life stack, top first."""
        count = len(view.my_stack)
        title = (
            _("Your life stack — {lives}, top first", lives=lives_text(count))
            if count
            else _("Your life stack — empty")
        )
        return title, "\n".join(stack_lines(view)) or _("Your stack is empty.")

    # ---- controls ----

    def controls(self, view: View, choices: Sequence[Choice]) -> list[Control] | None:
        """Wager/skip buttons, a button (or grouped select) per playable card and give up/end last; a
        select of lives for every ordering; a control per follow-up (where the card goes, which icon,
        whose power, whom to steal from, …). None when a legal action would be missed."""
        return arrange(view, choices)

    _last_view: tuple[Frozen, int, str, View] | None = None

    def confirmation(self, view: Frozen, encoded: str) -> str | None:
        """Giving up costs the top life and every life wagered this round (NL-5)."""
        if encoded != "giveup" or not isinstance(view, View) or view.seat is None:
            return None
        me = view.seats[view.seat]
        return _(
            "Give up the round and lose {lives}?", lives=lives_text(min(me.stack_size, 1) + len(me.wagered))
        )

    def label(self, rules: Rules, state: Frozen, seat: int, action: Action) -> str:
        """The button label, from what `seat` sees.

        A panel asks for the labels of all of a seat's actions in a row; states are immutable, so the
        seat's view is built once for them all instead of once per button.
        """
        last, language = self._last_view, current()
        if last is None or last[0] is not state or last[1] != seat or last[2] != language:
            last = self._last_view = (state, seat, language, rules.view(state, seat))  # type: ignore[assignment]
        return action_label(last[3], action)


TEXTS = NineLivesTexts()
