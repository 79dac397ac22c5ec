"""Catnip's settings, read once from the environment and `.env` (pydantic-settings)."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.sharding import parse_shard_ids

POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")

SECRET_SETTINGS = frozenset({"discord_token", "database_url"})
"""Settings whose value a settings error never repeats."""

THREAD_ARCHIVE_MINUTES = 7 * 24 * 60
"""A game's thread archives after a week without messages, the longest Discord offers (60, 1440, 4320
or 10080 minutes: docs resources/channel#start-thread-without-message)."""
LONGEST_ABANDON_HOURS = 6 * 24
"""The longest a game may stay idle before it ends: a day short of its thread's archiving, so that its
table is marked closed while the thread is open (Discord refuses edits in an archived thread, 50083)."""


class Settings(BaseSettings):
    """Every knob of the bot. Environment variables use the upper-case field names."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True
    )

    discord_token: SecretStr | None = Field(
        default=None, description="Bot token; unset runs the offline demo."
    )
    database_path: Path = Field(default=Path("./catnip.sqlite3"), description="SQLite file for all games.")
    database_url: SecretStr | None = Field(
        default=None, description="postgresql://user:password@host/database; set, it replaces DATABASE_PATH."
    )
    dev_guild_id: int | None = Field(default=None, description="Sync slash commands to this guild instantly.")
    log_level: str = Field(default="INFO", description="DEBUG, INFO, WARNING or ERROR.")
    turn_timer_seconds: int = Field(default=120, ge=10, le=86_400, description="Time for a turn decision.")
    secret_timer_seconds: int = Field(default=60, ge=10, le=86_400, description="Time for secret picks.")
    timer_warning_seconds: int = Field(
        default=30, ge=0, le=3_600, description="Warn this long before expiry."
    )
    abandon_after_hours: float = Field(
        default=24, gt=0, le=LONGEST_ABANDON_HOURS, description="End games idle this long as abandoned."
    )
    absent_after_timeouts: int = Field(
        default=2, ge=0, le=20, description="Timeouts in a row before a computer plays a seat (0: never)."
    )
    abandon_taken_over_minutes: float = Field(
        default=10,
        gt=0,
        le=LONGEST_ABANDON_HOURS * 60,
        description="End a game this long after its last member went away.",
    )
    computer_delay_seconds: float = Field(
        default=1.5, ge=0, le=30, description="Pause between computer moves."
    )
    pictures: bool = Field(
        default=True, description="Tables show a picture (on/off); each lobby's host may switch it."
    )
    picture_cpu_share: float = Field(
        default=0.5, gt=0, le=1, description="Share of one CPU core drawing table pictures may take."
    )
    discord_global_rate_limit: int = Field(
        default=50,
        ge=1,
        le=100_000,
        description="Requests a second Discord allows the bot token, all its processes together.",
    )

    shard_count: int | None = Field(
        default=None, ge=1, description="Gateway shards of the whole bot; unset: Discord's recommendation."
    )
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        default=None, description="The shards this process runs, e.g. 0-3 or 0,2; unset: all of them."
    )

    metrics_port: int | None = Field(
        default=None, ge=1, le=65_535, description="Serve /livez, /readyz and /metrics here; unset: off."
    )
    metrics_host: str = Field(
        default="127.0.0.1",
        description="The address METRICS_PORT is served on: 127.0.0.1 (this machine), 0.0.0.0 (every one).",
    )

    log_format: Literal["text", "json"] = Field(
        default="text", description="text, or json for one JSON object a line."
    )

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _parse_shard_ids(cls, value: object) -> object:
        return parse_shard_ids(value) if isinstance(value, str) else value

    @field_validator("shard_ids")
    @classmethod
    def _shards_within_count(cls, value: tuple[int, ...] | None, info: ValidationInfo) -> object:
        if value is None or "shard_count" not in info.data:  # no ids, or SHARD_COUNT is itself wrong
            return value
        count = info.data["shard_count"]
        if count is None:
            raise ValueError("needs SHARD_COUNT too (the shard count of the whole bot)")
        outside = [shard_id for shard_id in value if shard_id >= count]
        if outside:
            raise ValueError(f"shard {outside[0]} is outside SHARD_COUNT={count} (shards 0-{count - 1})")
        return value

    @field_validator("database_url")
    @classmethod
    def _postgresql_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not value.get_secret_value().startswith(POSTGRESQL_SCHEMES):
            raise ValueError("must be a postgresql://user:password@host:port/database URL")
        return value

    @field_validator("metrics_host")
    @classmethod
    def _ip_address(cls, value: str) -> str:
        try:
            return str(ipaddress.ip_address(value.strip()))
        except ValueError:
            raise ValueError(
                "must be an IP address of this machine: 127.0.0.1 (this machine only) or 0.0.0.0 (every "
                "network it is on)"
            ) from None

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
        return level


class SettingsError(Exception):
    """Settings that cannot be used, explained in one line per bad setting."""


def load_settings(**overrides: object) -> Settings:
    """The settings from the environment and `.env`; raise `SettingsError` naming each bad setting."""
    try:
        return Settings(**overrides)
    except ValidationError as error:
        lines = []
        for problem in error.errors():
            field = str(problem["loc"][0]) if problem["loc"] else "settings"
            shown = "" if field in SECRET_SETTINGS else f" (got {problem.get('input')!r})"
            lines.append(f"{field.upper()}: {problem['msg']}{shown}")
        raise SettingsError("\n".join(lines)) from None
