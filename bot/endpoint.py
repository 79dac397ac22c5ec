"""Where the bot finds Discord: Discord itself, or the emulator of a developer's `python -m emulator`.

A module of its own, apart from the offline demo (bot/offline.py): a bot started with a token learns
here that it talks to Discord without loading the demo (its narrator, the emulator in its process).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

EMULATOR_URL = "CATNIP_EMULATOR_URL"
"""An environment variable: the bot talks to the emulator at this address instead of Discord."""


@contextlib.contextmanager
def discord_endpoint() -> Iterator[None]:
    """Discord itself, or the emulator of a developer's `python -m emulator` when `CATNIP_EMULATOR_URL`
    names its address (the real bot, even a whole `catnip fleet`, then runs on the local Discord)."""
    url = os.environ.get(EMULATOR_URL)
    if not url:
        yield
        return
    from emulator.remote import RemoteEmulator

    with RemoteEmulator(url).point_discord_py():
        yield
