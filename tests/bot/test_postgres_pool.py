"""The PostgreSQL store's pool: a statement is one round trip (no reset query at each
release), and a connection goes back to the pool as the pool made it."""

from __future__ import annotations

import asyncpg
import pytest

from bot.store import open_store
from bot.store.postgres import PostgresStore


async def test_a_statement_costs_no_reset_query_at_its_release(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = open_store(postgres_url)
    assert isinstance(store, PostgresStore)
    await store.connect()
    resets: list[object] = []
    original = asyncpg.Connection.reset

    async def counted(self: asyncpg.Connection, *, timeout: float | None = None) -> None:
        resets.append(self)
        await original(self, timeout=timeout)

    monkeypatch.setattr(asyncpg.Connection, "reset", counted)
    try:
        for _ in range(3):
            assert await store.match_mark("nothing-here") is None
    finally:
        await store.close()
    assert resets == []


async def test_after_migrating_every_connection_waits_for_locks_as_the_pool_says(
    postgres_url: str,
) -> None:
    """``migrate`` waits for another process's migration without a limit (SET lock_timeout
    = 0) on a pooled connection: it is given back with the pool's 2 seconds, which nothing
    else resets now."""
    store = PostgresStore(postgres_url, min_size=1, max_size=1, lock_wait=2.0)
    await store.connect()  # migrates on the pool's one connection
    try:
        async with store.pool.acquire() as conn:
            assert await conn.fetchval("SHOW lock_timeout") == "2s"
    finally:
        await store.close()
