"""Storage behind one interface; ``open_store`` picks the backend from DATABASE_URL."""

from __future__ import annotations

from bot.store.base import ChannelBusy, Shards, Store, StoreBusy, StoreError, VersionConflict
from bot.store.models import DeckRecord, LoggedAction, MatchRecord, SeatRecord, Status, Timer
from bot.store.sqlite import SQLiteStore


def open_store(url: str, shards: Shards | None = None, connections: int | None = None) -> Store:
    """``sqlite:///path/to/file.db`` (or a bare path), or ``postgresql://...``.

    ``shards``: the process serves only these; it needs PostgreSQL when other processes
    serve the rest (they share the database). ``connections``: PostgreSQL's pool at most
    (``DATABASE_CONNECTIONS``; the store's own default otherwise)."""
    if url.startswith(("postgresql://", "postgres://")):
        from bot.store.postgres import PostgresStore  # asyncpg only when asked for

        if connections is None:
            return PostgresStore(url, shards=shards)
        return PostgresStore(url, shards=shards, max_size=connections)
    if shards is not None and not shards.all:
        raise StoreError("several shard processes share one database: use postgresql://")
    if url.startswith("sqlite:///"):
        return SQLiteStore(url.removeprefix("sqlite:///"))
    if url.startswith("sqlite://"):
        return SQLiteStore(url.removeprefix("sqlite://") or ":memory:")
    if "://" in url:
        raise StoreError(f"unsupported DATABASE_URL scheme: {url.split('://', 1)[0]}")
    return SQLiteStore(url)


__all__ = [
    "ChannelBusy",
    "DeckRecord",
    "LoggedAction",
    "MatchRecord",
    "SeatRecord",
    "Shards",
    "Status",
    "Store",
    "StoreBusy",
    "StoreError",
    "Timer",
    "VersionConflict",
    "open_store",
]
