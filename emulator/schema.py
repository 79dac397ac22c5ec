"""Every request body checked against Discord's own OpenAPI description of its HTTP API.

``emulator/spec/openapi.json`` is Discord's published description (OpenAPI 3.1, so its schemas are JSON
Schema 2020-12; source and licence beside it). A body — JSON, or the ``payload_json`` part of a
multipart upload — that does not match the schema of its route is refused as Discord refuses it (HTTP
400, code 50035 "Invalid Form Body", the problems under ``errors`` by path) and recorded as a violation,
so the test fails.

Validators are compiled once per route, on first use, with ``jsonschema``'s 2020-12 validator; ``$ref``s
resolve into the spec's ``components``. ``format`` is not asserted (Discord's formats such as
``snowflake`` are annotations there too). Routes the spec does not describe are not checked.

One deviation from the file: a snowflake may be an integer as well as a string of digits. The spec
allows strings only, but Discord takes both, and discord.py numbers the attachments of an upload with
integers (``{"id": 0, "filename": ...}``), so every upload would fail otherwise.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).with_name("spec") / "openapi.json"
_SPEC_URI = "urn:discord:openapi"
_PARAMETER = re.compile(r"\{[^}]+\}")
_INTEGER_ID = {"type": "integer", "minimum": 0}


def _shape(template: str) -> str:
    """A route template with its parameters unnamed: ``/webhooks/{app_id}/{token}`` -> ``/webhooks/{}/{}``."""
    return _PARAMETER.sub("{}", template)


class RequestSchemas:
    """The request-body validators of Discord's API, one per route, compiled when first needed."""

    def __init__(self, spec: dict[str, Any]) -> None:
        schemas = spec["components"]["schemas"]
        spec = {**spec, "components": {**spec["components"], "schemas": {**schemas}}}
        spec["components"]["schemas"]["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], _INTEGER_ID]}
        resource = Resource(contents=spec, specification=DRAFT202012)
        self._registry = Registry().with_resource(_SPEC_URI, resource)
        self._pointers: dict[tuple[str, str], str] = {}
        for path, item in spec["paths"].items():
            for method, operation in item.items():
                if not isinstance(operation, dict):
                    continue  # the path's shared "parameters"
                content = (operation.get("requestBody") or {}).get("content") or {}
                if "application/json" in content:
                    escaped = path.replace("~", "~0").replace("/", "~1")
                    pointer = f"#/paths/{escaped}/{method}/requestBody/content/application~1json/schema"
                    self._pointers[(method.upper(), _shape(path))] = pointer
        self._validators: dict[tuple[str, str], Draft202012Validator | None] = {}

    def validator(self, method: str, template: str) -> Draft202012Validator | None:
        """The compiled validator for ``method template`` (the emulator's route), None if undescribed."""
        key = (method, template)
        if key not in self._validators:
            pointer = self._pointers.get((method, _shape(template)))
            self._validators[key] = (
                None
                if pointer is None
                else Draft202012Validator({"$ref": _SPEC_URI + pointer}, registry=self._registry)
            )
        return self._validators[key]

    def problems(self, method: str, template: str, body: Any) -> list[tuple[str, str]]:
        """``(where, message)`` for each way ``body`` breaks its route's schema; empty when it fits."""
        validator = self.validator(method, template)
        if validator is None:
            return []
        errors = list(validator.iter_errors(body))
        if not errors:
            return []
        # One error per place in the body, the most telling of any branch a oneOf tried there.
        worst: dict[str, ValidationError] = {}
        for error in errors:
            where = ".".join(str(p) for p in error.absolute_path) or "body"
            worst.setdefault(where, error)
        return [(where, _explain(error)) for where, error in worst.items()]


def _explain(error: ValidationError) -> str:
    deepest = best_match([error, *error.context]) if error.context else error
    text = deepest.message
    return text if len(text) <= 300 else text[:297] + "..."


def form_errors(problems: list[tuple[str, str]]) -> dict[str, Any]:
    """Discord's ``errors`` object of a 50035: the problems nested by their path in the body."""
    tree: dict[str, Any] = {}
    for where, message in problems:
        node = tree
        if where != "body":
            for part in where.split("."):
                node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": "BASE_TYPE_INVALID", "message": message})
    return tree


@cache
def discord_schemas() -> RequestSchemas:
    """The validators of the vendored spec, loaded once per process."""
    return RequestSchemas(json.loads(SPEC_PATH.read_text(encoding="utf-8")))
