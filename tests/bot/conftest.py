from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import MatchService, Person
from bot.store import Store, open_store
from games import GAMES

ANA = Person(user_id=101, name="Ana")
BEN = Person(user_id=102, name="Ben")
CLEO = Person(user_id=103, name="Cleo")
DEV = Person(user_id=104, name="Dev")
MOD = Person(user_id=900, name="Mod", can_manage=True)
STRANGER = Person(user_id=999, name="Stranger")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """The SQLite file of a test run on SQLite only (``parametrize("backend", ["sqlite"])``)."""
    return tmp_path / "cookie.db"


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[Store]:
    """The store on each backend in turn (``database_url`` in tests/conftest.py, which also
    replays every match the test finished when it ends)."""
    store = open_store(database_url)
    await store.connect()
    yield store
    await store.close()


@pytest.fixture
def service(store: Store) -> MatchService:
    seeds = iter(range(1000, 100_000))
    return MatchService(store, GAMES, new_seed=lambda: next(seeds))


async def four_player_match(service: MatchService, channel_id: int = 10) -> str:
    record = await service.open_lobby(
        guild_id=1, channel_id=channel_id, host=ANA, game_key="cover_your_assets"
    )
    for who in (BEN, CLEO, DEV):
        await service.join(record.match_id, who)
    await service.start(record.match_id, ANA)
    return record.match_id


async def stamp_of(service: MatchService, match_id: str, user_id: int | None) -> str:
    """The stamp of the decision the user sees now (what their buttons carry)."""
    seen = await service.seat_view(match_id, user_id)
    return seen.decision.stamp if seen.decision is not None else "none"
