"""A process's PostgreSQL pool holds a connection for each click it handles at once
(``DATABASE_CONNECTIONS``): with 10, at 1,000 tables at a human pace, answers waited for
connections while a core was idle."""

from __future__ import annotations

from bot.config import Settings
from bot.runtime import CLICKS_AT_ONCE
from bot.store import open_store
from bot.store.postgres import PostgresStore


def test_by_default_the_pool_has_a_connection_for_every_click_handled_at_once() -> None:
    settings = Settings(_env_file=None, discord_token="t")  # type: ignore[call-arg]
    assert settings.database_connections >= CLICKS_AT_ONCE
    store = open_store("postgresql://cookie@localhost/cookie", connections=32)
    assert isinstance(store, PostgresStore) and store._sizes[1] == 32


def test_the_operator_sets_the_pool() -> None:
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        discord_token="t",
        database_connections=12,
    )
    store = open_store(
        "postgresql://cookie@localhost/cookie", connections=settings.database_connections
    )
    assert isinstance(store, PostgresStore) and store._sizes[1] == 12
