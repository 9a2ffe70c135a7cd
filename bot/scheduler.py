"""One sleeping task serves every timer: it sleeps until the earliest deadline in the store.

Adding an earlier timer wakes it (``wake``); after a restart, timers that came due while the
bot was down fire at once, in order. A timer fires at least once: it is deleted only after
its handler ran, and handlers check the match version, so a second firing is a no-op.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable

from bot.clock import Clock
from bot.store import Store, Timer

log = logging.getLogger(__name__)

Fire = Callable[[Timer], Awaitable[None]]


class Scheduler:
    def __init__(self, store: Store, clock: Clock, fire: Fire) -> None:
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
        while batch := await self.store.due_timers(self.clock.now()):
            for timer in batch:
                try:
                    await self.fire(timer)
                except Exception:
                    log.exception("timer %s of match %s failed", timer.kind, timer.match_id)
            # Deleted after firing, a batch at a time: a crash in between fires them again,
            # which the version check turns into no-ops.
            await self.store.delete_timers(batch)
            count += len(batch)
        self.fired += count
        return count

    async def run(self) -> None:
        while True:
            self._wake.clear()
            self._noted = math.inf
            try:
                await self.fire_due()
                due = await self.store.next_due()
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
