"""`python -m bot` tunes its interpreter once it is ready (`bot.runtime.tune_runtime`): read from the real
entry point's process, not from a bot built in the test's.

The bot logs one DEBUG line when it applies the tuning, with the values it then reads back from its
interpreter (`gc.get_threshold()`, `gc.get_freeze_count()`, `sys.getswitchinterval()`); the test
starts `python -m bot` against an emulator process with LOG_LEVEL=DEBUG and waits for that line.
"""

from __future__ import annotations

import asyncio
import re
import sys

from bot.runtime import GC_THRESHOLDS, SWITCH_INTERVAL
from tests.bot.test_fleet import bot_environment, emulator_process

TUNED = re.compile(
    r"runtime tuned: gc threshold \((\d+), (\d+), (\d+)\), (\d+) objects frozen, switch interval (\S+) s"
)
READY_WITHIN = 120.0
"""Seconds the bot may take to start and become ready on a busy machine: only a failing test waits
this long."""


async def tuned_line(bot: asyncio.subprocess.Process, lines: list[str]) -> re.Match | None:
    """The bot's "runtime tuned" line, None if it exits first; its lines until then go into `lines`."""
    async for raw in bot.stderr:
        lines.append(raw.decode(errors="replace").rstrip())
        if found := TUNED.search(lines[-1]):
            return found
    return None


async def test_python_m_bot_tunes_garbage_collection_and_thread_switching_once_ready(tmp_path):
    async with emulator_process() as url:
        env = {**bot_environment(url, tmp_path), "LOG_LEVEL": "DEBUG", "PICTURES": "off"}
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
        )
        lines: list[str] = []
        try:
            found = await asyncio.wait_for(tuned_line(bot, lines), READY_WITHIN)
            assert found, "the bot stopped without tuning its runtime:\n" + "\n".join(lines)
            first, second, third, frozen, interval = found.groups()
            assert (int(first), int(second), int(third)) == GC_THRESHOLDS
            assert int(frozen) > 0, "nothing frozen out of garbage collection"
            microseconds = round(float(interval) * 1e6)  # CPython keeps the interval in whole µs
            assert microseconds == round(SWITCH_INTERVAL * 1e6), f"switch interval {interval} s"
            bot.terminate()
            await asyncio.wait_for(bot.communicate(), 30)  # read to the end: no full pipe holds it up
            assert bot.returncode == 0, "the bot did not stop cleanly"
        except TimeoutError:
            raise AssertionError("no 'runtime tuned' line; the bot said:\n" + "\n".join(lines)) from None
        finally:
            if bot.returncode is None:
                bot.kill()
                await bot.wait()
