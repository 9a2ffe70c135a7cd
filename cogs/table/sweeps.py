"""Turn pings that no longer apply are deleted a few seconds later, together with the
other old pings of their channel: one bulk delete rather than one call each, and only when
nothing else waits for the request budget (``Lane.SWEEP``): an old ping can wait."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from bot.outbox import Lane
from cogs.table.base import Part

if TYPE_CHECKING:
    from bot.client import CookieJar

log = logging.getLogger(__name__)

SWEEP_AFTER = 3.0  # seconds an old ping stays, so that pings of a burst go in one call
BULK_AGE = (14 * 24 - 1) * 3600.0  # seconds: bulk delete refuses older messages


class Sweeps(Part):
    def __init__(self, bot: CookieJar) -> None:
        super().__init__(bot)
        # Old pings wait here to be deleted together, a few seconds later.
        self._stale_pings: dict[int, list[int]] = {}
        self._posted: dict[int, float] = {}  # ping message id -> loop time it was posted
        self._sweepers: dict[int, asyncio.Task[object]] = {}

    def posted(self, message: discord.Message) -> None:
        """A ping just posted: its age decides how it can be deleted later."""
        self._posted[message.id] = asyncio.get_running_loop().time()

    def retire(self, channel_id: int, message_id: int) -> None:
        """A ping that no longer applies (its players answered, or the match ended) is
        deleted a little later, with the other old pings of its channel."""
        self._stale_pings.setdefault(channel_id, []).append(message_id)
        task = self._sweepers.get(channel_id)
        if task is None or task.done():
            self._sweepers[channel_id] = self.bot.spawn(
                self._sweep(channel_id), f"sweep:{channel_id}"
            )

    async def _sweep(self, channel_id: int) -> None:
        """Delete a channel's old pings: one call for all of them (bulk delete takes 2-100
        messages younger than 14 days); a stale ping that is already gone is harmless."""
        try:
            await asyncio.sleep(SWEEP_AFTER)
            while ids := self._stale_pings.pop(channel_id, None):
                since = asyncio.get_running_loop().time() - BULK_AGE
                young = [i for i in ids if self._posted.pop(i, since) > since]
                batch, rest = young[:100], [i for i in ids if i not in young] + young[100:]
                if len(batch) == 1:
                    rest.append(batch.pop())
                outbox = self.bot.outbox
                try:
                    if batch:
                        async with outbox.turn(Lane.SWEEP):
                            await self.bot.http.delete_messages(channel_id, batch)
                except discord.Forbidden:
                    rest += batch  # bulk delete needs Manage Messages; one by one does not
                except discord.HTTPException:
                    log.info("could not sweep old pings in channel %s", channel_id)
                for message_id in rest:
                    with contextlib.suppress(discord.HTTPException):
                        async with outbox.turn(Lane.SWEEP):
                            await self.bot.http.delete_message(channel_id, message_id)
        finally:
            self._sweepers.pop(channel_id, None)
