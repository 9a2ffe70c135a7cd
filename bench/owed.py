"""Pings and results owed against those Discord received, in the load bench (issue 39's
"no ping or result lost").

The bot's own warnings that it gave a message up (``budget.LogTally``) say only what the
bot knows it lost. This counts from both ends instead:

* a **ping** is owed each time the bot sets out to call on seats (``Pings._post_or_edit``:
  a new turn ping, or the live one edited to say the new move); it is delivered when the
  offline Discord gets, after that moment, a public message or edit in the match's channel
  that mentions one of those seats' people. A ping whose call has not returned when the
  bench stops counting is "still queued" (waiting for its turn in the budget).
* a **result** is owed by every match that finished (the service's ``finished`` change) and
  delivered when a new public message carrying that match's Rematch button reaches the
  offline Discord (``Notices.say_the_end``; the table's own edit is not it).

Owed and not delivered, once the people stopped and the queues had ``TAIL_LIMIT`` seconds
to empty, is lost.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.service import Change
from cogs.table import presenter_of
from devtools.offline_discord import FakeMessage

MENTION = re.compile(r"<@(\d+)>")
REMATCH = re.compile(r"^cj:rematch:(.+)$")


@dataclass
class Owing:
    """One ping the bot set out to send: to whom, where, and whether it arrived."""

    channel_id: int
    users: frozenset[int]
    returned: bool = False
    delivered: bool = False


class Owed:
    def __init__(self) -> None:
        self._pings: dict[int, list[Owing]] = {}  # channel -> pings not yet delivered
        self.pings_owed = 0
        self.pings_delivered = 0
        self.results_owed: set[str] = set()
        self.results_delivered: set[str] = set()
        self.counting = False

    # --- the bot's side ------------------------------------------------------------------
    def install(self, bot: discord.Client) -> None:
        """Count each ping the bot sets out to send (wraps the bot's own method)."""
        pings = presenter_of(bot).pings
        original = pings._post_or_edit

        async def post_or_edit(record: Any, pinged: Sequence[int], *args: Any, **kw: Any) -> Any:
            users = {s.user_id for s in record.seats if s.seat in pinged and s.user_id}
            owing = self.expect(record.channel_id, users)
            try:
                return await original(record, pinged, *args, **kw)
            finally:
                if owing is not None:
                    owing.returned = True

        pings._post_or_edit = post_or_edit  # type: ignore[method-assign]

    def expect(self, channel_id: int, users: set[int]) -> Owing | None:
        """The bot sets out to call on ``users`` in the channel (none: not a ping)."""
        if not self.counting or not users:
            return None
        owing = Owing(channel_id, frozenset(users))
        self.pings_owed += 1
        self._pings.setdefault(channel_id, []).append(owing)
        return owing

    async def listen(self, change: Change) -> None:
        if self.counting and change.kind == "finished":
            self.results_owed.add(change.match.match_id)

    # --- Discord's side ------------------------------------------------------------------
    def seen(self, msg: FakeMessage) -> None:
        """A public message was posted or edited."""
        waiting = self._pings.get(msg.channel_id)
        if not waiting:
            return
        mentioned = {int(found) for found in MENTION.findall(msg.content or "")}
        for owing in waiting:
            if owing.users & mentioned:
                owing.delivered = True
                self.pings_delivered += 1
                waiting.remove(owing)
                break

    def posted(self, msg: FakeMessage) -> None:
        """A public message was posted (not edited): a match's result?"""
        for row in msg.components:
            for component in [row, *row.get("components", [])]:
                if found := REMATCH.match(component.get("custom_id", "")):
                    self.results_delivered.add(found.group(1))

    # --- the figures ---------------------------------------------------------------------
    @property
    def pings_queued(self) -> int:
        """Owed, not delivered, and the bot still at it (waiting for the budget)."""
        return sum(1 for w in self._waiting() if not w.returned)

    @property
    def pings_lost(self) -> int:
        """Owed, not delivered, and the bot done with it."""
        return sum(1 for w in self._waiting() if w.returned)

    @property
    def results_lost(self) -> int:
        return len(self.results_owed - self.results_delivered)

    def _waiting(self) -> list[Owing]:
        return [w for waiting in self._pings.values() for w in waiting]

    async def settled(self, limit: float) -> None:
        """Wait (up to ``limit`` seconds) until every owed ping and result arrived."""
        give_up = time.perf_counter() + limit
        while (self._waiting() or self.results_lost) and time.perf_counter() < give_up:
            await asyncio.sleep(0.25)
        self.counting = False
