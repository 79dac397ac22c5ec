"""A throw-away PostgreSQL server from the `pgserver` wheel, for the tests and the benchmarks.

It lives in a new folder under the system's temporary folder (not pytest's, which is private:
run as root, pgserver runs the server as an unprivileged user, who must reach the data folder)
and listens on a Unix socket there only, so several can run side by side.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import stat
import subprocess
import tempfile
import warnings
from pathlib import Path

import asyncpg

with warnings.catch_warnings():
    # platformdirs, which pgserver imports, warns on a machine without a login session (a container,
    # CI) that it falls back to /tmp; the server here lives in a folder of its own anyway.
    warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
    import pgserver
    from pgserver._commands import POSTGRES_BIN_PATH, initdb, pg_ctl
    from pgserver.utils import ensure_folder_permissions, ensure_prefix_permissions, ensure_user_exists

SERVER_USER = "pgserver"
"""Run as root, pgserver runs the server as this unprivileged user."""
_schemas = itertools.count(1)
INITDB_ARGS = ["--auth=trust", "--auth-local=trust", "--encoding=utf8", "-U", "postgres"]


def start_postgres(*, sync_setup: bool = False) -> tuple[pgserver.PostgresServer, Path]:
    """A new running server and its folder. Without `sync_setup`, creating the data folder skips
    syncing it to disk (seconds saved; the server itself then syncs every commit as usual)."""
    folder = Path(tempfile.mkdtemp(prefix="catnip-pg-"))
    folder.chmod(0o755)
    data = folder / "data"
    data.mkdir()
    user = None
    if os.geteuid() == 0:
        user = SERVER_USER
        ensure_user_exists(user)
        # As pgserver does before its own initdb: the server's user must reach its programs, also
        # inside a private folder such as `mktemp -d`'s.
        ensure_prefix_permissions(POSTGRES_BIN_PATH)
        readable = stat.S_IRGRP | stat.S_IROTH
        ensure_folder_permissions(POSTGRES_BIN_PATH, readable | stat.S_IXGRP | stat.S_IXOTH)
        ensure_folder_permissions(POSTGRES_BIN_PATH.parent / "lib", readable)
        shutil.chown(data, user, user)
    initdb(INITDB_ARGS + ([] if sync_setup else ["--no-sync"]), pgdata=data, user=user)
    return pgserver.get_server(data, cleanup_mode="stop"), folder


def stop_postgres(server: pgserver.PostgresServer, folder: Path) -> None:
    """Stop the server at once (its data is thrown away, no need for a checkpoint) and remove it."""
    with contextlib.suppress(subprocess.CalledProcessError):
        pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=server.pgdata, user=server.system_user)
    server.cleanup_mode = None  # stopped already: pgserver has nothing left to stop
    server.cleanup()
    shutil.rmtree(folder, ignore_errors=True)


def stop_server(server: pgserver.PostgresServer) -> None:
    """Stop the server now, its clients cut off (as a server restart or crash does)."""
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=server.pgdata, user=server.system_user)


def start_server(server: pgserver.PostgresServer) -> None:
    """Start the stopped server again, on the same socket."""
    server.ensure_postgres_running()


async def fresh_schema_url(base_url: str) -> str:
    """The URL of a new, empty schema on the server at `base_url`."""
    name = f"test_{next(_schemas)}"
    db = await asyncpg.connect(base_url)
    try:
        await db.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE; CREATE SCHEMA {name}")
    finally:
        await db.close()
    return f"{base_url}&search_path={name}"
