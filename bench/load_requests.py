"""What the bot spends of Discord's budget in `bench.load_members`, told apart by what each request is for.

Every request the emulator answers during play is sorted by its route and what it carries, as its
reader would name it — no label from the bot is needed:

- an edit of a table message: ``table edit``, or ``picture`` when it uploads the table's picture;
  ``lobby`` when the message is a lobby, ``result`` when it shows a finished or closed game;
- a new message: ``ping`` (🔔), ``warning`` (⏰), ``repost`` (a table posted anew), ``lobby``, ``result``;
- a deletion: ``ping deletion``, ``warning deletion``, ``table deletion`` (the old table of a repost);
- the interaction endpoints (:mod:`emulator.usage`): ``interaction callback``, ``interaction webhook``;
- anything else by its route.

The counts are kept apart for the requests bound by the global limit and the exempt ones, and per game
(the thread's table's game; ``other`` for requests outside a table's thread).

Every edit of a table message, whatever its route, is also sorted by what it changes (`edit_change`):
``text`` (the picture kept), ``text and picture``, ``picture alone`` (the text as it was: an edit only
to deliver a picture), ``unchanged``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

from aiohttp import web

from bench.load_tables import TABLE_TITLE, Table
from emulator.model import World
from emulator.responses import PAYLOAD
from emulator.server import ROUTE
from emulator.usage import CALLBACK, FOLLOWUP_MESSAGE

MESSAGE_ROUTE = "/channels/{channel_id}/messages"
ONE_MESSAGE_ROUTE = "/channels/{channel_id}/messages/{message_id}"
LOBBY_TEXT = "Waiting for players"


def message_shape(content: str, embeds: list[dict[str, Any]], components: list[dict[str, Any]]) -> str:
    """What a message of Catnip's is: ping, warning, table, lobby, result, or other."""
    if content.startswith("🔔"):
        return "ping"
    if content.startswith("⏰"):
        return "warning"
    title = str((embeds[0].get("title") if embeds else "") or "")
    if not TABLE_TITLE.search(title):
        return "other"
    if "closed" in title or "Rematch" in str(components):
        return "result"
    if str(embeds[0].get("description") or "").startswith(LOBBY_TEXT):
        return "lobby"
    return "table"


def purpose(method: str, template: str, payload: dict[str, Any] | None, stored: Any) -> str:
    """The kind of one request (see the module's docstring); ``stored``: the message it names, if any."""
    if template.startswith("/webhooks/"):
        return "interaction webhook"
    if template == CALLBACK:
        return "interaction callback"
    body = payload if isinstance(payload, dict) else {}
    if method == "POST" and template == MESSAGE_ROUTE:
        shape = message_shape(
            str(body.get("content") or ""), body.get("embeds") or [], body.get("components") or []
        )
        return {"table": "repost", "other": "other message"}.get(shape, shape)
    if template == ONE_MESSAGE_ROUTE and method in ("PATCH", "DELETE"):
        if method == "PATCH" and "embeds" in body:
            shape = message_shape(
                str(body.get("content") or ""), body["embeds"], body.get("components") or []
            )
        elif stored is not None:
            shape = message_shape(stored.content, stored.embeds, stored.components)
        else:
            shape = "other"
        if method == "DELETE":
            return "table deletion" if shape in ("table", "lobby", "result") else f"{shape} deletion"
        if shape == "table":
            return "picture" if body.get("__files__") else "table edit"
        return "other edit" if shape == "other" else shape
    return f"{method} {template}"


def table_text(body: dict[str, Any]) -> str:
    """What a table message says, its picture aside: content, embed (but its image) and buttons."""
    embeds = [{k: v for k, v in embed.items() if k != "image"} for embed in body.get("embeds") or []]
    return json.dumps([body.get("content"), embeds, body.get("components")], sort_keys=True)


def edit_change(before: str | None, after: str, uploads: bool) -> str:
    """What an edit of a table changes: its text (`before` → `after`), its picture (`uploads`), both, none."""
    if before == after:
        return "picture alone" if uploads else "unchanged"
    return "text and picture" if uploads else "text"


class RequestTally:
    """Counts the requests of play by kind and by game, bound by the global limit or exempt, and the
    moves made per game, to give requests a move."""

    def __init__(self, world: World, tables: dict[int, Table], playing: Callable[[], bool]) -> None:
        self.world = world
        self.tables = tables
        self.playing = playing
        self.counted: Counter[str] = Counter()
        self.exempt: Counter[str] = Counter()
        self.counted_by_game: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()  # "kind (scope)" -> answers of 429 during play
        self.moves: Counter[str] = Counter()
        self.counted_each_second: Counter[int] = Counter()  # second of the emulator's clock -> counted
        self.table_edits: Counter[str] = Counter()  # what each table edit of play changed (`edit_change`)
        self._texts: dict[int, str] = {}  # table message id -> its text, as last posted or edited

    def moved(self, table: Table) -> None:
        self.moves[table.game or "other"] += 1

    def observe(self, request: web.Request, response: web.StreamResponse) -> None:
        route = request.get(ROUTE)
        if route is None:
            return
        label, exempt = route
        template = label.split(" ", 1)[1]
        change = self._table_change(request.method, template, request.get(PAYLOAD), response)
        if not self.playing():
            return
        if change is not None:
            self.table_edits[change] += 1
        info = request.match_info
        named = info.get("message_id", "")
        stored = self.world.messages.get(int(named)) if named.isdigit() else None
        kind = purpose(request.method, template, request.get(PAYLOAD), stored)
        if exempt:
            self.exempt[kind] += 1
        else:
            self.counted[kind] += 1
            self.counted_each_second[int(self.world.now())] += 1
            table = self.tables.get(int(info.get("channel_id", 0)))
            self.counted_by_game[(table.game if table else "") or "other"] += 1
        if response.status == 429:
            self.refused[f"{kind} ({response.headers.get('X-RateLimit-Scope', 'banned')})"] += 1

    def _table_change(
        self, method: str, template: str, payload: Any, response: web.StreamResponse
    ) -> str | None:
        """What a table edit changes (None for any other request); a table posted is remembered."""
        body = payload if isinstance(payload, dict) else {}
        if (
            response.status != 200
            or method not in ("POST", "PATCH")
            or template not in (MESSAGE_ROUTE, ONE_MESSAGE_ROUTE, FOLLOWUP_MESSAGE)
            or not body.get("embeds")
            or message_shape(str(body.get("content") or ""), body["embeds"], body.get("components") or [])
            != "table"
        ):
            return None
        message_id = int(json.loads(getattr(response, "body", b"") or b"{}").get("id", 0))
        text = table_text(body)
        before = self._texts.get(message_id)
        self._texts[message_id] = text
        return edit_change(before, text, bool(body.get("__files__"))) if method == "PATCH" else None

    def figures(self) -> dict[str, Any]:
        return {
            "table_edits": dict(self.table_edits.most_common()),
            "counted": dict(self.counted.most_common()),
            "exempt": dict(self.exempt.most_common()),
            "counted_by_game": dict(self.counted_by_game.most_common()),
            "moves_by_game": dict(self.moves.most_common()),
            "refused": dict(self.refused.most_common()),
            "counted_peak_per_second": max(self.counted_each_second.values(), default=0),
        }


def per_move(figures: dict[str, Any], moves: int) -> dict[str, Any]:
    """The tally's counts as requests a move: in all, by kind and by game (a game's counted requests
    over that game's moves)."""
    counted, exempt = figures["counted"], figures["exempt"]
    games = figures["moves_by_game"]
    return {
        "counted_requests_per_move": sum(counted.values()) / max(moves, 1),
        "exempt_requests_per_move": sum(exempt.values()) / max(moves, 1),
        "counted_per_move_by_kind": {kind: n / max(moves, 1) for kind, n in counted.items()},
        "exempt_per_move_by_kind": {kind: n / max(moves, 1) for kind, n in exempt.items()},
        "counted_per_move_by_game": {
            game: n / max(games.get(game, 0), 1)
            for game, n in figures["counted_by_game"].items()
            if game in games
        },
        "table_edits_per_move": {
            change: n / max(moves, 1) for change, n in figures.get("table_edits", {}).items()
        },
        "responses_429_by_kind": figures["refused"],
        "counted_requests_peak_per_second": figures["counted_peak_per_second"],
    }
