"""Storage behind one interface; ``open_store`` picks the backend from DATABASE_URL."""

from __future__ import annotations

from bot.store.base import ChannelBusy, Store, StoreBusy, StoreError, VersionConflict
from bot.store.models import DeckRecord, LoggedAction, MatchRecord, SeatRecord, Status, Timer
from bot.store.sqlite import SQLiteStore


def open_store(url: str) -> Store:
    """``sqlite:///path/to/file.db`` (or a bare path). PostgreSQL will plug in here."""
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
    "Status",
    "Store",
    "StoreBusy",
    "StoreError",
    "Timer",
    "VersionConflict",
    "open_store",
]
