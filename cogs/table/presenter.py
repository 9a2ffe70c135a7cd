"""Shows matches in Discord: the table message kept current, turn pings, hand views.

It listens to the service: whatever changed a match (a click, a bot, later a timer), the
table is re-rendered from the stored state. Edits are coalesced per match so a burst of
moves costs one edit per interval, well inside Discord's rate limits.

The presenter owns one part per concern: drawing (the messages and their pictures),
hands (each player's newest hand message), clicks (answering the table's buttons),
posting (the channel's message rate), pings, sweeps (old pings deleted together) and
notices (the end, a timeout, a reminder). What it does itself is keep each table message current.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.pictures import HAND_WAIT, TABLE_WAIT, Pictures
from bot.service import Change
from bot.store import MatchRecord
from cogs.components import PerClient
from cogs.table.base import Part
from cogs.table.clicks import Clicks
from cogs.table.drawing import Drawing
from cogs.table.hands import Hands
from cogs.table.notices import Notices
from cogs.table.pictured import TABLE_FILE, Drawn
from cogs.table.pings import Pings
from cogs.table.posting import Poster, retry_delay, with_retries
from cogs.table.sweeps import Sweeps

if TYPE_CHECKING:
    from bot.client import CookieJar

log = logging.getLogger(__name__)


def presenter_of(client: discord.Client) -> Presenter:
    """The bot's presenter, made when the ``cogs.table`` extension loaded."""
    return PRESENTERS.of(client)


class Presenter(Part):
    def __init__(
        self,
        bot: CookieJar,
        *,
        edit_interval: float = 1.0,
        picture_cache_mb: float = 32.0,
        pictures: bool = True,
        picture_processes: int = 0,
    ) -> None:
        super().__init__(bot)
        self.edit_interval = edit_interval
        self.poster = Poster(bot)
        self.pictures = Pictures(
            lambda guild: self.bot.known_settings.get(guild),
            picture_cache_mb,
            drawing=pictures,
            processes=picture_processes,
            # Threads draw in the tests, on machines of any speed: a message waits for its
            # picture there (tests/bot/test_pictures.py covers the bounds).
            hand_wait=HAND_WAIT if picture_processes else None,
            table_wait=TABLE_WAIT if picture_processes else None,
        )
        self.drawing = Drawing(bot, self.pictures)
        self.hands = Hands(bot)
        self.clicks = Clicks(bot, self.drawing, self.hands)
        self.sweeps = Sweeps(bot)
        self.notices = Notices(bot, self.poster)
        self.pings = Pings(bot, self.poster, self.sweeps, self.notices, self.drawing, self.hands)
        self._dirty: set[str] = set()
        self._flushers: dict[str, asyncio.Task[object]] = {}
        self._enders: dict[str, asyncio.Task[object]] = {}  # a match's closing message
        self._timeout_notices: dict[str, asyncio.Future[None]] = {}  # one being posted
        # Per running match: the picture its table message shows (message id, digest of
        # the PNG, the attachment), so an edit uploads a picture only when it changed.
        self._shown: dict[str, tuple[int, tuple[int, int], discord.Attachment]] = {}

    # --- what other cogs ask of the table ----------------------------------------------
    async def table_message(self, record: MatchRecord) -> Drawn:
        return await self.drawing.table_message(record)

    async def post(
        self, channel_id: int, content: str | None = None, *, paced: bool = False, **kwargs: Any
    ) -> discord.Message:
        return await self.poster.post(channel_id, content, paced=paced, **kwargs)

    async def remember_message(
        self, record: MatchRecord, response: discord.InteractionCallbackResponse
    ) -> None:
        await self.clicks.remember_message(record, response)

    # --- keeping the table current -----------------------------------------------------
    async def on_change(self, change: Change) -> None:
        if change.kind == "reminder":
            await self.pings.remind(change)
            return
        self.request_refresh(change.match.match_id)
        if change.timed_out is not None:
            # ``flushed`` waits for it too: while the notice waits for its turn to post,
            # the bots may finish a multiplayer table and its event archive the thread.
            match_id = change.match.match_id
            notice = self._timeout_notices[match_id] = asyncio.ensure_future(
                self.notices.say_timed_out(change)
            )
            try:
                await notice
            finally:
                if self._timeout_notices.get(match_id) is notice:
                    del self._timeout_notices[match_id]
        if change.kind == "started" or (change.kind == "finished" and change.previous is None):
            # A match whose deal decided it is started and finished by one change.
            await self.notices.name_thread(change.match)
        if change.kind in ("started", "action"):
            await self.pings.ping_new_deciders(change)
        elif change.kind in ("finished", "cancelled"):
            self.pings.forget(change.match.match_id)
            self.hands.forget(change.match.match_id)
            self.notices.forget(change.match.match_id)
            # Off the click's path; ``flushed`` waits for it (a thread is not archived first).
            match_id = change.match.match_id
            ender = self._enders[match_id] = self.bot.spawn(
                self.notices.say_the_end(change), f"end:{match_id}"
            )
            ender.add_done_callback(lambda done: self._forget_ender(match_id, done))

    def request_refresh(self, match_id: str) -> None:
        self._dirty.add(match_id)
        task = self._flushers.get(match_id)
        if task is None or task.done():
            self._flushers[match_id] = self.bot.spawn(self._flush(match_id), f"table:{match_id}")

    async def flushed(self, match_id: str) -> None:
        """Wait for the table's pending edits and its closing message (before its thread
        is archived, say)."""
        for tasks in (self._flushers, self._enders, self._timeout_notices):
            task = tasks.get(match_id)
            if task is not None and not task.done():
                await asyncio.wait({task})

    def _forget_ender(self, match_id: str, done: asyncio.Task[object]) -> None:
        if self._enders.get(match_id) is done:
            del self._enders[match_id]

    async def _flush(self, match_id: str) -> None:
        while match_id in self._dirty:
            self._dirty.discard(match_id)
            try:
                await with_retries(
                    lambda: self.refresh(match_id), f"the table edit of match {match_id}"
                )
            except Exception as exc:
                if retry_delay(exc, 0) is None:
                    log.exception("could not refresh the table of match %s", match_id)
                else:  # Discord is unwell: the next change redraws the table
                    log.warning("gave up on the table of match %s: %s", match_id, exc)
            await asyncio.sleep(self.edit_interval)
        self._flushers.pop(match_id, None)

    async def refresh(self, match_id: str) -> None:
        record = await self.service.current(match_id)
        if record.message_id is None:
            return  # the lobby's message is not known yet; /play will store it
        # The text never waits long for the picture: a late one comes with the next edit.
        drawn = await self.drawing.table_message(
            record, late=lambda: self.request_refresh(match_id)
        )
        channel = self.bot.get_partial_messageable(record.channel_id)
        table = channel.get_partial_message(record.message_id)
        shown = self._shown.get(match_id)
        if drawn.late:  # the message goes on showing its picture until the new one comes
            kept = shown[2] if shown and shown[0] == table.id else None
            digest = shown[1] if shown and kept is not None else picture_digest(None)
        else:
            # The same picture on the same message: named again, not uploaded again (an
            # edit that leaves the attachment out would show it twice, in and beside the
            # embed).
            digest = picture_digest(drawn.picture)
            kept = shown[2] if shown and (shown[0], shown[1]) == (table.id, digest) else None
        try:
            message = await self.poster.unarchived(
                record.channel_id, lambda: table.edit(**drawn.edited(kept))
            )
        except discord.NotFound:
            # Someone deleted the table: post a fresh one rather than leave the match stuck.
            message = await self.poster.post(record.channel_id, **drawn.sent())
            await self.service.set_message(match_id, message.id)
        self._remember_picture(record, message, digest)

    def _remember_picture(
        self, record: MatchRecord, message: discord.Message, digest: tuple[int, int]
    ) -> None:
        attachment = next((a for a in message.attachments if a.filename == TABLE_FILE), None)
        if record.status != "active" or attachment is None:
            self._shown.pop(record.match_id, None)  # an ended table is not edited again
        else:
            self._shown[record.match_id] = (message.id, digest, attachment)


def picture_digest(png: bytes | None) -> tuple[int, int]:
    """What tells two pictures apart, for this process only: Python's own hash of the
    bytes (kept in the bytes object; hashlib would let go of the GIL for a long input,
    and under load the loop then waited for it up to the switch interval)."""
    return (len(png), hash(png)) if png is not None else (0, 0)


PRESENTERS: PerClient[Presenter] = PerClient("the table's presenter")
