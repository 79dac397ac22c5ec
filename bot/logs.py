"""How a process logs: each line names the shards the process runs (the lines of a fleet's processes
mix in one place), as text or, with `LOG_FORMAT=json`, as one JSON object a line: every line, the
one-line refusals a command ends with (`fatal`) and an unexpected error's traceback included."""

from __future__ import annotations

import json
import logging
import os
import sys
from datetime import UTC, datetime
from types import TracebackType

TEXT_FORMAT = "%(asctime)s %(levelname)-7s [%(shards)s] %(name)s: %(message)s"


class ShardsFilter(logging.Filter):
    """Gives every record the process's shards (`shards`), as known so far."""

    def __init__(self, shards: str) -> None:
        super().__init__()
        self.shards = shards

    def filter(self, record: logging.LogRecord) -> bool:
        record.shards = self.shards
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (ISO 8601, UTC), level, logger, shards, message, and the error's
    traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "shards": getattr(record, "shards", ""),
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


_shards = ShardsFilter("starting")
_format: str | None = None
"""The format chosen (`configure_logging`); None before the settings are read."""


def configure_logging(level: str, log_format: str, shards: str) -> None:
    """Log to stderr at `level` in `log_format` ("text" or "json"), each line naming `shards`; Python's
    warnings and an error nothing caught are logged the same way."""
    global _format
    _format = log_format
    handler = logging.StreamHandler()
    handler.addFilter(_shards)
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level, handlers=[handler], force=True)
    logging.getLogger("discord").setLevel(max(logging.getLevelName(level), logging.INFO))
    logging.captureWarnings(True)
    sys.excepthook = _log_uncaught
    name_shards(shards)


def _log_uncaught(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
    logging.getLogger("catnip").critical("stopped by an unexpected error", exc_info=(kind, error, trace))


def name_shards(shards: str) -> None:
    """The shards every line names from now on (known once Discord said how many there are)."""
    _shards.shards = shards


def fatal(line: str, command: str = "catnip") -> None:
    """Say on stderr the one line a command ends with (a refusal naming what to fix): `catnip: …` as
    text, or a JSON object like every other line with `LOG_FORMAT=json`, even before the settings are
    read (a setting refused: LOG_FORMAT as written in the environment or `.env`)."""
    if (_format or written_log_format()) != "json":
        print(f"{command}: {line}", file=sys.stderr, flush=True)
        return
    record = logging.LogRecord(command, logging.CRITICAL, __file__, 0, line, None, None)
    _shards.filter(record)
    print(JsonFormatter().format(record), file=sys.stderr, flush=True)


def written_log_format() -> str:
    """LOG_FORMAT as the environment, else `.env`, says it (lower case), whatever else is wrong."""
    written = os.environ.get("LOG_FORMAT")
    if written is None:
        from dotenv import dotenv_values  # pydantic-settings reads `.env` with it too

        written = dotenv_values(".env").get("LOG_FORMAT") or ""
    return written.strip().lower()
