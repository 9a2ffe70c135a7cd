"""Live tables: one render per change, fanned out to every viewer.

A watched match keeps its latest rendering (the page's table fragment, as the bytes of one
Server-Sent Event) and an ``asyncio.Event`` every viewer's stream waits on. A change renders
once and wakes them all; each stream then writes the same bytes. The picture of a version
is drawn once, on the first viewer's request, and shared. Changes come from the service's
listeners in the bot's own process (``on_change``), or, run alone (``python -m bot web``),
from a poll of the watched matches' versions (``poll``), one small read each.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable

from bot.service.base import Change
from bot.store import MatchRecord
from bot.web.reader import Reader, TableNow, picture, table_now
from games.core.protocol import GameState

log = logging.getLogger(__name__)

WATCHED_KEPT = 256  # matches kept rendered with nobody watching (oldest out)
HEARTBEAT = 15.0  # seconds between keep-alive comments on a quiet stream
POLL_EVERY = 0.5  # seconds between version checks when run alone

# table -> the fragment of the table shown on its page (the template renders it).
Fragment = Callable[[TableNow], str]


class Watched:
    """One match as its viewers see it now."""

    def __init__(self, now: TableNow, fragment: Fragment) -> None:
        self.viewers = 0
        # The server's path token as of the last change: a stream opened through an older
        # one (the admin renewed it, or turned the page off) ends at the next change.
        self.token: str | None = None
        self._woken = asyncio.Event()
        self._picture: asyncio.Future[bytes | None] | None = None
        self.renders = 0
        self.show(now, fragment)

    def show(self, now: TableNow, fragment: Fragment) -> None:
        self.now = now
        self.renders += 1
        self.html = fragment(now)
        body = {
            "version": now.version,
            "status": now.record.status,
            "waiting": ", ".join(now.waiting),
            "html": self.html,
        }
        self.event = f"data: {json.dumps(body)}\n\n".encode()
        self._picture = None
        self.wake()

    def wake(self) -> None:
        """Every stream writes the current rendering (or sees the page closing)."""
        woken, self._woken = self._woken, asyncio.Event()
        woken.set()

    async def picture(self) -> bytes | None:
        """This version's picture, drawn once however many ask (off the event loop)."""
        if self._picture is None:
            now = self.now
            self._picture = asyncio.ensure_future(asyncio.to_thread(picture, now.game, now.view))
        return await asyncio.shield(self._picture)

    async def changes(self, closed: asyncio.Event) -> AsyncIterator[bytes]:
        """The current rendering, then each new one; a comment when quiet for a while."""
        yield self.event
        while not closed.is_set():
            woken = self._woken
            try:
                await asyncio.wait_for(woken.wait(), HEARTBEAT)
            except TimeoutError:
                yield b": quiet\n\n"
                continue
            if not closed.is_set():
                yield self.event


class LiveTables:
    def __init__(self, reader: Reader, fragment: Fragment) -> None:
        self.reader = reader
        self.fragment = fragment
        self._watched: OrderedDict[str, Watched] = OrderedDict()
        self.closed = asyncio.Event()

    def known(self, match_id: str, guild_id: int) -> Watched | None:
        """The match as kept rendered, if it is, without a read: kept current by the
        service's changes, or by the poll while anyone watches (streams and pictures)."""
        watched = self._watched.get(match_id)
        if watched is None or watched.now.record.guild_id != guild_id:
            return None
        return watched

    def get(self, record: MatchRecord) -> Watched | None:
        """The match kept rendered, brought up to ``record`` (a page load read it)."""
        watched = self._watched.get(record.match_id)
        if watched is None or watched.now.version < record.version:
            now = self.reader.now(record)
            if now is None:
                return None
            if watched is None:
                watched = Watched(now, self.fragment)
                self._keep(record.match_id, watched)
            else:
                watched.show(now, self.fragment)
        self._watched.move_to_end(record.match_id)
        return watched

    def _keep(self, match_id: str, watched: Watched) -> None:
        self._watched[match_id] = watched
        idle = [k for k, w in self._watched.items() if w.viewers == 0 and k != match_id]
        for key in idle[: max(0, len(self._watched) - WATCHED_KEPT)]:
            del self._watched[key]

    async def on_change(self, change: Change) -> None:
        """The service's listener: a watched match renders its new state, once."""
        if change.match.match_id in self._watched:
            state = change.state
            if state is None and change.match.state is not None:
                state = self.reader.games[change.match.game].load_state(change.match.state)
            if state is not None:
                await self._moved(change.match, state)

    async def _moved(self, record: MatchRecord, state: GameState) -> None:
        watched = self._watched.get(record.match_id)
        if watched is None or state.version < watched.now.version:
            return
        if state.version == watched.now.version and record.status == watched.now.record.status:
            return
        watched.token = await self.reader.current_token(record.guild_id)
        watched.show(table_now(record, self.reader.games[record.game], state), self.fragment)

    async def poll(self) -> None:
        """Run alone: every POLL_EVERY seconds, read the mark of each watched match and
        render those another process moved."""
        while not self.closed.is_set():
            for match_id in [k for k, w in self._watched.items() if w.viewers]:
                try:
                    await self._check(match_id)
                except Exception:
                    log.exception("could not read match %s for its live page", match_id)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.closed.wait(), POLL_EVERY)

    async def _check(self, match_id: str) -> None:
        watched = self._watched.get(match_id)
        mark = await self.reader.store.match_mark(match_id)
        if watched is None or mark is None:
            return
        version, status = mark[0], mark[1]
        if version != watched.now.version or status != watched.now.record.status:
            record = await self.reader.store.get(match_id)
            if record is not None and record.state is not None:
                game = self.reader.games[record.game]
                await self._moved(record, game.load_state(record.state))

    def close(self) -> None:
        """Streams end: the process is stopping."""
        self.closed.set()
        for watched in self._watched.values():
            watched.wake()
