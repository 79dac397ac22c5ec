"""The load benchmark still runs end to end: a tiny run of Catnip and the floor bot ends with its JSON line.

It runs the real benchmark (its own processes for the bots and the emulator), so a change to the bot,
the emulator or the floor that breaks the benchmark fails here rather than in the next measurement.
No figure is compared with a time: only that the line has every key and that both bots made moves.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADLINE = (
    "cpu_ms_per_move",
    "floor_cpu_ms_per_move",
    "moves_per_s",
    "click_p99_ms",
    "table_lag_p50_ms",
    "table_lag_p99_ms",
    "deadline_misses",
    "floor_moves_per_s",
    "kb_per_game_after",
    "counted_requests_per_move",
    "responses_429",
    "invalid_requests_10min",
)


def test_a_tiny_load_run_reports_every_headline_figure_with_moves_made_by_both_bots():
    """Two rounds of Catnip and the floor in turn: the headline is the pair with the median ratio."""
    command = [sys.executable, "-m", "bench.bot_load", "--games", "3", "--seconds", "1.5", "--warmup", "0.5"]
    command += ["--rounds", "2", "--json"]
    output = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True, timeout=180).stdout
    figures = json.loads(output.strip().splitlines()[-1])
    missing = [key for key in HEADLINE if key not in figures]
    assert not missing, f"the JSON line lacks {missing}"
    assert figures["games"] == 3
    assert figures["moves_per_s"] > 0, "Catnip made no move"
    assert figures["floor_moves_per_s"] > 0, "the floor bot made no move"
    assert figures["cpu_ms_per_move"] > 0 and figures["floor_cpu_ms_per_move"] > 0
    assert figures["table_lag_p50_ms"] is not None, "no table showed a move"
    # Told apart from route and payload alone: in play the tables and pings go through the clicks' tokens.
    exempt, counted = figures["exempt_per_move_by_kind"], figures["counted_per_move_by_kind"]
    assert exempt.get("interaction callback", 0) > 0 and exempt.get("interaction webhook", 0) > 0, exempt
    assert abs(sum(exempt.values()) - figures["exempt_requests_per_move"]) < 1e-9
    assert abs(sum(counted.values()) - figures["counted_requests_per_move"]) < 1e-9
    each = figures["cpu_vs_floor_each"]
    assert len(each) == 2 and figures["cpu_vs_floor"] == min(each), "the lower middle of two pairs"
    assert figures["cpu_vs_floor_median"] == sum(each) / 2
    threads = figures["cpu_ms_per_move_by_thread"]  # Catnip's CPU a move, split by what its threads do
    assert threads["event loop"] > 0 and "store writes" in threads, threads
    # /proc counts each thread in ticks of 10 ms: over a run this short the parts sum only roughly.
    assert 0.5 < sum(threads.values()) / figures["cpu_ms_per_move"] < 1.5
