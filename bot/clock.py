"""Time, injected: the real clock in production, a hand-moved one in tests and benchmarks."""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (what deadlines are stored in)."""
        ...

    async def sleep_until(self, when: float | None, wake: asyncio.Event) -> None:
        """Return at ``when`` (never, if None) or as soon as ``wake`` is set."""
        ...


class SystemClock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float | None, wake: asyncio.Event) -> None:
        timeout = None if when is None else max(0.0, when - self.now())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wake.wait(), timeout)


class ManualClock:
    """A clock that moves only when told to: simulated hours pass in microseconds."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = start
        self._ticked = asyncio.Event()

    def now(self) -> float:
        return self._now

    async def advance(self, seconds: float) -> None:
        self._now += seconds
        self._ticked.set()
        await asyncio.sleep(0)  # let sleepers see the new time

    async def sleep_until(self, when: float | None, wake: asyncio.Event) -> None:
        while not wake.is_set() and (when is None or self._now < when):
            self._ticked.clear()
            ticked = asyncio.ensure_future(self._ticked.wait())
            woken = asyncio.ensure_future(wake.wait())
            try:
                await asyncio.wait({ticked, woken}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                ticked.cancel()
                woken.cancel()
