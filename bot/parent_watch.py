"""A process of `catnip fleet` ends with the fleet, however the fleet ends (`kill -9` included): left
running, it would keep its shards from the fleet a supervisor starts next (bot/shard_owners.py).

The fleet names itself to each process (`FLEET_PID`). On Linux the kernel sends the process SIGTERM
the moment the fleet dies (`prctl(PR_SET_PDEATHSIG)`); everywhere, a thread also looks every
`LOOK_EVERY_SECONDS` whether its parent is still the fleet, and sends it SIGTERM if not. SIGTERM stops
the bot cleanly (its games and shards given up at once); one that has not ended `STOP_WITHIN_SECONDS`
later is killed.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time

FLEET_PID = "CATNIP_FLEET_PID"
"""The environment variable in which `catnip fleet` gives its processes its pid."""
LOOK_EVERY_SECONDS = 0.5
STOP_WITHIN_SECONDS = 15.0
"""As long as the fleet gives a process to stop before it kills it (`--stop-timeout`'s default)."""
PR_SET_PDEATHSIG = 1
"""prctl(2)'s option: the signal the calling process gets when its parent dies."""


def end_with_fleet() -> None:
    """If a fleet started this process, end it when the fleet ends."""
    named = os.environ.get(FLEET_PID)
    if not named:
        return
    fleet = int(named)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    threading.Thread(target=_watch, args=(fleet,), name="catnip-fleet-watch", daemon=True).start()


def _watch(fleet: int) -> None:
    while os.getppid() == fleet:  # not so from the start if the fleet died before prctl was asked
        time.sleep(LOOK_EVERY_SECONDS)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(STOP_WITHIN_SECONDS)
    os.kill(os.getpid(), signal.SIGKILL)
