"""What `python -m bench.bot_load` prints of its runs: a row each, the figures behind it, and the
headline figures the targets are about (Catnip's, the floor's and their ratio)."""

from __future__ import annotations

import statistics
from typing import Any

from bench.load_figures import RSS_EVERY


def row(result: dict[str, Any]) -> str:
    latency, lag = result["latency"], result["table_lag"]
    return (
        f"{result['games']:>5} {result['subject']:>18} {latency['p50_ms']:>7.1f} {latency['p99_ms']:>7.1f} "
        f"{latency['max_ms']:>8.1f} {result['over_deadline']:>5} {lag['p50_ms']:>7.0f} {lag['p99_ms']:>7.0f} "
        f"{result['moves_per_second']:>8.1f} {result['bot_cpu_percent']:>6.0f}% "
        f"{result['cpu_ms_per_move']:>6.2f} {result['peak_rss_kb'] / 1024:>7.1f} "
        f"{result['kb_per_game']:>7.1f} {result['kb_per_game_after']:>7.1f}"
    )


HEADER = (
    "games                bot  p50 ms  p99 ms   max ms  >3 s  lag p50 lag p99  moves/s  botCPU ms/mov  "
    "peakMB KB/game  after\n" + "-" * 124
)


def details(result: dict[str, Any]) -> str:
    """The figures behind one row of the table, a few lines of them."""
    kinds = ", ".join(
        f"{kind} p50 {figures['p50_ms']:.0f} / p99 {figures['p99_ms']:.0f} ms (n={figures['count']})"
        for kind, figures in result["latency_by_kind"].items()
    )
    warmup, handoff, driver = result["latency_warmup"], result["handoff"], result["driver"]
    shown, ping = result["shown"], result["ping_lag"]
    lines = [
        f"N={result['games']} {result['subject']}: {result['moves']} moves in {result['seconds']:.1f} s "
        f"({result['interactions_per_second']:.0f} interactions/s, bot CPU {result['cpu_ms_per_move']:.2f} "
        f"ms a move); setup of the tables {result['setup']['seconds']:.1f} s "
        f"({result['setup']['opened']} opened); payload sizes {result['sizes']}",
        f"  by kind: {kinds}",
        f"  a card's result on its panel p50 {shown['p50_ms']:.0f} / p99 {shown['p99_ms']:.0f} ms; the "
        f"next ping p50 {ping['p50_ms']:.0f} / p99 {ping['p99_ms']:.0f} ms after the click, "
        f"{handoff['p50_ms']:.0f} / {handoff['p99_ms']:.0f} ms after the result; "
        f"{result['acknowledged_first']:.0%} of the clicks acknowledged first; "
        f"turned away as the bot ran behind: {result['turned_away_in_play']} clicks in play, "
        f"{result['turned_away_warmup']} in the warm-up ({result['turned_away_busy']} since start-up)",
        f"  warm-up (every table's first turn at once): p99 {warmup['p99_ms']:.0f} ms, "
        f"max {warmup['max_ms']:.0f} ms; event loop lag p99: bot {result['loop_lag']['p99_ms']:.0f} ms, "
        f"emulator {result['emulator_loop_lag_p99_ms']:.0f} ms "
        f"(max {result['emulator_loop_lag_max_ms']:.0f})",
        f"  KB a game: {result['kb_per_game_marginal']:.1f} from N/2 to N games, "
        f"{result['kb_per_game_after']:.1f} after play ({result['active_games_after']} live); "
        f"errors logged {len(result['bot_errors'])}, driver stalls {driver['stalls']}, "
        f"driver errors {driver['error_count']}, violations {len(result['violations'])}, "
        f"429s {result['rate_limited']}",
        f"  RSS during play, MB every {RSS_EVERY:g} s: "
        + " ".join(f"{mb:.1f}" for mb in result["rss_during_play_mb"]),
    ]
    for when, totals in result["traced_kb_by_module"].items():
        lines.append(
            f"  traced KB by module, {when}: " + ", ".join(f"{m} {kb:.0f}" for m, kb in totals.items())
        )
    lines.append(
        "  Discord requests a move: "
        + ", ".join(
            f"{route} {count:.2f}" for route, count in result["requests_per_move"].items() if count >= 0.01
        )
    )
    lines.append(budget(result))
    lines.append(f"  discord.py keeps after play: {result['discord_state_after']}")
    lines.append(
        "  CPU ms a move by thread: "
        + ", ".join(f"{kind} {ms:.2f}" for kind, ms in result["cpu_ms_per_move_by_thread"].items())
    )
    lines.extend(f"  error logged: {message[:300]}" for message in result["bot_errors"][:3])
    lines.extend(f"    {line}" for line in result["traced_top_after"])
    return "\n".join(lines)


def budget(result: dict[str, Any]) -> str:
    """Discord's budget in one run: counted requests a move by kind and by game, exempt ones, 429s."""

    def listed(figures: dict[str, float]) -> str:
        return ", ".join(f"{name} {value:.2f}" for name, value in figures.items() if value >= 0.005)

    return (
        f"  counted requests a move {result['counted_requests_per_move']:.2f} "
        f"({listed(result['counted_per_move_by_kind'])}); "
        f"by game: {listed(result['counted_per_move_by_game'])}; "
        f"exempt {result['exempt_requests_per_move']:.2f} ({listed(result['exempt_per_move_by_kind'])}); "
        f"table edits a move by what they change ({listed(result['table_edits_per_move'])}); "
        f"429s {result['responses_429']} (in play: {result['responses_429_by_kind']}); "
        f"invalid requests in 10 min {result['invalid_requests_10min']}; "
        f"most counted requests in one second {result['counted_requests_peak_per_second']}"
    )


def headline(catnip: dict[str, Any], floor: dict[str, Any] | None) -> dict[str, Any]:
    """The figures the targets are about, Catnip's and the floor's, for one N."""
    line = {
        "games": catnip["games"],
        "cpu_ms_per_move": catnip["cpu_ms_per_move"],
        "cpu_ms_per_move_by_thread": catnip["cpu_ms_per_move_by_thread"],
        "floor_cpu_ms_per_move": floor["cpu_ms_per_move"] if floor else None,
        "moves_per_s": catnip["moves_per_second"],
        "click_p50_ms": catnip["latency"]["p50_ms"],
        "click_p99_ms": catnip["latency"]["p99_ms"],
        "table_lag_p50_ms": catnip["table_lag"]["p50_ms"],
        "table_lag_p99_ms": catnip["table_lag"]["p99_ms"],
        "ping_lag_p50_ms": catnip["ping_lag"]["p50_ms"],
        "ping_lag_p99_ms": catnip["ping_lag"]["p99_ms"],
        "deadline_misses": catnip["over_deadline"],
        "turned_away_in_play": catnip["turned_away_in_play"],
        "turned_away_warmup": catnip["turned_away_warmup"],
        "kb_per_game_after": catnip["kb_per_game_after"],
        "bot_cpu_percent": catnip["bot_cpu_percent"],
        "counted_requests_per_move": catnip["counted_requests_per_move"],
        "counted_per_move_by_kind": catnip["counted_per_move_by_kind"],
        "counted_per_move_by_game": catnip["counted_per_move_by_game"],
        "exempt_requests_per_move": catnip["exempt_requests_per_move"],
        "exempt_per_move_by_kind": catnip["exempt_per_move_by_kind"],
        "table_edits_per_move": catnip["table_edits_per_move"],
        "payload_sizes": catnip["sizes"],
        "responses_429": catnip["responses_429"],
        "counted_requests_peak_per_second": catnip["counted_requests_peak_per_second"],
        "invalid_requests_10min": catnip["invalid_requests_10min"],
    }
    if floor:
        line.update(
            floor_moves_per_s=floor["moves_per_second"],
            floor_click_p99_ms=floor["latency"]["p99_ms"],
            floor_table_lag_p50_ms=floor["table_lag"]["p50_ms"],
            floor_table_lag_p99_ms=floor["table_lag"]["p99_ms"],
            floor_deadline_misses=floor["over_deadline"],
            floor_counted_requests_per_move=floor["counted_requests_per_move"],
            floor_exempt_per_move_by_kind=floor["exempt_per_move_by_kind"],
            cpu_vs_floor=cpu_ratio((catnip, floor)),
        )
    return line


Pair = tuple[dict[str, Any], dict[str, Any]]
"""A Catnip run and the floor's run right after it, under the same load."""


def cpu_ratio(pair: Pair) -> float:
    catnip, floor = pair
    return catnip["cpu_ms_per_move"] / max(floor["cpu_ms_per_move"], 1e-9)


def median_pair(pairs: list[Pair]) -> Pair:
    """Of Catnip and floor runs made in turn, the pair whose CPU ratio is the median one (the lower
    middle of an even number): a single pair's ratio swings with whatever else the machine does."""
    return sorted(pairs, key=cpu_ratio)[(len(pairs) - 1) // 2]


def ratios(pairs: list[Pair]) -> dict[str, Any]:
    """Every pair's CPU ratio, and their median."""
    each = [cpu_ratio(pair) for pair in pairs]
    return {"cpu_vs_floor_each": each, "cpu_vs_floor_median": statistics.median(each)}
