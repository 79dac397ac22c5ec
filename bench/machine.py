"""One line describing the machine a benchmark ran on, printed at the top of every benchmark."""

from __future__ import annotations

import os
import platform


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def describe_machine() -> str:
    return (
        f"machine: {platform.system()} {platform.machine()}, {cpu_model()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}"
    )
