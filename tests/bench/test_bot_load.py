"""The load benchmark still runs end to end: a tiny run of Catnip and the floor bot ends with its JSON line.

It runs the real benchmark (its own processes for the bots and the emulator), so a change to the bot,
the emulator or the floor that breaks the benchmark fails here rather than in the next measurement.
No figure is compared with a time: only that the line has every key and that both bots made moves.
The run is one round (Catnip, then the floor); how `--rounds` picks its headline among several
rounds' pairs is checked on figures of its own, below.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.load_report import cpu_ratio, median_pair, ratios

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
    """One round of Catnip and the floor in turn: the headline is that pair's. Catnip also plays the
    same tables on French servers (`--compare french`): members who read French labels play on."""
    command = [sys.executable, "-m", "bench.bot_load", "--games", "3", "--seconds", "1.5", "--warmup", "0.5"]
    command += ["--rounds", "1", "--compare", "french", "--json"]
    output = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True, timeout=180).stdout
    figures = json.loads(output.strip().splitlines()[-1])
    missing = [key for key in HEADLINE if key not in figures]
    assert not missing, f"the JSON line lacks {missing}"
    assert figures["games"] == 3
    assert figures["moves_per_s"] > 0, "Catnip made no move"
    assert figures["floor_moves_per_s"] > 0, "the floor bot made no move"
    assert figures["cpu_ms_per_move"] > 0 and figures["floor_cpu_ms_per_move"] > 0
    assert figures["table_lag_p50_ms"] is not None, "no table showed a move"
    assert figures["floor_table_lag_p50_ms"] is not None, "no floor table showed a move"
    sizes = figures["payload_sizes"]  # what the floor's payloads match, its pictures' uploads included
    assert sizes["picture"] > 1000 and 0 < sizes["pictures_per_100"] <= 100, sizes
    assert figures["compared"]["french"]["moves_per_s"] > 0, "no move on the French tables"
    # Told apart from route and payload alone: in play the tables and pings go through the clicks' tokens.
    exempt, counted = figures["exempt_per_move_by_kind"], figures["counted_per_move_by_kind"]
    assert exempt.get("interaction callback", 0) > 0 and exempt.get("interaction webhook", 0) > 0, exempt
    assert abs(sum(exempt.values()) - figures["exempt_requests_per_move"]) < 1e-9
    floor_exempt = figures["floor_exempt_per_move_by_kind"]
    assert set(floor_exempt) == set(exempt), f"the floor uses the tokens as Catnip: {floor_exempt}"
    assert abs(sum(counted.values()) - figures["counted_requests_per_move"]) < 1e-9
    ratio = figures["cpu_ms_per_move"] / figures["floor_cpu_ms_per_move"]
    assert abs(figures["cpu_vs_floor"] - ratio) < 1e-9 * ratio, "Catnip's CPU a move over the floor's"
    threads = figures["cpu_ms_per_move_by_thread"]  # Catnip's CPU a move, split by what its threads do
    assert threads["event loop"] > 0 and "store writes" in threads, threads
    # /proc counts each thread in ticks of 10 ms: over a run this short the parts sum only roughly.
    assert 0.5 < sum(threads.values()) / figures["cpu_ms_per_move"] < 1.5


def run(cpu_ms_per_move: float) -> dict[str, float]:
    """A run's figures, as far as choosing the headline reads them."""
    return {"cpu_ms_per_move": cpu_ms_per_move}


def test_several_rounds_report_the_pair_of_the_median_ratio_and_every_pairs_ratio():
    """With `--rounds R` the headline is the pair whose Catnip/floor CPU ratio is the median one (the
    lower middle of an even number), beside every pair's ratio and their median."""
    two, three, four = (run(2.0), run(1.0)), (run(6.0), run(2.0)), (run(8.0), run(2.0))
    assert [cpu_ratio(pair) for pair in (two, three, four)] == [2.0, 3.0, 4.0]
    assert median_pair([four, two, three]) is three
    assert median_pair([three, two]) is two, "the lower middle of two pairs"
    assert median_pair([four]) is four
    assert ratios([three, two]) == {"cpu_vs_floor_each": [3.0, 2.0], "cpu_vs_floor_median": 2.5}
    assert ratios([four, two, three])["cpu_vs_floor_median"] == 3.0
