"""The process's share of Discord's request budget, and the order it is spent in.

Discord lets one bot token make 50 requests a second (more if Discord granted it) over
every process of the application; only the interaction endpoints (answering a click or a
command, its follow-ups and the edits made through its token) are outside that budget.
Every other request of this process waits here for a slot of the process's share
(``Outbox.install`` wraps discord.py's ``HTTPClient.request``, which carries exactly
those), so the process never asks for more than its share and Discord never has to refuse.

Slots are given in three lanes:

- ``POST``: what is said in a channel (pings, results, notices, tournament posts, direct
  messages, threads) and every request nobody named a lane for: first come, first served,
  never dropped.
- ``EDIT``: table edits. The presenter keeps one edit per table waiting and draws the
  table only once its slot is given, so whatever state is newest then is what goes out,
  and the tables waiting are served in turn: when the budget is short, each table's edits
  slow down alike.
- ``SWEEP``: deleting old pings, given a slot only when nothing else waits.

When posts and edits both wait they take slots in turn, so neither starves the other.

A slot is counted from the moment it is given until its request went out and a window
(one second at 50 a second, and a margin for the trip) has passed: at most ``most``
requests go out in any window, however long a holder takes to draw what it sends.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any

import discord
from discord.http import HTTPClient

log = logging.getLogger(__name__)

# Seconds between two lines saying how many requests Discord refused (429): one a
# request, under load, would drown the log.
REFUSALS_SAID_EVERY = 60.0
# Seconds a slot stays counted beyond its window: Discord counts a request when it arrives,
# which may be later than when it left by more than the next one's trip (a busy loop, the
# network), and a window that ended early for us would still be full for Discord.
MARGIN = 0.05


class Lane(enum.Enum):
    POST = "post"
    EDIT = "edit"
    SWEEP = "sweep"


class _Turn:
    """A slot given to a block of code: its first budgeted request spends it."""

    __slots__ = ("lane", "spent")

    def __init__(self, lane: Lane) -> None:
        self.lane, self.spent = lane, False


_TURN: ContextVar[_Turn | None] = ContextVar("outbox_turn", default=None)


class Outbox:
    def __init__(self, rate: float) -> None:
        """``rate``: requests a second this process may make."""
        self.rate = rate
        self.most = max(1, int(rate))  # requests in one window...
        self.per = self.most / rate + MARGIN  # ...of this many seconds
        self._sent: deque[float] = deque()  # when each request of the window went out
        self._given = 0  # slots given whose request has not gone out yet
        self._lanes: dict[Lane, deque[asyncio.Future[None]]] = {lane: deque() for lane in Lane}
        self._held: dict[Lane, float] = dict.fromkeys(Lane, 0.0)  # Discord said to wait
        self._edit_next = False  # posts and edits both waiting: whose slot is next
        self._timer: asyncio.TimerHandle | None = None
        self.spent: dict[Lane, int] = dict.fromkeys(Lane, 0)  # requests sent, by lane
        self.refused = 0  # requests Discord refused with 429

    # --- taking a slot -------------------------------------------------------------------
    @asynccontextmanager
    async def turn(self, lane: Lane = Lane.POST) -> AsyncIterator[None]:
        """Wait for a slot in ``lane``; the block's first budgeted request spends it (one
        that sends nothing gives it back)."""
        await self._wait(lane)
        turn = _Turn(lane)
        token = _TURN.set(turn)
        try:
            yield
        finally:
            _TURN.reset(token)
            if not turn.spent:
                self._given -= 1
                self._give()

    async def _slot(self) -> Lane:
        """A budgeted request is about to go: it spends its block's slot, or waits for a
        slot of its own (in ``POST``, where every request nobody named a lane for goes).
        The lane it went in."""
        turn = _TURN.get()
        if turn is not None and not turn.spent:
            turn.spent = True
            lane = turn.lane
        else:
            lane = Lane.POST
            await self._wait(lane)
        self._spend(lane)
        return lane

    def _spend(self, lane: Lane) -> None:
        self._given -= 1
        self._sent.append(asyncio.get_running_loop().time())
        self.spent[lane] += 1
        self._give()  # to come back when this one leaves the window

    def waiting(self, lane: Lane) -> int:
        return sum(1 for f in self._lanes[lane] if not f.done())

    async def _wait(self, lane: Lane, *, first: bool = False) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if first:
            self._lanes[lane].appendleft(future)
        else:
            self._lanes[lane].append(future)
        self._give()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._given -= 1  # given as it was cancelled: back for the next one
                self._give()
            raise

    # --- giving slots --------------------------------------------------------------------
    def _give(self) -> None:
        """Give the free slots to those waiting, lane by lane; come back when the window
        frees another, or a lane Discord held opens."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        # asyncio may wake a timer up to its clock's resolution early: a millisecond's grace.
        while self._sent and self._sent[0] + self.per <= now + 1e-3:
            self._sent.popleft()
        while len(self._sent) + self._given < self.most:
            future = self._next(now)
            if future is None:
                break
            self._given += 1
            future.set_result(None)
        if self._timer is not None or not any(_live(w) for w in self._lanes.values()):
            return
        held = [until for lane, until in self._held.items() if until > now and self._lanes[lane]]
        full = len(self._sent) + self._given >= self.most
        times = [*held, *([self._sent[0] + self.per] if full and self._sent else [])]
        if times:  # else every slot is given: one spent or given back calls again
            self._timer = loop.call_at(min(times), self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self._give()

    def _next(self, now: float) -> asyncio.Future[None] | None:
        posts, edits, sweeps = (
            _live(self._lanes[lane]) if self._held[lane] <= now else None for lane in Lane
        )
        if posts and edits:
            lane = edits if self._edit_next else posts
            self._edit_next = not self._edit_next
        elif posts or edits:
            lane = posts or edits
        elif _live(self._lanes[Lane.POST]) or _live(self._lanes[Lane.EDIT]):
            lane = None  # held by Discord: sweeps still wait for them
        else:
            lane = sweeps
        return lane.popleft() if lane else None

    # --- Discord's answers ---------------------------------------------------------------
    def refusal(self, error: Exception, lane: Lane) -> float:
        """Discord refused a request (429): the seconds it said to wait, from its headers.
        Its lane is held that long (every lane, for the global limit)."""
        self.refused += 1
        wait, shared = refusal_of(error)
        until = asyncio.get_running_loop().time() + wait
        for held in Lane if shared else (lane,):
            self._held[held] = max(self._held[held], until)
        return wait

    # --- the choke point -----------------------------------------------------------------
    def install(self, http: HTTPClient) -> None:
        """Every request ``http`` makes waits for its slot first. discord.py sends the
        interaction endpoints through its webhook adapter, not here, so what passes here
        is exactly what the budget counts.

        A refusal (429) discord.py did not wait out itself (it gives up after five, and
        raises one that lacks Discord's ``Via`` header) holds its lane for the wait Discord
        gave and goes again first, so posts keep their order; a table edit is not sent
        again: the presenter draws the newest state for its next slot."""
        cls = type(http)

        async def request(route: Any, **kwargs: Any) -> Any:
            lane = await self._slot()
            while True:
                try:
                    # discord.py's own: its buckets, its global lock, its waits on 429s.
                    return await cls.request(http, route, **kwargs)
                except discord.HTTPException as error:
                    if error.status != 429:
                        raise
                    self.refusal(error, lane)
                    if lane is Lane.EDIT:
                        raise
                log.debug(
                    "%s %s was refused (429): again when Discord said", route.method, route.path
                )
                for file in kwargs.get("files") or ():
                    file.reset()
                await self._wait(lane, first=True)
                self._spend(lane)

        http.request = request  # type: ignore[method-assign]


def _live(waiting: deque[asyncio.Future[None]]) -> deque[asyncio.Future[None]]:
    """The lane without the waiters that gave up (cancelled) at its head."""
    while waiting and waiting[0].done():
        waiting.popleft()
    return waiting


def refusal_of(error: Exception) -> tuple[float, bool]:
    """A 429's wait in seconds and whether it holds every request of the token (the
    global limit), from Discord's headers: ``X-RateLimit-Reset-After`` (or
    ``Retry-After``), ``X-RateLimit-Global`` and ``X-RateLimit-Scope``."""
    if isinstance(error, discord.RateLimited):
        return error.retry_after, False
    headers = getattr(error.response, "headers", None) or {}
    wait = None
    for name in ("X-RateLimit-Reset-After", "Retry-After"):
        if headers.get(name) is not None:
            try:
                wait = float(headers[name])
                break
            except ValueError:
                continue
    scope = str(headers.get("X-RateLimit-Scope", "")).lower()
    shared = str(headers.get("X-RateLimit-Global", "")).lower() == "true" or scope == "global"
    return (wait if wait is not None else 1.0), shared


class RefusalsSaid(logging.Filter):
    """discord.py waits out a 429 and tries again by itself, saying so as a warning each
    time: under load one a request. This filter keeps those lines out of the log, counts
    them on the outbox (``Outbox.refused``) and says how many there were, once a minute at
    most."""

    PHRASES = ("We are being rate limited", "Global rate limit has been hit", "is rate limited")
    LOGGERS = ("discord.http", "discord.webhook.async_")

    def __init__(self, outbox: Outbox) -> None:
        super().__init__()
        self.outbox = outbox
        self.count = 0
        self._said_at = time.monotonic()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.WARNING or not any(
            phrase in str(record.msg) for phrase in self.PHRASES
        ):
            return True
        if "Global rate limit" not in str(record.msg):  # the same refusal's second line
            self.outbox.refused += 1
            self.count += 1
        now = time.monotonic()
        if now - self._said_at >= REFUSALS_SAID_EVERY:
            log.warning(
                "Discord refused %d requests (429) in the last %.0f s; each was tried again "
                "after the wait it gave",
                self.count,
                now - self._said_at,
            )
            self.count, self._said_at = 0, now
        return False

    def install(self) -> None:
        """In place of the filter of a bot this process ran before (tests run many)."""
        for name in self.LOGGERS:
            logger = logging.getLogger(name)
            for old in [f for f in logger.filters if isinstance(f, RefusalsSaid)]:
                logger.removeFilter(old)
            logger.addFilter(self)

    def uninstall(self) -> None:
        for name in self.LOGGERS:
            logging.getLogger(name).removeFilter(self)
