"""Shows matches in Discord: the table message kept current, turn pings, hand views.

It listens to the service: whatever changed a match (a click, a bot, later a timer), the
table is re-rendered from the stored state. Edits are coalesced per match: one waits for
its slot of the request budget at a time (``bot.outbox``, lane ``EDIT``), and the table is
drawn when the slot is given, so a burst of moves costs one edit, of the newest state. A
click that changes the lobby or the table answers with it (free, ``Clicks.on_table``):
the edit then finds nothing left to show and is not sent (``Shown``).

The presenter owns one part per concern: drawing (the messages and their pictures),
hands (each player's newest hand message), clicks (answering the table's buttons),
posting (the channel's message rate), pings, sweeps (old pings deleted together) and
notices (the end, a timeout, a reminder). What it does itself is keep each table message current.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord

from bot.outbox import Lane
from bot.pictures import HAND_WAIT, TABLE_WAIT, Pictures
from bot.service import Change
from bot.store import MatchRecord
from cogs.components import PerClient, match_id_of
from cogs.table.base import Part
from cogs.table.clicks import Clicks
from cogs.table.drawing import Drawing
from cogs.table.hands import Hands
from cogs.table.notices import Notices
from cogs.table.pictured import Drawn
from cogs.table.pings import Pings
from cogs.table.posting import Poster, refused, retry_delay
from cogs.table.reach import edit_through
from cogs.table.shown import Showing, Shown
from cogs.table.sweeps import Sweeps

if TYPE_CHECKING:
    from bot.client import CookieJar

log = logging.getLogger(__name__)

# Seconds a budgeted table edit whose picture is late waits for it, so that one edit carries
# both (the text at once and the picture in a second edit cost two); past it, the text goes
# and the picture follows (a picture that never comes, a drawing given way to a newer one).
PICTURE_PATIENCE = 3.0
# Times in a row a table's edit may fail for Discord being unwell (5xx, a timeout) before
# it waits for the next change; refusals for the rate limit (429) do not count.
EDIT_FAILURES = 4


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
        self.shown = Shown()
        self.clicks = Clicks(bot, self.drawing, self.hands, self.shown)
        self.sweeps = Sweeps(bot)
        self.notices = Notices(bot, self.poster)
        self.pings = Pings(bot, self.poster, self.sweeps, self.notices, self.drawing, self.hands)
        self._flushers: dict[str, asyncio.Task[object]] = {}
        # Matches whose budgeted edit waits for its late picture, since when (loop time).
        self._picture_awaited: dict[str, float] = {}
        self._enders: dict[str, asyncio.Task[object]] = {}  # a match's closing message
        # Per match: its timeout notices, posted one after another off the scheduler's path.
        self._timeout_notices: dict[str, asyncio.Task[object]] = {}

    # --- what other cogs ask of the table ----------------------------------------------
    async def table_message(self, record: MatchRecord) -> Drawn:
        return await self.drawing.table_message(record)

    async def post(
        self, channel_id: int, content: str | None = None, *, paced: bool = False, **kwargs: Any
    ) -> discord.Message:
        return await self.poster.post(channel_id, content, paced=paced, **kwargs)

    async def remember_message(
        self,
        record: MatchRecord,
        response: discord.InteractionCallbackResponse,
        interaction: discord.Interaction,
        showing: Showing | None = None,
    ) -> None:
        await self.clicks.remember_message(record, response, interaction, showing)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Every click on a match's components (the lobby, the table, a hand view, a
        ping): its person is looking at the match (``Pings.looking``)."""
        match_id = match_id_of(interaction)
        if match_id is not None:
            self.pings.clicked(match_id, interaction.user.id)

    # --- keeping the table current -----------------------------------------------------
    async def on_change(self, change: Change) -> None:
        if change.kind == "reminder":
            await self.pings.remind(change)
            return
        match_id = change.match.match_id
        self.request_refresh(match_id)
        if change.timed_out is not None:
            # Off the scheduler's path (a post waits for its slot), in order: a second
            # seat's timeout edits the first one's notice. ``flushed`` waits for them:
            # while one waits for its turn to post, the bots may finish a multiplayer
            # table and its event archive the thread.
            before = self._timeout_notices.get(match_id)
            notice = self._timeout_notices[match_id] = self.bot.spawn(
                after(before, self.notices.say_timed_out(change)), f"timeout:{match_id}"
            )
            notice.add_done_callback(
                lambda done: self._forget(self._timeout_notices, match_id, done)
            )
        if change.kind == "started" or (change.kind == "finished" and change.previous is None):
            # A match whose deal decided it is started and finished by one change. Off the
            # click's path: Start is answered at once, the thread renamed in its turn.
            self.bot.spawn(self.notices.name_thread(change.match), f"thread-name:{match_id}")
        if change.kind in ("started", "action"):
            await self.pings.ping_new_deciders(change)
        elif change.kind in ("finished", "cancelled"):
            self.pings.forget(change.match.match_id)
            self.hands.forget(change.match.match_id)
            self.notices.forget(change.match.match_id)
            # An ended table is not edited again once its last edit went.
            self._flushers[match_id].add_done_callback(lambda _: self.shown.forget(match_id))
            # Off the click's path; ``flushed`` waits for it (a thread is not archived first).
            ender = self._enders[match_id] = self.bot.spawn(
                self.notices.say_the_end(change), f"end:{match_id}"
            )
            ender.add_done_callback(lambda done: self._forget(self._enders, match_id, done))

    def request_refresh(self, match_id: str) -> None:
        self.shown.stale.add(match_id)
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

    @staticmethod
    def _forget(
        tasks: dict[str, asyncio.Task[object]], key: str, done: asyncio.Task[object]
    ) -> None:
        if tasks.get(key) is done:
            del tasks[key]

    async def _flush(self, match_id: str) -> None:
        """Keep the table's message current: one edit waiting at a time, drawn when its
        slot of the budget is given, so it shows the newest state whenever it goes."""
        failures = 0
        try:
            while match_id in self.shown.stale:
                # A click answering with the table goes first: then nothing may be left.
                await self.shown.answered(match_id)
                self.shown.waiting.add(match_id)  # a click on it meanwhile redraws it
                # Through a click's token the edit is free: no slot of the budget to wait for.
                free = self.shown.reach(match_id, await self._message_id(match_id))
                async with contextlib.nullcontext() if free else self.bot.outbox.turn(Lane.EDIT):
                    self.shown.waiting.discard(match_id)
                    await self.shown.answered(match_id)  # one that came while this waited
                    self.shown.stale.discard(match_id)
                    try:
                        await self.refresh(match_id)
                        failures = 0
                    except Exception as exc:
                        wait = retry_delay(exc, failures)
                        if wait is None:
                            log.exception("could not refresh the table of match %s", match_id)
                        elif not refused(exc) and (failures := failures + 1) >= EDIT_FAILURES:
                            # Discord is unwell: the next change redraws the table.
                            log.warning("gave up on the table of match %s: %s", match_id, exc)
                        else:
                            # The newest state goes when Discord is ready: not this one again.
                            self.shown.stale.add(match_id)
                            await asyncio.sleep(wait)
                await asyncio.sleep(self.edit_interval)
        finally:
            self.shown.waiting.discard(match_id)
            self._flushers.pop(match_id, None)

    def _picture_overdue(self, match_id: str) -> None:
        """The late picture did not come in time: the edit goes without it."""
        if match_id in self._picture_awaited:
            self.request_refresh(match_id)

    async def _message_id(self, match_id: str) -> int:
        return (await self.service.current(match_id)).message_id or 0

    async def refresh(self, match_id: str) -> None:
        record = await self.service.current(match_id)
        if record.message_id is None:
            return  # the lobby's message is not known yet; /play will store it
        # The text never waits long for the picture: a late one comes with the next edit.
        drawn = await self.drawing.table_message(
            record, late=lambda: self.request_refresh(match_id)
        )
        edit = self.shown.edit(match_id, record.message_id, drawn)
        if edit is None:
            return  # it shows this already (a click's answer drew it)
        kwargs, showing = edit
        reach = self.shown.reach(match_id, record.message_id)
        if reach is not None:
            try:
                message: discord.Message = await self.poster.unarchived(
                    record.channel_id, lambda: edit_through(self.bot, reach, **kwargs)
                )
            except discord.HTTPException:
                # The token expired early or the message is gone: the budgeted edit, in
                # its turn (the table is redrawn then, kwargs may hold a spent picture).
                self.shown.lose_reach(match_id, reach)
                self.shown.stale.add(match_id)
                return
            self.shown.remember(record, message, showing)
            return
        if drawn.late:
            # The picture asks for this edit again once drawn (``late``): one budgeted edit.
            loop = asyncio.get_running_loop()
            since = self._picture_awaited.setdefault(match_id, loop.time())
            if since == loop.time():
                loop.call_later(PICTURE_PATIENCE, self._picture_overdue, match_id)
            if loop.time() - since < PICTURE_PATIENCE:
                return
        self._picture_awaited.pop(match_id, None)
        channel = self.bot.get_partial_messageable(record.channel_id)
        table = channel.get_partial_message(record.message_id)
        try:
            message = await self.poster.unarchived(record.channel_id, lambda: table.edit(**kwargs))
        except discord.NotFound:
            # Someone deleted the table: post a fresh one rather than leave the match stuck.
            message = await self.poster.post(record.channel_id, **drawn.sent())
            await self.service.set_message(match_id, message.id)
        self.shown.remember(record, message, showing)


async def after(before: asyncio.Task[object] | None, then: Awaitable[None]) -> None:
    """``then`` once ``before`` (if any) is done."""
    if before is not None and not before.done():
        await asyncio.wait({before})
    await then


PRESENTERS: PerClient[Presenter] = PerClient("the table's presenter")
