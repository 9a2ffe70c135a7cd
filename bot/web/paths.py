"""Where a server's pages live: ``/s/<guild>/<token>/…``. The cogs build their link
buttons with ``page_link``; the server checks the same two parts (``reader.Reader.site``)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from bot.timing import GuildSettings


def site_root(guild_id: int, token: str) -> str:
    return f"/s/{guild_id}/{token}"


def page_link(site_url: str | None, guild_id: int, guild: GuildSettings, *parts: str) -> str | None:
    """The address of one of the server's pages, or None while its web page is off (or
    this bot serves no page anywhere: no ``PUBLIC_URL``/``WEB_PORT``)."""
    if site_url is None or not guild.web or not guild.web_token:
        return None
    tail = "/".join(parts)
    return f"{site_url}{site_root(guild_id, guild.web_token)}/{tail}"


KNOWN_FOR = 30.0  # seconds a server's web setting is trusted before it is read again


class WebLinks:
    """The link buttons' addresses, for the cogs: a server's web setting kept for
    KNOWN_FOR seconds, so a table edit costs no read (``forget`` after /settings changes
    it here; another process's change shows within KNOWN_FOR)."""

    def __init__(
        self,
        site_url: str | None,
        read: Callable[[int], Awaitable[GuildSettings]],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.site_url = site_url
        self._read = read
        self._clock = clock
        self._known: dict[int, tuple[float, GuildSettings]] = {}

    async def link(self, guild_id: int | None, *parts: str) -> str | None:
        if self.site_url is None or not guild_id:
            return None  # this bot serves no page anywhere: no read at all
        known = self._known.get(guild_id)
        now = self._clock()
        if known is None or now - known[0] > KNOWN_FOR:
            known = (now, await self._read(guild_id))
            self._known[guild_id] = known
        return page_link(self.site_url, guild_id, known[1], *parts)

    def forget(self, guild_id: int) -> None:
        self._known.pop(guild_id, None)
