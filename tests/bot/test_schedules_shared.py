"""Recurring events on one PostgreSQL database served by two processes (two runtimes, each
with its own store, connections and scheduler): every step of every occurrence is taken
once, whichever process fires it, so each occurrence is announced, published and opened
exactly once."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from bot.clock import ManualClock
from bot.runtime import Runtime
from bot.service.tournaments import TournamentConfig
from bot.store import Shards, open_store
from bot.store.schedule_records import OccurrenceRecord, ScheduleRecord
from games.core.text import Text

from .conftest import MOD

MONDAY = datetime(2027, 10, 11, 10, 0, tzinfo=UTC).timestamp()


class Counting:
    """A Discord side that counts what it was asked to show, by occurrence."""

    def __init__(self, calls: Counter[tuple[str, float]]) -> None:
        self.calls = calls

    async def publish(self, schedule: ScheduleRecord, starts_at: float) -> int | None:
        await asyncio.sleep(0.01)  # a REST call: the other process runs meanwhile
        self.calls["publish", starts_at] += 1
        return int(starts_at)

    async def moved(self, schedule: ScheduleRecord, occurrence: OccurrenceRecord) -> None:
        self.calls["moved", occurrence.starts_at] += 1

    async def signup_open(
        self, schedule: ScheduleRecord, occurrence: OccurrenceRecord, tournament_id: str
    ) -> None:
        await asyncio.sleep(0.01)
        self.calls["signup", occurrence.starts_at] += 1

    async def checkin_open(self, schedule: ScheduleRecord, occurrence: OccurrenceRecord) -> None:
        self.calls["checkin", occurrence.starts_at] += 1

    async def progressed(self, occurrence: OccurrenceRecord, status: str) -> None:
        self.calls[status, occurrence.starts_at] += 1

    async def withdrawn(
        self, schedule: ScheduleRecord, occurrence: OccurrenceRecord, reason: Text | None
    ) -> None:
        self.calls["withdrawn", occurrence.starts_at] += 1


@pytest.fixture
async def two(postgres_url: str) -> AsyncIterator[tuple[list[Runtime], Counter, ManualClock]]:
    clock = ManualClock(start=MONDAY)
    calls: Counter[tuple[str, float]] = Counter()
    runtimes = []
    for _ in range(2):
        store = open_store(postgres_url)
        await store.connect()
        runtime = Runtime(store, cache_mb=16, bot_delay=0, clock=clock, thinkers=0)
        runtime.schedules.publisher = Counting(calls)
        runtimes.append(runtime)
    yield runtimes, calls, clock
    for runtime in runtimes:
        await runtime.bots.close()
        await runtime.store.close()


async def fridays_at_eight(
    runtime: Runtime, *, guild_id: int, checkin_minutes: int
) -> ScheduleRecord:
    """A Swiss of Cover Your Assets every Friday at 20:00 in Berlin, sign-up a day before."""
    return await runtime.schedules.create(
        guild_id=guild_id,
        channel_id=10,
        organiser=MOD,
        game_key="cover_your_assets",
        config=TournamentConfig(format="swiss"),
        days="fri",
        at="20:00",
        zone="Europe/Berlin",
        signup_hours=24,
        checkin_minutes=checkin_minutes,
    )


async def test_two_processes_on_one_database_make_each_occurrence_once(two) -> None:
    (first, second), calls, clock = two
    schedule = await fridays_at_eight(first, guild_id=1, checkin_minutes=15)
    # Four weeks, one due step after another: both processes fire whatever is due, at once.
    for _ in range(40):
        occurrences = await first.store.occurrences(schedule.schedule_id)
        if len(occurrences) == 5:  # the fifth is announced as the fourth starts
            break
        record = await first.store.get_schedule(schedule.schedule_id)
        assert record is not None and record.next_due is not None
        await clock.advance(max(0.0, record.next_due - clock.now()))
        fired = await asyncio.gather(first.scheduler.fire_due(), second.scheduler.fire_due())
        assert sum(fired) >= 1
        await first.tournaments.idle()
        await second.tournaments.idle()
    starts = [o.starts_at for o in occurrences]
    assert len(starts) == 5
    berlin = ZoneInfo("Europe/Berlin")  # every Friday at 20:00 there, summer or winter time
    assert {datetime.fromtimestamp(s, berlin).strftime("%a %H:%M") for s in starts} == {"Fri 20:00"}
    made = await first.store.tournaments(1, open_only=False)
    # Each occurrence made its event once: four events, one a start time.
    assert sorted(first.tournaments.config_of(e).starts_at for e in made) == starts[:4]
    for moment in starts[:4]:
        assert calls["publish", moment] == 1
        assert calls["signup", moment] == 1
        assert calls["checkin", moment] == 1
        # Nobody signed up: each is called off at its start, its scheduled event withdrawn.
        assert calls["withdrawn", moment] == 1
    assert calls["publish", starts[4]] == 1
    assert all(o.status == "cancelled" for o in occurrences[:4])


async def test_a_schedule_is_served_by_the_process_of_its_guilds_shard(postgres_url: str) -> None:
    clock = ManualClock(start=MONDAY)
    stores = [open_store(postgres_url, shards=Shards(2, frozenset({n}))) for n in (0, 1)]
    for store in stores:
        await store.connect()
    try:
        runtime = Runtime(stores[0], cache_mb=16, bot_delay=0, clock=clock, thinkers=0)
        guild = (1 << 22) * 3  # shard 1 of 2
        await fridays_at_eight(runtime, guild_id=guild, checkin_minutes=0)
        assert await stores[0].due_schedules(clock.now()) == []
        assert await stores[0].next_schedule_due() is None
        [due] = await stores[1].due_schedules(clock.now())
        assert due.kind == "announce" and await stores[1].next_schedule_due() == clock.now()
    finally:
        for store in stores:
            await store.close()
