"""One sleeping task serves every timer: it sleeps until the earliest deadline in the store.

Adding an earlier timer wakes it (``wake``); after a restart, timers that came due while the
bot was down fire at once, in order. A timer fires at least once: it is deleted only after
its handler ran to the end, which means the fresh state says it no longer stands (its effect
is saved, or the decision it was set for is gone); handlers check the decision's stamp, so a
second firing is a no-op. A handler that fails leaves its timer in the store, tried again
later and later (``RETRY_AFTER``), and says so in the log once, not on every try.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.clock import Clock
from bot.store import Store, Timer
from bot.store.schedule_records import SCHEDULE_TIMER

log = logging.getLogger(__name__)

Fire = Callable[[Timer], Awaitable[None]]
# Seconds before a timer whose handler failed is tried again, by failures in a row: soon
# for a passing fault (a lost connection), then no more than every ten minutes.
RETRY_AFTER = (5.0, 15.0, 60.0, 300.0, 600.0)
FAILING_KEPT = 10_000  # failing timers remembered; beyond, the oldest are tried at once


class Timers(Protocol):
    """Where the scheduler reads its timers: the store, with the schedules' steps."""

    async def next_due(self) -> float | None: ...

    async def due_timers(self, now: float, limit: int = 100) -> list[Timer]: ...

    async def delete_timers(self, timers: Sequence[Timer]) -> None: ...


class WithSchedules:
    """The store's timers (matches', events') and each recurring event's next step, in one
    due-time order. A step is not deleted when it fired: its schedule's row moved on (or
    another process's did, which the guarded step tells apart)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def next_due(self) -> float | None:
        found = (await self.store.next_due(), await self.store.next_schedule_due())
        due = [d for d in found if d is not None]
        return min(due) if due else None

    async def due_timers(self, now: float, limit: int = 100) -> list[Timer]:
        both = await self.store.due_timers(now, limit) + await self.store.due_schedules(now, limit)
        # An event's start comes before its schedule's step due at the same moment.
        return sorted(both, key=lambda t: (t.due_at, t.match_id, t.kind, t.seat))[:limit]

    async def delete_timers(self, timers: Sequence[Timer]) -> None:
        await self.store.delete_timers(
            [t for t in timers if not t.match_id.startswith(SCHEDULE_TIMER)]
        )


@dataclass
class _Failing:
    failures: int
    retry_at: float


class Scheduler:
    def __init__(self, store: Timers, clock: Clock, fire: Fire) -> None:
        self.store = store
        self.clock = clock
        self.fire = fire
        self._wake = asyncio.Event()
        self._firing = asyncio.Lock()  # one firing pass at a time: no timer fires twice
        self.fired = 0
        # The deadline the task sleeps until (inf: no timer at all); None while it is awake,
        # firing or reading the next deadline.
        self._sleeping_until: float | None = None
        # While awake: the earliest timer saved meanwhile, which the read it is doing may
        # have missed; it sleeps until no later than that.
        self._noted = math.inf
        # Timers whose handler failed, by identity: not fired again before their retry_at.
        self._failing: OrderedDict[Timer, _Failing] = OrderedDict()
        self._stopped = False

    @property
    def sleeping_until(self) -> float | None:
        """The deadline the task sleeps until now (inf: no timer at all), None while it is
        awake: tests wait on it instead of guessing how long a store read takes."""
        return self._sleeping_until

    def wake(self, earliest: float | None = None) -> None:
        """Timers changed: look again at which one is next. ``earliest``: the earliest of
        the timers just saved, when the caller knows it; one no earlier than the deadline
        the task sleeps until changes nothing. Every move saves timers, and reading the
        store again on each one held the store's lock, moves' commits queued behind it,
        about 13 times a second under load."""
        sleeping_until = self._sleeping_until
        if earliest is not None:
            if sleeping_until is None:
                # Awake, reading: under load a move came during every read, and waking it
                # again for each kept it reading the store 15 times a second. It takes the
                # deadline in when it goes back to sleep instead.
                self._noted = min(self._noted, earliest)
                return
            if earliest >= sleeping_until:
                return
        self._wake.set()

    async def fire_due(self) -> int:
        """Fire every timer that is due now, earliest first; returns how many fired."""
        async with self._firing:
            return await self._fire_due()

    async def _fire_due(self) -> int:
        count = 0
        while not self._stopped and (batch := await self.store.due_timers(self.clock.now())):
            now = self.clock.now()
            done = []
            for timer in batch:
                failing = self._failing.get(timer)
                if failing is not None and failing.retry_at > now:
                    continue  # tried and failed lately: its turn comes at retry_at
                try:
                    await self.fire(timer)
                except Exception:
                    self._failed(timer, now)
                    continue
                if failing is not None:
                    del self._failing[timer]
                    log.info("timer %s of match %s fired after failing", timer.kind, timer.match_id)
                done.append(timer)
            # Deleted after firing, a batch at a time: a crash in between fires them again,
            # which the decision stamps turn into no-ops. A failed one stays for its retry.
            await self.store.delete_timers(done)
            count += len(done)
            if not done:
                break  # what is due has all failed lately: wait for the first retry
        self.fired += count
        return count

    def _failed(self, timer: Timer, now: float) -> None:
        failing = self._failing.get(timer)
        if failing is None:
            log.exception(
                "timer %s of match %s failed; it stays and is tried again",
                timer.kind,
                timer.match_id,
            )
            failing = self._failing[timer] = _Failing(failures=0, retry_at=now)
            while len(self._failing) > FAILING_KEPT:
                self._failing.popitem(last=False)
        else:
            log.debug("timer %s of match %s failed again", timer.kind, timer.match_id)
        failing.retry_at = now + RETRY_AFTER[min(failing.failures, len(RETRY_AFTER) - 1)]
        failing.failures += 1

    def _next_retry(self, due: float | None) -> float | None:
        """The store's next deadline, unless it is a failing timer's that waits for its
        retry: then the first retry (a due timer never makes the task spin)."""
        if due is None or due > self.clock.now() or not self._failing:
            return due
        return max(due, min(f.retry_at for f in self._failing.values()))

    async def stop(self) -> None:
        """Claim no more timers (a process draining before it exits): the firing under way
        ends first, and what is left stays in the store for the process taking over."""
        self._stopped = True
        async with self._firing:
            pass

    async def run(self) -> None:
        while True:
            self._wake.clear()
            self._noted = math.inf
            try:
                await self.fire_due()
                due = self._next_retry(await self.store.next_due())
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the scheduler failed; retrying in a minute")
                due = self.clock.now() + 60
            until = min(math.inf if due is None else due, self._noted)
            self._sleeping_until = until
            try:
                await self.clock.sleep_until(None if until == math.inf else until, self._wake)
            finally:
                self._sleeping_until = None
