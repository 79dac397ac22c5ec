"""Component custom_ids: what every Catnip button and select carries, and how to read it back.

Every component id starts with `cn:` then a kind. Ids never carry a secret that
is not already the clicker's own: action ids appear only on panels shown to
the seat that may take them.

`parse` is strict, because a modified client can send any text as a custom_id: ASCII digits
only, bounded lengths, known kinds and lobby operations; anything else is a `BadRequest`
whose answer quotes none of the input. The wire letters of the kinds never change, so old
buttons keep working.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from bot.errors import BadRequest
from engine import GAMES
from engine.core import MAX_ENCODED_ACTION
from lang import N_, _

PREFIX = "cn"
MAX_CUSTOM_ID = 100
MAX_NUMBER = 2**63 - 1
"""The largest game id or version there can be (SQLite's largest integer)."""
MAX_VALUES = 25
"""Discord's most options in one select, so the most values one choice can carry."""

INVALID = N_("That button isn't valid any more — use /game status to see the current table.")


class Kind(StrEnum):
    """What a component does; the value is the letter(s) written in its custom_id."""

    ACTION = "a"
    SELECT = "s"
    MULTI = "m"
    PAGE = "pg"
    VIEW = "v"
    LOBBY = "l"
    REMATCH = "r"
    GUIDE = "h"
    """A page of a game's guide ("📖 How to play"): public words, so any member may open it anywhere."""
    REFRESH = "rf"
    """Show the clicker's private view again (on a private view that is waiting)."""
    BACK = "bk"
    """I'm back: a member a computer plays for takes their seat again."""
    REPLACE = "rp"
    """The host hands a seat to a computer: the table's button, then the seat chosen in its select."""
    DETAILS = "d"
    REPLAY = "rv"
    """A finished game's replay viewer, at a move: the move shown next and which control asks for it."""
    MORE = "mo"
    """Show the rest of the clicker's own view (what their private panel leaves out), privately."""
    CONFIRM = "c"
    """A move confirmed: the second tap a costly, rarely meant move asks for (`Texts.confirmation`)."""
    UNDO = "u"
    """Take back the clicker's last move, made on the table at the id's version (engine/history.py)."""

    @property
    def versioned(self) -> bool:
        """Made for one version of the table: the id carries that version and an argument."""
        return self in (Kind.ACTION, Kind.SELECT, Kind.MULTI, Kind.PAGE, Kind.CONFIRM)

    @property
    def is_action(self) -> bool:
        return self in (Kind.ACTION, Kind.SELECT, Kind.MULTI, Kind.CONFIRM)

    @property
    def on_private_view(self) -> bool:
        """Made for a private view (or another private message Catnip sends the clicker)."""
        return self.versioned or self in (Kind.REFRESH, Kind.REPLACE, Kind.REPLAY, Kind.MORE, Kind.UNDO)


class LobbyOp(StrEnum):
    """What a lobby control does; the value is the word written in its custom_id."""

    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    CANCEL = "cancel"
    ADD_COMPUTER = "addc"
    REMOVE_COMPUTER = "rmc"
    SHUFFLE = "shuffle"
    OPTION = "opt"
    SETTINGS = "set"
    """A "⚙️ Settings" select holding several options' values; its argument is the select's page."""


class ComponentType(IntEnum):
    """The Discord component types Catnip makes (the `component_type` of a click)."""

    BUTTON = 2
    SELECT = 3


@dataclass(frozen=True)
class ComponentId:
    """A parsed custom_id: `kind`, the game, and the kind's own fields.

    `arg` is the encoded action (a), the row or page (s, pg), the multi-select's key (m), a
    lobby option's name (l with op OPTION) or a guide's game and page ("madcat:1", h); `op` is a
    lobby control's operation. A guide's id names no table (`game_id` 0): it carries no version, so
    a How to play button keeps working on every old lobby and table.
    """

    kind: Kind
    game_id: int
    version: int = 0
    arg: str = ""
    op: LobbyOp | None = None

    def encode(self) -> str:
        parts = [PREFIX, self.kind.value, str(self.game_id)]
        if self.kind is Kind.GUIDE:
            parts = [PREFIX, self.kind.value, self.arg]
        elif self.kind.versioned or self.kind is Kind.REPLAY:
            parts += [str(self.version), self.arg]
        elif self.kind is Kind.UNDO:
            parts.append(str(self.version))
        elif self.kind is Kind.LOBBY:
            parts.append(f"{self.op}/{self.arg}" if self.arg else str(self.op))
        text = ":".join(parts)
        if len(text) > MAX_CUSTOM_ID:
            raise ValueError(f"custom_id too long: {len(text)} characters")
        return text

    @property
    def page(self) -> int:
        """The page (pg, h) or row (s) the id names."""
        return int(self.arg.rpartition(":")[2])

    @property
    def guide_game(self) -> str:
        """The game whose guide a guide id opens (h)."""
        return self.arg.partition(":")[0]

    def component_types(self) -> tuple[ComponentType, ...]:
        """The component types that carry this id: a button's id on a select is not one Catnip made."""
        if self.kind in (Kind.SELECT, Kind.MULTI) or self.op in (LobbyOp.ADD_COMPUTER, LobbyOp.SETTINGS):
            return (ComponentType.SELECT,)
        if self.kind is Kind.REPLAY and self.arg == "jump":
            return (ComponentType.SELECT,)
        if self.op is LobbyOp.OPTION or self.kind is Kind.REPLACE:
            return (ComponentType.BUTTON, ComponentType.SELECT)
        return (ComponentType.BUTTON,)


def action_id(game_id: int, version: int, encoded: str) -> str:
    return ComponentId(Kind.ACTION, game_id, version, encoded).encode()


def confirm_id(game_id: int, version: int, encoded: str) -> str:
    return ComponentId(Kind.CONFIRM, game_id, version, encoded).encode()


def undo_id(game_id: int, version: int) -> str:
    return ComponentId(Kind.UNDO, game_id, version).encode()


def select_id(game_id: int, version: int, page: int) -> str:
    return ComponentId(Kind.SELECT, game_id, version, str(page)).encode()


def multi_id(game_id: int, version: int, key: str) -> str:
    return ComponentId(Kind.MULTI, game_id, version, key).encode()


def page_id(game_id: int, version: int, page: int) -> str:
    return ComponentId(Kind.PAGE, game_id, version, str(page)).encode()


def view_id(game_id: int) -> str:
    return ComponentId(Kind.VIEW, game_id).encode()


def lobby_id(game_id: int, op: str, arg: str = "") -> str:
    return ComponentId(Kind.LOBBY, game_id, arg=arg, op=LobbyOp(op)).encode()


def rematch_id(game_id: int) -> str:
    return ComponentId(Kind.REMATCH, game_id).encode()


def guide_id(game: str, page: int = 0) -> str:
    """The id of a button showing page `page` of `game`'s guide."""
    return ComponentId(Kind.GUIDE, 0, arg=f"{game}:{page}").encode()


def refresh_id(game_id: int) -> str:
    return ComponentId(Kind.REFRESH, game_id).encode()


def back_id(game_id: int) -> str:
    return ComponentId(Kind.BACK, game_id).encode()


def replace_id(game_id: int) -> str:
    return ComponentId(Kind.REPLACE, game_id).encode()


def details_id(game_id: int) -> str:
    return ComponentId(Kind.DETAILS, game_id).encode()


def more_id(game_id: int) -> str:
    return ComponentId(Kind.MORE, game_id).encode()


def replay_id(game_id: int, step: int, control: str) -> str:
    """The id of a replay viewer's control showing move `step` (a jump's select: the step is 0)."""
    return ComponentId(Kind.REPLAY, game_id, step, control).encode()


_NUMBER = r"[0-9]{1,20}"
_TOKEN = rf"[!-~]{{1,{MAX_ENCODED_ACTION}}}"
"""An encoded action, a select's value or a multi-select's key: printable ASCII, no spaces."""
_ARGS = {
    Kind.ACTION: _TOKEN,
    Kind.SELECT: r"[0-9]{1,3}",
    Kind.MULTI: _TOKEN,
    Kind.PAGE: r"[0-9]{1,3}",
    Kind.CONFIRM: _TOKEN,
}
_VERSIONED = re.compile(
    rf"cn:(?P<kind>a|s|m|pg|c):(?P<game>{_NUMBER}):(?P<version>{_NUMBER}):(?P<arg>.+)", re.S
)
_PLAIN = re.compile(rf"cn:(?P<kind>v|r|rf|bk|rp|d|mo):(?P<game>{_NUMBER})")
_LOBBY = re.compile(rf"cn:l:(?P<game>{_NUMBER}):(?P<op>[a-z]{{1,10}})(?:/(?P<arg>[a-z0-9_]{{1,40}}))?")
_REPLAY = re.compile(rf"cn:rv:(?P<game>{_NUMBER}):(?P<step>{_NUMBER}):(?P<control>[a-z]{{1,8}})")
_UNDO = re.compile(rf"cn:u:(?P<game>{_NUMBER}):(?P<version>{_NUMBER})")
_GUIDE = re.compile(r"cn:h:(?P<game>[a-z]{1,20}):(?P<page>[0-9]{1,2})")
_VALUE = re.compile(_TOKEN)
_LOBBY_OPS = frozenset(op.value for op in LobbyOp)


def _number(text: str) -> int:
    value = int(text)
    if value > MAX_NUMBER:
        raise BadRequest(_(INVALID))
    return value


def parse(custom_id: str) -> ComponentId:
    """Read a custom_id back; raise `BadRequest` for anything Catnip did not make."""
    if not isinstance(custom_id, str) or len(custom_id) > MAX_CUSTOM_ID:
        raise BadRequest(_(INVALID))
    if match := _VERSIONED.fullmatch(custom_id):
        kind = Kind(match["kind"])
        if not re.fullmatch(_ARGS[kind], match["arg"]):
            raise BadRequest(_(INVALID))
        return ComponentId(kind, _number(match["game"]), _number(match["version"]), match["arg"])
    if match := _REPLAY.fullmatch(custom_id):
        return ComponentId(Kind.REPLAY, _number(match["game"]), _number(match["step"]), match["control"])
    if match := _UNDO.fullmatch(custom_id):
        return ComponentId(Kind.UNDO, _number(match["game"]), _number(match["version"]))
    if match := _PLAIN.fullmatch(custom_id):
        return ComponentId(Kind(match["kind"]), _number(match["game"]))
    if (match := _GUIDE.fullmatch(custom_id)) and match["game"] in GAMES:
        page = int(match["page"])
        if page >= len(GAMES[match["game"]].guide):
            raise BadRequest(_(INVALID))
        return ComponentId(Kind.GUIDE, 0, arg=f"{match['game']}:{page}")
    if (match := _LOBBY.fullmatch(custom_id)) and match["op"] in _LOBBY_OPS:
        op = LobbyOp(match["op"])
        if (op in (LobbyOp.OPTION, LobbyOp.SETTINGS)) != (match["arg"] is not None):
            raise BadRequest(_(INVALID))
        return ComponentId(Kind.LOBBY, _number(match["game"]), arg=match["arg"] or "", op=op)
    raise BadRequest(_(INVALID))


def kind_of(custom_id: str) -> Kind:
    """The kind of a custom_id Catnip made itself, read from its letters alone (what a click sends is
    read by `parse`, which checks it whole)."""
    return Kind(custom_id.split(":", 2)[1])


def chosen_values(data: object) -> list[str]:
    """The values a click chose in a select, each one Catnip could have offered; else `BadRequest`."""
    values = data.get("values") if isinstance(data, dict) else None
    if values is None:
        return []
    if not isinstance(values, Sequence) or isinstance(values, str) or len(values) > MAX_VALUES:
        raise BadRequest(_(INVALID))
    if not all(isinstance(value, str) and _VALUE.fullmatch(value) for value in values):
        raise BadRequest(_(INVALID))
    return list(values)
