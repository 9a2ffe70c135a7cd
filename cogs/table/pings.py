"""Turn pings: a new message with a real mention for each seat that newly must decide,
sent off the click's path (a burst of moves pings once), and a direct message in slow
games for those who asked."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

import discord

from bot.errors import UserError
from bot.service import Change, settings_of
from bot.service.base import waiting_on
from bot.store import MatchRecord
from bot.timing import PAUSED_FROM
from cogs import render
from cogs.components import components_view
from cogs.table.base import Part
from cogs.table.buttons import TableButton
from cogs.table.notices import Notices
from cogs.table.posting import Poster, with_retries
from cogs.table.sweeps import Sweeps
from games.core.protocol import Decision, Game, GameState

if TYPE_CHECKING:
    from bot.client import CookieJar

log = logging.getLogger(__name__)


class Pings(Part):
    def __init__(self, bot: CookieJar, poster: Poster, sweeps: Sweeps, notices: Notices) -> None:
        super().__init__(bot)
        self.poster, self.sweeps, self.notices = poster, sweeps, notices
        # Seats that newly must decide gather here until the match's ping task sends.
        self._ping_seats: dict[str, set[int]] = {}
        self._ping_news: dict[str, list[str]] = {}  # the public lines the next ping tells of
        self._pingers: dict[str, asyncio.Task[object]] = {}

    def forget(self, match_id: str) -> None:
        """An ended match pings nobody any more."""
        self._ping_seats.pop(match_id, None)
        self._ping_news.pop(match_id, None)

    async def ping_new_deciders(self, change: Change) -> None:
        """Seats that must now decide and did not before get a ping, sent after the click
        is answered (see ``_send_pings``)."""
        if change.state is None:
            return
        game = self.service.game_of(change.match)
        decide = self.service.decisions
        earlier = decide(game, change.previous) if change.previous else ()
        before = set(waiting_on(earlier))
        if change.previous is not None:  # a seat whose move was played for it was not pinged
            before -= await self.unpinged(change.match, change.previous)
        races = {d.race_stamp for d in earlier if d.window is not None}
        deciding = decide(game, change.state)
        forced = await self.unpinged(change.match, change.state)
        # A race that opens is news even to a seat that was already deciding (the last
        # toss ends the choosing and starts the scramble).
        racing = {d.seat for d in deciding if d.window is not None and d.race_stamp not in races}
        new = {s for s in waiting_on(deciding) if (s not in before or s in racing)} - forced
        humans = {s.seat for s in change.match.seats if s.seat in new and s.user_id}
        match_id = change.match.match_id
        said = [e.text for e in change.events if e.visible_to is None]
        if said:  # what happened, for the ping that tells of it (the latest lines win)
            self._ping_news[match_id] = (self._ping_news.get(match_id, []) + said)[-3:]
        if not humans:
            return
        self._ping_seats.setdefault(match_id, set()).update(humans)
        task = self._pingers.get(match_id)
        if task is None or task.done():
            self._pingers[match_id] = self.bot.spawn(self._send_pings(match_id), f"ping:{match_id}")

    async def unpinged(self, record: MatchRecord, state: GameState) -> set[int]:
        """Seats whose decision is played for them (a lone Pass): no ping, unless whether
        they had a choice is a secret the missing ping would tell (``hides_choice``)."""
        forced = await self.service.forced_for(record, state)
        return {seat for seat, decision in forced.items() if not decision.hides_choice}

    async def _send_pings(self, match_id: str) -> None:
        """Post the match's pending ping, then sweep the previous one away.

        A new message with a real mention (an edited mention does not notify), within the
        channel's message rate; whoever answered meanwhile is left out of it."""
        try:
            while seats := self._ping_seats.pop(match_id, None):
                record, _ = await self.service.deciding_now(match_id)
                if record.status != "active":
                    return
                await self.poster.pace.wait(record.channel_id)
                seats |= self._ping_seats.pop(match_id, set())  # gathered while waiting
                record, deciding = await self.service.deciding_now(match_id)
                pinged = sorted(seats & waiting_on(deciding))
                if not pinged or record.status != "active":
                    continue
                if not any(record.seats[s].user_id for s in pinged):
                    continue
                game = self.service.game_of(record)
                deadlines = await self.service.deadlines(match_id)
                said = self._ping_news.pop(match_id, [])
                text, view = turn_ping(record, game, deciding, pinged, deadlines, said)
                try:
                    message = await with_retries(
                        partial(self.poster.post, record.channel_id, text, view=view, paced=True),
                        f"the ping in match {match_id}",
                    )
                except (discord.HTTPException, TimeoutError, OSError):
                    log.warning("could not ping in channel %s", record.channel_id)
                    continue
                self.sweeps.replace(match_id, message)
                await self.dm_turns(record, game, pinged, deadlines)
        except UserError:
            return  # the match is gone
        finally:
            self._pingers.pop(match_id, None)

    async def dm_turns(
        self, record: MatchRecord, game: Game, seats: list[int], deadlines: dict[int, float]
    ) -> None:
        """In games of a day or more a move, a turn may come while its player is away from
        the channel: those who asked (/notify) also hear of it by direct message."""
        if settings_of(record).budget() < PAUSED_FROM:
            return
        link = render.jump_link(record) or f"<#{record.channel_id}>"
        for seat in record.seats:
            if seat.seat not in seats or seat.user_id is None or seat.played_by_bot:
                continue
            due = deadlines.get(seat.seat)
            when = f" Answer <t:{int(due)}:R>." if due else ""
            await self.notices.direct_message(
                seat.user_id, f"🎯 It's your move in **{game.name}**: {link}{when}"
            )


def turn_ping(
    record: MatchRecord,
    game: Game,
    deciding: Sequence[Decision],
    seats: list[int],
    deadlines: dict[int, float],
    said: Sequence[str] = (),
) -> tuple[str, discord.ui.View]:
    """What a ping says: the situation and the deadline, with Show hand and a jump link.

    A reaction's prompt answers a public move (a challenge) and names nothing hidden, so it
    is quoted; a turn's prompt may name the player's own cards, so the situation of a turn
    is told by the last public lines of the moves that led to it (``said``) instead."""
    users = {s.seat: s.user_id for s in record.seats if s.seat in seats and s.user_id}
    mine = [d for d in deciding if d.seat in users and not d.optional]

    def when(group: list[Decision]) -> str:
        due = [deadlines[d.seat] for d in group if d.seat in deadlines]
        return f"<t:{int(min(due))}:R>" if due else ""

    def mention(group: list[Decision]) -> str:
        return " ".join(f"<@{users[seat]}>" for seat in dict.fromkeys(d.seat for d in group))

    lines = []
    races = [d for d in mine if d.window is not None]
    reactions = [d for d in mine if d.window is None and d.reaction]
    turns = [d for d in mine if d.window is None and not d.reaction]
    if races:
        closes = when(races)
        lines.append(
            f"🏃 {mention(races)}, the scramble is on: press **Grab cards** for your buttons"
            + (f" — it closes {closes}" if closes else "")
            + "."
        )
    for decision in reactions:
        due = when([decision])
        lines.append(
            f"⚔️ {mention([decision])} {decision.prompt}" + (f" — answer {due}" if due else "")
        )
    if turns:
        due = when(turns)
        lines.append(
            f"🎯 {mention(turns)}, your move in **{game.name}**"
            + (f" — {due}" if due else "")
            + "."
            + (f"\n> {' '.join(said[-3:])}" if said else "")
        )
    view = components_view()
    view.add_item(TableButton("hand", record.match_id, label="Grab cards" if races else None))
    link = render.jump_link(record)
    if link:
        view.add_item(discord.ui.Button(label="Jump to table", url=link, emoji="⬆️"))
    return render.clip("\n".join(lines), render.CONTENT), view
