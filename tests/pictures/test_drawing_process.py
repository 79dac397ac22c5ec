"""The drawing process (pictures/process.py) when its bot dies in the middle of a picture: it ends
quietly, with nothing on stderr (a dead bot's process is no reason for a traceback in the logs)."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

from pictures.process import FRAME

REPO = Path(__file__).resolve().parents[2]


def test_a_result_nobody_reads_any_more_ends_the_drawing_process_quietly():
    held, release = os.pipe()  # the job waits on it: it ends only once the bot is gone
    drawing = subprocess.Popen(
        [sys.executable, "-m", "pictures.process"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        pass_fds=(held,),
        env={**os.environ, "PYTHONPATH": str(REPO)},
        cwd=REPO,
    )
    os.close(held)
    job = pickle.dumps((os.read, (held, 1)))
    drawing.stdin.write(FRAME.pack(0) + FRAME.pack(len(job)) + job)
    drawing.stdin.close()
    drawing.stdout.close()  # the bot died: nobody reads the result
    os.write(release, b"x")
    os.close(release)
    assert drawing.wait(timeout=30) == 0
    assert drawing.stderr.read() == b""
    drawing.stderr.close()
