"""Fake time: a shiftable monotonic clock, so timers are fast-forwarded instead of waited."""

from __future__ import annotations

import datetime
import time
from typing import Any
from unittest import mock

import discord


class _FakeClock:
    """A shiftable monotonic clock, so timers can be fast-forwarded.

    Patches ``time.monotonic`` (which ``BaseEventLoop.time`` reads, as do discord.py's view
    timeouts) and ``discord.utils.utcnow`` (``ext.tasks`` schedules with it) to add ``offset``.
    """

    def __init__(self, offset: float = 0.0) -> None:
        self.offset = offset
        self._patches: list[Any] = []

    def monotonic(self) -> float:
        return _real_monotonic() + self.offset

    def utcnow(self) -> datetime.datetime:
        return _real_utcnow() + datetime.timedelta(seconds=self.offset)

    def install(self) -> None:
        if time.monotonic is not _real_monotonic:
            raise RuntimeError("time.monotonic is already patched (two fakes running?)")
        self._patches = [
            mock.patch.object(time, "monotonic", self.monotonic),
            mock.patch.object(discord.utils, "utcnow", self.utcnow),
        ]
        for patch in self._patches:
            patch.start()

    def uninstall(self) -> None:
        for patch in reversed(self._patches):
            patch.stop()
        self._patches = []

    def advance_to(self, when: float) -> None:
        """Move the clock so that ``loop.time() >= when``."""
        now = self.monotonic()
        if when > now:
            self.offset += when - now


_real_monotonic = time.monotonic
_real_utcnow = discord.utils.utcnow
