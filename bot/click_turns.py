"""The clicks a process answers at once, and who goes first among those waiting.

At most ``most`` handlers work at once (``Runtime``'s ``CLICKS_AT_ONCE``: every handler at
work adds its steps to the event loop's queue); the others wait their turn, acknowledged
already (cogs/acknowledge.py). Urgent clicks go first: all but those on a running match
that waits on someone else (a look by a person with nothing to do, a spectator's), so a
move, Show hand to make it, a lobby's Start (``cogs.components.waited_on``). In one line,
at 1,000 busy tables, the person whose turn it was waited behind the looks of thousands
with nothing to do (answers p50 11.7 s); each move took two such waits (Show hand, then
the move), the tables moved slowly, and the longer wait between turns brought more looks:
5.8 clicks a move against 2.0 at 30 tables. When both lines wait, every ``FAIR``-th turn
goes to the other line, so that a look is slower under overload but never starved.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

FAIR = 4  # of the turns given while both lines wait, the other line's share is one in FAIR


class ClickTurns:
    def __init__(self, most: int, fair: int = FAIR) -> None:
        self.most, self.fair = most, fair
        self.working = 0
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._others: deque[asyncio.Future[None]] = deque()
        self._urgent_in_a_row = 0

    @asynccontextmanager
    async def turn(self, urgent: bool = False) -> AsyncIterator[None]:
        """Held while a click's handler works; ``urgent`` goes before the others waiting."""
        await self.acquire(urgent)
        try:
            yield
        finally:
            self.release()

    async def acquire(self, urgent: bool = False) -> None:
        if self.working < self.most and not self._urgent and not self._others:
            self.working += 1
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        line = self._urgent if urgent else self._others
        line.append(future)
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.release()  # given as it was cancelled: to the next one
            else:
                line.remove(future)
            raise

    def release(self) -> None:
        self.working -= 1
        while self.working < self.most and (future := self._next()) is not None:
            self.working += 1
            future.set_result(None)

    @property
    def waiting(self) -> int:
        return len(self._urgent) + len(self._others)

    def _next(self) -> asyncio.Future[None] | None:
        if self._urgent and (not self._others or self._urgent_in_a_row < self.fair - 1):
            self._urgent_in_a_row += 1
            return self._urgent.popleft()
        if self._others:
            self._urgent_in_a_row = 0
            return self._others.popleft()
        return None
