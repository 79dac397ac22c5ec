"""The one door to discord.py's private and undocumented names: Catnip uses them here and nowhere else.

A package of its own, importing nothing of Catnip, so that the bot, the cogs, the emulator (which
imports nothing of Catnip either) and the benchmarks all come through the same door.

discord.py keeps the right to change what it does not document, even between minor releases. Each use
below says why it is there and what it saves; the savings were measured with `python -m bench.bot_load`
(docs/performance.md, "discord.py's internals"), and a use whose saving was within the noise was
dropped for the public API.
tests/test_discord_internals.py checks every name and shape used here against the installed discord.py,
and that no other module of Catnip uses one; pyproject.toml pins discord.py to the minor releases that
test passes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Iterator
from typing import Any, ClassVar, TypedDict

import aiohttp
import discord
import discord.utils
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import HTTPClient, Route, handle_message_parameters
from discord.webhook.async_ import async_context, interaction_message_response_params

__all__ = [
    "SessionStartLimits",
    "UnstoredView",
    "bot_gateway",
    "discord_at",
    "events_received",
    "handling_events",
    "heard",
    "heartbeat_threads",
    "no_voice_warnings",
    "parse_only_when",
    "post_followup",
    "recommended_shard_count",
    "release_response",
    "respond",
    "shards_launched",
    "stored_views",
    "use_stdlib_json",
]


# ------------------------------------------------------------------ voice


def no_voice_warnings() -> None:
    """Keep discord.py from warning at each start that PyNaCl and davey are not installed: they are only
    for voice, which Catnip never uses, so the warnings name nothing an operator could act on. discord.py
    warns once a process, when the first client is made, while `VoiceClient.warn_nacl` / `warn_dave` are
    true (undocumented class flags)."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


# ------------------------------------------------------------------ the gateway


def parse_only_when(client: discord.Client, event: str, wanted: Callable[[dict], bool]) -> None:
    """Let discord.py read gateway event `event` (e.g. "MESSAGE_UPDATE") into its objects only when
    `wanted(data)`.

    Private: `Client._connection.parsers`, the connection state's parser of each gateway event by name.
    No public setting skips an event: `Intents` are coarser (the bot needs other members' messages in
    the guild). It saves reading into a `Message` two events a move that nothing hears: the echo of
    each table edit and each of Catnip's own turn pings.
    """
    parsers = client._connection.parsers
    parse = parsers[event]

    def parse_if_wanted(data: dict) -> None:
        if wanted(data):
            parse(data)

    parsers[event] = parse_if_wanted


def heard(client: discord.Client, event_name: str) -> bool:
    """Whether anything would hear `event_name` if it were dispatched: a `wait_for`, a listener added
    to the bot or one of its cogs, an `on_` method of the client.

    Private: `Client._listeners` (the pending `wait_for`s by event); undocumented: `Bot.extra_events`
    (the listeners by `on_` name). A client without either counts every event as heard.
    """
    waiting = getattr(client, "_listeners", None)
    listeners = getattr(client, "extra_events", None)
    return (
        waiting is None
        or listeners is None
        or event_name in waiting
        or bool(listeners.get("on_" + event_name))
        or hasattr(client, "on_" + event_name)
    )


class SessionStartLimits(TypedDict):
    """Discord's `session_start_limit` of `GET /gateway/bot`."""

    total: int
    remaining: int
    reset_after: int
    max_concurrency: int


async def bot_gateway(client: discord.Client) -> tuple[int, SessionStartLimits]:
    """Discord's recommended shard count for the logged-in `client` and its session start limits
    (`GET /gateway/bot`).

    Undocumented: `HTTPClient.get_bot_gateway`. discord.py asks for the count itself only when it
    launches the shards, and never says how many may identify at once (`max_concurrency`); Catnip
    needs both before then, to know its games and pace its IDENTIFYs across processes.
    """
    shards, _url, limits = await client.http.get_bot_gateway()
    return shards, limits


async def recommended_shard_count(token: str, http_trace: aiohttp.TraceConfig | None = None) -> int:
    """Discord's recommended shard count for the bot of `token`, asked without connecting a client;
    `http_trace` as a client's (a bot's budget of Discord's global limit counts these requests too).

    Undocumented: `discord.http.HTTPClient` and its `static_login` and `get_bot_gateway`; a whole
    `Client` would be the public way, with its gateway, for a single request.
    """
    http = HTTPClient(asyncio.get_running_loop(), http_trace=http_trace)
    try:
        await http.static_login(token)
        shards, _url, _limits = await http.get_bot_gateway()
        return shards
    finally:
        await http.close()


# ------------------------------------------------------------------ messages


class UnstoredView:
    """What discord.py asks of a view it sends (`view=` of send, edit and interaction responses): a
    subclass gives `to_components`, the message's components as Discord's JSON.

    Undocumented: the `__discord_ui_view__` mark discord.py checks a view by, and `is_finished`,
    `is_dispatchable` and `has_components_v2`, which it calls on it. Catnip routes every click by its
    custom_id and never stores a view; a `discord.ui.View` builds an item, its component and a parsed
    emoji for each button, in reference cycles only the garbage collector frees, for every table,
    ping and panel. This view is finished from the start, so discord.py never stores it.
    """

    __discord_ui_view__: ClassVar[bool] = True
    timeout = None

    def to_components(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def is_finished(self) -> bool:
        return True

    def is_dispatchable(self) -> bool:
        return False

    def has_components_v2(self) -> bool:
        return False


# ------------------------------------------------------------------ interactions


def release_response(interaction: discord.Interaction) -> None:
    """Break the reference cycle between a handled click and its cached response.

    Private: `Interaction._cs_response`, where discord.py caches the click's `InteractionResponse`,
    which refers back to the interaction. Left alone, every click's parsed message, member, embed and
    components wait for the garbage collector; dropped once the click has its answer, reference
    counting frees them at once (tests/e2e/test_garbage.py checks a click leaves nothing behind).
    """
    with contextlib.suppress(AttributeError):
        del interaction._cs_response


async def respond(
    interaction: discord.Interaction,
    kind: discord.InteractionResponseType,
    *,
    ephemeral: bool = False,
    **fields: Any,
) -> None:
    """A click's initial response of `kind` (`message_update` as `InteractionResponse.edit_message`
    makes it, `channel_message` as `send_message` does, `fields` as they take them), without asking
    Discord for the message the response leaves.

    Private: `Interaction._state` and `_session`, `InteractionResponse._response_type` (which
    `is_done` reads), the webhook adapter (`discord.webhook.async_.async_context`) and its
    `interaction_message_response_params`. discord.py asks for that message (`with_response`) with
    every response and reads it into an `InteractionCallbackResponse` and its `InteractionMessage`,
    which Catnip never looks at: a panel's embed and buttons read back twice a move. A view is sent
    as discord.py sends it, and never stored (Catnip's are `UnstoredView`s).
    """
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state
    params = interaction_message_response_params(
        type=kind.value,
        flags=discord.MessageFlags(ephemeral=True) if ephemeral else discord.utils.MISSING,
        previous_allowed_mentions=state.allowed_mentions,
        **fields,
    )
    route = Route(
        "POST",
        "/interactions/{webhook_id}/{webhook_token}/callback",
        webhook_id=interaction.id,
        webhook_token=interaction.token,
    )
    http = state.http
    await async_context.get().request(
        route, interaction._session, payload=params.payload, proxy=http.proxy, proxy_auth=http.proxy_auth
    )
    response._response_type = kind


async def post_followup(interaction: discord.Interaction, **fields: Any) -> int:
    """`interaction.followup.send(wait=True, **fields)` of a public message with no files: its id, the
    one part of Discord's answer read.

    Undocumented: the webhook adapter's `execute_webhook` and `handle_message_parameters`, with the
    private `Interaction._state` and `_session`. `Webhook.send` reads Discord's answer into a
    `WebhookMessage` (its mentions, embed and buttons) of which Catnip keeps the id: the turn ping,
    one a move.
    """
    state = interaction._state
    http = state.http
    with handle_message_parameters(previous_allowed_mentions=state.allowed_mentions, **fields) as params:
        data = await async_context.get().execute_webhook(
            interaction.application_id,
            interaction.token,
            session=interaction._session,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            payload=params.payload,
            multipart=params.multipart,
            files=params.files,
            wait=True,
            with_components="view" in fields,
        )
    return int(data["id"])


def shards_launched(client: discord.AutoShardedClient) -> bool:
    """Whether an auto-sharded client has got as far in logging in as to make its shards' event queue.

    Private: `AutoShardedClient.__queue`, made in its `_async_setup_hook` at login.
    `AutoShardedClient.close` puts its closing event on that queue, so a client stopped before (a
    fleet stopping its processes as one of them starts) raised AttributeError from `close`; without
    the queue, the client is closed as a plain `Client` (no shard to close yet)."""
    return hasattr(client, "_AutoShardedClient__queue")


def stored_views(client: discord.Client) -> tuple[int, int]:
    """How many views discord.py keeps to route clicks to, in all and by message: none while every view
    Catnip sends is an `UnstoredView` (the benchmarks and a test check it stays so).

    Private: the connection state's `_view_store` and its `_views` and `_synced_message_views`; only
    the persistent views are public.
    """
    store = client._connection._view_store
    return len(store._views), len(store._synced_message_views)


# ------------------------------------------------------------------ another Discord (the emulator)


@contextlib.contextmanager
def discord_at(api_base: str, gateway_url: str) -> Iterator[None]:
    """Point discord.py's REST base and default gateway at `api_base` and `gateway_url` for the block.

    Undocumented: the class attributes `Route.BASE` and `DiscordWebSocket.DEFAULT_GATEWAY`, which
    discord.py builds every request's URL and its first gateway connection from. No public setting
    names another Discord; the emulator (tests, benchmarks, the offline demo) needs one.
    """
    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway


def _gateway_sockets(client: Any) -> list[Any]:
    """The gateway connections of a client: its one, or one per shard of a sharded client.

    Private: `ShardInfo._parent`, the shard behind the public info, which holds its connection.
    """
    sockets = [getattr(client, "ws", None)]
    shards = getattr(client, "shards", None)
    if isinstance(shards, dict):
        sockets += [getattr(info._parent, "ws", None) for info in shards.values()]
    return [ws for ws in sockets if ws is not None]


def heartbeat_threads(client: Any) -> list[Any]:
    """The heartbeat threads of a client's gateway connections (each has a `stop()`), so that a test
    killing a bot can stop them as a dead process's would.

    Private: `DiscordWebSocket._keep_alive`.
    """
    found = [getattr(ws, "_keep_alive", None) for ws in _gateway_sockets(client)]
    return [keep_alive for keep_alive in found if keep_alive is not None]


def events_received(client: Any) -> dict[str, int]:
    """The sequence number of the last gateway event each of a client's sessions received, by session
    id: an event up to it has been read and handed to its listeners (their tasks are created in the
    same step), so a local Discord can tell that an event it sent is no longer on its way.

    Undocumented: `DiscordWebSocket.session_id` and `sequence`, which discord.py keeps to RESUME.
    """
    received = {}
    for ws in _gateway_sockets(client):
        if ws.session_id is not None and ws.sequence is not None:
            received[ws.session_id] = max(ws.sequence, received.get(ws.session_id, 0))
    return received


EVENT_TASK_PREFIX = "discord.py: "
COMMAND_TASK = "CommandTree-invoker"


def handling_events() -> bool:
    """Whether a listener of a gateway event, or an application command, still runs in this event loop.

    Undocumented: the names discord.py gives the tasks it runs them in ("discord.py: on_<event>" for
    every listener of `Client.dispatch`, "CommandTree-invoker" for a command); no public call says
    whether a client has finished with the events it received.
    """
    return any(
        not task.done() and (task.get_name().startswith(EVENT_TASK_PREFIX) or task.get_name() == COMMAND_TASK)
        for task in asyncio.all_tasks()
    )


# ------------------------------------------------------------------ JSON


def use_stdlib_json() -> None:
    """discord.py as it is without orjson installed: its own fallback to the standard `json`, as in
    discord/utils.py (a benchmark compares the two).

    Private: `discord.utils._from_json` and `_to_json`, chosen once on import by whether orjson is there.
    """
    discord.utils._from_json = json.loads
    discord.utils._to_json = lambda obj: json.dumps(obj, separators=(",", ":"), ensure_ascii=True)
