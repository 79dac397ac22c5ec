"""Every request body checked against Discord's own OpenAPI description of its HTTP API.

``emulator/spec/openapi.json`` is Discord's published description (OpenAPI 3.1, so its schemas are JSON
Schema 2020-12; source and licence beside it). A body — JSON, or the ``payload_json`` part of a
multipart upload — that does not match the schema of its route is refused as Discord refuses it (HTTP
400, code 50035 "Invalid Form Body", the problems under ``errors`` by path) and recorded as a violation,
so the test fails.

Each route's check is compiled to Python by ``fastjsonschema`` when the emulator starts (``$ref``s
resolve into the spec's ``components``), with the spec's unions that one value decides rewritten to
check that value (``_unions_decided``; what it saves: docs/performance.md, "The emulator's body
checks"). Generating and compiling that code is most of an emulator's start, and every process running
one (each test process, ``python -m emulator``, the benchmarks' members) would do it again: the
compiled code is kept in the user's cache folder (``$XDG_CACHE_HOME/catnip/emulator-checks``, else
``~/.cache/…``), under a name drawn from everything it is made of (the spec file, this module's source,
the fastjsonschema and Python versions, the route), so a changed input makes a new name rather than
reading stale code. The spec needs nothing of 2020-12 beyond what draft 7 has (no ``$ref`` with
siblings, no ``prefixItems`` or ``unevaluated*``), so the compiled check decides the same
(tests/emulator/test_schema.py compares the two over a real game's bodies and broken copies). Only a
refused body is checked again with ``jsonschema``'s 2020-12 validator, for a message that names the
place and the rule. ``format`` is not asserted (Discord's formats such as ``snowflake`` are
annotations). Routes the spec does not describe are not checked.

One deviation from the file: a snowflake may be an integer as well as a string of digits. The spec
allows strings only, but Discord takes both, and discord.py numbers the attachments of an upload with
integers (``{"id": 0, "filename": ...}``), so every upload would fail otherwise.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import marshal
import os
import re
from collections.abc import Callable
from functools import cache, cached_property
from pathlib import Path
from typing import Any

import fastjsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).with_name("spec") / "openapi.json"
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "catnip" / "emulator-checks"
"""Where compiled checks are kept between processes."""
_SPEC_URI = "urn:discord:openapi"
_PARAMETER = re.compile(r"\{[^}]+\}")
_INTEGER_ID = {"type": "integer", "minimum": 0}


def _shape(template: str) -> str:
    """A route template with its parameters unnamed: ``/webhooks/{app_id}/{token}`` -> ``/webhooks/{}/{}``."""
    return _PARAMETER.sub("{}", template)


class RequestSchemas:
    """The request-body validators of Discord's API, one per route, compiled when first needed.

    With `cache_key` (what the spec and its compiling are made of), compiled checks are read from and
    written to `CACHE`; without, each is compiled anew."""

    def __init__(self, spec: dict[str, Any], cache_key: str | None = None) -> None:
        self._cache_key = cache_key
        schemas = spec["components"]["schemas"]
        spec = {**spec, "components": {**spec["components"], "schemas": {**schemas}}}
        spec["components"]["schemas"]["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], _INTEGER_ID]}
        resource = Resource(contents=spec, specification=DRAFT202012)
        self._registry = Registry().with_resource(_SPEC_URI, resource)
        self._spec_components = spec["components"]
        self._bodies: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {}
        for path, item in spec["paths"].items():
            for method, operation in item.items():
                if not isinstance(operation, dict):
                    continue  # the path's shared "parameters"
                content = (operation.get("requestBody") or {}).get("content") or {}
                if "application/json" in content:
                    escaped = path.replace("~", "~0").replace("/", "~1")
                    pointer = f"#/paths/{escaped}/{method}/requestBody/content/application~1json/schema"
                    self._bodies[(method.upper(), _shape(path))] = (
                        pointer,
                        content["application/json"]["schema"],
                    )
        self._checks: dict[tuple[str, str], Callable[[Any], Any] | None] = {}

    @cached_property
    def _components(self) -> dict[str, Any]:
        """The spec's components as the compiled checks read them (needed only when one is compiled)."""
        return _unions_decided(_const_as_enum(self._spec_components))

    def check(self, method: str, template: str) -> Callable[[Any], Any] | None:
        """The compiled check for ``method template`` (the emulator's route), None if undescribed."""
        key = (method, template)
        if key not in self._checks:
            found = self._bodies.get((method, _shape(template)))
            self._checks[key] = None if found is None else self._compile(*found)
        return self._checks[key]

    def check_as_written(self, method: str, template: str) -> Callable[[Any], Any]:
        """The route's check compiled from the spec as written, its unions tried branch by branch
        (never cached): what `_unions_decided` is measured against (`python -m bench.body_checks`)."""
        schema = self._bodies[(method, _shape(template))][1]
        components = _const_as_enum(self._spec_components)
        root = {**_const_as_enum(schema), "components": components}
        return fastjsonschema.compile(root, use_default=False, use_formats=False, detailed_exceptions=False)

    def prepare(self, routes: list[tuple[str, str]]) -> None:
        """Compiles the checks of these ``(method, template)`` routes now rather than on first use, so
        no request (an interaction's answer, racing its 3 s deadline) waits ~0.1-1 s for a compile."""
        for method, template in routes:
            self.check(method, template)

    def _compile(self, pointer: str, schema: dict[str, Any]) -> Callable[[Any], Any]:
        cached = None
        if self._cache_key is not None:
            name = hashlib.sha256(f"{self._cache_key} {pointer}".encode()).hexdigest()[:40]
            cached = CACHE / f"{name}.marshal"
        code = _read_code(cached) if cached is not None else None
        if code is None:
            # The body's schema as the root, with the spec's components beside it for its "#/components" refs.
            body = _unions_decided(_const_as_enum(schema), self._components)
            root = {**body, "components": self._components}
            source = fastjsonschema.compile_to_code(
                root, use_default=False, use_formats=False, detailed_exceptions=False
            )
            code = compile(source, f"<check of {pointer}>", "exec")
            if cached is not None:
                _write_code(cached, code)
        namespace: dict[str, Any] = {}
        exec(code, namespace)
        return namespace["validate"]  # the root schema's function, in fastjsonschema's generated code

    def problems(self, method: str, template: str, body: Any) -> list[tuple[str, str]]:
        """``(where, message)`` for each way ``body`` breaks its route's schema; empty when it fits."""
        check = self.check(method, template)
        if check is None:
            return []
        try:
            check(body)
        except fastjsonschema.JsonSchemaValueException as refused:
            return self.spec_problems(method, template, body) or [("body", refused.message)]
        return []

    def spec_problems(self, method: str, template: str, body: Any) -> list[tuple[str, str]]:
        """Every problem, each at its place in the body, said as precisely as jsonschema can: the spec
        read as written (its unions as unions), slower than the compiled check."""
        pointer = self._bodies[(method, _shape(template))][0]
        validator = Draft202012Validator({"$ref": _SPEC_URI + pointer}, registry=self._registry)
        worst: dict[str, ValidationError] = {}
        for error in validator.iter_errors(body):
            meant = _meant(error)
            where = ".".join(str(p) for p in meant.absolute_path) or "body"
            worst.setdefault(where, meant)
        return [(where, _explain(error)) for where, error in worst.items()]


def _read_code(path: Path) -> Any:
    """The compiled code kept at `path`, None if there is none (or it cannot be read)."""
    try:
        return marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None


def _write_code(path: Path, code: Any) -> None:
    """Keep `code` at `path` for the next process, whole or not at all; a cache that cannot be written
    is only slower."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        written = path.with_name(f"{path.name}.{os.getpid()}")
        written.write_bytes(marshal.dumps(code))
        os.replace(written, path)
    except OSError:
        pass


def _const_as_enum(schema: Any) -> Any:
    """The schema with each ``const: v`` written ``enum: [v]`` (the same rule): fastjsonschema cannot
    compile ``const`` without its detailed exceptions, which make the code ten times longer."""
    if isinstance(schema, dict):
        return {
            ("enum" if key == "const" else key): ([value] if key == "const" else _const_as_enum(value))
            for key, value in schema.items()
        }
    if isinstance(schema, list):
        return [_const_as_enum(item) for item in schema]
    return schema


_CHAINED = 3
_ANNOTATIONS = frozenset({"title", "description", "deprecated", "x-discord-union"})


def _unions_decided(schema: Any, components: dict[str, Any] | None = None) -> Any:
    """The schema with each ``oneOf``/``anyOf`` that one value decides written as the check of that
    value, for speed: compiled as written, a body is tried against every branch, and each branch it
    is not raises an exception inside the check (over a hundred for a table's edit).

    Two kinds are rewritten, both deciding exactly as before: a union of constants (``MessageComponentTypes``:
    twenty ``{"const": 2}``) becomes one ``enum``; a union of objects that each require a ``type``
    field of their own distinct constants (the kinds of component, of callback) becomes "``type`` is
    one of them, and the object matches the branch of its ``type``" (``if``/``then``). Any other union
    is left as it is. ``components`` resolves the ``$ref``s (the spec's own when None)."""
    components = schema if components is None else components

    def resolved(node: Any) -> Any:
        while isinstance(node, dict) and set(node) - _ANNOTATIONS == {"$ref"}:
            node = components["schemas"][node["$ref"].rsplit("/", 1)[1]]
        return node

    def rewrite(node: Any) -> Any:
        if isinstance(node, list):
            return [rewrite(item) for item in node]
        if not isinstance(node, dict):
            return node
        node = {key: rewrite(value) for key, value in node.items()}
        for union in ("oneOf", "anyOf"):
            if union in node:
                decided = _constants(node[union], resolved) or _by_type(node[union], resolved)
                if decided is not None:
                    rest = {key: value for key, value in node.items() if key != union}
                    return {**rest, "allOf": [*rest.get("allOf", ()), decided]}
        return node

    return rewrite(schema)


def _constants(branches: list[Any], resolved: Callable[[Any], Any]) -> dict[str, Any] | None:
    """``{"enum": [...]}`` for a union whose branches are each one distinct constant (of one JSON type)."""
    values, types = [], set()
    for branch in map(resolved, branches):
        if not isinstance(branch, dict) or set(branch) - _ANNOTATIONS - {"type"} != {"enum"}:
            return None
        if len(branch["enum"]) != 1:
            return None
        values.append(branch["enum"][0])
        types.add(branch.get("type"))
    if len(types) != 1 or len({json.dumps(value) for value in values}) != len(values):
        return None
    (kind,) = types
    return {"enum": values} if kind is None else {"type": kind, "enum": values}


def _by_type(branches: list[Any], resolved: Callable[[Any], Any]) -> dict[str, Any] | None:
    """The check of a union of objects told apart by their required ``type`` field, None if it is not one."""
    kinds: list[tuple[list[Any], Any]] = []
    for branch in branches:
        body = resolved(branch)
        if (
            not isinstance(body, dict)
            or body.get("type") != "object"
            or "type" not in body.get("required", ())
        ):
            return None
        field = resolved(body.get("properties", {}).get("type"))
        if not isinstance(field, dict) or not isinstance(field.get("enum"), list):
            return None
        kinds.append((field["enum"], branch))
    told = [json.dumps(value) for values, _ in kinds for value in values]
    if len(set(told)) != len(told):
        return None

    # A chain in the spec's order ("if it is a button, then …, else if it is a select, …"): an `if`
    # that does not hold raises inside the compiled check, so the first kinds cost least. Past
    # `_CHAINED` kinds the rest are tried side by side: Python refuses code nested much deeper.
    def when(values: list[Any], branch: Any) -> dict[str, Any]:
        return {"if": {"properties": {"type": {"enum": values}}}, "then": branch}

    chain: dict[str, Any] = {"allOf": [when(values, branch) for values, branch in kinds[_CHAINED:]]}
    for values, branch in reversed(kinds[:_CHAINED]):
        chain = {**when(values, branch), "else": chain}
    return {
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": [value for values, _ in kinds for value in values]}},
        **chain,
    }


def _explain(deepest: ValidationError) -> str:
    text = deepest.message if len(deepest.message) <= 160 else deepest.message[:157] + "..."
    rule = deepest.validator_value
    if isinstance(rule, int | str) and not isinstance(rule, bool) and len(str(rule)) <= 40:
        text += f" ({deepest.validator} {rule})"
    return text


def _meant(error: ValidationError) -> ValidationError:
    """The error to report: in a oneOf/anyOf, the deepest one of the branch whose ``type`` the body has
    (the others only say that it is another kind of component or callback)."""
    if not error.context:
        return error
    branches: dict[Any, list[ValidationError]] = {}
    for inner in error.context:
        branches.setdefault(inner.schema_path[0], []).append(inner)
    meant = [errors for errors in branches.values() if not any(_other_kind(e) for e in errors)]
    candidates = [e for errors in (meant or branches.values()) for e in errors]
    return _meant(max(candidates, key=lambda e: len(e.absolute_path)))


def _other_kind(error: ValidationError) -> bool:
    """Whether a branch's error says the body is another kind of thing (its "type" field, or its JSON
    type, differs), rather than a flawed thing of this kind."""
    path = list(error.relative_path)
    return path[-1:] == ["type"] or (not path and error.validator == "type")


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
    spec = SPEC_PATH.read_bytes()
    made_of = hashlib.sha256(spec + Path(__file__).read_bytes())
    made_of.update(f"{fastjsonschema.VERSION} {importlib.util.MAGIC_NUMBER.hex()}".encode())
    return RequestSchemas(json.loads(spec), cache_key=made_of.hexdigest())
