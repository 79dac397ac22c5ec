"""Giving the memory that finished work freed back to the system.

Under load hundreds of Discord requests and their answers are in flight at once; once they are
done, CPython frees their buffers, but glibc keeps the freed pages in its heaps (one per thread
that allocated) for later use, so the bot's resident memory stays at its busiest moment's
(docs/performance.md, "Memory in steady play"). `malloc_trim` hands those pages back. It costs a
few milliseconds on a heap of a few hundred MB, so the bot calls it once a minute.
"""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable

RELEASE_EVERY_SECONDS = 60.0


def _find_malloc_trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`, or None where the C library has none (macOS, Windows, musl)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


_malloc_trim = _find_malloc_trim()


def can_release() -> bool:
    return _malloc_trim is not None


def release_free_memory() -> bool:
    """Hand the C heaps' free pages back to the system; whether any memory was released."""
    return bool(_malloc_trim(0)) if _malloc_trim is not None else False
