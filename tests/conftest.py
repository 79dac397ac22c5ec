"""Fixtures every kind of test may use."""

from __future__ import annotations

import pytest

from bench.postgres_server import start_postgres, stop_postgres


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server of this test process, stopped at the end of the session."""
    server, folder = start_postgres()
    yield server
    stop_postgres(server, folder)


LONGEST_FIRST = (
    "tests/e2e/test_real_kills.py",
    "tests/engine/catsdogs/test_conformance.py",
    "tests/e2e/test_games.py",
    "tests/engine/ninelives/test_conformance.py",
    "tests/e2e/test_reshard.py",
    "tests/bench/test_bot_load.py",
    "tests/e2e/test_fleet.py",
    "tests/pictures/test_pictures.py",
    "tests/engine/madcat/test_conformance.py",
    "tests/engine/catsanity/test_conformance.py",
    "tests/bot/test_fleet_failures.py",
    "tests/bot/test_storage.py",
    "tests/bot/test_fleet.py",
    "tests/cogs/test_render_games.py",
    "tests/cogs/test_phone_table.py",
    "tests/bench/test_fleet_load.py",
    "tests/e2e/test_counted_requests.py",
    "tests/e2e/test_backups.py",
    "tests/bot/test_preflight.py",
    "tests/e2e/test_outage.py",
)
"""The test modules that take longest, longest first (docs/benchmarks.md, section 14). They run first,
side by side on the workers, and the many short tests after them fill the gaps, so the workers end
together instead of one finishing a long test alone."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {path: place for place, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))
