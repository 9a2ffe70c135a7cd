"""Posting in a match's channel or thread: within Discord's message rate, into a thread
archived for inactivity, and again after Discord's retry-after or a short backoff."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import aiohttp
import discord

from bot.outbox import refusal_of
from cogs.table.base import Part

if TYPE_CHECKING:
    from bot.client import CookieJar

log = logging.getLogger(__name__)

T = TypeVar("T")
THREAD_ARCHIVED = 50083  # Discord's error code for writing to an archived thread


class Poster(Part):
    def __init__(self, bot: CookieJar) -> None:
        super().__init__(bot)
        self.pace = ChannelPace()
        # Per channel: its posts, one after another in the order they were asked for (a
        # post Discord refused goes again before the next; five a channel in five seconds
        # leave plenty of time for one at a time).
        self._in_turn: dict[int, tuple[asyncio.Lock, int]] = {}

    async def unarchived(self, channel_id: int, send: Callable[[], Awaitable[T]]) -> T:
        """Run ``send``; if the match's thread was archived for inactivity, reopen it first."""
        try:
            return await send()
        except discord.HTTPException as exc:
            if exc.code != THREAD_ARCHIVED:
                raise
            await self.bot.http.edit_channel(channel_id, archived=False)
            return await send()

    async def post(
        self, channel_id: int, content: str | None = None, *, paced: bool = False, **kwargs: Any
    ) -> discord.Message:
        """A new message in the channel, within its message rate (``paced``: the caller
        already waited for its turn)."""
        if not paced:
            await self.pace.wait(channel_id)
        channel = self.bot.get_partial_messageable(channel_id)
        async with self._in_order(channel_id):
            return await self.unarchived(channel_id, lambda: channel.send(content, **kwargs))

    @asynccontextmanager
    async def _in_order(self, channel_id: int) -> AsyncIterator[None]:
        lock, users = self._in_turn.get(channel_id) or (asyncio.Lock(), 0)
        self._in_turn[channel_id] = (lock, users + 1)
        try:
            async with lock:  # asyncio's locks are fair: first come, first served
                yield
        finally:
            lock, users = self._in_turn[channel_id]
            if users == 1:
                del self._in_turn[channel_id]
            else:
                self._in_turn[channel_id] = (lock, users - 1)


async def with_retries(send: Callable[[], Awaitable[T]], what: str, attempts: int = 4) -> T:
    """``send()``, again after the wait Discord gave with a 429, as often as it asks (what
    waits its turn is never dropped, and each refusal is counted, not logged: discord.py
    waits them out too), or after a short backoff (5xx, a timeout, a dropped connection)
    ``attempts`` times in all; any other failure, or the last one, is raised."""
    failures = 0
    while True:
        try:
            return await send()
        except Exception as exc:
            wait = retry_delay(exc, failures)
            if wait is None:
                raise
            if refused(exc):
                log.debug("%s was refused (429); trying again in %.1f s", what, wait)
            else:
                failures += 1
                if failures >= attempts:
                    raise
                log.warning("%s failed (%s); trying again in %.1f s", what, exc, wait)
            await asyncio.sleep(wait)


def refused(error: BaseException) -> bool:
    """Discord refused the request for the rate limit (429)."""
    return isinstance(error, discord.RateLimited) or (
        isinstance(error, discord.HTTPException) and error.status == 429
    )


def retry_delay(error: BaseException, attempt: int) -> float | None:
    """Seconds to wait before trying again, or None if trying again will not help."""
    if isinstance(error, discord.RateLimited | discord.HTTPException) and refused(error):
        return refusal_of(error)[0]
    if isinstance(error, discord.HTTPException):
        return 2.0**attempt if error.status >= 500 else None
    if isinstance(error, TimeoutError | aiohttp.ClientError | OSError):
        return 2.0**attempt
    return None


class ChannelPace:
    """Discord lets a bot post about 5 messages per 5 seconds in a channel; pings keep
    one of them free for everything else (timeouts, reminders, a rematch)."""

    def __init__(self, most: int = 4, per: float = 5.0) -> None:
        self.most, self.per = most, per
        self._sent: dict[int, deque[float]] = {}

    async def wait(self, channel_id: int) -> None:
        loop = asyncio.get_running_loop()
        if len(self._sent) > 256:
            self.forget_idle()
        sent = self._sent.setdefault(channel_id, deque())
        while True:
            now = loop.time()
            while sent and sent[0] <= now - self.per:
                sent.popleft()
            if len(sent) < self.most:
                sent.append(now)
                return
            await asyncio.sleep(sent[0] + self.per - now)

    def forget_idle(self) -> None:
        now = asyncio.get_running_loop().time()
        for channel_id in [c for c, s in self._sent.items() if not s or s[-1] <= now - self.per]:
            del self._sent[channel_id]
