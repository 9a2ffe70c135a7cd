"""The scheduler under load: 10,000 pending timers, one sleeping task.

Prints timers scheduled per second (the service's path: one UPDATE of the match's row, its
timers list and their earliest due time) and fired per second (due look-up, handler,
delete), against a bare INSERT of the same timers as rows in the same run.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from bot.clock import ManualClock
from bot.scheduler import Scheduler
from bot.store import SQLiteStore, Timer

MATCHES = 2_500
PER_MATCH = 4  # 10,000 timers in all


async def timers_benchmark(matches: int = MATCHES) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "timers.db")
        await store.connect()
        clock = ManualClock()
        ids = [f"{i:010x}" for i in range(matches)]
        await store.db.execute("BEGIN")
        await store.db.executemany(
            "INSERT INTO matches (id, guild_id, channel_id, game, status, host_id, options, "
            "created_at, updated_at) VALUES (?, 1, ?, 'g', 'active', 1, '{}', '', '')",
            [(match_id, n) for n, match_id in enumerate(ids)],
        )
        await store.db.execute("COMMIT")

        def timers_of(match_id: str, n: int) -> list[Timer]:
            return [
                Timer(
                    match_id=match_id,
                    kind=f"k{k}",
                    seat=k,
                    version=0,
                    due_at=clock.now() + 60 + (n * PER_MATCH + k) % 997,
                )
                for k in range(PER_MATCH)
            ]

        start = time.perf_counter()
        for n, match_id in enumerate(ids):
            await store.replace_timers(match_id, timers_of(match_id, n))
        scheduled = matches * PER_MATCH / (time.perf_counter() - start)

        # Baseline: the same rows, inserted bare, one transaction per match.
        await store.db.execute("CREATE TABLE bare (m TEXT, k TEXT, s INT, v INT, d REAL)")
        start = time.perf_counter()
        for n, match_id in enumerate(ids):
            await store.db.execute("BEGIN")
            await store.db.executemany(
                "INSERT INTO bare VALUES (?, ?, ?, ?, ?)",
                [(t.match_id, t.kind, t.seat, t.version, t.due_at) for t in timers_of(match_id, n)],
            )
            await store.db.execute("COMMIT")
        bare = matches * PER_MATCH / (time.perf_counter() - start)

        fired = 0

        async def fire(timer: Timer) -> None:
            nonlocal fired
            fired += 1

        scheduler = Scheduler(store, clock, fire)
        pending = len(await store.due_timers(clock.now() + 10_000, limit=1_000_000))
        await clock.advance(10_000)
        start = time.perf_counter()
        await scheduler.fire_due()
        firing = fired / (time.perf_counter() - start)
        await store.close()
    return {"pending": pending, "scheduled": scheduled, "bare": bare, "fired": firing}


def report(figures: dict[str, float]) -> str:
    return (
        f"timers: {figures['pending']:,.0f} pending with one scheduler task; scheduled "
        f"{figures['scheduled']:,.0f}/s (bare INSERT of the same rows: {figures['bare']:,.0f}/s,"
        f" ratio {figures['bare'] / figures['scheduled']:.2f}x); fired {figures['fired']:,.0f}/s"
    )


if __name__ == "__main__":
    print(report(asyncio.run(timers_benchmark())))
