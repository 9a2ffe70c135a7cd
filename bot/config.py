"""Settings from the environment or a ``.env`` file, validated by pydantic-settings."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.store import Shards


def parse_shard_ids(text: str) -> frozenset[int]:
    """``0-3`` or ``0,2,5`` or ``0-3,8``."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        first, _, last = part.partition("-")
        ids.update(range(int(first), int(last or first) + 1))
    return frozenset(ids)


class StoreSettings(BaseSettings):
    """What commands that only touch the database need (``python -m bot ratings rebuild``)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str = "sqlite:///cookie_jar.db"


class WebSettings(StoreSettings):
    """The web page's (bot/web): what ``python -m bot web`` needs, and the bot as well."""

    # Serve the servers' read-only web pages on this port (beside the bot, or alone).
    web_port: int | None = Field(default=None, ge=1, le=65535)
    # The address links to those pages start with (https://cookies.example.org); with
    # WEB_PORT and no PUBLIC_URL, http://localhost:WEB_PORT.
    public_url: str | None = None

    @field_validator("public_url")
    @classmethod
    def _an_address(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")):
            raise ValueError("PUBLIC_URL must start with http:// or https://")
        return value

    # Collection thresholds for a long-lived process, the bot or its pages alone
    # (``gc.set_threshold``), empty for Python's own (700,10,10). A young generation of
    # 20,000 objects instead of 700: what a click or a page makes dies young instead of
    # being promoted, so full collections, which walk the whole heap and found nothing to
    # free, all but stop (bench/load.py, bench/web.py, docs/benchmarks.md).
    gc_threshold: str = "20000,4,10"

    @field_validator("gc_threshold")
    @classmethod
    def _three_counts(cls, value: str) -> str:
        value = value.replace(" ", "")
        parts = value.split(",")
        if value and (len(parts) != 3 or not all(p.isdigit() for p in parts) or parts[0] == "0"):
            raise ValueError("GC_THRESHOLD must be three whole numbers, like 20000,4,10")
        return value

    @property
    def gc_thresholds(self) -> tuple[int, int, int] | None:
        if not self.gc_threshold:
            return None
        first, second, third = (int(p) for p in self.gc_threshold.split(","))
        return first, second, third

    @property
    def site_url(self) -> str | None:
        """Where links to the web pages point; None: no page is served anywhere."""
        if self.public_url is not None:
            return self.public_url
        return f"http://localhost:{self.web_port}" if self.web_port else None


class Settings(WebSettings):
    # SecretStr: the token prints as '**********' in logs, reprs and tracebacks.
    discord_token: SecretStr = Field(min_length=1)
    dev_guild_id: int | None = None
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    # Seconds a bot waits before moving, so humans can follow (0 in tests).
    bot_delay: float = Field(default=1.5, ge=0, le=30)
    # Hard bots think in this many worker processes (default: one per core but one; 0: none,
    # hard bots then play normal moves), for at most BOT_THINK_SECONDS a decision (default:
    # what the match's pace allows, bot/thinking.py).
    bot_thinkers: int | None = Field(default=None, ge=0, le=32)
    bot_think_seconds: float | None = Field(default=None, gt=0, le=10)
    # Least seconds between two edits of one table message (Discord rate limits edits).
    table_edit_interval: float = Field(default=1.0, ge=0, le=30)
    # Several processes: each serves SHARD_IDS (e.g. ``0-3``) of SHARD_COUNT shards, all on
    # one PostgreSQL database. Neither set: one process serves every guild, as one shard.
    shard_count: int | None = Field(default=None, ge=1)
    shard_ids: str | None = None
    # PostgreSQL connections this process may hold at once (its pool). Under load every
    # click being handled (32 at most, bot/runtime.py) waits for one at each statement:
    # with 10, at 1,000 tables at a human pace, the process used 60 % of a core while
    # answers waited 9-27 s for connections. SQLite: unused.
    database_connections: int = Field(default=32, ge=2, le=1000)
    # Discord's request budget for the bot's token, a second, over every process of the
    # application (50 unless Discord granted more on request); answers to clicks and
    # commands through their interaction are outside it (bot/outbox.py).
    request_budget: float = Field(default=50.0, gt=0, le=100_000)
    # Processes spending it, each its equal share (docs/operations.md). Default: from the
    # shards, SHARD_COUNT over the number this process serves; one process: 1.
    request_processes: float | None = Field(default=None, gt=0, le=10_000)
    # Serve Prometheus metrics at /metrics and a liveness probe at /healthz on this port.
    metrics_port: int | None = Field(default=None, ge=1, le=65535)

    @model_validator(mode="after")
    def _shards_are_consistent(self) -> Settings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT")
            try:
                ids = parse_shard_ids(self.shard_ids)
            except ValueError:
                raise ValueError("SHARD_IDS must look like 0-3 or 0,2,5") from None
            if not ids or max(ids) >= self.shard_count:
                raise ValueError(f"SHARD_IDS must lie in 0-{self.shard_count - 1}")
        shards = self.shards
        if shards is not None and not shards.all and not self.database_url.startswith("postgres"):
            raise ValueError("several shard processes share one database: use postgresql://")
        return self

    @property
    def shards(self) -> Shards | None:
        if self.shard_count is None:
            return None
        ids = parse_shard_ids(self.shard_ids) if self.shard_ids else range(self.shard_count)
        return Shards(self.shard_count, frozenset(ids))

    @property
    def request_share(self) -> float:
        """Requests a second this process may make: its share of the budget."""
        processes = self.request_processes
        if processes is None:
            shards = self.shards
            processes = shards.count / len(shards.ids) if shards is not None else 1.0
        return self.request_budget / processes

    # Memory for running matches kept parsed (the oldest leave first); a miss costs a read.
    # The default holds 1,000 tables in play (bot/service/base.py's CACHE_MB).
    match_cache_mb: float = Field(default=128.0, gt=0, le=65536)
    # Memory for the pictures of tables and hands already drawn (the oldest leave first).
    picture_cache_mb: float = Field(default=32.0, gt=0, le=65536)
    # Draw pictures at all: false sends every server text only, whatever its /settings
    # (a host short of CPU; the tests, where drawing every state would triple their time).
    pictures: bool = True
    # Processes that draw them (a drawing thread in the bot's process would hold up the
    # event loop under load, see bot/pictures.py); 0: two threads of the bot's process.
    picture_processes: int = Field(default=1, ge=0, le=16)
    # Move what start-up built (modules, card catalogues, commands) out of the collector's
    # sight: full collections then walk a third of the objects (see bench/load.py).
    gc_freeze: bool = True

    @field_validator("log_level", mode="before")
    @classmethod
    def _any_case(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value
