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
