"""Bot processes forked from one process that imported the bot once: `BotProcess` (tests/e2e/processes.py)
starts each of its bots here.

A fresh `python -m tests.e2e.bot_process` spends most of its start importing (discord.py, aiohttp,
pydantic, the games, the cogs, Pillow), and the tests that kill the bot start it again and again. Here
one process, the fork server (`python -m tests.e2e.forked_bots`, one for each test process, started at
its first bot), imports all of that once; each bot is a fork of it that runs `tests.e2e.bot_process`'s
`main` with its own arguments, environment, stdin, stdout and stderr, and exits as that command does.
Each bot is still an OS process of its own: the test kills it with a real SIGKILL, and what it starts
(its pictures' drawing process, `python -m pictures.process` as always) is its own child. The server
starts no thread and no event loop before it forks, so a fork copies no lock in use, and `random`
reseeds itself in each child.

The test talks to the server over a UNIX socket pair, one message a request: `{"fork": argv, "env":
env}` with the child's stdin, stdout and stderr as file descriptors, answered `{"pid": pid}`; and
`{"wait": pid}`, answered `{"code": code}` once the child has exited (a negative code: the signal that
ended it, as `asyncio.subprocess` says it). The server reaps a child only when asked, so its pid stays
the test's to signal (through a pidfd) until then. It exits when the test's end of the socket closes,
or when the test process dies.
"""

from __future__ import annotations

import asyncio
import atexit
import ctypes
import importlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading

MESSAGE_BYTES = 1 << 20
PR_SET_PDEATHSIG = 1


# ------------------------------------------------------------------------------ the test's side


class ForkedProcess:
    """A bot forked by the server, seen as `asyncio.subprocess.Process` shows a child: `pid`,
    `returncode`, `stdin`, `stdout`, `stderr` (None unless asked for), `send_signal`, `wait`."""

    def __init__(self, server: ForkServer, pid: int) -> None:
        self.server = server
        self.pid = pid
        self.pidfd = os.pidfd_open(pid)  # the child is not reaped before the test asks: still its pid
        self.stdin: asyncio.StreamWriter | None = None
        self.stdout: asyncio.StreamReader | None = None
        self.stderr: asyncio.StreamReader | None = None
        self._code: int | None = None

    @property
    def returncode(self) -> int | None:
        if self._code is None and self._exited():
            self._settle(self.server.wait(self.pid))
        return self._code

    def send_signal(self, sig: int) -> None:
        if self._code is None:
            signal.pidfd_send_signal(self.pidfd, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    async def wait(self) -> int:
        if self._code is None:
            loop = asyncio.get_running_loop()
            exited = loop.create_future()
            loop.add_reader(self.pidfd, lambda: exited.done() or exited.set_result(None))
            try:
                await exited
            finally:
                loop.remove_reader(self.pidfd)
            if self._code is None:
                self._settle(self.server.wait(self.pid))
        return self._code

    def _exited(self) -> bool:
        return bool(select.select([self.pidfd], [], [], 0)[0])

    def _settle(self, code: int) -> None:
        self._code = code
        os.close(self.pidfd)
        if self.stdin is not None:
            self.stdin.close()


class ForkServer:
    """The fork server of this test process, started at its first bot and ended with the process."""

    _running: ForkServer | None = None

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.socket = ours
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.forked_bots", str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": os.getcwd()},
        )
        theirs.close()
        self._lock = threading.Lock()
        ready = self._answer()
        assert ready == {"ready": True}, ready

    @classmethod
    def running(cls) -> ForkServer:
        if cls._running is None or cls._running.process.poll() is not None:
            cls._running = cls()
            atexit.register(cls._running.close)
        return cls._running

    async def start(self, argv: list[str], env: dict[str, str], *, stderr: bool) -> ForkedProcess:
        """A bot running `python -m tests.e2e.bot_process *argv` would run, in `env`; its stderr piped
        here with `stderr`, else this process's own (as a child started without a pipe has)."""
        loop = asyncio.get_running_loop()
        stdin_r, stdin_w = os.pipe()
        stdout_r, stdout_w = os.pipe()
        stderr_r, stderr_w = os.pipe() if stderr else (None, os.dup(2))
        try:
            with self._lock:
                socket.send_fds(
                    self.socket,
                    [json.dumps({"fork": argv, "env": env}).encode()],
                    [stdin_r, stdout_w, stderr_w],
                )
                pid = self._answer()["pid"]
        finally:
            for fd in (stdin_r, stdout_w, stderr_w):
                os.close(fd)
        process = ForkedProcess(self, pid)
        process.stdout = await _reader(loop, stdout_r)
        process.stderr = await _reader(loop, stderr_r) if stderr_r is not None else None
        transport, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, os.fdopen(stdin_w, "wb", buffering=0)
        )
        process.stdin = asyncio.StreamWriter(transport, protocol, None, loop)
        return process

    def wait(self, pid: int) -> int:
        """The exit code of `pid`, once it has exited (the server reaps it now)."""
        with self._lock:
            self.socket.send(json.dumps({"wait": pid}).encode())
            return self._answer()["code"]

    def close(self) -> None:
        self.socket.close()
        self.process.wait(10)

    def _answer(self) -> dict:
        data = self.socket.recv(MESSAGE_BYTES)
        assert data, "the fork server stopped"
        return json.loads(data)


async def _reader(loop: asyncio.AbstractEventLoop, fd: int) -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    pipe = os.fdopen(fd, "rb", buffering=0)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), pipe)
    return reader


# ------------------------------------------------------------------------------ the server's side


def serve(control: socket.socket) -> None:
    """Fork a bot for each request until the test's end of `control` closes. Returns in the server;
    a forked bot never returns from here: it exits as `python -m tests.e2e.bot_process` does."""
    while True:
        data, fds, _, _ = socket.recv_fds(control, MESSAGE_BYTES, 3)
        if not data:
            return
        request = json.loads(data)
        if "wait" in request:
            _, status = os.waitpid(request["wait"], 0)
            control.send(json.dumps({"code": os.waitstatus_to_exitcode(status)}).encode())
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            control.close()
            run_bot(request["fork"], request["env"], fds)
        for fd in fds:
            os.close(fd)
        control.send(json.dumps({"pid": pid}).encode())


def run_bot(argv: list[str], env: dict[str, str], fds: list[int]) -> None:
    """In a forked child: take the given stdin, stdout, stderr and environment, run the bot, exit."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.environ.clear()
    os.environ.update(env)
    sys.argv = ["tests.e2e.bot_process", *argv]
    from tests.e2e import bot_process

    raise SystemExit(bot_process.main(argv))


def prepare() -> None:
    """Import all a bot imports on its way to READY (its cogs, pictures, both stores) and die with the
    test process; a fork must copy no running thread."""
    import bot.storage.postgres  # noqa: F401  (the fleet's bots run on PostgreSQL)
    from bot.cog_extensions import cog_extensions

    for extension in cog_extensions():
        importlib.import_module(extension)
    importlib.import_module("tests.e2e.bot_process")
    ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    assert threading.active_count() == 1, threading.enumerate()


if __name__ == "__main__":
    prepare()
    with socket.socket(fileno=int(sys.argv[1])) as control:
        control.send(json.dumps({"ready": True}).encode())
        serve(control)
