"""Servers' settings as this process last read them: a table edit, a picture or a link
button asks for them at every message, and a read each time would queue behind the moves
on the database."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from bot.timing import GuildSettings

KNOWN_FOR = 30.0  # seconds a server's settings are trusted before they are read again


class KnownSettings:
    """Each server's settings, kept for KNOWN_FOR seconds. ``forget`` after /settings
    changes them in this process (the next message says the change); another process's
    change shows within KNOWN_FOR."""

    def __init__(
        self,
        read: Callable[[int], Awaitable[GuildSettings]],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._read = read
        self._clock = clock
        self._known: dict[int, tuple[float, GuildSettings]] = {}

    async def get(self, guild_id: int) -> GuildSettings:
        known = self._known.get(guild_id)
        now = self._clock()
        if known is None or now - known[0] > KNOWN_FOR:
            known = (now, await self._read(guild_id))
            self._known[guild_id] = known
        return known[1]

    def forget(self, guild_id: int) -> None:
        self._known.pop(guild_id, None)
