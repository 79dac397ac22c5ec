"""What each way a `catnip` command ends tells its supervisor: a code of its own for each refusal that a
restart cannot mend, so that `catnip fleet` (and systemd's `RestartPreventExitStatus`, deploy/) stop
instead of starting it again and again. Any other failure exits with 1 and may be restarted."""

from __future__ import annotations

STOPPED = 0
"""Stopped cleanly (Ctrl-C, SIGTERM), or a command done."""
SETTINGS_REFUSED = 2
"""A setting, command-line option or database file cannot be used; the line names it."""
TOKEN_REFUSED = 3
"""Discord refused DISCORD_TOKEN."""
SHARDS_TAKEN = 4
"""Another live process runs some of this process's shards (bot/shard_owners.py)."""
METRICS_REFUSED = 5
"""METRICS_HOST:METRICS_PORT cannot be served on (the port is in use, or the address is not this
machine's)."""
TARGET_UNREACHABLE = 6
"""`catnip migrate-db`: the PostgreSQL server named by `--to` cannot be reached."""
