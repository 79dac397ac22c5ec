"""The shapes of the emulator's REST answers and refusals as Discord gives them: JSON bodies, the
error codes Discord answers refused requests with (each named where it is used), and reading a
request's JSON or multipart payload."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from emulator import limits
from emulator.model import StoredMessage


def json_response(data: Any, status: int = 200) -> web.Response:
    """A JSON response with ``Content-Type: application/json`` exactly (discord.py insists)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def no_content() -> web.Response:
    return web.Response(status=204)


# Discord's answers to refused requests: (HTTP status, JSON error code, message).
INVALID_FORM = (400, 50035, "Invalid Form Body")
UNKNOWN_INTERACTION = (404, 10062, "Unknown interaction")
ALREADY_ACKNOWLEDGED = (400, 40060, "Interaction has already been acknowledged.")
UNKNOWN_WEBHOOK = (404, 10015, "Unknown Webhook")
INVALID_WEBHOOK_TOKEN = (401, 50027, "Invalid Webhook Token")
UNKNOWN_MESSAGE = (404, 10008, "Unknown Message")
UNKNOWN_CHANNEL = (404, 10003, "Unknown Channel")
MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
EDIT_REFUSED = (400, 30046, "Maximum number of edits to messages older than 1 hour reached. Try again later")
COMPONENTS_ONLY = (400, 40004, "This response type is only valid for component interactions")
THREAD_ARCHIVED = (400, 50083, "Thread is archived")

ErrorKind = tuple[int, int, str]
COUNTS_AS_INVALID = web.ResponseKey("emulator_counts_as_invalid", bool)
"""Set on an answer that counts toward the ban whatever its status (Discord sends it as a 429)."""


def request_key(name: str, kind: type) -> Any:
    """A key to keep something on a request (a typed key from aiohttp 3.14, a string before)."""
    return getattr(web, "RequestKey", lambda name, _kind: name)(name, kind)


PAYLOAD = request_key("emulator_payload", object)
"""Where a request keeps its parsed body."""


def error(status: int, code: int, message: str, problems: list[str] | None = None) -> web.Response:
    """A Discord-style error body: ``{"code", "message", "errors"}``."""
    body: dict[str, Any] = {"code": code, "message": message}
    if problems:
        body["errors"] = {"_errors": [{"code": "BASE_TYPE_INVALID", "message": p} for p in problems]}
    return json_response(body, status)


class Refused(Exception):
    """Raised by helpers to answer a request with a Discord error."""

    def __init__(self, response: web.Response) -> None:
        super().__init__(response.text)
        self.response = response


async def read_payload(request: web.Request) -> dict[str, Any]:
    """The JSON body of a request, or the ``payload_json`` of a multipart body plus its files (under
    ``__files__``); read once per request (the server reads it first to check it against the spec)."""
    if PAYLOAD in request:
        return request[PAYLOAD]
    request[PAYLOAD] = payload = await _parse_payload(request)
    return payload


async def _parse_payload(request: web.Request) -> Any:
    if request.content_type.startswith("multipart/"):
        payload: dict[str, Any] = {}
        files: list[dict[str, Any]] = []
        reader = await request.multipart()
        async for part in reader:
            if part.name == "payload_json":
                payload = json.loads(await part.text())
            elif part.filename:
                data = await part.read()
                files.append(
                    {
                        "filename": part.filename,
                        "size": len(data),
                        "content_type": part.headers.get("Content-Type"),
                        "data": bytes(data),
                    }
                )
        payload["__files__"] = files
        return payload
    if not request.can_read_body:
        return {}
    text = await request.text()
    return json.loads(text) if text else {}


def snowflake(request: web.Request, key: str) -> int:
    try:
        return int(request.match_info[key])
    except (KeyError, ValueError):
        raise Refused(error(*UNKNOWN_CHANNEL)) from None


_KEPT_FLAGS = limits.EPHEMERAL_FLAG  # flags a message keeps across edits
_SETTABLE_FLAGS = (1 << 2) | (1 << 12) | limits.V2_FLAG  # suppress embeds, suppress notifications, v2


def message_fields(payload: dict[str, Any], base: StoredMessage | None = None) -> dict[str, Any]:
    """The message fields after applying a create/edit payload to ``base`` (None: a new message)."""
    fields: dict[str, Any] = {
        "content": base.content if base else "",
        "embeds": base.embeds if base else [],
        "components": base.components if base else [],
        "attachments": base.attachments if base else [],
        "flags": base.flags if base else 0,
    }
    if "content" in payload:
        fields["content"] = payload["content"] or ""
    if "embeds" in payload:
        fields["embeds"] = payload["embeds"] or []
    elif "embed" in payload:
        fields["embeds"] = [payload["embed"]] if payload["embed"] else []
    if "components" in payload:
        fields["components"] = payload["components"] or []
    if "attachments" in payload and base is not None:
        keep = {str(a.get("id")) for a in payload["attachments"] or []}
        fields["attachments"] = [a for a in base.attachments if str(a["id"]) in keep]
    if "flags" in payload and payload["flags"] is not None:
        asked = int(payload["flags"])
        kept = (base.flags & _KEPT_FLAGS) if base else (asked & limits.EPHEMERAL_FLAG)
        fields["flags"] = (asked & _SETTABLE_FLAGS) | kept
    if base is not None:
        fields["flags"] &= ~limits.LOADING_FLAG
    return fields
