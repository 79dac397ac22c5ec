"""The load bench names each request of the bot by what it is for, from its route and what it carries
alone (bench/load_requests.py): the kinds its counted requests a move are split into."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bench.load_requests import MESSAGE_ROUTE, ONE_MESSAGE_ROUTE, edit_change, purpose, table_text
from emulator.usage import CALLBACK, FOLLOWUP, FOLLOWUP_MESSAGE

TABLE = {"embeds": [{"title": "🐱 Cats & Dogs — table #7", "description": "Ann to play"}]}
LOBBY = {"embeds": [{"title": "🐱 Cats & Dogs — table #7", "description": "Waiting for players…"}]}
OVER = {**TABLE, "components": [{"type": 1, "components": [{"type": 2, "label": "Rematch"}]}]}
PING = {"content": "🔔 <@1> your turn"}


def stored(body: dict) -> SimpleNamespace:
    return SimpleNamespace(
        content=body.get("content", ""), embeds=body.get("embeds", []), components=body.get("components", [])
    )


@pytest.mark.parametrize(
    ("method", "template", "payload", "message", "kind"),
    [
        ("PATCH", ONE_MESSAGE_ROUTE, TABLE, None, "table edit"),
        ("PATCH", ONE_MESSAGE_ROUTE, {**TABLE, "__files__": ["table.png"]}, None, "picture"),
        ("PATCH", ONE_MESSAGE_ROUTE, LOBBY, None, "lobby"),
        ("PATCH", ONE_MESSAGE_ROUTE, OVER, None, "result"),
        ("POST", MESSAGE_ROUTE, PING, None, "ping"),
        ("POST", MESSAGE_ROUTE, {"content": "⏰ 30 s left"}, None, "warning"),
        ("POST", MESSAGE_ROUTE, TABLE, None, "repost"),
        ("DELETE", ONE_MESSAGE_ROUTE, None, stored(PING), "ping deletion"),
        ("DELETE", ONE_MESSAGE_ROUTE, None, stored(TABLE), "table deletion"),
        ("POST", CALLBACK, {"type": 7}, None, "interaction callback"),
        ("POST", FOLLOWUP, PING, None, "interaction webhook"),
        ("PATCH", FOLLOWUP_MESSAGE, TABLE, None, "interaction webhook"),
        ("POST", "/channels/{channel_id}/threads", {}, None, "POST /channels/{channel_id}/threads"),
    ],
)
def test_each_request_is_named_by_what_it_is_for(method, template, payload, message, kind):
    assert purpose(method, template, payload, message) == kind


def test_each_table_edit_is_named_by_what_it_changes():
    """An edit that uploads a picture beside the text the table already showed exists only to deliver
    that picture; the embed's image link alone is not a change of text."""
    shown = table_text(
        {**TABLE, "embeds": [{**TABLE["embeds"][0], "image": {"url": "attachment://table.png"}}]}
    )
    moved = table_text({"embeds": [{**TABLE["embeds"][0], "description": "Bo to play"}]})
    assert edit_change(shown, table_text(TABLE), uploads=True) == "picture alone"
    assert edit_change(shown, table_text(TABLE), uploads=False) == "unchanged"
    assert edit_change(shown, moved, uploads=True) == "text and picture"
    assert edit_change(shown, moved, uploads=False) == "text"
    assert edit_change(None, moved, uploads=True) == "text and picture", "a table not seen before"
