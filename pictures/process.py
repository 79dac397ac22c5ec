"""The one process that draws pictures for a Python process, so that Pillow's work runs on another
core than the bot's event loop.

Pillow holds the GIL for much of a drawing: drawn in a thread of the bot's process, pictures and
the event loop took turns on one core. Drawn here, in a process of its own, they do not compete.

The process is started at the first drawing (a bot whose tables show no picture never starts it)
and shared by every user in the process (the tests run many bots in one process: a drawing process
each would start a Python each). It is a plain `python -m pictures.process`, which imports the
painters and fonts once and nothing of the bot (multiprocessing's `spawn` would also import the
parent's main module, the whole bot, doubling the start's cost), and it is not forked from the bot
(a fork would copy the locks of the bot's threads in whatever state they are). Jobs go to it on its
stdin and come back on its stdout, pickled and framed by their length: the function to run (by name,
as pickle sends a function), its arguments (a scene is plain data), and the result or the error.

When its stdin closes — the bot exited, or died however it died (SIGKILL included) — the drawing
process exits: no orphan keeps drawing. If the drawing process dies, the drawings under way fail and
the next one starts a new process. It ignores SIGINT and SIGTERM: a Ctrl-C in the bot's terminal, or a
service manager stopping every process of the bot's group, would otherwise end it under a stopping
bot; it follows its bot instead.

The process names itself `catnip-picture` (`/proc/<pid>/comm`, what `ps` and `top` show), the name
`bench.bot_load` counts its CPU under.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, BinaryIO

import pictures

NAME = "catnip-picture"
"""The drawing process's name, as `/proc/<pid>/comm` shows it (at most 15 characters)."""
FRAME = struct.Struct("!I")
"""Each message's length, in front of it."""


class DrawingFailed(Exception):
    """A drawing raised in the drawing process (its traceback in the message), or the process stopped."""


def timed_draw(game: str, scene: tuple) -> tuple[bytes, float]:
    """Draw a scene (in the drawing process); also return the CPU seconds it took there."""
    start = time.thread_time()
    png = pictures.draw(game, scene)
    return png, time.thread_time() - start


def draw(game: str, scene: tuple) -> Future[tuple[bytes, float]]:
    """Draw `scene` in the drawing process (started if it is not): the PNG and the CPU seconds it
    took, when done."""
    return _worker().submit(timed_draw, (game, scene))


_running: _Worker | None = None
_starting = threading.Lock()


def _worker() -> _Worker:
    global _running
    with _starting:
        if _running is None or not _running.alive():
            _running = _Worker()
        return _running


class _Worker:
    """The drawing process seen from its parent: jobs written to its stdin, results read back by a
    thread that settles each job's future."""

    def __init__(self) -> None:
        path = os.pathsep.join(entry for entry in sys.path if entry)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pictures.process"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": path},  # what the parent imports from, the drawing process too
        )
        self._jobs: dict[int, Future] = {}
        self._numbers = itertools.count()
        self._lock = threading.Lock()
        self._stopped = False
        threading.Thread(target=self._read, name="catnip-picture-results", daemon=True).start()

    def alive(self) -> bool:
        return not self._stopped and self.process.poll() is None

    def submit(self, function: Callable[..., Any], args: tuple) -> Future:
        future: Future = Future()
        data = pickle.dumps((function, args), protocol=pickle.HIGHEST_PROTOCOL)
        with self._lock:
            if self._stopped:
                future.set_exception(DrawingFailed("the drawing process stopped"))
                return future
            number = next(self._numbers)
            self._jobs[number] = future
            try:
                _write(self.process.stdin, number, data)
            except OSError as error:
                del self._jobs[number]
                future.set_exception(DrawingFailed(f"the drawing process stopped: {error}"))
        return future

    def _read(self) -> None:
        """Settle each job as its result comes back; once the process is gone, fail the rest."""
        stream = self.process.stdout
        try:
            while (message := _read(stream)) is not None:
                number, data = message
                ok, value = pickle.loads(data)
                with self._lock:
                    future = self._jobs.pop(number, None)
                if future is not None:
                    future.set_result(value) if ok else future.set_exception(DrawingFailed(value))
        finally:
            with self._lock:
                self._stopped = True
                left, self._jobs = list(self._jobs.values()), {}
            for future in left:
                future.set_exception(DrawingFailed("the drawing process stopped"))


def _write(stream: BinaryIO, number: int, data: bytes) -> None:
    stream.write(FRAME.pack(number) + FRAME.pack(len(data)) + data)
    stream.flush()


def _read(stream: BinaryIO) -> tuple[int, bytes] | None:
    """The next message (its job's number and its data), None once the stream has ended."""
    header = stream.read(2 * FRAME.size)
    if len(header) < 2 * FRAME.size:
        return None
    number, size = FRAME.unpack(header[: FRAME.size])[0], FRAME.unpack(header[FRAME.size :])[0]
    data = stream.read(size)
    return (number, data) if len(data) == size else None


def serve(jobs: BinaryIO, results: BinaryIO) -> None:
    """In the drawing process: run each job read from `jobs`, one at a time, and write its result or
    its error to `results`, until `jobs` ends or nobody reads `results` any more (the bot died while a
    picture was drawn: nothing to say about it)."""
    while (message := _read(jobs)) is not None:
        number, data = message
        try:
            function, args = pickle.loads(data)
            answer = (True, function(*args))
        except Exception:
            answer = (False, traceback.format_exc())
        try:
            _write(results, number, pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL))
        except BrokenPipeError:
            return


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        with open("/proc/self/comm", "w") as comm:
            comm.write(NAME)
    except OSError:  # not Linux: the name is only a convenience
        pass
    results = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    sys.stdout = sys.stderr  # a stray print must not break the results' framing
    serve(sys.stdin.buffer, results)
    with contextlib.suppress(BrokenPipeError):  # what a dead bot will not read is dropped
        results.close()


if __name__ == "__main__":
    main()
