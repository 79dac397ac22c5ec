"""A client of the control API, for driving an emulator that runs in another process.

The names mirror the in-process API (``member(name).slash/click/select/submit_modal``, ``settle``,
``public_messages``...), but every call is a coroutine and messages are snapshots, not live objects.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import aiohttp

from emulator import harness
from emulator.harness import WAIT
from emulator.model import StoredMessage


class RemoteError(RuntimeError):
    """The control API refused a request (e.g. a member tried something Discord would not allow)."""


@dataclass
class RemoteResult:
    """A snapshot of an interaction result; :meth:`refresh` fetches the current one."""

    client: RemoteEmulator
    id: int
    label: str
    failed: str | None
    response_type: int | None
    latency: float | None
    message: StoredMessage | None
    followups: list[StoredMessage] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    token_lost: bool = False

    @classmethod
    def from_json(cls, client: RemoteEmulator, data: dict[str, Any]) -> RemoteResult:
        message = data.get("message")
        return cls(
            client=client,
            id=data["id"],
            label=data["label"],
            failed=data["failed"],
            response_type=data["response_type"],
            latency=data["latency"],
            message=None if message is None else StoredMessage.from_snapshot(message),
            followups=[StoredMessage.from_snapshot(m) for m in data["followups"]],
            modal=data.get("modal"),
            token_lost=data.get("token_lost", False),
        )

    @property
    def ok(self) -> bool:
        return self.response_type is not None

    async def refresh(self) -> RemoteResult:
        return RemoteResult.from_json(
            self.client, await self.client.call("GET", f"/_emu/interactions/{self.id}")
        )

    async def wait_followup(self, count: int = 1, timeout: float = WAIT) -> StoredMessage | None:
        """Polls until the ``count``-th follow-up exists and returns it (None once the token is lost)."""
        async with asyncio.timeout(timeout):
            while True:
                current = await self.refresh()
                self.token_lost = current.token_lost
                if len(current.followups) >= count:
                    return current.followups[count - 1]
                if current.token_lost:
                    return None
                await asyncio.sleep(0.02)


class RemoteMember:
    def __init__(self, client: RemoteEmulator, name: str) -> None:
        self.client = client
        self.name = name

    async def _interact(self, **body: Any) -> RemoteResult:
        data = await self.client.call("POST", "/_emu/interactions", {"member": self.name, **body})
        return RemoteResult.from_json(self.client, data)

    async def slash(
        self, command: str, channel: str | None = None, *, options: dict[str, Any] | None = None, **named: Any
    ) -> RemoteResult:
        return await self._interact(
            kind="slash", command=command, channel=channel, options={**named, **(options or {})}
        )

    async def click(
        self, message: StoredMessage | int, target: str | None = None, *, force: bool = False
    ) -> RemoteResult:
        message_id = message if isinstance(message, int) else message.id
        return await self._interact(kind="click", message_id=message_id, target=target, force=force)

    async def select(
        self, message: StoredMessage | int, target: str | None, values: list[str], *, force: bool = False
    ) -> RemoteResult:
        message_id = message if isinstance(message, int) else message.id
        return await self._interact(
            kind="select", message_id=message_id, target=target, values=values, force=force
        )

    async def submit_modal(self, source: RemoteResult, values: dict[str, str]) -> RemoteResult:
        return await self._interact(kind="modal", interaction_id=source.id, values=values)

    async def say(self, channel: str, content: str) -> StoredMessage:
        data = await self.client.call(
            "POST", "/_emu/say", {"member": self.name, "channel": channel, "content": content}
        )
        return StoredMessage.from_snapshot(data)

    async def visible_messages(self, channel: str | None = None) -> list[StoredMessage]:
        return await self.client.messages(channel, member=self.name)

    async def ephemeral_messages(self, channel: str | None = None) -> list[StoredMessage]:
        return await self.client.messages(channel, member=self.name, ephemeral=True)


class RemoteEmulator:
    """Talks to ``python -m emulator`` over its control API (``async with RemoteEmulator(url)``)."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")
        self._session: aiohttp.ClientSession | None = None

    async def __aenter__(self) -> RemoteEmulator:
        self._session = aiohttp.ClientSession()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._session is not None:
            await self._session.close()

    async def call(self, method: str, path: str, body: Any = None) -> Any:
        assert self._session is not None, "use RemoteEmulator inside 'async with'"
        async with self._session.request(method, self.url + path, json=body) as response:
            data = await response.json()
            if response.status >= 400:
                raise RemoteError(data.get("error", data))
            return data

    @property
    def api_base(self) -> str:
        return f"{self.url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return self.url.replace("http://", "ws://", 1) + "/"

    @contextlib.contextmanager
    def point_discord_py(self) -> Iterator[None]:
        with harness.point_discord_py(self.api_base, self.gateway_url):
            yield

    def member(self, name: str) -> RemoteMember:
        return RemoteMember(self, name)

    async def state(self) -> dict[str, Any]:
        return await self.call("GET", "/_emu/state")

    async def messages(
        self, channel: str | None = None, *, member: str | None = None, ephemeral: bool = False
    ) -> list[StoredMessage]:
        query = urlencode(
            {k: v for k, v in (("channel", channel), ("member", member), ("ephemeral", int(ephemeral))) if v}
        )
        return [StoredMessage.from_snapshot(m) for m in await self.call("GET", f"/_emu/messages?{query}")]

    async def public_messages(self, channel: str | None = None) -> list[StoredMessage]:
        return await self.messages(channel)

    async def settle(self, idle: float = 0.1, timeout: float = WAIT) -> None:
        await self.call("POST", "/_emu/settle", {"idle": idle, "timeout": timeout})

    async def control(self, **body: Any) -> dict[str, Any]:
        return await self.call("POST", "/_emu/control", body)

    async def advance(self, seconds: float) -> None:
        await self.control(advance=seconds)

    async def take_violations(self) -> list[dict[str, Any]]:
        return (await self.control(take_violations=True))["violations"]
