"""Seasons on one PostgreSQL database served by two processes (two runtimes, each with its
own store, connections and scheduler): a season's end falls due in both at once, and it is
ended, announced and followed by the next season exactly once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.clock import ManualClock
from bot.runtime import Runtime
from bot.service.seasons import SeasonEnd
from bot.store import open_store
from tests.bot.conftest import MOD
from tests.bot.test_seasons import GAME, GUILD, START, WEEK, Rater


@pytest.fixture
async def two(
    postgres_url: str,
) -> AsyncIterator[tuple[list[Runtime], list[SeasonEnd], ManualClock]]:
    clock = ManualClock(START)
    heard: list[SeasonEnd] = []

    async def hear(end: SeasonEnd) -> None:
        await asyncio.sleep(0.01)  # the post and the role's REST calls: the other runs meanwhile
        heard.append(end)

    runtimes = []
    for _ in range(2):
        store = open_store(postgres_url)
        await store.connect()
        runtime = Runtime(store, cache_mb=16, bot_delay=0, clock=clock, thinkers=0)
        runtime.seasons.listeners.append(hear)
        runtimes.append(runtime)
    yield runtimes, heard, clock
    for runtime in runtimes:
        await runtime.bots.close()
        await runtime.store.close()


async def test_two_processes_end_a_season_once_and_begin_the_next_once(two) -> None:
    (first, second), heard, clock = two
    rater = Rater(first.store)
    for user in (1, 3, 5):
        await rater.match(START - WEEK, (user, 1), (user + 1, 2))
    season = await first.seasons.set_up(
        GUILD, GAME, MOD, length="4 weeks", divisions=2, size=3,
        role_id=None, role_places=1, channel_id=5,
    )  # fmt: skip
    await rater.match(START + WEEK, (2, 1), (1, 2))

    for number in (1, 2, 3):  # three ends, each due in both processes at the same moment
        await clock.advance(4 * WEEK + 1)
        fired = await asyncio.gather(first.scheduler.fire_due(), second.scheduler.fire_due())
        assert sum(fired) >= 1
        assert [end.ended.season.number for end in heard] == list(range(1, number + 1))
        running = await first.seasons.current(GUILD, GAME)
        assert running is not None and running.number == number + 1
    assert heard[0].ended.season.number == season.number
    ended = await first.store.season(GUILD, GAME, 1)
    assert ended is not None and ended.status == "ended" and ended.due_at is None
    # One following season each time, starting where the last one ended.
    for number in (2, 3, 4):
        following = await first.store.season(GUILD, GAME, number)
        before = await first.store.season(GUILD, GAME, number - 1)
        assert following is not None and before is not None
        assert following.starts_at == before.ends_at
    assert await first.store.season(GUILD, GAME, 5) is None
