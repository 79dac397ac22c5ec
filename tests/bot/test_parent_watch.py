"""A fleet's process ends with its fleet (bot/parent_watch.py): the kernel's word on Linux is tested with a
real `kill -9` of `catnip fleet` (tests/bot/test_shard_ownership.py); here, the watch that works
everywhere, which also catches a fleet that died before its process could ask the kernel."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.bytecode import bytecode_settings

REPO = Path(__file__).resolve().parents[2]
WAITS = (
    "from bot.parent_watch import end_with_fleet; import time; end_with_fleet(); "
    "print('watching', flush=True); time.sleep(60)"
)


def test_a_process_whose_fleet_is_gone_stops_itself_with_sigterm():
    gone = subprocess.Popen(["true"])
    gone.wait()  # a fleet that has died: not this process's parent
    env = {"PYTHONPATH": str(REPO), "CATNIP_FLEET_PID": str(gone.pid), **bytecode_settings()}
    orphan = subprocess.Popen([sys.executable, "-c", WAITS], env=env, stdout=subprocess.DEVNULL)
    assert orphan.wait(timeout=30) == -signal.SIGTERM, "stopped as `catnip fleet` stops it, not after 60 s"


def test_a_process_no_fleet_started_is_left_alone():
    env = {"PYTHONPATH": str(REPO), **bytecode_settings()}
    alone = subprocess.Popen([sys.executable, "-c", WAITS], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert alone.stdout.readline() == "watching\n"
        assert alone.poll() is None
        os.kill(alone.pid, signal.SIGTERM)
        assert alone.wait(timeout=30) == -signal.SIGTERM
    finally:
        if alone.poll() is None:
            alone.kill()
        alone.wait()
        alone.stdout.close()
