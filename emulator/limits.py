"""Discord's documented limits, and validators that list every way a payload breaks them.

Each validator returns a list of ``(rule, sentence)`` problems; an empty list means Discord would accept
the payload. The emulator records each problem as a violation and answers like Discord (HTTP 400).
"""

from __future__ import annotations

from typing import Any

# Interaction timing.
RESPONSE_DEADLINE = 3.0  # seconds from dispatch to the initial response
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction token stays usable
EDIT_WINDOW = 60 * 60.0  # seconds after which the emulator refuses edits of a message

# Messages and embeds.
CONTENT = 2000
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
EMBED_FIELD_NAME = 256
EMBED_FIELD_VALUE = 1024
EMBED_FOOTER = 2048
EMBED_AUTHOR = 256
EMBED_TOTAL = 6000
FILES = 10  # files[0] … files[9] in one multipart upload

# Components.
ACTION_ROWS = 5
BUTTONS_PER_ROW = 5
CUSTOM_ID = 100
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
SELECT_OPTION_TEXT = 100  # label, value and description of a select option
SELECT_PLACEHOLDER = 150
V2_COMPONENTS = 40
V2_FLAG = 1 << 15
EPHEMERAL_FLAG = 1 << 6
LOADING_FLAG = 1 << 7

# Modals.
MODAL_TITLE = 45
MODAL_COMPONENTS = 5
TEXT_INPUT_LABEL = 45
TEXT_INPUT_VALUE = 4000
TEXT_INPUT_PLACEHOLDER = 100

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
LABEL_LIMIT = "label"
MODAL_LIMIT = "modal"
RESPONSE_TYPE = "response-type"
UNKNOWN_INTERACTION = "unknown-interaction"
FOLLOWUP_TOO_EARLY = "followup-before-response"
PERMISSIONS = "permissions"
FILE_LIMIT = "files"

Problem = tuple[str, str]

_INTERACTIVE = {2, 3, 5, 6, 7, 8}  # button and the select menus
_SELECTS = {3, 5, 6, 7, 8}


def _length(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def check_content(content: Any) -> list[Problem]:
    """Problems with a message's text content."""
    if content is not None and not isinstance(content, str):
        return [(CONTENT_LIMIT, "content must be a string")]
    if _length(content) > CONTENT:
        return [(CONTENT_LIMIT, f"content is {len(content)} characters (max {CONTENT})")]
    return []


def check_embeds(embeds: list[dict[str, Any]] | None) -> list[Problem]:
    """Problems with a message's embeds (count, per-field limits, 6000 characters in total)."""
    if not embeds:
        return []
    problems: list[Problem] = []
    if len(embeds) > EMBEDS:
        problems.append((EMBED_LIMIT, f"{len(embeds)} embeds (max {EMBEDS})"))
    total = 0
    for n, embed in enumerate(embeds):
        where = f"embed {n}"
        title = _length(embed.get("title"))
        description = _length(embed.get("description"))
        footer = _length((embed.get("footer") or {}).get("text"))
        author = _length((embed.get("author") or {}).get("name"))
        total += title + description + footer + author
        for size, limit, what in (
            (title, EMBED_TITLE, "title"),
            (description, EMBED_DESCRIPTION, "description"),
            (footer, EMBED_FOOTER, "footer text"),
            (author, EMBED_AUTHOR, "author name"),
        ):
            if size > limit:
                problems.append((EMBED_LIMIT, f"{where} {what} is {size} characters (max {limit})"))
        fields = embed.get("fields") or []
        if len(fields) > EMBED_FIELDS:
            problems.append((EMBED_LIMIT, f"{where} has {len(fields)} fields (max {EMBED_FIELDS})"))
        for f, field in enumerate(fields):
            name, value = field.get("name"), field.get("value")
            total += _length(name) + _length(value)
            if not _length(name) or not _length(value):
                problems.append((EMBED_LIMIT, f"{where} field {f} needs a non-empty name and value"))
            if _length(name) > EMBED_FIELD_NAME:
                problems.append(
                    (
                        EMBED_LIMIT,
                        f"{where} field {f} name is {len(name)} characters (max {EMBED_FIELD_NAME})",
                    )
                )
            if _length(value) > EMBED_FIELD_VALUE:
                problems.append(
                    (
                        EMBED_LIMIT,
                        f"{where} field {f} value is {len(value)} characters (max {EMBED_FIELD_VALUE})",
                    )
                )
    if total > EMBED_TOTAL:
        problems.append((EMBED_LIMIT, f"embeds hold {total} characters in total (max {EMBED_TOTAL})"))
    return problems


def _check_custom_id(component: dict[str, Any], seen: set[str], where: str) -> list[Problem]:
    custom_id = component.get("custom_id")
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= CUSTOM_ID:
        size = len(custom_id) if isinstance(custom_id, str) else 0
        return [(CUSTOM_ID_RULE, f"{where} custom_id is {size} characters (must be 1-{CUSTOM_ID})")]
    if custom_id in seen:
        return [(CUSTOM_ID_RULE, f"{where} custom_id {custom_id!r} is used twice in one message")]
    seen.add(custom_id)
    return []


def _check_button(button: dict[str, Any], seen: set[str], where: str) -> list[Problem]:
    problems: list[Problem] = []
    label = button.get("label")
    if _length(label) > BUTTON_LABEL:
        problems.append((LABEL_LIMIT, f"{where} label is {len(label)} characters (max {BUTTON_LABEL})"))
    if not label and not button.get("emoji"):
        problems.append((COMPONENT_LIMIT, f"{where} needs a label or an emoji"))
    style = button.get("style")
    if style == 5:
        if not button.get("url") or button.get("custom_id"):
            problems.append((COMPONENT_LIMIT, f"{where} is a link button: it needs a url and no custom_id"))
    elif style == 6:
        if not button.get("sku_id"):
            problems.append((COMPONENT_LIMIT, f"{where} is a premium button: it needs a sku_id"))
    else:
        problems.extend(_check_custom_id(button, seen, where))
    return problems


def _check_select(select: dict[str, Any], seen: set[str], where: str) -> list[Problem]:
    problems = _check_custom_id(select, seen, where)
    if _length(select.get("placeholder")) > SELECT_PLACEHOLDER:
        problems.append((LABEL_LIMIT, f"{where} placeholder is longer than {SELECT_PLACEHOLDER} characters"))
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if select.get("type") == 3:
        options = select.get("options") or []
        if not 1 <= len(options) <= SELECT_OPTIONS:
            problems.append(
                (SELECT_LIMIT, f"{where} has {len(options)} options (must be 1-{SELECT_OPTIONS})")
            )
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            problems.append((SELECT_LIMIT, f"{where} has two options with the same value"))
        for n, option in enumerate(options):
            for key in ("label", "value", "description"):
                size = _length(option.get(key))
                if size > SELECT_OPTION_TEXT:
                    problems.append(
                        (
                            LABEL_LIMIT,
                            f"{where} option {n} {key} is {size} characters (max {SELECT_OPTION_TEXT})",
                        )
                    )
            if not _length(option.get("label")) or not _length(option.get("value")):
                problems.append((SELECT_LIMIT, f"{where} option {n} needs a label and a value"))
        if options and high > len(options):
            problems.append((SELECT_LIMIT, f"{where} max_values {high} exceeds its {len(options)} options"))
    if not 0 <= low <= SELECT_OPTIONS or not 1 <= high <= SELECT_OPTIONS or low > high:
        problems.append((SELECT_LIMIT, f"{where} min_values {low} / max_values {high} are out of range"))
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
        selects = [c for c in children if c.get("type") in _SELECTS]
        buttons = [c for c in children if c.get("type") == 2]
        if not children:
            problems.append((COMPONENT_LIMIT, f"row {r} is empty"))
        elif selects and len(children) > 1:
            problems.append(
                (COMPONENT_LIMIT, f"row {r} holds a select and {len(children) - 1} other components")
            )
        elif len(buttons) > BUTTONS_PER_ROW:
            problems.append(
                (COMPONENT_LIMIT, f"row {r} holds {len(buttons)} buttons (max {BUTTONS_PER_ROW})")
            )
        for c, child in enumerate(children):
            where = f"row {r} component {c}"
            if child.get("type") == 2:
                problems.extend(_check_button(child, seen, where))
            elif child.get("type") in _SELECTS:
                problems.extend(_check_select(child, seen, where))
            else:
                problems.append(
                    (COMPONENT_LIMIT, f"{where} has type {child.get('type')}, not allowed in a row")
                )
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
    """Problems with a modal (title, custom_id, 1-5 inputs with valid labels and values)."""
    problems: list[Problem] = []
    title = modal.get("title")
    if not _length(title) or _length(title) > MODAL_TITLE:
        problems.append((MODAL_LIMIT, f"modal title must be 1-{MODAL_TITLE} characters"))
    problems.extend(_check_custom_id(modal, set(), "modal"))
    children = modal.get("components") or []
    if not 1 <= len(children) <= MODAL_COMPONENTS:
        problems.append((MODAL_LIMIT, f"modal has {len(children)} components (must be 1-{MODAL_COMPONENTS})"))
    seen: set[str] = set()
    for n, component in enumerate(walk_components(children)):
        where = f"modal component {n}"
        kind = component.get("type")
        if kind == 18 and not 1 <= _length(component.get("label")) <= TEXT_INPUT_LABEL:
            problems.append((MODAL_LIMIT, f"{where} label must be 1-{TEXT_INPUT_LABEL} characters"))
        if kind == 4:
            problems.extend(_check_custom_id(component, seen, where))
            if "label" in component and not 1 <= _length(component.get("label")) <= TEXT_INPUT_LABEL:
                problems.append((MODAL_LIMIT, f"{where} label must be 1-{TEXT_INPUT_LABEL} characters"))
            if _length(component.get("value")) > TEXT_INPUT_VALUE:
                problems.append((MODAL_LIMIT, f"{where} value is longer than {TEXT_INPUT_VALUE} characters"))
            if _length(component.get("placeholder")) > TEXT_INPUT_PLACEHOLDER:
                problems.append((MODAL_LIMIT, f"{where} placeholder is too long"))
            low, high = component.get("min_length", 0), component.get("max_length", TEXT_INPUT_VALUE)
            if not 0 <= low <= TEXT_INPUT_VALUE or not 1 <= high <= TEXT_INPUT_VALUE or low > high:
                problems.append((MODAL_LIMIT, f"{where} min_length/max_length out of range"))
        elif kind in _SELECTS:
            problems.extend(_check_select(component, seen, where))
    return problems
