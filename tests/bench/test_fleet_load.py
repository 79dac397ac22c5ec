"""The fleet benchmark still runs end to end: a tiny run of two bot processes over PostgreSQL ends with
its JSON line, and each process made moves on its own shard.

It runs the real benchmark (the emulator, the bot processes and a throw-away PostgreSQL server in
processes of their own), so a change that breaks the benchmark fails here rather than in the next
measurement. No figure is compared with a time.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIGURES = (
    "moves_per_s",
    "process_moves_per_s",
    "click_p99_ms",
    "table_lag_p50_ms",
    "table_lag_p99_ms",
    "process_cpu_percent",
    "postgres_cpu_percent",
    "emulator_cpu_percent",
    "global_requests_per_move",
    "counted_requests_per_move",
    "responses_429",
    "invalid_requests_10min",
)


def test_a_tiny_fleet_run_reports_every_figure_with_moves_made_by_both_processes():
    command = [sys.executable, "-m", "bench.fleet_load", "--games", "4", "--seconds", "1.5"]
    command += ["--warmup", "0.5"]
    command += ["--configs", "postgres:2"]
    output = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True, timeout=120).stdout
    result = json.loads(output.strip().splitlines()[-1])
    assert [(run["store"], run["processes"]) for run in result["runs"]] == [("postgres", 2)]
    for run in result["runs"]:
        missing = [key for key in FIGURES if key not in run]
        assert not missing, f"the JSON line lacks {missing}"
        assert run["opened"] == 4 and run["guilds"] >= 4
        assert len(run["process_moves"]) == 2
        assert all(moves > 0 for moves in run["process_moves"]), f"a process made no move: {run}"
        assert all(cpu > 0 for cpu in run["process_cpu_percent"])
        assert run["table_lag_p50_ms"] is not None, "no table showed a move"
    assert result["runs"][0]["postgres_cpu_percent"] > 0, "the PostgreSQL server did no work"
