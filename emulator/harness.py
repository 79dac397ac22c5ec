"""Pointing the real discord.py at the emulator, refusing every non-loopback connection meanwhile,
running a bot so that its crashes and logged errors fail the test, and what a bot in another process
says of itself (`RemoteState`): the bot's side, which imports none of the emulator's server."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import discord_door

WAIT = 30.0
"""Seconds a test waits for something the bot should do before it fails: long enough for a machine
under heavy load, and only a failing test ever waits it out."""

_guard_lock = threading.Lock()
_guard_depth = 0
_originals: dict[str, Any] = {}


class NonLoopbackRefused(ConnectionRefusedError):
    """A connection to a non-loopback address was attempted while the emulator harness was active."""


def _is_loopback(host: Any) -> bool:
    if host in (None, "", "localhost", b"localhost"):
        return True
    if isinstance(host, bytes):
        host = host.decode()
    try:
        return ipaddress.ip_address(str(host).split("%")[0]).is_loopback
    except ValueError:
        return str(host).endswith(".localhost")


def _guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
    if not _is_loopback(host):
        raise NonLoopbackRefused(f"emulator harness: refused to resolve non-loopback host {host!r}")
    return _originals["getaddrinfo"](host, *args, **kwargs)


def _check_address(sock: socket.socket, address: Any) -> None:
    if sock.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address[0]):
        raise NonLoopbackRefused(f"emulator harness: refused a connection to non-loopback {address[0]!r}")


def _guarded_connect(self: socket.socket, address: Any) -> Any:
    _check_address(self, address)
    return _originals["connect"](self, address)


def _guarded_connect_ex(self: socket.socket, address: Any) -> Any:
    _check_address(self, address)
    return _originals["connect_ex"](self, address)


@contextlib.contextmanager
def loopback_only() -> Iterator[None]:
    """Refuses (NonLoopbackRefused) name lookups and connections to anything but 127.0.0.0/8 and ::1."""
    global _guard_depth
    with _guard_lock:
        if _guard_depth == 0:
            _originals.update(
                getaddrinfo=socket.getaddrinfo,
                connect=socket.socket.connect,
                connect_ex=socket.socket.connect_ex,
            )
            socket.getaddrinfo = _guarded_getaddrinfo
            socket.socket.connect = _guarded_connect  # type: ignore[method-assign]
            socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign]
        _guard_depth += 1
    try:
        yield
    finally:
        with _guard_lock:
            _guard_depth -= 1
            if _guard_depth == 0:
                socket.getaddrinfo = _originals["getaddrinfo"]
                socket.socket.connect = _originals["connect"]  # type: ignore[method-assign]
                socket.socket.connect_ex = _originals["connect_ex"]  # type: ignore[method-assign]


@contextlib.contextmanager
def point_discord_py(api_base: str, gateway_url: str) -> Iterator[None]:
    """Points discord.py's REST base and default gateway here (through the one door to its internals),
    restores them on exit."""
    with discord_door.discord_at(api_base, gateway_url), loopback_only():
        yield


class ErrorLog(logging.Handler):
    """Collects ERROR records of the watched loggers (discord.py reports swallowed errors this way)."""

    def __init__(self, loggers: tuple[str, ...] = ("discord",)) -> None:
        super().__init__(logging.ERROR)
        self.loggers = loggers
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def describe(self) -> list[str]:
        lines = []
        for record in self.records:
            text = f"{record.name}: {record.getMessage()}"
            if record.exc_info and record.exc_info[1] is not None:
                text += f" ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
            lines.append(text)
        return lines

    @contextlib.contextmanager
    def installed(self) -> Iterator[ErrorLog]:
        loggers = [logging.getLogger(name) for name in self.loggers]
        for logger in loggers:
            logger.addHandler(self)
        try:
            yield self
        finally:
            for logger in loggers:
                logger.removeHandler(self)


class BotCrashed(RuntimeError):
    """The bot's ``start()`` task ended: the original exception is chained."""


async def start_bot(bot: Any, token: str, *, is_ready: Any, timeout: float = WAIT) -> asyncio.Task[None]:
    """Starts ``bot.start(token)`` as a task and returns once ``is_ready()``; raises if the task dies."""
    task = asyncio.create_task(bot.start(token), name=f"bot {type(bot).__name__}")
    await until_ready(task, is_ready, timeout)
    return task


async def until_ready(task: asyncio.Task[None], is_ready: Any, timeout: float = WAIT) -> None:
    """Returns once ``is_ready()`` for the bot running on ``task``; raises if the task dies first,
    cancels it after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not is_ready():
        if task.done():
            raise_if_dead(task)
            raise BotCrashed("bot.start() returned before the bot was ready")
        if loop.time() > deadline:
            task.cancel()
            raise TimeoutError(f"the bot was not ready within {timeout:g} s")
        await asyncio.sleep(0.01)


def raise_if_dead(task: asyncio.Task[Any]) -> None:
    """Raises BotCrashed (chained to the cause) when a bot task has ended with an exception."""
    if task.done() and not task.cancelled() and task.exception() is not None:
        raise BotCrashed(f"the bot task died: {task.exception()!r}") from task.exception()


@dataclass(frozen=True)
class RemoteState:
    """What a bot in another process says when `settle` asks it: whether it is at work on its own
    (`CatnipBot.busy`), and the last gateway event each of its sessions received, by session id."""

    busy: bool
    received: dict[str, int]

    LINE = "STATE"

    def line(self) -> str:
        """The state as the one line the bot's process answers with."""
        return " ".join(
            [self.LINE, "busy" if self.busy else "idle", *(f"{s}:{n}" for s, n in self.received.items())]
        )

    @classmethod
    def parse(cls, line: str) -> RemoteState:
        words = line.split()
        assert words[:1] == [cls.LINE] and words[1] in ("busy", "idle"), f"not a bot's state: {line!r}"
        received = dict(word.rsplit(":", 1) for word in words[2:])
        return cls(words[1] == "busy", {session: int(seq) for session, seq in received.items()})
