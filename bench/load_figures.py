"""What `bench.bot_load` measures in the bot's process: CPU, memory, percentiles, event-loop lag, errors.

The bot's CPU includes its drawing process's (`pictures.process`, a child of the bot's process):
pictures are the bot's work wherever they are drawn."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import resource
import threading
import time
import traceback
import tracemalloc
from collections import Counter
from pathlib import Path

import pictures.process

RSS_EVERY = 5.0


def rss_kb() -> int:
    """Current resident set size of this process, in KB."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() // 1024


def peak_rss_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def cpu_seconds() -> float:
    """CPU seconds (user + system) the bot has used so far: this process's and its drawing process's."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime + sum(drawing_cpu().values())


THREAD_KINDS = (
    ("MainThread", "event loop"),
    ("catnip-store", "store writes"),
    ("catnip-picture-results", "pictures"),  # reading the drawings back from the drawing process
)
"""Python thread names (by prefix) and what they are called in the figures; the rest is "other". The
drawing process's CPU counts as "pictures" too."""


def _stat(path: Path) -> tuple[str, list[str]] | None:
    """A /proc stat file's command name and the fields after it; None if the task is gone."""
    try:
        text = path.read_text()
    except OSError:
        return None
    name, _, rest = text.partition(" (")[2].rpartition(")")
    return name, rest.split()


def _ticks(fields: list[str]) -> float:
    """CPU seconds (user + system) of a /proc stat's fields after the command name."""
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def drawing_cpu() -> dict[int, float]:
    """CPU seconds each of this process's drawing processes has used so far, by pid (read from /proc,
    found by the name they give themselves; empty elsewhere)."""
    me, used = str(os.getpid()), {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        read = _stat(stat)
        if read is not None and read[0] == pictures.process.NAME and read[1][1] == me:
            used[int(stat.parent.name)] = _ticks(read[1])
    return used


def cpu_by_thread() -> Counter[str]:
    """CPU seconds (user + system) this process's threads, and its drawing process, have used so far,
    by what they do. Read from /proc (Linux); empty elsewhere."""
    names = {thread.native_id: thread.name for thread in threading.enumerate()}
    used: Counter[str] = Counter()
    tasks = Path("/proc/self/task")
    for task in tasks.iterdir() if tasks.is_dir() else ():
        read = _stat(task / "stat")
        if read is None:  # the thread ended meanwhile
            continue
        name = names.get(int(task.name), "")
        kind = next((kind for prefix, kind in THREAD_KINDS if name.startswith(prefix)), "other")
        used[kind] += _ticks(read[1])
    used["pictures"] += sum(drawing_cpu().values())
    return used


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def latency_summary(latencies: list[float]) -> dict[str, float]:
    return {
        "count": len(latencies),
        "p50_ms": percentile(latencies, 0.50) * 1000,
        "p95_ms": percentile(latencies, 0.95) * 1000,
        "p99_ms": percentile(latencies, 0.99) * 1000,
        "max_ms": max(latencies, default=float("nan")) * 1000,
    }


class Background:
    """A sampling loop run in the background between `start` and `stop`."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self._task: asyncio.Task | None = None

    async def _run(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> list[float]:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        return self.samples


class LoopLag(Background):
    """Samples how late the bot's event loop wakes a 20 ms sleep (how busy the loop is)."""

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(0.02)
            self.samples.append(loop.time() - before - 0.02)

    async def summary(self) -> dict[str, float]:
        samples = await self.stop()
        return {
            "p50_ms": percentile(samples, 0.5) * 1000,
            "p99_ms": percentile(samples, 0.99) * 1000,
            "max_ms": max(samples, default=0.0) * 1000,
        }


class RssSeries(Background):
    """The bot process's RSS in MB every `RSS_EVERY` seconds of play: does memory level off?"""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []

    async def _run(self) -> None:
        while True:
            self.times.append(time.perf_counter())
            self.samples.append(rss_kb() / 1024)
            await asyncio.sleep(RSS_EVERY)

    async def stop_at(self, end: float) -> list[float]:
        """The samples taken until `end` (perf_counter): a busy loop wakes the sampler late, and a
        sample taken once play is over would count the run's results coming back as the bot's."""
        await self.stop()
        return [mb for at, mb in zip(self.times, self.samples, strict=True) if at <= end]


class ErrorCount(logging.Handler):
    """Counts ERROR records of discord.py and Catnip during a run (each is a bug under load)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        error = record.exc_info[1] if record.exc_info else None
        where = ""
        if error is not None and error.__traceback__ is not None:
            frames = traceback.extract_tb(error.__traceback__)
            ours = [f for f in frames if any(part in f.filename for part in ("/cogs/", "/bot/"))]
            frame = (ours or frames)[-1]
            where = f" at {Path(frame.filename).name}:{frame.lineno} ({frame.name})"
        caught = f" — {type(error).__name__}: {error}{where}" if error is not None else ""
        self.messages.append(f"{record.name}: {record.getMessage()}{caught}")


def _module_of(filename: str) -> str:
    """`discord`, `bot`, `engine`, `asyncio`…: the top package a traced allocation was made in."""
    parts = Path(filename).parts
    if "site-packages" in parts:
        return parts[parts.index("site-packages") + 1].split(".")[0]
    for root in ("bot", "cogs", "engine", "bench", "emulator"):
        if root in parts:
            return root
    if "python3.11" in parts:
        after = parts[parts.index("python3.11") + 1 :]
        return after[0].removesuffix(".py") if after else "python"
    return Path(filename).stem


def traced_by_module(lines: int = 0) -> tuple[Counter[str], list[str]]:
    """KB currently allocated (and traced) per top package, largest first; and the `lines` source
    lines holding the most, with the caller that allocated through them (where the objects come from)."""
    snapshot = tracemalloc.take_snapshot()
    totals: Counter[str] = Counter()
    for stat in snapshot.statistics("filename"):
        totals[_module_of(stat.traceback[0].filename)] += stat.size / 1024
    top = [
        f"{stat.size / 1024:.0f} KB {stat.count} blocks: "
        + " <- ".join(f"{Path(frame.filename).name}:{frame.lineno}" for frame in stat.traceback)
        for stat in snapshot.statistics("traceback")[:lines]
    ]
    return totals, top
