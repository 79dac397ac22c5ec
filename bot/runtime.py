"""`tune_runtime`: the interpreter tuned for a running bot — cheap garbage collection and thread switches."""

from __future__ import annotations

import gc
import logging
import sys

log = logging.getLogger("catnip")

GC_THRESHOLDS = (10_000, 20, 10)

SWITCH_INTERVAL = 0.0002
"""Seconds a busy thread may keep the GIL while another waits for it (Python's default is 0.005)."""


def tune_runtime() -> None:
    """Make garbage collection and thread switches cheap for a running bot: the bot calls it once it
    is ready, when started as `python -m bot` starts it (`runtime_tuning`, `bot.__main__.start_bot`).

    The objects alive after start-up (modules, discord.py's caches) are frozen out of every
    later collection, and the young generation is collected after 10,000 net allocations
    instead of 700. Each click allocates many short-lived objects, nearly all freed by
    reference counting; with the default threshold the collector ran several times per move.

    The store writes each batch of moves on its own thread, and SQLite gives up the GIL around
    every row it writes. With the event loop busy, getting it back waited up to the default 5 ms
    switch interval each time, which held up every batch of moves. A computer player thinking on
    a worker thread also hands the GIL back to the event loop sooner. What both save is measured in
    docs/performance.md ("Runtime tuning", `python -m bench.bot_load`).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    sys.setswitchinterval(SWITCH_INTERVAL)
    log.debug(  # read back from the interpreter: what runs, not what was asked
        "runtime tuned: gc threshold %s, %d objects frozen, switch interval %r s",
        gc.get_threshold(),
        gc.get_freeze_count(),
        sys.getswitchinterval(),
    )
