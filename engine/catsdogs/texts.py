"""Cats & Dogs at the table: the trick in play, each player's ribbons, and your hand."""

from __future__ import annotations

from collections.abc import Sequence

from engine.catsdogs._cards import RIBBONS, TABLE, card_emoji, card_name, ribbons
from engine.catsdogs.model import DUO, SOLO, Play, State, View
from engine.core import Rules
from engine.texts import Texts
from lang import N_, _, n_


def card_label(card: str) -> str:
    """The card with its ribbons, for a button and the hand: "🐱 Cat 1 · 3🎀"."""
    ribbons = RIBBONS[card]
    return f"{card_name(card)} · {ribbons}🎀" if ribbons else card_name(card)


def short(card: str) -> str:
    """A card in a line of cards: "🐱7", with its ribbons when it has any: "🐶1·3🎀"."""
    text = f"{card_emoji(card)}{card[1]}"
    return f"{text}·{RIBBONS[card]}🎀" if RIBBONS[card] else text


def cards_line(cards: Sequence[str]) -> str:
    return " ".join(short(card) for card in cards) or "—"


def trick_cards(view: View) -> tuple[tuple[int, str | None], ...]:
    """The trick as the table shows it, (seat, card) in order: with 2 players the table's face-up card
    first until it joins the trick; solo, the face-up card and the hidden one (card None) first."""
    plays = tuple(view.trick)
    if view.mode == DUO and view.table and not any(seat == TABLE for seat, _ in plays):
        return ((TABLE, view.table[0]), *plays)
    if view.mode == SOLO and view.hidden_left and view.table:
        return ((TABLE, view.table[0]), (TABLE, None), *plays)
    return plays


def who(seat: int, names: Sequence[str]) -> str:
    return _("Table") if seat == TABLE else names[seat]


class CatsDogsTexts(Texts):
    hand_label = N_("My hand")
    emoji = "🐱🐶"

    def label(self, rules: Rules, state: State, seat: int, action: Play) -> str:
        return card_label(action.card)

    def table_fields(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        return self._fields(view, names, self._players(view, names))

    def _fields(self, view: View, names: Sequence[str], players: str | None) -> list[tuple[str, str]]:
        fields = [(self.heading(view), self._trick(view, names))]
        if view.mode == DUO and len(view.table) > 1:
            fields.append((_("Table cards still to come"), cards_line(view.table[1:])))
        if view.mode == SOLO:
            upcoming = view.table[1:]
            hidden = n_("{count} hidden", "{count} hidden", view.hidden_left)
            fields.append((_("Face-up trick cards to come"), f"{cards_line(upcoming)} · {hidden}"))
        if players is not None:
            fields.append((_("Players"), players))
        if view.last_trick is not None:
            fields.append((_("Last trick"), self._last_trick(view, names)))
        if view.table_pile:
            fields.append((_("Collected by the table"), cards_line(view.table_pile)))
        return fields

    def compact_fields(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        """One line per player, without the cards each collected (behind the Details button); when the
        game is over the final scores stand in for the players' lines."""
        return self._fields(view, names, None if view.over else self._player_lines(view, names))

    def _player_lines(self, view: View, names: Sequence[str]) -> str:
        return "\n".join(
            ("▶ " if seat in view.to_act else "")
            + _(
                "**{name}** · 🎀 {score}/{target} · this round +{ribbons} · 🃏 {cards}",
                name=names[seat],
                score=view.scores[seat],
                target=view.target,
                ribbons=view.ribbons[seat],
                cards=view.hand_sizes[seat],
            )
            for seat in range(view.players)
        )

    def private_fields(self, view: View, public: View, names: Sequence[str]) -> list[tuple[str, str]]:
        hand = "\n".join(card_label(card) for card in view.hand) or "—"
        fields = [(_("Your hand"), hand), (self.heading(view), self._trick(view, names))]
        if view.seat is not None and view.collected[view.seat]:
            mine = view.collected[view.seat]
            fields.append((_("You collected"), f"{cards_line(mine)} = {ribbons(mine)}🎀"))
        return fields

    def heading(self, view: View) -> str:
        trick = min(view.trick_no + 1, view.tricks_in_round)
        if view.max_rounds:
            return _(
                "Round {round} of {rounds} · trick {trick}/{tricks}",
                round=view.round,
                rounds=view.max_rounds,
                trick=trick,
                tricks=view.tricks_in_round,
            )
        return _(
            "Round {round} · trick {trick}/{tricks}",
            round=view.round,
            trick=trick,
            tricks=view.tricks_in_round,
        )

    def _trick(self, view: View, names: Sequence[str]) -> str:
        shown = trick_cards(view)
        plays = [
            _("{player}: {card}", player=who(seat, names), card=short(card))
            for seat, card in shown
            if card is not None
        ]
        if (TABLE, None) in shown:
            plays[0] = _("Face-up: {card} · hidden card 🂠", card=short(shown[0][1]))
        return "\n".join(plays) or _("No card played yet.")

    def _players(self, view: View, names: Sequence[str]) -> str:
        lines = []
        for seat in range(view.players):
            pile = view.collected[seat]
            turn = "▶ " if seat in view.to_act else ""
            line = _(
                "**{name}** — total **{score}**/{target} · this round {ribbons}🎀 ({pile}) · {cards} in hand",
                name=names[seat],
                score=view.scores[seat],
                target=view.target,
                ribbons=view.ribbons[seat],
                pile=cards_line(pile),
                cards=view.hand_sizes[seat],
            )
            lines.append(turn + line)
        return "\n".join(lines)

    def _last_trick(self, view: View, names: Sequence[str]) -> str:
        trick = view.last_trick
        plays = ", ".join(f"{who(seat, names)} {short(card)}" for seat, card in trick.plays)
        if trick.winner is None:
            result = _("tie — everyone keeps their own card")
        else:
            result = _("{player} wins", player=who(trick.winner, names))
        return f"{plays}\n" + _(
            "🐱 {cats} vs 🐶 {dogs}: {result}", cats=trick.cats, dogs=trick.dogs, result=result
        )


TEXTS = CatsDogsTexts()
