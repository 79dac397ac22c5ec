"""Fixtures every kind of test may use."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import tomllib
from pathlib import Path

import pytest

from bench.postgres_server import start_postgres, stop_postgres
from tests.bytecode import is_test_module, link_installed_bytecode, precompile


def pytest_configure(config: pytest.Config) -> None:
    """Let the suite's Python processes keep the bytecode they compile, in a folder of this run.

    With `PYTHONDONTWRITEBYTECODE` set (as on a machine that keeps source trees free of
    `__pycache__`), every process the suite starts (its workers, and each bot, fleet, emulator and
    benchmark process the tests run) would compile the project's modules again, which in a fresh
    clone costs the suite a large share of its time (docs/performance.md, "The suite's processes").
    The processes started from here write their bytecode to a folder of the run instead
    (`PYTHONPYCACHEPREFIX`) and read it back in the next process; nothing is written to the source
    tree, and the folder is removed at the end of the run.

    With pytest-xdist's workers, the project's bytecode is made once before they start
    (`tests.bytecode`), instead of by every worker at the same moment.
    """
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        folder = tempfile.mkdtemp(prefix="catnip-tests-bytecode-")
        del os.environ["PYTHONDONTWRITEBYTECODE"]
        os.environ["PYTHONPYCACHEPREFIX"] = folder
        link_installed_bytecode(Path(folder))
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))
    if config.getoption("numprocesses", default=None):
        root = config.rootpath
        asked = [Path(config.invocation_params.dir, arg.split("::")[0]).resolve() for arg in config.args]
        files = [
            path
            for package in PACKAGES
            for path in (root / package).rglob("*.py")
            if not is_test_module(path) or any(path.is_relative_to(place) for place in asked)
        ]
        precompile(files, dict(os.environ), root)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """One worker more than the machine has cores (`-n auto`, in pyproject.toml's `addopts`).

    A few tests spend most of their time waiting (a real kill's restart, a lease running out), so one
    worker more than the cores keeps them busy; two more was slower (docs/performance.md, "The test
    suite"). The count `PYTEST_XDIST_AUTO_NUM_WORKERS` gives, if set, is left to pytest-xdist.
    """
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return len(os.sched_getaffinity(0)) + 1


def _packages() -> tuple[str, ...]:
    """The folders of Python modules the suite imports: the project's packages (pyproject.toml) and its
    tests (`tests.bytecode` compiles them once for all)."""
    with open(Path(__file__).resolve().parents[1] / "pyproject.toml", "rb") as file:
        found = tomllib.load(file)["tool"]["setuptools"]["packages"]["find"]["include"]
    return (*(pattern.rstrip("*") for pattern in found), "tests")


PACKAGES = _packages()


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server of this test process, stopped at the end of the session."""
    server, folder = start_postgres()
    yield server
    stop_postgres(server, folder)


SQLITE_THREAD = "_connection_worker_thread"
"""What aiosqlite's name for the thread of each open connection ends with."""


def _sqlite_threads() -> set[threading.Thread]:
    return {thread for thread in threading.enumerate() if SQLITE_THREAD in thread.name}


@pytest.fixture(autouse=True)
def no_sqlite_connection_left_open():
    """A test closes every SQLite connection it opens (a crashed bot's too, once the test is done with
    it): each keeps a thread that is not a daemon, and one left running keeps the test process from
    exiting until pytest-xdist gives up on it, ten seconds later."""
    before = _sqlite_threads()
    yield
    left = _sqlite_threads() - before
    for thread in left:
        thread.join(timeout=5)  # a connection just closed: its thread is ending
    assert not [thread for thread in left if thread.is_alive()], "a SQLite connection was left open"


LONGEST_FIRST = (
    "tests/e2e/test_real_kills.py",
    "tests/engine/catsanity/test_conformance.py",
    "tests/engine/madcat/test_conformance.py",
    "tests/e2e/test_reshard.py",
    "tests/bench/test_bot_load.py",
    "tests/bench/test_fleet_load.py",
    "tests/bot/test_fleet.py",
    "tests/e2e/test_fleet.py",
    "tests/bot/test_shard_ownership.py",
    "tests/bot/test_operator_refusals.py",
    "tests/bot/test_health.py",
    "tests/e2e/test_pictures.py",
    "tests/bot/test_fleet_failures.py",
    "tests/e2e/test_outage.py",
    "tests/engine/catsdogs/test_conformance.py",
    "tests/e2e/test_global_budget.py",
    "tests/e2e/test_games.py",
    "tests/e2e/test_backups.py",
    "tests/engine/ninelives/test_conformance.py",
    "tests/emulator/test_schema.py",
    "tests/e2e/test_counted_requests.py",
    "tests/bot/test_storage.py",
    "tests/bot/test_preflight.py",
    "tests/bot/test_logs.py",
    "tests/cogs/test_render_games.py",
    "tests/pictures/test_phone.py",
)
"""The test modules whose longest test takes longest, longest first (docs/performance.md, "The
suite's processes")."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Start the longest tests first, shared out among the workers, so that the workers end together
    instead of one finishing a long test alone.

    pytest-xdist's `worksteal` hands each worker an equal run of the collected tests to begin with and
    lets an idle worker take the end of another's run. The long tests, longest first, are dealt to
    the starts of those runs in turn, one way then back (0, 1, 2, 2, 1, 0, ...), and stay there.
    """
    rank = {path: place for place, path in enumerate(LONGEST_FIRST)}
    module = {item: item.nodeid.split("::")[0] for item in items}
    long = sorted((item for item in items if module[item] in rank), key=lambda item: rank[module[item]])
    short = [item for item in items if module[item] not in rank]
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    turns = [*range(workers), *reversed(range(workers))]
    firsts: list[list[pytest.Item]] = [[] for _ in range(workers)]
    for place, item in enumerate(long):
        firsts[turns[place % len(turns)]].append(item)
    ordered, left = [], len(items)
    for worker, first in enumerate(firsts):
        share = left // (workers - worker)  # as worksteal shares out the collection
        fill = max(0, share - len(first))
        ordered += first + short[:fill]
        short = short[fill:]
        left -= len(first) + fill
    items[:] = ordered + short
