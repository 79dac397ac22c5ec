"""The bot hands memory that finished work freed back to the system (bot/memory.py)."""

from __future__ import annotations

import os
import sys

import pytest

from bot.memory import can_release, release_free_memory

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")


def resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_memory_freed_between_live_objects_goes_back_to_the_system() -> None:
    # Requests in flight leave this pattern: many buffers freed, a few still alive between them,
    # so the C heap cannot shrink from its top and keeps the freed pages.
    buffers = [bytearray(4000) for _ in range(10_000)]
    alive = buffers[::50]
    del buffers
    before = resident_bytes()
    assert can_release()
    assert release_free_memory()
    assert before - resident_bytes() > 20_000_000, "at least half of the 40 MB freed went back"
    assert len(alive) == 200
