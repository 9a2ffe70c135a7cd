"""Turn pings: a new message with a real mention for each seat that newly must decide,
sent off the click's path (a burst of moves pings once), kept until its player answers,
and a direct message in slow games for those who asked. A player who clicked in the match
moments ago (a move, Show hand, Join, Start) is looking at it: their open hand view
follows the turn, the table shows it, and the mention waits until they have not clicked
for a while (``Pings.looking``): it comes only if they went away. An open hand view also
follows a change that told its seat something of its own (the cards a pass brought it) or
gave it a chance (a shout), whoever moved."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING

import discord

from bot.clock import Clock
from bot.errors import UserError
from bot.service import Change, settings_of
from bot.service.base import waiting_on
from bot.service.deadlines import clock_stamp
from bot.store import MatchRecord
from bot.timing import PAUSED_FROM
from cogs import render
from cogs.components import components_view
from cogs.speech import label, languages, say
from cogs.table.base import Part
from cogs.table.buttons import TableButton
from cogs.table.drawing import Drawing
from cogs.table.hands import Hands
from cogs.table.notices import Notices
from cogs.table.posting import Poster, with_retries
from cogs.table.sweeps import Sweeps
from games.core.protocol import Decision, Event, Game, GameState
from games.core.text import Text, t, tc

if TYPE_CHECKING:
    from bot.client import CookieJar

log = logging.getLogger(__name__)


# Seconds: a player who clicked in the match this recently is looking at it. Their open
# hand view shows the next move (``Hands.follow``), the table whose turn it is; a mention
# now would only buzz their phone. It waits until they have not clicked for this long.
RECENT = 30.0
# A waiting mention leaves its player at least this share of the time their clock had
# left (a live table's 20 s answer to a challenge waits 5 s, not 30).
LOOKING_SHARE = 0.25
# Seconds a reminder waits for the others that come due with it. The timers of a decision
# everyone owes at once share one due time and fire one after another in the scheduler's
# batch, a database read apart: two seconds holds even a slow database's batch of eight,
# and is nothing next to the clocks that get reminders (ten minutes or more).
GATHER = 2.0


@dataclass(frozen=True)
class Moment:
    """A moment on both clocks: the loop's (what a click's recency is) and the service's
    (what deadlines are in; tests move either alone). Time since it has passed when
    either clock says so."""

    loop: float
    clock: float

    @classmethod
    def now(cls, clock: Clock) -> Moment:
        return cls(asyncio.get_running_loop().time(), clock.now())

    def since(self, earlier: Moment) -> float:
        return max(self.loop - earlier.loop, self.clock - earlier.clock)

    def after(self, seconds: float) -> Moment:
        return Moment(self.loop + seconds, self.clock + seconds)

    def reached(self, now: Moment) -> bool:
        return now.loop >= self.loop or now.clock >= self.clock


@dataclass(frozen=True)
class Later:
    """A mention waiting while its player looks: when it is due, and the click it waited
    from (a newer click means they are looking still)."""

    due: Moment
    seen: Moment


@dataclass
class LivePing:
    """A ping still calling on some of its seats: kept (and edited) until they answer."""

    channel_id: int
    message_id: int
    seats: set[int] = field(default_factory=set)
    # A reminder's: the decision (clock stamp) it reminded each seat of, stale once gone.
    stamps: dict[int, str] = field(default_factory=dict)
    # A reminder's words for the seats it still calls on: edited as the others answer.
    text_for: Callable[[Sequence[int]], str] | None = None


class Pings(Part):
    def __init__(
        self,
        bot: CookieJar,
        poster: Poster,
        sweeps: Sweeps,
        notices: Notices,
        drawing: Drawing,
        hands: Hands,
    ) -> None:
        super().__init__(bot)
        self.poster, self.sweeps, self.notices = poster, sweeps, notices
        self.drawing, self.hands = drawing, hands
        # Seats that newly must decide gather here until the match's ping task sends.
        self._ping_seats: dict[str, set[int]] = {}
        # Seats whose open hand view is redrawn: new deciders, and racers whose race ended.
        self._follow: dict[str, set[int]] = {}
        self._ping_news: dict[str, list[str]] = {}  # the public lines the next ping tells of
        # Seats whose live ping asks what no longer stands: it is edited to their new move.
        self._reword: dict[str, set[int]] = {}
        self._pingers: dict[str, asyncio.Task[object]] = {}
        self._live: dict[str, dict[int, LivePing]] = {}  # per match: each seat's live ping
        # (match, user) -> when they last clicked one of the match's components.
        self._seen: dict[tuple[str, int], Moment] = {}
        # Per match: seats whose mention waits while they look, and when it is due.
        self._later: dict[str, dict[int, Later]] = {}
        # Per match: seats whose waited mention came due: pinged without another wait.
        self._owed: dict[str, set[int]] = {}
        self._waiters: dict[str, asyncio.Task[object]] = {}
        # (match, seat) -> the service's clock when a new message last called on the seat:
        # /remind leaves a person pinged within the hour alone.
        self._pinged: dict[tuple[str, int], float] = {}
        # (match, timer kind) -> the reminders gathering for one message (``remind``).
        self._reminders: dict[tuple[str, str], list[Change]] = {}

    def forget(self, match_id: str) -> None:
        """An ended match pings nobody any more: its pings go."""
        self._ping_seats.pop(match_id, None)
        self._follow.pop(match_id, None)
        self._reword.pop(match_id, None)
        self._ping_news.pop(match_id, None)
        for ping in {id(p): p for p in self._live.pop(match_id, {}).values()}.values():
            self.sweeps.retire(ping.channel_id, ping.message_id)
        self._later.pop(match_id, None)
        self._owed.pop(match_id, None)
        waiter = self._waiters.pop(match_id, None)
        if waiter is not None:
            waiter.cancel()
        for memory in (self._seen, self._pinged):
            for key in [k for k in memory if k[0] == match_id]:
                del memory[key]
        self.drawing.forget(match_id)

    def clicked(self, match_id: str, user_id: int) -> None:
        """The person clicked one of the match's components (a move, Show hand, Join,
        Start...): they are looking at it."""
        self._seen[(match_id, user_id)] = Moment.now(self.service.clock)

    def answered(self, match_id: str, seats: set[int]) -> None:
        """Seats no longer asked: their ping has done its work and is swept (never before
        its player answered, so a tapped notification finds its message); a mention
        waiting for them is not owed any more."""
        later, owed = self._later.get(match_id, {}), self._owed.get(match_id, set())
        for seat in seats:
            later.pop(seat, None)
            owed.discard(seat)
        self._release(match_id, seats)

    def _release(self, match_id: str, seats: set[int]) -> None:
        """The seats' live pings call on them no more; one calling on nobody is swept, and
        a reminder still calling on others names only them."""
        live = self._live.get(match_id, {})
        fewer: dict[int, LivePing] = {}
        for seat in seats:
            ping = live.pop(seat, None)
            if ping is not None:
                ping.seats.discard(seat)
                if not ping.seats:
                    self.sweeps.retire(ping.channel_id, ping.message_id)
                    fewer.pop(id(ping), None)
                elif ping.text_for is not None:
                    fewer[id(ping)] = ping
        for ping in fewer.values():
            self.bot.spawn(self._name_fewer(ping), f"remind-edit:{match_id}")

    async def _name_fewer(self, ping: LivePing) -> None:
        assert ping.text_for is not None
        channel = self.bot.get_partial_messageable(ping.channel_id)
        text = ping.text_for(sorted(ping.seats))
        with contextlib.suppress(discord.HTTPException):  # swept meanwhile: nothing to say
            await channel.get_partial_message(ping.message_id).edit(content=text)

    async def ping_new_deciders(self, change: Change) -> None:
        """Seats that must now decide and did not before get their open hand redrawn and,
        unless they answered moments ago, a ping, sent after the click is answered (see
        ``_send_pings``)."""
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
        now = waiting_on(deciding)
        new = {s for s in now if (s not in before or s in racing)} - forced
        # A seat a bot plays (a stand-in, a forfeit) is answered at once by the bot: its
        # person is not called on, and a ping still calling on it has done its work.
        people, played = people_and_played(change.match)
        match_id = change.match.match_id
        self.answered(match_id, ((before - now) & people) | played)
        # A reminder is of one decision: once that gave way to another of the seat's own
        # (the last to pass rolls next), its deadline is stale though the seat decides on.
        standing = {(d.seat, clock_stamp(d)) for d in deciding}
        reminded = {s: p.stamps.get(s) for s, p in self._live.get(match_id, {}).items()}
        self._release(match_id, {s for s, t in reminded.items() if t and (s, t) not in standing})
        # A racer whose race ended (the milk was caught) sees who got what in their hand.
        raced_out = {d.seat for d in earlier if d.window is not None} - now
        # A seat told something of its own by another's move (the cards a pass brought it,
        # what a swap took), or whose hand it changed, would see the old hand in its view.
        told = told_privately(change.events) - before
        if change.previous is not None:  # a hand handed over whole, a new deal
            told |= game.hands_changed(change.previous, change.state) - before
        # A chance that opened (a Snickerdoodle! to shout) shows only in its seat's open
        # hand view: never pinged, which would tell the table.
        chanced = chances(deciding) - chances(earlier)
        said = [e.text for e in change.events if e.visible_to is None]
        for stamp in races:  # who grabbed what, for a grab that came too late
            self.drawing.race_said(match_id, stamp, said)
        if said:  # what happened, for the ping that tells of it (the latest lines win)
            self._ping_news[match_id] = (self._ping_news.get(match_id, []) + said)[-3:]
        humans, follow = new & people, (new | raced_out | told | chanced) & people
        reword = self._moved_on(match_id, earlier, deciding) & people
        if not follow and not reword:
            return
        self._ping_seats.setdefault(match_id, set()).update(humans)
        self._follow.setdefault(match_id, set()).update(follow)
        self._reword.setdefault(match_id, set()).update(reword)
        task = self._pingers.get(match_id)
        if task is None or task.done():
            self._pingers[match_id] = self.bot.spawn(self._send_pings(match_id), f"ping:{match_id}")

    def _moved_on(
        self, match_id: str, earlier: Sequence[Decision], deciding: Sequence[Decision]
    ) -> set[int]:
        """Seats still deciding, but something else, whose live ping asked the question
        they answered (a Cover defender let the set go and the turn is theirs): the ping
        is edited to say the move that stands. Alike whether they clicked or their lone
        answer was played for them, so the ping tells nobody which it was. Only a
        reaction's ping quotes its question; "your move" stays true over a turn's moves."""
        live = self._live.get(match_id, {})
        # A race is one decision however its options shrink (its ping holds the grabs).
        standing = {(d.seat, clock_stamp(d)) for d in deciding}
        asked = {d.seat for d in earlier if d.reaction and (d.seat, clock_stamp(d)) not in standing}
        return {s for s in asked & set(waiting_on(deciding)) if s in live}

    async def called_on(self, match_id: str) -> set[int]:
        """The seats a turn ping calls on now: every seat deciding, but those whose move
        is played for them without one."""
        record, deciding = await self.service.deciding_now(match_id)
        unpinged = await self.unpinged(record, self.service.load_state(record))
        return set(waiting_on(deciding)) - unpinged

    async def unpinged(self, record: MatchRecord, state: GameState) -> set[int]:
        """Seats whose decision is played for them (a lone Pass): no ping, unless whether
        they had a choice is a secret the missing ping would tell (``hides_choice``)."""
        forced = await self.service.forced_for(record, state)
        return {seat for seat, decision in forced.items() if not decision.hides_choice}

    async def _send_pings(self, match_id: str) -> None:
        """Redraw the open hands of those the turn came to, then ping the rest.

        A new message with a real mention (an edited mention does not notify), within the
        channel's message rate; whoever answered meanwhile is left out of it."""
        try:
            while any(match_id in d for d in (self._ping_seats, self._follow, self._reword)):
                record, deciding = await self.service.deciding_now(match_id)
                if record.status != "active":
                    return
                seats = await self._to_ping(record, deciding)
                await self._reword_pings(record, seats)
                if not seats:
                    continue
                await self.poster.pace.wait(record.channel_id)
                record, deciding = await self.service.deciding_now(match_id)
                seats |= await self._to_ping(record, deciding)  # gathered while waiting
                # A seat a bot took meanwhile (a timeout while the ping waited) is left out.
                pinged = sorted(seats & waiting_on(deciding) & people_and_played(record)[0])
                if not pinged or record.status != "active":
                    continue
                game = self.service.game_of(record)
                deadlines = await self.service.deadlines(match_id)
                said = self._ping_news.pop(match_id, [])
                language = await languages(self.bot).public(record.guild_id)
                grabs = self.grab_buttons(record, deciding, pinged, language)
                text, view = turn_ping(
                    record, game, deciding, pinged, deadlines, language, said, grabs
                )
                # A race is timed: its ping must notify, and an edit does not.
                racing = any(d.window is not None and d.seat in pinged for d in deciding)
                if await self._post_or_edit(record, pinged, text, view, notify=racing):
                    await self.dm_turns(record, game, pinged, deadlines)
        except UserError:
            return  # the match is gone
        finally:
            self._pingers.pop(match_id, None)

    async def _reword_pings(self, record: MatchRecord, pinging: set[int]) -> None:
        """Edit each live ping whose seats all moved on to a new decision to say it (an
        edit notifies nobody); seats about to be pinged anyway are left to that ping."""
        match_id = record.match_id
        seats = self._reword.pop(match_id, set()) - pinging
        live = self._live.get(match_id, {})
        pings = {id(live[s]): live[s] for s in seats if s in live}
        if not pings:
            return
        record, deciding = await self.service.deciding_now(match_id)
        waiting = waiting_on(deciding)
        game = self.service.game_of(record)
        deadlines = await self.service.deadlines(match_id)
        said = self._ping_news.get(match_id, [])
        language = await languages(self.bot).public(record.guild_id)
        for ping in pings.values():
            if not ping.seats <= seats & set(waiting) or ping.text_for is not None:
                continue  # it still asks someone else, or is a reminder: left as it is
            text, view = turn_ping(
                record, game, deciding, sorted(ping.seats), deadlines, language, said
            )
            await self._post_or_edit(record, sorted(ping.seats), text, view)

    async def _to_ping(self, record: MatchRecord, deciding: Sequence[Decision]) -> set[int]:
        """Follow the gathered seats' open hands; the seats that need a ping now: all but
        those looking at the match, whose mention waits (``looking``)."""
        match_id = record.match_id
        seats = self._ping_seats.pop(match_id, set())
        follow = self._follow.pop(match_id, set())
        news = self._ping_news.get(match_id, [])
        note = news[-2:]  # public lines only
        for seat in sorted(follow):
            user_id = record.seats[seat].user_id
            if user_id is None or not self.hands.is_open(match_id, user_id):
                continue  # (a view drawn and never sent would be left to the collector)
            seen = await self.service.seat_view(match_id, user_id)
            language = await languages(self.bot).of_person(user_id, record.guild_id)
            drawn = await self.drawing.hand_message(seen, note, language=language, answer=False)
            await self.hands.follow(match_id, user_id, drawn.edited())
        return await self.looking(record, deciding, seats)

    async def looking(
        self, record: MatchRecord, deciding: Sequence[Decision], seats: set[int]
    ) -> set[int]:
        """Of the seats owed a mention, those pinged now: whose person has not clicked in
        the match for ``RECENT`` seconds, or whose waited mention came due. The others are
        looking at it (their open hand follows the turn, the table shows it): theirs waits
        until they have not clicked for ``RECENT`` seconds (no longer than
        ``LOOKING_SHARE`` of their clock's time left), and goes then if they still must
        decide: never lost, only not sent to someone who is looking. A race is over in
        seconds and its ping carries the grab buttons: a racer is pinged at once."""
        match_id = record.match_id
        owed = self._owed.pop(match_id, set())
        racing = {d.seat for d in deciding if d.window is not None}
        now = Moment.now(self.service.clock)
        looking: dict[int, Moment] = {}
        for seat in seats - owed - racing:
            seen = self._seen.get((match_id, record.seats[seat].user_id or 0))
            if seen is not None and now.since(seen) < RECENT:
                looking[seat] = seen
        later = self._later.setdefault(match_id, {})
        for seat in racing & seats:
            later.pop(seat, None)  # a mention that waited for another decision: now, racing
        if looking:
            deadlines = await self.service.deadlines(match_id)
            for seat in looking:
                wait = RECENT - now.since(looking[seat])
                if seat in deadlines:
                    wait = min(wait, LOOKING_SHARE * (deadlines[seat] - now.clock))
                if wait > 0:
                    later[seat] = Later(now.after(wait), looking[seat])
        task = self._waiters.get(match_id)
        if later and (task is None or task.done()):
            self._waiters[match_id] = self.bot.spawn(
                self._ping_later(match_id), f"ping-later:{match_id}"
            )
        if not later:
            del self._later[match_id]
        return seats - later.keys()

    async def _ping_later(self, match_id: str) -> None:
        """The mentions that waited while their players looked, each when due: owed then,
        unless the player clicked in the match meanwhile (looking still: asked again) or
        answered (owed nothing)."""
        loop = asyncio.get_running_loop()
        try:
            while later := self._later.get(match_id):
                now = Moment.now(self.service.clock)
                due = {seat for seat, wait in later.items() if wait.due.reached(now)}
                if not due:
                    wake = asyncio.Event()
                    soonest = min(wait.due.loop for wait in later.values())
                    timer = loop.call_at(soonest, wake.set)
                    try:
                        when = min(wait.due.clock for wait in later.values())
                        await self.service.clock.sleep_until(when, wake)
                    finally:
                        timer.cancel()
                    continue
                record = await self.service.get(match_id)
                # Read anew: while the match was read, a seat may have answered (its wait
                # gone, nothing owed) or looked again (a new wait, not due yet).
                later = self._later.get(match_id, {})
                owed = self._owed.setdefault(match_id, set())
                for seat in set(due):
                    wait = later.get(seat)
                    if wait is None or not wait.due.reached(now):
                        due.discard(seat)  # answered: owed nothing; looked again: not yet
                        continue
                    del later[seat]
                    user_id = record.seats[seat].user_id or 0
                    if self._seen.get((match_id, user_id)) is wait.seen:
                        owed.add(seat)
                self._ping_seats.setdefault(match_id, set()).update(due)
                task = self._pingers.get(match_id)
                if task is None or task.done():
                    self._pingers[match_id] = self.bot.spawn(
                        self._send_pings(match_id), f"ping:{match_id}"
                    )
        except UserError:
            return  # the match is gone
        finally:
            if self._waiters.get(match_id) is asyncio.current_task():
                del self._waiters[match_id]

    def grab_buttons(
        self,
        record: MatchRecord,
        deciding: Sequence[Decision],
        pinged: list[int],
        language: str,
    ) -> discord.ui.View:
        """A scramble's ping carries the grab buttons: one click grabs (the pile is public;
        the answer is the grabber's own hand view)."""
        view = components_view()
        race = next((d for d in deciding if d.window is not None and d.seat in pinged), None)
        if race is not None:
            self.drawing.add_race(view, record.match_id, race, language)
        return view

    async def _post_or_edit(
        self,
        record: MatchRecord,
        pinged: list[int],
        text: str,
        view: discord.ui.View,
        *,
        notify: bool = False,
    ) -> bool:
        """One ping per player: one still calling on exactly these seats is edited;
        otherwise, or when it must ``notify`` (an edited mention does not: a scramble is
        timed), a new one, which takes the old one's place. True when a new ping was
        posted."""
        match_id = record.match_id
        live = self._live.setdefault(match_id, {})
        held = {id(live[s]): live[s] for s in pinged if s in live}
        if not notify and len(held) == 1 and all(s in live for s in pinged):
            (ping,) = held.values()
            message = self.bot.get_partial_messageable(ping.channel_id)
            with contextlib.suppress(discord.HTTPException):
                await message.get_partial_message(ping.message_id).edit(content=text, view=view)
                return False
        try:
            posted = await with_retries(
                partial(self.poster.post, record.channel_id, text, view=view, paced=True),
                f"the ping in match {match_id}",
            )
        except (discord.HTTPException, TimeoutError, OSError):
            log.warning("could not ping in channel %s", record.channel_id)
            return False
        self._hold(record, pinged, posted)
        return True

    def _hold(
        self,
        record: MatchRecord,
        seats: Sequence[int],
        posted: discord.Message,
        stamps: dict[int, str] | None = None,
        text_for: Callable[[Sequence[int]], str] | None = None,
    ) -> None:
        """A new message calling on ``seats`` (a ping, a reminder of the decisions
        ``stamps``) is kept until they answer and takes the place of the one that called on
        them before, which is swept."""
        self.sweeps.posted(posted)
        live = self._live.setdefault(record.match_id, {})
        ping = LivePing(record.channel_id, posted.id, set(seats), dict(stamps or {}), text_for)
        now = self.service.clock.now()
        for seat in seats:
            self._pinged[(record.match_id, seat)] = now
            old = live.get(seat)
            live[seat] = ping
            if old is not None and old is not ping:
                old.seats.discard(seat)  # the new ping calls on them now
                if not old.seats:
                    self.sweeps.retire(old.channel_id, old.message_id)

    def pinged_at(self, match_id: str, seat: int) -> float | None:
        """When a new message last called on the seat (a turn ping, a reminder, a nudge)."""
        return self._pinged.get((match_id, seat))

    async def remind(self, change: Change) -> None:
        """A reminder, a last call or a nudge goes the way of a turn ping: swept once its
        player answers, so none is left saying \"time runs out\" of a move already made.

        Those of one kind that come due together in one match (everyone owes the same
        simultaneous pass) gather for ``GATHER`` seconds and go out as one message naming
        every seat, kept until the last of them has answered: one post, not one a seat."""
        if change.timer is None:
            return
        key = (change.match.match_id, change.timer.kind)
        gathered = self._reminders.get(key)
        if gathered is not None:
            gathered.append(change)  # the task gathering them sends it with the others
            return
        self._reminders[key] = [change]
        self.bot.spawn(self._send_reminder(key), f"remind:{key[0]}")

    async def _send_reminder(self, key: tuple[str, str]) -> None:
        try:
            await asyncio.sleep(GATHER)
        finally:
            changes = self._reminders.pop(key, [])
        try:
            record, deciding = await self.service.deciding_now(key[0])
        except UserError:
            return  # the match is gone
        # A decision answered while the others gathered (or timed out: a last call shares
        # the scheduler's batch with its timeout after a long sleep) is called on no more.
        standing = {(d.seat, clock_stamp(d)) for d in deciding}
        standing |= {(seat, "") for seat in waiting_on(deciding)}  # a nudge's: any owing
        changes = [c for c in changes if c.timer and (c.timer.seat, c.timer.stamp) in standing]
        if record.status != "active" or not changes:
            return
        reminded = await self.notices.remind(changes)
        if reminded is not None:
            stamps = {c.timer.seat: c.timer.stamp for c in changes if c.timer}
            seats = reminded.seats
            self._hold(
                record, seats, reminded.message, {s: stamps[s] for s in seats}, reminded.text_for
            )

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
            if due:
                text = t(
                    "🎯 It's your move in **{game}**: {link} Answer <t:{due}:R>.",
                    game=game.name,
                    link=link,
                    due=int(due),
                )
            else:
                text = t("🎯 It's your move in **{game}**: {link}", game=game.name, link=link)
            language = await languages(self.bot).of_person(seat.user_id, record.guild_id)
            await self.notices.direct_message(seat.user_id, say(text, language))


def chances(decisions: Sequence[Decision]) -> set[int]:
    """The seats that may take a chance now (optional decisions: a shout)."""
    return {d.seat for d in decisions if d.optional}


def told_privately(events: Sequence[Event]) -> set[int]:
    """The seats some of these lines were for alone."""
    return {seat for e in events if e.visible_to is not None for seat in e.visible_to}


def people_and_played(record: MatchRecord) -> tuple[set[int], set[int]]:
    """The seats a person plays, and the people's seats a bot plays for them now (a
    stand-in until they are back, or a forfeited seat): those are never pinged."""
    people = {s.seat for s in record.seats if not s.played_by_bot}
    played = {s.seat for s in record.seats if s.user_id is not None and s.played_by_bot}
    return people, played


def turn_ping(
    record: MatchRecord,
    game: Game,
    deciding: Sequence[Decision],
    seats: list[int],
    deadlines: dict[int, float],
    language: str,
    said: Sequence[str] = (),
    view: discord.ui.View | None = None,
) -> tuple[str, discord.ui.View]:
    """What a ping says, in the server's ``language``: the situation and the deadline, with
    Show hand and a jump link.

    A reaction's prompt answers a public move (a challenge) and names nothing hidden, so it
    is quoted; a turn's prompt may name the player's own cards, so the situation of a turn
    is told by the last public lines of the moves that led to it (``said``) instead."""
    users = {s.seat: s.user_id for s in record.seats if s.seat in seats and s.user_id}
    mine = [d for d in deciding if d.seat in users and not d.optional]

    def when(group: list[Decision]) -> int | None:
        due = [deadlines[d.seat] for d in group if d.seat in deadlines]
        return int(min(due)) if due else None

    def mention(group: list[Decision]) -> Text:
        seated = dict.fromkeys(d.seat for d in group)
        return render.spaced([t("<@{user}>", user=users[seat]) for seat in seated])

    lines: list[Text] = []
    races = [d for d in mine if d.window is not None]
    reactions = [d for d in mine if d.window is None and d.reaction]
    turns = [d for d in mine if d.window is None and not d.reaction]
    if races:
        closes = when(races)
        if closes:
            lines.append(
                t(
                    "🏃 {people}, the scramble is on: grab below — it closes <t:{due}:R>.",
                    people=mention(races),
                    due=closes,
                )
            )
        else:
            lines.append(t("🏃 {people}, the scramble is on: grab below.", people=mention(races)))
    for decision in reactions:
        due = when([decision])
        prompt = render.game_words(decision.prompt)
        if due:
            lines.append(
                t(
                    "⚔️ {people}: {prompt} — answer <t:{due}:R>",
                    people=mention([decision]),
                    prompt=prompt,
                    due=due,
                )
            )
        else:
            lines.append(t("⚔️ {people}: {prompt}", people=mention([decision]), prompt=prompt))
    news = ""
    if turns:
        due = when(turns)
        if due:
            lines.append(
                t(
                    "🎯 {people}, your move in **{game}** — <t:{due}:R>.",
                    people=mention(turns),
                    game=game.name,
                    due=due,
                )
            )
        else:
            lines.append(
                t("🎯 {people}, your move in **{game}**.", people=mention(turns), game=game.name)
            )
        if said:
            news = "\n> " + " ".join(say(line, language) for line in said[-3:])
    view = view or components_view()  # a scramble's grab buttons come first
    hand = tc("button", "My hand") if races else None
    view.add_item(TableButton("hand", record.match_id, label=hand, language=language))
    link = render.jump_link(record)
    if link:
        jump = label(tc("button", "Jump to table"), language)
        view.add_item(discord.ui.Button(label=jump, url=link, emoji="⬆️"))
    text = "\n".join(say(line, language) for line in lines) + news
    return render.clip(text, render.CONTENT), view
