"""Cats & Dogs at the table: the trick in play, each player's ribbons, and your hand."""

from __future__ import annotations

from collections.abc import Sequence

from engine.catsdogs._cards import RIBBONS, TABLE, card_name, ribbons
from engine.catsdogs.model import DUO, SOLO, Play, State, View
from engine.core import Rules
from engine.texts import Texts


def card_label(card: str) -> str:
    """The card with its ribbons, for a button and the hand: "🐱 Cat 1 · 3🎀"."""
    ribbons = RIBBONS[card]
    return f"{card_name(card)} · {ribbons}🎀" if ribbons else card_name(card)


def short(card: str) -> str:
    """A card in a line of cards: "🐱7", with its ribbons when it has any: "🐶1·3🎀"."""
    text = card_name(card).replace(" Cat ", "").replace(" Dog ", "")
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
    return "Table" if seat == TABLE else names[seat]


class CatsDogsTexts(Texts):
    hand_label = "My hand"
    emoji = "🐱🐶"

    def label(self, rules: Rules, state: State, seat: int, action: Play) -> str:
        return card_label(action.card)

    def table_fields(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        return self._fields(view, names, self._players(view, names))

    def _fields(self, view: View, names: Sequence[str], players: str | None) -> list[tuple[str, str]]:
        fields = [(self.heading(view), self._trick(view, names))]
        if view.mode == DUO and len(view.table) > 1:
            fields.append(("Table cards still to come", cards_line(view.table[1:])))
        if view.mode == SOLO:
            upcoming = view.table[1:]
            fields.append(
                ("Face-up trick cards to come", f"{cards_line(upcoming)} · {view.hidden_left} hidden")
            )
        if players is not None:
            fields.append(("Players", players))
        if view.last_trick is not None:
            fields.append(("Last trick", self._last_trick(view, names)))
        if view.table_pile:
            fields.append(("Collected by the table", cards_line(view.table_pile)))
        return fields

    def compact_fields(self, view: View, names: Sequence[str]) -> list[tuple[str, str]]:
        """One line per player, without the cards each collected (behind the Details button); when the
        game is over the final scores stand in for the players' lines."""
        return self._fields(view, names, None if view.over else self._player_lines(view, names))

    def _player_lines(self, view: View, names: Sequence[str]) -> str:
        return "\n".join(
            f"{'▶ ' if seat in view.to_act else ''}**{names[seat]}** · 🎀 {view.scores[seat]}/{view.target}"
            f" · this round +{view.ribbons[seat]} · 🃏 {view.hand_sizes[seat]}"
            for seat in range(view.players)
        )

    def private_fields(self, view: View, public: View, names: Sequence[str]) -> list[tuple[str, str]]:
        hand = "\n".join(card_label(card) for card in view.hand) or "—"
        fields = [("Your hand", hand), (self.heading(view), self._trick(view, names))]
        if view.seat is not None and view.collected[view.seat]:
            mine = view.collected[view.seat]
            fields.append(("You collected", f"{cards_line(mine)} = {ribbons(mine)}🎀"))
        return fields

    def heading(self, view: View) -> str:
        rounds = f" of {view.max_rounds}" if view.max_rounds else ""
        return (
            f"Round {view.round}{rounds} · trick {min(view.trick_no + 1, view.tricks_in_round)}/"
            f"{view.tricks_in_round}"
        )

    def _trick(self, view: View, names: Sequence[str]) -> str:
        shown = trick_cards(view)
        plays = [f"{who(seat, names)}: {short(card)}" for seat, card in shown if card is not None]
        if (TABLE, None) in shown:
            plays[0] = f"Face-up: {short(shown[0][1])} · hidden card 🂠"
        return "\n".join(plays) or "No card played yet."

    def _players(self, view: View, names: Sequence[str]) -> str:
        lines = []
        for seat in range(view.players):
            pile = view.collected[seat]
            turn = "▶ " if seat in view.to_act else ""
            lines.append(
                f"{turn}**{names[seat]}** — total **{view.scores[seat]}**/{view.target} · "
                f"this round {view.ribbons[seat]}🎀 ({cards_line(pile)}) · {view.hand_sizes[seat]} in hand"
            )
        return "\n".join(lines)

    def _last_trick(self, view: View, names: Sequence[str]) -> str:
        trick = view.last_trick
        plays = ", ".join(f"{who(seat, names)} {short(card)}" for seat, card in trick.plays)
        if trick.winner is None:
            result = "tie — everyone keeps their own card"
        else:
            result = f"{who(trick.winner, names)} wins"
        return f"{plays}\n🐱 {trick.cats} vs 🐶 {trick.dogs}: {result}"


TEXTS = CatsDogsTexts()
