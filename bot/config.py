"""Settings from the environment or a ``.env`` file, validated by pydantic-settings."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class StoreSettings(BaseSettings):
    """What commands that only touch the database need (``python -m bot ratings rebuild``)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str = "sqlite:///cookie_jar.db"


class Settings(StoreSettings):
    # SecretStr: the token prints as '**********' in logs, reprs and tracebacks.
    discord_token: SecretStr = Field(min_length=1)
    dev_guild_id: int | None = None
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # Seconds a bot waits before moving, so humans can follow (0 in tests).
    bot_delay: float = Field(default=1.5, ge=0, le=30)
    # Least seconds between two edits of one table message (Discord rate limits edits).
    table_edit_interval: float = Field(default=1.0, ge=0, le=30)
    # Memory for running matches kept parsed (the oldest leave first); a miss costs a read.
    match_cache_mb: float = Field(default=64.0, gt=0, le=65536)
    # Move what start-up built (modules, card catalogues, commands) out of the collector's
    # sight: full collections then walk a third of the objects (see bench/load.py).
    gc_freeze: bool = True

    @field_validator("log_level", mode="before")
    @classmethod
    def _any_case(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value
