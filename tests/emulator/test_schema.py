"""Request bodies checked against Discord's OpenAPI description, refused as Discord refuses them."""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path

import aiohttp
import discord
import fastjsonschema
import pytest

from bench.body_checks import sent_bodies
from emulator import Emulator, limits
from emulator.schema import SPEC_PATH, discord_schemas

ROOT = Path(__file__).resolve().parents[2]
SEND = ("POST", "/channels/{channel_id}/messages")
ANSWER = ("POST", "/interactions/{interaction_id}/{token}/callback")


async def test_a_body_off_the_spec_gets_50035_with_its_errors_by_path_and_is_recorded(emu: Emulator) -> None:
    payload = {"content": "hi", "embeds": [{"title": "t", "color": "red"}]}
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {emu.token}"}) as session:
        url = f"{emu.api_base}/channels/{emu.channel('games').id}/messages"
        async with session.post(url, json=payload) as response:
            status, body = response.status, await response.json()
    assert status == 400 and body["code"] == 50035 and body["message"] == "Invalid Form Body"
    assert (
        "is not of type 'integer', 'null'" in body["errors"]["embeds"]["0"]["color"]["_errors"][0]["message"]
    )
    [violation] = emu.take_violations()
    assert violation.rule == limits.SCHEMA and violation.detail.startswith("embeds.0.color:")
    assert emu.public_messages("games") == []


async def test_discord_py_gets_the_refusal_as_an_http_exception(emu: Emulator) -> None:
    with emu.point_discord_py():
        client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        await emu.run_bot(client)
        channel = client.get_channel(emu.channel("games").id)
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="x" * 81, custom_id="long"))
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send("a button with a long label", view=view)
        await emu.stop_bot(client)
    assert refused.value.code == 50035
    assert "components.0.components.0.label" in str(refused.value) and "maxLength 80" in str(refused.value)
    assert [v.rule for v in emu.take_violations()] == [limits.SCHEMA]


def test_in_a_union_the_problem_named_is_the_one_of_the_component_kind_sent() -> None:
    schemas = discord_schemas()
    select = {"type": 3, "custom_id": "pick", "options": []}
    answer = {"type": 4, "data": {"content": "x", "components": [{"type": 1, "components": [select]}]}}
    assert schemas.problems(*ANSWER, answer) == [
        ("data.components.0.components.0.options", "[] should be non-empty (minItems 1)")
    ]
    assert schemas.problems(*SEND, {"content": "fine", "attachments": [{"id": 0, "filename": "a.png"}]}) == []


def test_the_spec_is_installed_with_the_package_and_says_where_it_comes_from() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    shipped = project["tool"]["setuptools"]["package-data"]["emulator"]
    assert "spec/openapi.json" in shipped and "spec/LICENSE" in shipped
    assert all((ROOT / "emulator" / name).is_file() for name in shipped)
    assert SPEC_PATH == ROOT / "emulator" / "spec" / "openapi.json"
    assert "MIT License" in (SPEC_PATH.parent / "LICENSE").read_text()
    assert "discord/discord-api-spec" in (SPEC_PATH.parent / "README.md").read_text()


def _mutants(body: object, rng: random.Random, count: int) -> list[object]:
    """`count` copies of `body`, each broken (or not) in one place: a field dropped or nulled, a kind
    changed, a text made too long, a number made a text, a list emptied or doubled."""
    places: list[tuple[list, object]] = []

    def walk(node: object, path: list) -> None:
        places.append((path, node))
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            walk(value, [*path, key])

    walk(body, [])
    # Most in the components: the unions the compiled checks rewrite are there.
    inside = [place for place in places if "components" in place[0]] or places
    mutants = []
    for n in range(count):
        path, node = rng.choice(inside if n % 3 else places)
        copy = json.loads(json.dumps(body))
        parent = copy
        for key in path[:-1]:
            parent = parent[key]
        if isinstance(node, dict) and node:
            key = rng.choice(sorted(node))
            target = parent[path[-1]] if path else copy
            choice = rng.randrange(3)
            if choice == 0:
                del target[key]
            elif choice == 1:
                target[key] = None
            else:
                target[key] = rng.choice([99, 3, 2, 1, 8])
        elif path and isinstance(node, str):
            parent[path[-1]] = node * 200 if node else 5
        elif path and isinstance(node, int) and not isinstance(node, bool):
            parent[path[-1]] = rng.choice([str(node), -1, 99])
        elif path and isinstance(node, list):
            parent[path[-1]] = [] if rng.randrange(2) else node + node
        mutants.append(copy)
    return mutants


async def test_the_compiled_checks_decide_every_body_as_the_spec_read_as_written_does() -> None:
    """The compiled checks rewrite the spec's unions for speed (`_unions_decided`); over the bodies a
    real game sends (its lobby, table, panels, selects and picture) and broken copies of them, each
    is accepted by the compiled check exactly when jsonschema, reading the spec as written, finds no
    problem."""
    bodies = {json.dumps(sent, sort_keys=True): sent for sent in await sent_bodies(8)}
    schemas = discord_schemas()
    rng = random.Random(29)
    kinds = {(method, template) for method, template, _ in bodies.values()}
    assert len(bodies) >= 20 and len(kinds) >= 4, (len(bodies), kinds)
    verdicts = {True: 0, False: 0}
    for method, template, body in bodies.values():
        for candidate in [body, *_mutants(body, rng, 4)]:
            written = not schemas.spec_problems(method, template, candidate)
            try:
                schemas.check(method, template)(candidate)
                compiled = True
            except fastjsonschema.JsonSchemaValueException:
                compiled = False
            assert compiled == written, (method, template, candidate)
            verdicts[written] += 1
    assert verdicts[True] >= len(bodies) and verdicts[False] >= 40, verdicts
