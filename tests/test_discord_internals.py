"""The contract Catnip keeps with discord.py's private and undocumented names (discord_door/).

Each test holds one name or shape that discord_door relies on, so a discord.py release that changes
it fails here, by name, rather than as a slow bot, a table that no longer shows or an emulator that
no longer reaches the bot. pyproject.toml pins discord.py to the minor releases these tests pass on.
"""

from __future__ import annotations

import ast
import asyncio
import functools
import inspect
import re
from pathlib import Path

import discord
import discord.utils
import pytest
import yarl
from discord.ext import commands
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route, handle_message_parameters
from discord.webhook.async_ import AsyncWebhookAdapter, interaction_message_response_params

import discord_door
from cogs.components import Button, Controls
from discord_door import UnstoredView, release_response
from emulator import Emulator

DISCORD_SOURCE = Path(discord.__file__).parent


def parameters(function) -> set[str]:
    return set(inspect.signature(function).parameters)


def a_client() -> discord.Client:
    return discord.Client(intents=discord.Intents.none())


# ------------------------------------------------------------------ voice


def test_discord_py_warns_of_voice_libraries_only_until_the_door_says_not_to(monkeypatch, caplog):
    for flag in ("warn_nacl", "warn_dave"):
        monkeypatch.setattr(discord.VoiceClient, flag, True)
    a_client()
    warned = [r.getMessage() for r in caplog.records if r.name == "discord.client" and r.levelno >= 30]
    assert any("PyNaCl" in line for line in warned) and any("davey" in line for line in warned), warned
    caplog.clear()
    for flag in ("warn_nacl", "warn_dave"):
        monkeypatch.setattr(discord.VoiceClient, flag, True)
    discord_door.no_voice_warnings()
    a_client()
    assert not [r for r in caplog.records if r.name == "discord.client" and r.levelname == "WARNING"]


# ------------------------------------------------------------------ the gateway


@pytest.mark.parametrize("event", ["MESSAGE_UPDATE", "MESSAGE_CREATE"])
def test_a_gateway_event_skipped_is_never_read_and_one_wanted_is_read_by_discord_py(event):
    client = a_client()
    assert callable(client._connection.parsers[event])
    wanted = {"read": False}
    discord_door.parse_only_when(client, event, lambda data: wanted["read"])
    client._connection.parsers[event]({})  # not wanted: discord.py never sees this empty event
    wanted["read"] = True
    with pytest.raises(KeyError):  # wanted: discord.py's own parser reads it (and finds no fields)
        client._connection.parsers[event]({})


async def test_a_wait_for_and_a_listener_are_heard_and_nothing_else():
    async with commands.Bot(command_prefix="!", intents=discord.Intents.none()) as bot:
        assert not discord_door.heard(bot, "raw_message_edit")
        waiting = asyncio.ensure_future(bot.wait_for("raw_message_edit"))
        await asyncio.sleep(0)
        assert discord_door.heard(bot, "raw_message_edit")
        waiting.cancel()

        async def on_socket_event_type(event_type: str) -> None: ...

        assert not discord_door.heard(bot, "socket_event_type")
        bot.add_listener(on_socket_event_type)
        assert discord_door.heard(bot, "socket_event_type")


def test_an_http_client_of_its_own_logs_in_with_the_token_alone():
    assert {"loop"} <= parameters(HTTPClient.__init__)
    assert {"token"} <= parameters(HTTPClient.static_login)


async def test_the_recommended_shard_count_and_identify_limits_come_from_discord():
    async with Emulator.start(max_concurrency=4) as emu:
        with emu.point_discord_py():
            assert await discord_door.recommended_shard_count(emu.token) == 1
            client = a_client()
            await client.login(emu.token)
            try:
                shards, limits = await discord_door.bot_gateway(client)
            finally:
                await client.close()
    assert shards == 1
    assert limits["max_concurrency"] == 4
    assert {"remaining", "reset_after", "total"} <= limits.keys()


# ------------------------------------------------------------------ messages


def test_discord_py_sends_an_unstored_view_as_its_components():
    controls = Controls([Button("My hand", "v:1:hand")])
    with handle_message_parameters(content="🔔", view=controls) as params:
        assert params.payload["components"] == controls.to_components()
        assert "flags" not in params.payload  # not a components-v2 message


def test_every_method_discord_py_calls_on_a_view_it_sends_is_one_an_unstored_view_answers():
    called = set()
    for module in ("abc.py", "message.py", "interactions.py", "http.py", "channel.py", "webhook/async_.py"):
        called |= set(re.findall(r"\bview\.(\w+)\(", (DISCORD_SOURCE / module).read_text()))
    # What discord.py does only with a view that is not finished (stores it, times it out), and
    # its own helpers on View: never reached with a finished one.
    only_unfinished = {"_refresh", "_start_listening_from_session", "stop"}
    answered = {"to_components", "is_finished", "is_dispatchable", "has_components_v2"}
    assert called - only_unfinished <= answered, f"discord.py now calls {sorted(called - answered)} on a view"
    for name in ("is_finished", "is_dispatchable", "has_components_v2", "to_components"):
        assert callable(getattr(discord.ui.View, name))
    assert hasattr(discord.ui.View, "__discord_ui_view__")
    assert "'__discord_ui_view__'" in (DISCORD_SOURCE / "abc.py").read_text()


def test_an_unstored_view_is_finished_so_discord_py_never_stores_it():
    view = Controls([Button("Join", "l:1:join")])
    assert isinstance(view, UnstoredView)
    assert view.is_finished() and not view.is_dispatchable() and not view.has_components_v2()


# ------------------------------------------------------------------ interactions


def test_an_interaction_caches_its_response_where_release_response_drops_it():
    response = discord.Interaction.__dict__["response"]
    assert isinstance(response, discord.utils.CachedSlotProperty)
    assert response.name == "_cs_response"
    assert "_cs_response" in discord.Interaction.__slots__

    class Holder:
        _cs_response = None

    holder = Holder()
    holder._cs_response = object()
    release_response(holder)  # type: ignore[arg-type]
    assert "_cs_response" not in vars(holder)
    release_response(holder)  # type: ignore[arg-type]  # nothing cached: nothing to do


def test_a_click_is_answered_as_discord_py_answers_it_and_discord_py_knows_it_is():
    assert "_response_type" in discord.InteractionResponse.__slots__
    assert {"_state", "_session"} <= set(discord.Interaction.__slots__)
    assert "return self._response_type" in inspect.getsource(discord.InteractionResponse.type.fget)
    assert "'/interactions/{webhook_id}/{webhook_token}/callback'" in inspect.getsource(
        AsyncWebhookAdapter.create_interaction_response
    )
    used = {"type", "flags", "previous_allowed_mentions", "content", "embed", "view"}
    assert used <= parameters(interaction_message_response_params)
    assert {"payload", "proxy", "proxy_auth"} <= parameters(AsyncWebhookAdapter.request)
    controls = Controls([Button("Card 1", "a:1:2:x")])
    embed = discord.Embed(title="Your view")
    params = interaction_message_response_params(
        type=discord.InteractionResponseType.message_update.value, embed=embed, view=controls
    )
    assert params.payload == {
        "type": 7,
        "data": {"tts": False, "embeds": [embed.to_dict()], "components": controls.to_components()},
    }


def test_a_followup_is_posted_through_the_call_discord_pys_webhook_makes():
    posting = {"session", "proxy", "proxy_auth", "payload", "multipart", "files", "wait", "with_components"}
    assert posting <= parameters(AsyncWebhookAdapter.execute_webhook)
    send = inspect.getsource(discord.Webhook.send)
    assert "adapter.execute_webhook(" in send and "with_components=view is not MISSING" in send
    assert "previous_allowed_mentions=previous_mentions" in send
    followup = discord.Interaction.__dict__["followup"].function
    assert "Webhook.from_state(data=payload, state=self._state)" in inspect.getsource(followup)
    assert "session = http._HTTPClient__session" in inspect.getsource(discord.Webhook.from_state)
    assert "self._session: ClientSession = state.http._HTTPClient__session" in inspect.getsource(
        discord.Interaction.__init__
    )


# ------------------------------------------------------------------ another Discord (the emulator)


def test_discord_py_builds_its_urls_from_the_base_and_gateway_the_door_sets():
    before = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    with discord_door.discord_at("http://127.0.0.1:1/api/v10", "ws://127.0.0.1:1/"):
        assert Route("GET", "/gateway/bot").url == "http://127.0.0.1:1/api/v10/gateway/bot"
        assert yarl.URL("ws://127.0.0.1:1/") == DiscordWebSocket.DEFAULT_GATEWAY
    assert before == (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    assert "cls.DEFAULT_GATEWAY" in inspect.getsource(DiscordWebSocket.from_client)


async def test_the_door_finds_a_connected_bots_heartbeat_where_discord_py_keeps_it():
    assert "self._keep_alive" in inspect.getsource(DiscordWebSocket)
    assert "_parent" in discord.ShardInfo.__slots__
    async with Emulator.start() as emu:
        with emu.point_discord_py():
            client = a_client()
            await emu.run_bot(client)
            assert [type(t).__name__ for t in discord_door.heartbeat_threads(client)] == ["KeepAliveHandler"]


# ------------------------------------------------------------------ JSON


def test_discord_py_reads_and_writes_json_through_the_functions_the_door_replaces():
    before = discord.utils._from_json, discord.utils._to_json
    try:
        discord_door.use_stdlib_json()
        assert discord.utils._from_json('{"a": [1]}') == {"a": [1]}
        assert discord.utils._to_json({"a": "é"}) == '{"a":"\\u00e9"}'
    finally:
        discord.utils._from_json, discord.utils._to_json = before
    for module in ("gateway.py", "http.py"):  # each reads the replaced functions at every call
        source = (DISCORD_SOURCE / module).read_text()
        assert "utils._from_json(" in source and "utils._to_json(" in source, module


# ------------------------------------------------------------------ one door


ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("engine", "pictures", "bot", "cogs", "emulator", "bench", "discord_door")
DOOR = "discord_door/__init__.py"
"""The one module allowed to use discord.py's private names."""
PRIVATE_MODULES = {"discord.http", "discord.gateway", "discord.state"}
UNDOCUMENTED = {
    "__discord_ui_view__",
    "extra_events",
    "get_bot_gateway",
    "handle_message_parameters",
    "has_components_v2",
    "is_dispatchable",
    "parsers",
    "static_login",
    "DEFAULT_GATEWAY",
    "Route",
}
"""Names discord.py gives no underscore but does not document, that Catnip has used."""
VIEW_PROTOCOL = {"is_dispatchable", "has_components_v2"}
"""Methods discord.py calls on a view it sends; a class defining them imitates `discord.ui.View`."""


@functools.cache
def discord_private_names() -> frozenset[str]:
    """The underscored names discord.py's own code gives its objects' attributes (and names in its slots
    and cached properties)."""
    names: set[str] = set()
    for path in DISCORD_SOURCE.rglob("*.py"):
        source = path.read_text()
        names |= set(re.findall(r"\bself\.(_[a-z]\w*)", source))
        names |= set(re.findall(r"""['"](_[a-z]\w*)['"]""", source))
    return frozenset(names)


def private_uses(path: Path, private: set[str]) -> list[str]:
    """Where the module at `path` uses one of discord.py's private or undocumented names (an attribute
    the module defines or assigns itself is its own, whatever its name)."""
    found = []
    tree = ast.parse(path.read_text())
    own = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            own.add(node.attr)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            own.add(node.name)
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.ImportFrom) and node.module in PRIVATE_MODULES:
            name = node.module
        elif isinstance(node, ast.Import):
            name = next((a.name for a in node.names if a.name in PRIVATE_MODULES), None)
        elif isinstance(node, ast.Attribute) and node.attr in (UNDOCUMENTED | private) - own:
            name = node.attr
        elif isinstance(node, ast.FunctionDef) and node.name in VIEW_PROTOCOL:
            name = node.name
        elif isinstance(node, ast.Name) and node.id in UNDOCUMENTED - own:
            name = node.id
        elif _names_an_attribute(node) and node.args[1].value in private:
            name = node.args[1].value
        if name is not None:
            found.append(f"{path.relative_to(path.parents[1])}:{node.lineno} uses {name}")
    return found


def _names_an_attribute(node: ast.AST) -> bool:
    """`getattr(x, "name")`, `hasattr`, `setattr` or `delattr`."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("getattr", "hasattr", "setattr", "delattr")
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
    )


def test_no_module_but_the_doors_uses_a_private_name_of_discord_py():
    private = discord_private_names()
    assert {"_connection", "_listeners", "_cs_response", "_keep_alive", "_view_store"} <= private
    uses = [
        use
        for package in SCANNED
        for path in sorted((ROOT / package).rglob("*.py"))
        if str(path.relative_to(ROOT)) != DOOR
        for use in private_uses(path, private)
    ]
    assert not uses, "discord.py's private names are for discord_door/ alone:\n" + "\n".join(uses)


def test_the_door_check_finds_each_kind_of_use(tmp_path):
    (tmp_path / "bot").mkdir()
    module = tmp_path / "bot" / "sample.py"
    module.write_text(
        "from discord.http import Route\n"
        "def f(bot, interaction):\n"
        "    bot._connection.parsers\n"
        "    getattr(bot, '_listeners', None)\n"
        "    del interaction._cs_response\n"
    )
    found = {use.split(" uses ")[1] for use in private_uses(module, discord_private_names())}
    assert found == {"discord.http", "_connection", "parsers", "_listeners", "_cs_response"}


async def test_an_auto_sharded_client_makes_the_queue_close_uses_only_when_it_logs_in():
    client = discord.AutoShardedClient(intents=discord.Intents.none())
    assert not discord_door.shards_launched(client)
    setup = inspect.getsource(discord.AutoShardedClient._async_setup_hook)
    assert "self.__queue = asyncio.PriorityQueue()" in setup
    assert "self.__queue.put_nowait" in inspect.getsource(discord.AutoShardedClient.close)
    await discord.Client.close(client)  # what the bot's close does before the shards are launched
    assert client.is_closed()
    logging_in = discord.AutoShardedClient(intents=discord.Intents.none())
    await logging_in._async_setup_hook()  # what login does first
    assert discord_door.shards_launched(logging_in), "the door sees the queue once login has made it"
