"""A count of things under way, and a wait until none is: the moves a service applies and
the clicks a process answers, which a draining process lets end before it stops."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager


class UnderWay:
    def __init__(self) -> None:
        self.count = 0
        self._none = asyncio.Event()
        self._none.set()

    @contextmanager
    def one(self) -> Iterator[None]:
        """Counts what runs inside as under way."""
        self.count += 1
        self._none.clear()
        try:
            yield
        finally:
            self.count -= 1
            if self.count == 0:
                self._none.set()

    async def none(self, timeout: float) -> bool:
        """Wait until nothing is under way (False: something still was after ``timeout``)."""
        try:
            await asyncio.wait_for(self._none.wait(), timeout)
        except TimeoutError:
            return False
        return True
