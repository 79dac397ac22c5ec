"""Rewrite the golden playthrough files from the current code.

    python -m tests.golden.regenerate              # every file; keeps each file's recorded moves
    python -m tests.golden.regenerate madcat-2p-seed1 ...   # only these files
    python -m tests.golden.regenerate --fresh ...  # let the computer player choose the moves anew

Keeping the moves shows a text change as a diff of texts only. A rule change that makes a recorded move
illegal (or ends a game sooner or later) needs `--fresh`. Review the diff before committing it.
"""

from __future__ import annotations

import argparse
import sys

from tests.golden.playthrough import CASES, Unreplayable, read, record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.golden.regenerate", description=__doc__.split("\n")[0]
    )
    parser.add_argument("names", nargs="*", help="file names without .txt (default: all)")
    parser.add_argument("--fresh", action="store_true", help="choose new moves with the computer player")
    args = parser.parse_args(argv)
    known = {case.name: case for case in CASES}
    unknown = [name for name in args.names if name not in known]
    if unknown:
        parser.error(f"unknown playthrough(s): {', '.join(unknown)}; known: {', '.join(known)}")
    failed = False
    for name in args.names or known:
        case = known[name]
        kept = None if args.fresh or not case.path.exists() else read(case.path).moves
        try:
            recorded = record(case, kept)
        except Unreplayable as error:
            print(f"{error} — run with --fresh to record new moves", file=sys.stderr)
            failed = True
            continue
        old = case.path.read_text(encoding="utf-8") if case.path.exists() else None
        case.path.write_text(recorded.text, encoding="utf-8")
        status = "unchanged" if old == recorded.text else "written"
        print(f"{case.path.name}: {len(recorded.moves)} moves, {len(recorded.text.encode())} bytes, {status}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
