"""How a process logs: each line names the shards the process runs (the lines of a fleet's processes
mix in one place), as text or, with `LOG_FORMAT=json`, as one JSON object a line."""

from __future__ import annotations

import json
import logging

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
    """One JSON object a line: time, level, logger, shards, message, and the error's traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "shards": getattr(record, "shards", ""),
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


_shards = ShardsFilter("starting")


def configure_logging(level: str, log_format: str, shards: str) -> None:
    """Log to stderr at `level` in `log_format` ("text" or "json"), each line naming `shards`."""
    handler = logging.StreamHandler()
    handler.addFilter(_shards)
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level, handlers=[handler], force=True)
    logging.getLogger("discord").setLevel(max(logging.getLevelName(level), logging.INFO))
    name_shards(shards)


def name_shards(shards: str) -> None:
    """The shards every line names from now on (known once Discord said how many there are)."""
    _shards.shards = shards
