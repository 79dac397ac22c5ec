"""Mad Cat Sad Cat at the table: the dice tray, the 17 cat cards, the supply and the secret mooch picks.

The roller's decisions are public (they sit under the table): Roll, a multi-select of the dice just
rolled (composed into one set-aside), Roll again and Stop buttons showing the VPs each would take.
Mooch picks are private: each other player picks on their own panel after the lock-in (MC-4), and
the table only shows who has picked until a pick is revealed and paid (MC-6, MC-9, MC-X2).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from engine.core import IllegalAction, InvalidInput, OutOfDate, Rules, fill_names
from engine.madcat._cards import CATPOT, card
from engine.madcat._dice import (
    COMBOS,
    DICE,
    FACE_KIND,
    FACE_LABELS,
    WILD,
    combo_name,
    face_word,
    kind_cats,
    kind_label,
    kind_word,
    show,
    sort_faces,
)
from engine.madcat._dice import (
    KIND_LABELS as KIND_LABELS,  # the pictures draw a kind by its emoji
)
from engine.madcat._turn import ends_with_the_emptying_turn
from engine.madcat.model import (
    MOOCH_CARDS,
    PICKS,
    MadcatAction,
    Mooch,
    Roll,
    SetAside,
    State,
    Stop,
    View,
    decode,
)
from engine.madcat.rules import aside_refusal
from engine.texts import Choice, Control, Texts
from lang import N_, _, n_

ASIDE_KEY = "aside"
MOOCH_LABELS = {
    "2p": N_("🤫 Two pairs"),
    "fh": N_("🤫 Full house"),
    "4k": N_("🤫 Four of a kind"),
    "5k": N_("🤫 Five of a kind"),
    "fail": N_("💥 Fail"),
    "none": N_("🙈 No card"),
}
"""The mooch cards' labels, in English: `mooch_label` says them in the language speaking."""
SHORT_COMBOS = {
    "2p": N_("Two pairs"),
    "fh": N_("Full house"),
    "4k": N_("4 of a kind"),
    "5k": N_("5 of a kind"),
}
"""The combinations' short names, in English: `short_combo` says them in the language speaking."""
_DIE_VALUE = re.compile("([0-9])(m[123]|s[12]|w)")


def vps(amount: int) -> str:
    return n_("{count} VP", "{count} VPs", amount)


def mooch_label(pick: str) -> str:
    """A mooch card's label: "🤫 Full house", "💥 Fail", "🙈 No card"."""
    return _(MOOCH_LABELS[pick])


def short_combo(combo: str) -> str:
    """A combination's short name, as the table's card grid and the picture write it: "4 of a kind"."""
    return _(SHORT_COMBOS[combo])


def hidden_pick_line(pick: str) -> str:
    """The owner's own line for a pick still face down: only their panel ever shows it."""
    return _("{pick} — face down in front of you", pick=mooch_label(pick))


def revealed_pick_line(pick: str) -> str:
    """The owner's own line for a pick they revealed (and were paid for)."""
    return _("{pick} — you revealed it ✅", pick=mooch_label(pick))


def player_line(icon: str, name: str, score: int, status: str = "") -> str:
    """One player on the table: e.g. "💰 **Bo** · 7 VPs · showed 🤫 Full house"."""
    return f"{icon} **{name}** · {vps(score)}" + (f" · {status}" if status else "")


def die_choices(view: View, legal: set[str]) -> tuple[Choice, ...]:
    """One option per die just rolled that the engine lets go onto the tray on its own (`legal`: the
    seat's legal actions, encoded); any legal set-aside is made of such dice."""
    return tuple(
        Choice(
            f"{index}{face}",
            _(
                "Die {number}: {face} {cat}",
                number=index + 1,
                face=FACE_LABELS[face],
                cat=face_word(FACE_KIND[face]),
            ),
        )
        for index, face in enumerate(view.rolled)
        if SetAside(faces=(face,)).encode() in legal
    )


def roll_label(aside: Sequence[str]) -> str:
    left = DICE - len(aside)
    if left == DICE:
        return _("🎲 Roll the dice")
    return n_("🎲 Roll again ({count} die)", "🎲 Roll again ({count} dice)", left)


def stop_words(locked: str | None, action: Stop) -> str:
    """The start of a stop button, e.g. "🛑 Stop: Two pairs"; the kind is named only when no lock-in
    tells it (four wilds alone, MC-X5)."""
    if locked is None:
        return _("🛑 Stop: {kind} {combo}", kind=kind_label(action.kind), combo=combo_name(action.combo))
    return _("🛑 Stop: {combo}", combo=combo_name(action.combo))


class MadCatTexts(Texts):
    emoji = "😾😿"

    # ---- the table -------------------------------------------------------------------------------

    def table_fields(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        fields = []
        if not view.over:
            fields.append(self._tray(view, names))
        fields.append((_("🃏 Cat cards (VPs)"), self._cards(view, names)))
        if not view.over:  # the final scores and their breakdown head the finished table
            fields.append((_("🐱 Players"), self._players(view, names)))
        return fields

    def _tray(self, view: View, names: Sequence[str]) -> tuple[str, str]:
        roller = names[view.turn]
        title = _("🎲 {player}'s dice", player=roller)
        if view.kind:
            title += f" · 🔒 {kind_cats(view.kind)}"
        if view.phase == "roll":
            return title, _("🎲 All {count} dice in hand, ready to roll.", count=DICE)
        lines = []
        if view.phase == "aside":
            lines.append(_("Just rolled: **{dice}**", dice=show(view.rolled)))
        else:
            lines.append(_("Last roll: {dice}", dice=show(view.rolled)))
        if view.aside:
            tray = _("On the tray: **{dice}**", dice=show(view.aside))
        else:
            tray = _("On the tray: nothing yet")
        left = DICE - len(view.aside)
        if view.phase != "aside" and left:
            tray += " · " + n_("{count} die to roll", "{count} dice to roll", left)
        lines.append(tray)
        if view.aside:
            lines.append(_("Reads as: {readings}", readings=self._readings(view)))
        return title, "\n".join(lines)

    def _readings(self, view: View) -> str:
        if view.aside.count(WILD) == DICE:
            return _("🌟 five wilds — the catpot")
        if not view.readings:
            return _("no combination yet")
        if view.kind is None:  # four wilds alone: Four of a kind of either kind (MC-8)
            return " · ".join(
                _(
                    "{combo} ({kind} 🏆 {vps})",
                    combo=combo_name(c),
                    kind=kind_word(kind),
                    vps=view.cards[card(kind, c, True)],
                )
                for c in view.readings
                for kind in ("mad", "sad")
            )
        return " · ".join(
            f"**{short_combo(c)}** 🏆{view.cards[card(view.kind, c, True)]} "
            f"🤫{view.cards[card(view.kind, c, False)]}"
            for c in view.readings
        )

    def _cards(self, view: View, names: Sequence[str]) -> str:
        """The 16 combination cards as a grid (outer / inner per kind, as the picture and the guide name
        them), then the catpot and the supply."""
        # Translators: the head of the card grid's first column: short, the grid fits a phone's 40 columns.
        header = _("outer/inner")
        combos = [short_combo(combo) for combo in COMBOS]
        first = max(12, len(header) + 1, *(len(name) + 1 for name in combos))
        mad = kind_word("mad")
        second = max(10, len(mad) + 1)
        rows = [f"{header:<{first}}{mad:<{second}}{kind_word('sad')}"]
        for combo, name in zip(COMBOS, combos, strict=True):
            cells = [
                f"{view.cards[card(kind, combo, False)]:>2} /{view.cards[card(kind, combo, True)]:>3}"
                for kind in ("mad", "sad")
            ]
            rows.append(f"{name:<{first}}{cells[0]:<{second}}{cells[1]}".rstrip())
        lines = [
            "```",
            *rows,
            "```",
            _("🤫 outer: moochers' · 🏆 inner: roller's"),
            _(
                "🍯 Catpot **{catpot}** · 💰 Supply **{supply}** VPs",
                catpot=view.cards[CATPOT],
                supply=view.supply,
            ),
        ]
        if view.final_round:
            if ends_with_the_emptying_turn(view.players):
                lines.append(_("📭 Supply empty: this is the last turn."))
            else:
                lines.append(
                    _("📭 Supply empty: play ends before {player}'s turn.", player=names[view.first])
                )
        return "\n".join(lines)

    def _players(self, view: View, names: Sequence[str]) -> str:
        lines = []
        for seat in range(view.players):
            name, score = names[seat], view.scores[seat]
            if seat == view.turn:
                lines.append(player_line("🎲", name, score, _("rolling")))
            elif view.revealed[seat] is not None:
                shown = _("showed {pick}", pick=mooch_label(view.revealed[seat]))
                lines.append(player_line("💰", name, score, shown))
            elif view.phase == "mooch" and not view.picked[seat]:
                lines.append(player_line("⏳", name, score, _("picking a mooch card…")))
            elif view.picked[seat]:
                lines.append(player_line("🂠", name, score, _("mooch card face down")))
            else:
                lines.append(player_line("🐱", name, score))
        return "\n".join(lines)

    # ---- a seat's own panel ----------------------------------------------------------------------

    def private_fields(self, view: View, public: View, names: Sequence[str]) -> list[tuple[str, str]]:
        seat = view.seat
        fields = []
        if seat is not None and view.my_pick is not None:
            if view.revealed[seat] is not None:
                line = revealed_pick_line(view.my_pick)
            else:
                line = hidden_pick_line(view.my_pick)
            fields.append((_("Your mooch pick"), line))
        if view.phase == "mooch" and seat in view.to_act:
            fields.append((_("🤫 Mooch cards — pick one in secret"), self._mooch_menu(view)))
        if not view.over:
            fields.append(self._tray(view, names))
        if seat is not None:
            fields.append((_("You have"), vps(view.scores[seat])))
        return fields

    def _mooch_menu(self, view: View) -> str:
        """How the mooch cards pay (MC-6, MC-9), in short: each button says what its card would share
        now, and the roller's tray above says which the tray already reads as."""
        return _(
            "Each button shows the VPs its card shares if the tray reads as it; moochers who picked the "
            "same card split them, the rest stays on the card. {fail} takes the catpot "
            "if the turn fails; {none} keeps your cards.",
            fail=mooch_label("fail"),
            none=mooch_label("none"),
        )

    def prompt(self, view: View, names: Sequence[str]) -> str:
        seat = view.seat
        if seat is None or seat not in view.to_act:
            return fill_names(view.prompt, names)
        if view.phase == "mooch":
            return _(
                "Pick one mooch card in secret. ⏰ Mooching is timed: the countdown is on the table's "
                "status line, and if it runs out you pick no card."
            )
        if view.phase == "roll":
            return _("Your turn: roll the dice 🎲")
        if view.phase == "aside":
            if view.kind:
                return _(
                    "Set aside at least one die you just rolled: {cats} or wilds.", cats=kind_cats(view.kind)
                )
            return _("Set aside at least one die you just rolled: only mad or only sad cats, plus any wilds.")
        if len(view.aside) == DICE:
            return _("All five dice are on your tray: stop with a combination.")
        return _("Roll again, or stop and take an inner card's VPs.")

    # ---- controls --------------------------------------------------------------------------------

    def controls(self, view: View, choices: Sequence[Choice]) -> list[Control] | None:
        """The roller's dice select or Roll/Stop rows, or the mooch cards, built from the legal actions."""
        if not choices:
            return None
        actions = [decode(choice.value) for choice in choices]
        kinds = {type(action) for action in actions}
        if view.phase == "aside":
            options = die_choices(view, {choice.value for choice in choices})
            if kinds != {SetAside} or not options:
                return None
            return [
                Control(
                    "multi",
                    options,
                    placeholder=_("📥 Set aside dice you just rolled (choose one or more)…"),
                    key=ASIDE_KEY,
                    min_values=1,
                    max_values=len(options),
                )
            ]
        if view.phase == "mooch":
            if set(actions) != {Mooch(card=pick) for pick in PICKS}:
                return None
            cards = tuple(Choice(Mooch(card=p).encode(), self._mooch_label(view, p)) for p in MOOCH_CARDS)
            none = (Choice(Mooch(card="none").encode(), mooch_label("none")),)
            return [Control("buttons", cards, style="primary"), Control("buttons", none)]
        if not kinds <= {Roll, Stop}:
            return None
        rows = []
        if Roll() in actions:
            rows.append(
                Control("buttons", (Choice(Roll().encode(), roll_label(view.aside)),), style="primary")
            )
        stops = tuple(self._stop_choice(view, action) for action in actions if isinstance(action, Stop))
        if stops:
            if len(stops) <= 5:
                rows.append(Control("buttons", stops, style="success"))
            else:
                rows.append(Control("select", stops, placeholder=_("🛑 Stop with…")))
        return rows

    def _mooch_label(self, view: View, pick: str) -> str:
        pot = view.cards[CATPOT] if pick == "fail" else view.cards[card(view.kind, pick, False)]
        return f"{mooch_label(pick)} · {vps(pot)}"

    def _stop_choice(self, view: View, action: Stop) -> Choice:
        take = view.cards[card(action.kind, action.combo, True)]
        return Choice(
            action.encode(), _("{stop} → take {vps}", stop=stop_words(view.kind, action), vps=vps(take))
        )

    def label(self, rules: Rules, state: State, seat: int, action: MadcatAction) -> str:
        if isinstance(action, Roll):
            return roll_label(state.aside)
        if isinstance(action, SetAside):
            return _("📥 Set aside {dice}", dice=show(action.faces))
        if isinstance(action, Stop):
            take = state.cards[card(action.kind, action.combo, True)]
            return f"{stop_words(state.kind, action)} ({vps(take)})"
        return mooch_label(action.card)

    def compose(self, view: View, key: str, values: Sequence[str]) -> str:
        """The set-aside of the chosen dice (MC-2, MC-3), or the engine's refusal saying why it can't
        be made."""
        if key != ASIDE_KEY:
            raise InvalidInput(_("That choice can't be made here."))
        if view.phase != "aside":
            raise OutOfDate(_("The table has moved on — here is the current position."))
        faces, seen = [], set()
        for value in values:
            match = _DIE_VALUE.fullmatch(value)
            if match is None or value in seen:
                raise InvalidInput(_("That choice can't be made here."))
            seen.add(value)
            index, face = int(match[1]), match[2]
            if index >= len(view.rolled) or view.rolled[index] != face:
                raise OutOfDate(_("The table has moved on — here is the current position."))
            faces.append(face)
        action = SetAside(faces=sort_faces(faces))
        refusal = aside_refusal(view.rolled, view.kind, action.faces)
        if refusal is not None:
            raise IllegalAction(refusal)
        return action.encode()


TEXTS = MadCatTexts()
