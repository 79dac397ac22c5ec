"""Component custom_ids: what every Catnip button and select carries, and how to read it back.

Every component id starts with `cn:` then a kind. Ids never carry a secret that
is not already the clicker's own: action ids appear only on panels shown to
the seat that may take them.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.errors import BadRequest

PREFIX = "cn"
MAX_CUSTOM_ID = 100

LOBBY_OPS = ("join", "leave", "start", "cancel", "addc", "rmc", "shuffle", "opt")


@dataclass(frozen=True)
class ComponentId:
    """A parsed custom_id: `kind`, the game, and the kind's own fields."""

    kind: str
    game_id: int
    version: int = 0
    arg: str = ""

    def encode(self) -> str:
        parts = [PREFIX, self.kind, str(self.game_id)]
        if self.kind in ("a", "s", "m", "pg"):
            parts.append(str(self.version))
        if self.arg or self.kind in ("a", "s", "m", "pg", "l"):
            parts.append(self.arg)
        text = ":".join(parts)
        if len(text) > MAX_CUSTOM_ID:
            raise ValueError(f"custom_id too long: {len(text)} characters")
        return text


def action_id(game_id: int, version: int, encoded: str) -> str:
    return ComponentId("a", game_id, version, encoded).encode()


def select_id(game_id: int, version: int, page: int) -> str:
    return ComponentId("s", game_id, version, str(page)).encode()


def multi_id(game_id: int, version: int, key: str) -> str:
    return ComponentId("m", game_id, version, key).encode()


def page_id(game_id: int, version: int, page: int) -> str:
    return ComponentId("pg", game_id, version, str(page)).encode()


def view_id(game_id: int) -> str:
    return ComponentId("v", game_id).encode()


def lobby_id(game_id: int, op: str, arg: str = "") -> str:
    return ComponentId("l", game_id, arg=f"{op}/{arg}" if arg else op).encode()


def rematch_id(game_id: int) -> str:
    return ComponentId("r", game_id).encode()


def parse(custom_id: str) -> ComponentId:
    """Read a custom_id back; raise `BadRequest` for anything Catnip did not make."""
    bad = BadRequest("I don't recognise that control — it may come from an old version. Try /game status.")
    parts = custom_id.split(":", 4) if custom_id.startswith(f"{PREFIX}:a:") else custom_id.split(":")
    if len(parts) < 3 or parts[0] != PREFIX or not parts[2].isdigit():
        raise bad
    kind, game_id = parts[1], int(parts[2])
    if kind in ("a", "s", "m", "pg"):
        if len(parts) != 5 or not parts[3].isdigit() or not parts[4]:
            raise bad
        return ComponentId(kind, game_id, int(parts[3]), parts[4])
    if kind in ("v", "r") and len(parts) == 3:
        return ComponentId(kind, game_id)
    if kind == "l" and len(parts) == 4 and parts[3].split("/")[0] in LOBBY_OPS:
        return ComponentId(kind, game_id, arg=parts[3])
    raise bad
