"""The one process that draws pictures for a Python process, so that Pillow's work runs on another
core than the bot's event loop.

Pillow holds the GIL for much of a drawing: drawn in a thread of the bot's process, pictures and
the event loop took turns on one core. Drawn here, in a process of its own, they do not compete.

The process is started at the first drawing (a bot whose tables show no picture never starts it)
and shared by every user in the process (the tests run many bots in one process: a drawing process
each would start a Python each). It is started with `spawn`, not `fork`: the bot has threads (the
store's, the executor's) and a fork would copy their locks in whatever state they are;
`forkserver` would add a second process that only pays off when workers are started often, and
would make the drawing process a grandchild of the bot (its CPU and its exit harder to follow).
It imports `pictures` once when it starts (`_started`), so fonts and painters load once.

It lives as long as the interpreter that started it: `concurrent.futures` shuts its pools down at
exit, after the drawing under way (at most one: the bot draws one picture at a time). A bot closed
and started again in one process (the tests', a reshard) keeps drawing in the same process. If the
parent dies without exiting (SIGKILL), the drawing process notices (its parent's sentinel, a pipe
only the parent holds open, reads end-of-file) and exits: no orphan keeps drawing. If the drawing
process dies, the drawing under way fails and the next one starts a new process.

The process names itself `catnip-picture` (`/proc/<pid>/comm`, what `ps` and `top` show), the name
`bench.bot_load` counts its CPU under.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import pictures

NAME = "catnip-picture"
"""The drawing process's name, as `/proc/<pid>/comm` shows it (at most 15 characters)."""

_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()


def timed_draw(game: str, scene: tuple) -> tuple[bytes, float]:
    """Draw a scene (in the drawing process); also return the CPU seconds it took there."""
    start = time.thread_time()
    png = pictures.draw(game, scene)
    return png, time.thread_time() - start


def draw(game: str, scene: tuple) -> Future[tuple[bytes, float]]:
    """Draw `scene` in the drawing process (started if it is not): the PNG and the CPU seconds it
    took, when done. A scene is plain data, sent pickled."""
    global _pool
    with _lock:
        if _pool is None:
            _pool = _start()
        try:
            return _pool.submit(timed_draw, game, scene)
        except BrokenProcessPool:  # the drawing process died: start another
            _pool.shutdown(wait=False, cancel_futures=True)
            _pool = _start()
            return _pool.submit(timed_draw, game, scene)


def _start() -> ProcessPoolExecutor:
    return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=_started)


def _started() -> None:
    """In the drawing process, once: name it, leave stopping to its parent, and exit with it.

    SIGINT and SIGTERM are ignored: a Ctrl-C in the bot's terminal, or a service manager stopping
    every process of the bot's group, would otherwise end the drawing process under a stopping bot,
    whose drawing under way would fail and the next start another process. The bot stops it when it
    exits, and if the bot dies first the drawing process follows it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        with open("/proc/self/comm", "w") as comm:
            comm.write(NAME)
    except OSError:  # not Linux: the name is only a convenience
        pass
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent,), name="catnip-parent", daemon=True).start()


def _exit_with(parent: multiprocessing.process.BaseProcess) -> None:
    """Wait until the parent is gone (its sentinel closes, however it died), then exit at once."""
    parent.join()
    os._exit(0)
