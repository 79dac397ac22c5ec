"""How a game's views become words and symbols a player reads, with no Discord types.

Each game subclasses `Texts` in `engine/<game>/texts.py`; the defaults show every view field.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from engine.core import Action, Frozen, InvalidInput, Rules, fill_names
from lang import N_, _

COMMON_FIELDS = {"seat", "players", "to_act", "prompt", "over"}


def title_of(field: str) -> str:
    return field.replace("_", " ").capitalize()


def plain(value: Any, names: Sequence[str], players: int) -> str:
    """A readable one-block rendering of any view value."""
    if isinstance(value, Frozen):
        parts = [f"{title_of(k)}: {plain(v, names, players)}" for k, v in value if v not in (None, (), "")]
        return "; ".join(parts) or "—"
    if isinstance(value, tuple | list):
        if not value:
            return "—"
        if len(value) == players and players > 1 and all(not isinstance(v, str) for v in value):
            return "\n".join(f"**{names[i]}**: {plain(v, names, players)}" for i, v in enumerate(value))
        return ", ".join(plain(v, names, players) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {plain(v, names, players)}" for k, v in value.items()) or "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if value is None:
        return "—"
    return fill_names(str(value), names)


@dataclass(frozen=True)
class Choice:
    """One option of a control: an encoded action, or in a "multi" select the renderer's own value."""

    value: str
    label: str
    description: str | None = None


@dataclass(frozen=True)
class Control:
    """One row of controls on a panel or the table.

    "buttons": up to 5 buttons, each sends its action. "select": one select,
    the chosen option's action is sent. "multi": a select allowing
    `min_values`..`max_values` choices, which `Texts.compose` turns into one
    action (or refuses with a reason).
    """

    kind: Literal["buttons", "select", "multi"]
    choices: tuple[Choice, ...]
    placeholder: str = N_("Choose…")
    key: str = ""
    min_values: int = 1
    max_values: int = 1
    style: Literal["primary", "secondary", "success", "danger"] = "secondary"


class Texts:
    """Text for one game's table and private panels.

    `table_fields` shows the public view; `private_fields` what only the seat
    sees, its decision and hand first; `more_fields` the rest of the seat's view
    behind a button of the panel. Fields are (name, value) pairs; values longer
    than a Discord field are split across several fields by the caller, never cut.
    """

    hand_label = N_("My view")
    emoji = "🐾"
    more_label: str | None = None
    """The label of a private panel's button showing `more_fields` (None: the game has none)."""
    more_emoji = "📜"

    def table_fields(self, view: Frozen, names: Sequence[str]) -> list[tuple[str, str]]:
        return self._fields(view, names, exclude=set())

    def compact_fields(self, view: Frozen, names: Sequence[str]) -> list[tuple[str, str]]:
        """The table at four or more players: one line per player, so it fits a phone's screen; the
        full `table_fields` stay one click away (the table's Details button)."""
        return self.table_fields(view, names)

    def private_fields(self, view: Frozen, public: Frozen, names: Sequence[str]) -> list[tuple[str, str]]:
        """Fields of the seat's view that differ from the public one (its secrets and own details)."""
        different = {name for name, value in view if getattr(public, name, None) != value}
        return self._fields(view, names, exclude=set(type(view).model_fields) - different)

    def more_fields(self, view: Frozen, public: Frozen, names: Sequence[str]) -> list[tuple[str, str]]:
        """What a seat's panel leaves out to keep its decision on a phone's first screen (the whole life
        stack, the other homes, …), shown privately by the panel's `more_label` button."""
        return []

    def _fields(self, view: Frozen, names: Sequence[str], exclude: set[str]) -> list[tuple[str, str]]:
        players = getattr(view, "players", len(names))
        fields = []
        for name, value in view:
            if name in COMMON_FIELDS or name in exclude:
                continue
            fields.append((title_of(name), plain(value, names, players)))
        return fields

    def controls(self, view: Frozen, choices: Sequence[Choice]) -> list[Control] | None:
        """A game's own arrangement of the seat's legal actions (`choices`), or None for the default:
        buttons for a few actions, a paged select for many. Every legal action must stay reachable."""
        return None

    def label(self, rules: Rules, state: Frozen, seat: int, action: Action) -> str:
        """A short label (at most 80 characters, {pN} for names) for `seat`'s button or option that
        sends `action`. By default the rules' own (`Rules.label`); a game may word it from the view."""
        return rules.label(state, seat, action)

    def confirmation(self, view: Frozen, encoded: str) -> str | None:
        """The question a costly and rarely meant move (`encoded`, by the seat of `view`) asks before it
        is made, one more tap away; None for a move made at once. docs/rulings.md lists them."""
        return None

    def compose(self, view: Frozen, key: str, values: Sequence[str]) -> str:
        """The encoded action for the values chosen in the "multi" control `key`."""
        raise InvalidInput(_("That choice can't be made here."))

    def prompt(self, view: Frozen, names: Sequence[str]) -> str:
        return fill_names(getattr(view, "prompt", ""), names)
