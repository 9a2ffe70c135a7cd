"""Where a server's pages live: ``/s/<guild>/<token>/…``. The cogs build their link
buttons with ``page_link``; the server checks the same two parts (``reader.Reader.site``)."""

from __future__ import annotations

from bot.known_settings import KnownSettings
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


class WebLinks:
    """The link buttons' addresses, for the cogs, from the settings this process knows
    (bot/known_settings.py: a table edit costs no read)."""

    def __init__(self, site_url: str | None, known: KnownSettings) -> None:
        self.site_url = site_url
        self._known = known

    async def link(self, guild_id: int | None, *parts: str) -> str | None:
        if self.site_url is None or not guild_id:
            return None  # this bot serves no page anywhere: no read at all
        return page_link(self.site_url, guild_id, await self._known.get(guild_id), *parts)
