"""What the emulator's check of a request body costs (`python -m bench.body_checks`).

    python -m bench.body_checks [--steps 20] [--rounds 20]

Plays a three-member Nine Lives game for `--steps` moves through the emulator, keeping every body the
bot sends (lobby, table edits with their picture, panels, selects, pings), then times the check of
each: compiled from the spec as written (each union tried branch by branch) and as the emulator
compiles it (`_unions_decided`), the best of `--rounds` runs of each body, in one sitting.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.machine import describe_machine
from bench.members import Table, catnip, open_table
from bench.pictures import percentile
from emulator.schema import discord_schemas
from engine import Rng


class _Kept:
    """The emulator's body checks, keeping each body the bot sent (a spy in front of the real checks)."""

    def __init__(self, schemas: Any) -> None:
        self.schemas = schemas
        self.bodies: list[tuple[str, str, Any]] = []

    def problems(self, method: str, template: str, body: Any) -> list[tuple[str, str]]:
        self.bodies.append((method, template, body))
        return self.schemas.problems(method, template, body)


async def sent_bodies(steps: int) -> list[tuple[str, str, Any]]:
    """(method, route template, body) of every request body the bot sent while three members played
    `steps` steps of Nine Lives with pictures: its lobby, table, panels, selects and picture."""
    with tempfile.TemporaryDirectory() as folder:
        async with catnip(Path(folder), pictures=True) as (emu, _):
            kept = emu.server.schemas = _Kept(emu.server.schemas)
            thread, members = await open_table(emu, "ninelives", 3)
            table = Table(emu, thread, members, Rng.seeded(3))
            for _ in range(steps):
                await table.step()
            return kept.bodies


def best(check: Any, body: Any, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        check(body)
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.body_checks", description=__doc__)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    bodies = asyncio.run(sent_bodies(args.steps))
    schemas = discord_schemas()
    written: dict[tuple[str, str], Any] = {}
    by_route: dict[str, list[tuple[float, float]]] = {}
    for method, template, body in bodies:
        check = schemas.check(method, template)
        if check is None:
            continue
        key = (method, template)
        if key not in written:
            written[key] = schemas.check_as_written(method, template)
        route = f"{method} {template}"
        by_route.setdefault(route, []).append(
            (best(written[key], body, args.rounds), best(check, body, args.rounds))
        )
    print(describe_machine())
    print(f"{len(bodies)} bodies from {args.steps} moves; best of {args.rounds} checks of each")
    print(f"{'route':<58}{'bodies':>7}{'as written p50':>16}{'decided p50':>13}", end="")
    print(f"{'as written p99':>16}{'decided p99':>13}")
    for route, pairs in sorted(by_route.items(), key=lambda item: -len(item[1])):
        before, after = [p[0] for p in pairs], [p[1] for p in pairs]
        print(
            f"{route:<58}{len(pairs):>7}{percentile(before, 0.5):>16.3f}{percentile(after, 0.5):>13.3f}"
            f"{percentile(before, 0.99):>16.3f}{percentile(after, 0.99):>13.3f}"
        )


if __name__ == "__main__":
    main()
