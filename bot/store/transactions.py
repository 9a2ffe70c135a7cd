"""One IMMEDIATE transaction on SQLite's own thread (``SQLiteStore.in_thread``)."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator


@contextlib.contextmanager
def immediate(db: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE``, the block, ``COMMIT``; on any error (the commit's too) a
    rollback, and the error goes on. A failed BEGIN leaves nothing to roll back."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
