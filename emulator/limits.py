"""The rules of Discord that its OpenAPI description cannot state, and validators that list every way
a payload breaks them.

Every request body is first checked against Discord's published schema (:mod:`emulator.schema`): types,
required fields, string lengths (embed titles, descriptions, fields, footers and authors; custom_ids,
labels, placeholders, select options, modal titles and text inputs), counts (10 embeds, 25 fields,
1-5 components in a row, 1-25 select options) and value ranges. What stays here is what a schema of one
request cannot express:

- the timing of interactions: the 3 s deadline, the 15-minute token, edits of messages over an hour old
  (enforced in :mod:`emulator.callbacks` and :mod:`emulator.rest` with the figures below);
- sums and relations across fields: 6000 characters across all embeds, a custom_id used twice in one
  message, two select options with one value, ``min_values`` above ``max_values`` or above the number
  of options, ``min_length`` above ``max_length``;
- rules that depend on other fields or on the message being edited: a message left empty after an edit,
  a button with neither label nor emoji, a link button with a custom_id, an interactive button without
  one, a select sharing its row, components-v2 messages with content or embeds, 40 components in a v2
  message, 5 action rows in a classic one, 5 components in a modal (the spec allows 40 top-level
  components for v2 messages and modals alike);
- an edit's embed showing a file (``attachment://name``) the edit neither uploads nor names among the
  attachments it keeps (see `check_embedded_files`);
- figures where the spec is looser than Discord is with bots: message content of 2000 characters (the
  spec says 4000, a limit for some users) and an embed field's non-empty name and value.

Each validator returns a list of ``(rule, sentence)`` problems; an empty list means Discord would accept
the payload. The emulator records each problem as a violation and answers like Discord (HTTP 400).
"""

from __future__ import annotations

from typing import Any

# Interaction timing.
RESPONSE_DEADLINE = 3.0  # seconds from dispatch to the initial response
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token stays usable
EDIT_WINDOW = 60 * 60.0  # seconds after which edits of a message are capped (rest.check_edit_age)

# Messages, embeds, components and modals.
CONTENT = 2000
EMBED_TOTAL = 6000
FILES = 10  # files[0] … files[9] in one multipart upload

# Components.
ACTION_ROWS = 5
V2_COMPONENTS = 40
MODAL_COMPONENTS = 5
TEXT_INPUT_VALUE = 4000
V2_FLAG = 1 << 15
EPHEMERAL_FLAG = 1 << 6
LOADING_FLAG = 1 << 7

# Rule names used in violations.
DEADLINE = "deadline"
DOUBLE_RESPONSE = "double-response"
TOKEN_EXPIRED = "token-expired"
EPHEMERAL = "ephemeral"
EDIT_TOO_OLD = "edit-too-old"
CONTENT_LIMIT = "content"
EMPTY_MESSAGE = "empty-message"
EMBED_LIMIT = "embeds"
COMPONENT_LIMIT = "components"
CUSTOM_ID_RULE = "custom-id"
SELECT_LIMIT = "select"
MODAL_LIMIT = "modal"
RESPONSE_TYPE = "response-type"
UNKNOWN_INTERACTION = "unknown-interaction"
FOLLOWUP_TOO_EARLY = "followup-before-response"
PERMISSIONS = "permissions"
THREAD_ARCHIVED = "thread-archived"
FILE_LIMIT = "files"
UNNAMED_ATTACHMENT = "unnamed-attachment"  # an edit's embed shows a file the edit keeps without naming it
SCHEMA = "schema"  # the body does not match Discord's OpenAPI description (emulator.schema)

Problem = tuple[str, str]

_INTERACTIVE = {2, 3, 5, 6, 7, 8}  # button and the select menus
_SELECTS = {3, 5, 6, 7, 8}


def _length(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def check_content(content: Any) -> list[Problem]:
    """Problems with a message's text content (the spec's 4000 is not a bot's limit)."""
    if _length(content) > CONTENT:
        return [(CONTENT_LIMIT, f"content is {len(content)} characters (max {CONTENT})")]
    return []


def check_embeds(embeds: list[dict[str, Any]] | None) -> list[Problem]:
    """Problems with a message's embeds the spec cannot state: empty field names or values, and more
    than 6000 characters across all embeds."""
    if not embeds:
        return []
    problems: list[Problem] = []
    total = 0
    for n, embed in enumerate(embeds):
        total += _length(embed.get("title")) + _length(embed.get("description"))
        total += _length((embed.get("footer") or {}).get("text"))
        total += _length((embed.get("author") or {}).get("name"))
        for f, field in enumerate(embed.get("fields") or []):
            name, value = _length(field.get("name")), _length(field.get("value"))
            total += name + value
            if not name or not value:
                problems.append((EMBED_LIMIT, f"embed {n} field {f} needs a non-empty name and value"))
    if total > EMBED_TOTAL:
        problems.append((EMBED_LIMIT, f"embeds hold {total} characters in total (max {EMBED_TOTAL})"))
    return problems


def embedded_files(embeds: list[dict[str, Any]]) -> list[tuple[int, str, str]]:
    """The files a message's embeds show as ``attachment://name``: (embed index, part, name)."""
    shown = []
    for n, embed in enumerate(embeds):
        for part in ("image", "thumbnail"):
            url = str((embed.get(part) or {}).get("url") or "")
            if url.startswith("attachment://"):
                shown.append((n, part, url.removeprefix("attachment://")))
    return shown


def check_embedded_files(embeds: list[dict[str, Any]], named: set[str], held: set[str]) -> list[Problem]:
    """Problems with the files a message's embeds show as ``attachment://name``: each must be a file of
    the message (`held`), and one the request uploads or names in its ``attachments`` (`named`).

    Discord keeps a message's attachments when an edit omits ``attachments``, and it accepts an edit
    whose embed shows such a kept file; but it then shows the picture twice, in the embed and again
    below it as a loose attachment (discord/discord-api-docs#5675, Discord.Net#2236). Its documented
    way to keep a file is to name it, by id, in the edit's ``attachments``. The emulator refuses the
    edit that keeps a shown file without naming it (HTTP 400 like a form error, recorded as a
    violation) rather than showing the picture twice: a doubled picture is only a look, which no
    test reads, while a refusal fails the test at the very edit that made the mistake.
    """
    problems: list[Problem] = []
    for n, part, name in embedded_files(embeds):
        url = f"attachment://{name}"
        if name not in held:
            problems.append((FILE_LIMIT, f"embed {n}'s {part} {url} names no attachment of the message"))
        elif name not in named:
            problems.append(
                (
                    UNNAMED_ATTACHMENT,
                    f"embed {n}'s {part} {url} shows a file the edit keeps without naming it in "
                    "`attachments`: Discord would show it twice, in the embed and below it",
                )
            )
    return problems


def _check_custom_id(component: dict[str, Any], seen: set[str], where: str) -> list[Problem]:
    custom_id = component.get("custom_id")
    if custom_id in seen:
        return [(CUSTOM_ID_RULE, f"{where} custom_id {custom_id!r} is used twice in one message")]
    if isinstance(custom_id, str):
        seen.add(custom_id)
    return []


def _check_button(button: dict[str, Any], seen: set[str], where: str) -> list[Problem]:
    problems: list[Problem] = []
    if not button.get("label") and not button.get("emoji"):
        problems.append((COMPONENT_LIMIT, f"{where} needs a label or an emoji"))
    style = button.get("style")
    if style == 5:
        if not button.get("url") or button.get("custom_id"):
            problems.append((COMPONENT_LIMIT, f"{where} is a link button: it needs a url and no custom_id"))
    elif style == 6:
        if not button.get("sku_id"):
            problems.append((COMPONENT_LIMIT, f"{where} is a premium button: it needs a sku_id"))
    elif not button.get("custom_id"):
        problems.append((CUSTOM_ID_RULE, f"{where} needs a custom_id"))
    else:
        problems.extend(_check_custom_id(button, seen, where))
    return problems


def _check_select(select: dict[str, Any], seen: set[str], where: str) -> list[Problem]:
    problems = _check_custom_id(select, seen, where)
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if select.get("type") == 3:
        options = select.get("options") or []
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            problems.append((SELECT_LIMIT, f"{where} has two options with the same value"))
        if options and high > len(options):
            problems.append((SELECT_LIMIT, f"{where} max_values {high} exceeds its {len(options)} options"))
    if low > high:
        problems.append((SELECT_LIMIT, f"{where} min_values {low} is above max_values {high}"))
    return problems


def walk_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component in a (possibly nested) component tree, depth first."""
    found: list[dict[str, Any]] = []
    for component in components or []:
        found.append(component)
        found.extend(walk_components(component.get("components") or []))
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                found.extend(walk_components([component[key]]))
    return found


def interactive_components(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The buttons and selects of a message, in display order."""
    return [c for c in walk_components(components) if c.get("type") in _INTERACTIVE]


def check_components(components: list[dict[str, Any]] | None, flags: int = 0) -> list[Problem]:
    """Problems with a message's components (rows, buttons per row, selects, custom_ids, labels)."""
    if not components:
        return []
    problems: list[Problem] = []
    seen: set[str] = set()
    if flags & V2_FLAG:
        everything = walk_components(components)
        if len(everything) > V2_COMPONENTS:
            problems.append((COMPONENT_LIMIT, f"{len(everything)} components (max {V2_COMPONENTS})"))
        for n, component in enumerate(everything):
            where = f"component {n}"
            if component.get("type") == 2:
                problems.extend(_check_button(component, seen, where))
            elif component.get("type") in _SELECTS:
                problems.extend(_check_select(component, seen, where))
        return problems
    if len(components) > ACTION_ROWS:
        problems.append((COMPONENT_LIMIT, f"{len(components)} action rows (max {ACTION_ROWS})"))
    for r, row in enumerate(components):
        if row.get("type") != 1:
            problems.append((COMPONENT_LIMIT, f"top-level component {r} is not an action row"))
            continue
        children = row.get("components") or []
        if len(children) > 1 and any(c.get("type") in _SELECTS for c in children):
            problems.append(
                (COMPONENT_LIMIT, f"row {r} holds a select and {len(children) - 1} other components")
            )
        for c, child in enumerate(children):
            where = f"row {r} component {c}"
            if child.get("type") == 2:
                problems.extend(_check_button(child, seen, where))
            elif child.get("type") in _SELECTS:
                problems.extend(_check_select(child, seen, where))
    return problems


def check_message(message: dict[str, Any]) -> list[Problem]:
    """Problems with a complete message (content, embeds, components, and that it is not empty)."""
    problems = check_content(message.get("content"))
    problems += check_embeds(message.get("embeds"))
    flags = message.get("flags") or 0
    problems += check_components(message.get("components"), flags)
    has_body = (
        message.get("content")
        or message.get("embeds")
        or message.get("components")
        or message.get("attachments")
        or message.get("poll")
    )
    if not has_body and not flags & LOADING_FLAG:
        problems.append((EMPTY_MESSAGE, "a message needs content, embeds, components or a file"))
    if flags & V2_FLAG and (message.get("content") or message.get("embeds")):
        problems.append((COMPONENT_LIMIT, "a components-v2 message cannot have content or embeds"))
    return problems


def check_modal(modal: dict[str, Any]) -> list[Problem]:
    """Problems with a modal the spec cannot state: more than 5 components, a custom_id used twice,
    min_length above max_length."""
    problems: list[Problem] = []
    children = modal.get("components") or []
    if len(children) > MODAL_COMPONENTS:
        problems.append((MODAL_LIMIT, f"modal has {len(children)} components (max {MODAL_COMPONENTS})"))
    seen: set[str] = set()
    for n, component in enumerate(walk_components(children)):
        where = f"modal component {n}"
        kind = component.get("type")
        if kind == 4:
            problems.extend(_check_custom_id(component, seen, where))
            low, high = component.get("min_length", 0), component.get("max_length", TEXT_INPUT_VALUE)
            if low > high:
                problems.append((MODAL_LIMIT, f"{where} min_length {low} is above max_length {high}"))
        elif kind in _SELECTS:
            problems.extend(_check_select(component, seen, where))
    return problems
