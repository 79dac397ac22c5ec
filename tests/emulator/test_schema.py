"""Request bodies checked against Discord's OpenAPI description, refused as Discord refuses them."""

from __future__ import annotations

import tomllib
from pathlib import Path

import aiohttp
import discord
import pytest

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
