"""The project's bytecode made once, before pytest-xdist's workers start: `python -m tests.bytecode FILE...`.

Each worker imports every test module as it collects, and pytest rewrites the asserts of each (it
parses and compiles the module again); in a fresh clone each worker, and each bot process the tests
start, also compiles every module of the project it imports. All of them start at the same moment,
so none finds what another compiled. Made here first, in two processes run side by side
(`precompile`), the workers and the processes the tests start read it back instead.

Test modules and conftest files get pytest's rewritten bytecode, where pytest looks for it; the
other files get Python's own, where `importlib` looks. Both honour `PYTHONPYCACHEPREFIX`. pytest keeps
its rewriting private: if those names change, test modules are left as they are and only the
workers' collection is slower.
"""

from __future__ import annotations

import importlib.util
import os
import py_compile
import subprocess
import sys
import sysconfig
from collections.abc import Iterable
from pathlib import Path

PROCESSES = 2
SKIPPED = {"site-packages", "test", "idlelib", "lib2to3", "tkinter", "turtledemo", "ensurepip"}
"""Folders of the standard library no test imports from (the packages of this venv are linked from its
own site-packages)."""


BYTECODE_SETTINGS = ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")


def bytecode_settings() -> dict[str, str]:
    """The run's bytecode settings (`tests/conftest.py`), for a process the tests start with an
    environment of their own making: without them it would compile the project again and write its
    bytecode into the source tree."""
    return {name: os.environ[name] for name in BYTECODE_SETTINGS if name in os.environ}


def is_test_module(path: Path) -> bool:
    """Whether pytest rewrites the asserts of `path` (its default `python_files`, and conftest files)."""
    return path.name == "conftest.py" or path.name.startswith("test_") or path.name.endswith("_test.py")


def link_installed_bytecode(prefix: Path, installed: Iterable[str] | None = None) -> None:
    """Make the bytecode Python and pip already wrote (the standard library's, the packages') found
    under `prefix` too.

    With `PYTHONPYCACHEPREFIX` set, Python looks for every module's bytecode under the prefix only, so
    each process would otherwise compile again every module of the standard library and of discord.py,
    aiohttp, pydantic and the rest that it imports. A link per file (hard, where the file system
    allows: much quicker to make): a process that finds one stale writes a new file in its place
    (Python replaces a pyc, it never writes into one), and the installed one stays as it was.
    `installed`: the folders to link from (the standard library's and this environment's packages).
    """
    if installed is None:
        paths = sysconfig.get_paths()
        installed = {paths["stdlib"], paths["purelib"], paths["platlib"]}
    tag = f".{sys.implementation.cache_tag}.pyc"
    for folder in installed:
        for where, folders, names in os.walk(folder):
            folders[:] = [name for name in folders if name not in SKIPPED]
            if not where.endswith("__pycache__"):
                continue
            compiled = [name for name in names if name.endswith(tag)]
            mirror = prefix / Path(where).parent.relative_to("/")
            if compiled:
                mirror.mkdir(parents=True, exist_ok=True)
            for name in compiled:
                try:
                    os.link(Path(where) / name, mirror / name)
                except OSError:  # another file system
                    (mirror / name).symlink_to(Path(where) / name)


def precompile(files: Iterable[Path], env: dict[str, str], cwd: Path) -> None:
    """Compile `files` in `PROCESSES` processes with environment `env`, and wait for them."""
    biggest_first = sorted(files, key=lambda path: path.stat().st_size, reverse=True)
    shares = [biggest_first[start::PROCESSES] for start in range(PROCESSES)]
    runs = [
        subprocess.Popen([sys.executable, "-m", "tests.bytecode", *map(str, share)], env=env, cwd=cwd)
        for share in shares
        if share
    ]
    for run in runs:
        run.wait()


class _Quiet:
    """What pytest's pyc writer reports to: nothing here (a pyc not written is compiled again later)."""

    def trace(self, message: str) -> None:
        pass


def _rewrite(path: Path) -> None:
    try:
        from _pytest.assertion import rewrite
    except ImportError:
        return
    try:
        source_hash, code = rewrite._rewrite_test(path, None)
        folder = rewrite.get_cache_dir(path)
        folder.mkdir(parents=True, exist_ok=True)
        rewrite._write_pyc(_Quiet(), code, source_hash, folder / (path.name[:-3] + rewrite.PYC_TAIL))
    except (AttributeError, TypeError, SyntaxError):
        return


def main(paths: list[str]) -> None:
    for name in paths:
        path = Path(name).resolve()
        if is_test_module(path):
            _rewrite(path)
        else:
            py_compile.compile(str(path), cfile=importlib.util.cache_from_source(str(path)), quiet=2)


if __name__ == "__main__":
    main(sys.argv[1:])
