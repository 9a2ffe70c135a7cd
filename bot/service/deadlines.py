"""Deadlines and absence: timers, reminders, timeouts, stand-ins, vacations, nudges."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from bot.errors import (
    Held,
    MatchNotFound,
    NotRunning,
    NotSeated,
    StaleClick,
    UserError,
)
from bot.service.base import (
    PEOPLE_KEPT,
    REMIND_EVERY,
    Change,
    Choice,
    default_answer,
    settings_of,
)
from bot.service.base import waiting_on as seats_waited_on
from bot.service.play import Play
from bot.store import MatchRecord, SeatRecord, Timer
from bot.store.models import GONE, PRESENT, STANDING_IN
from bot.timing import (
    DAY,
    PAUSED_FROM,
    VACATION_DAYS_A_MONTH,
    UserSettings,
    paused_due,
    plan,
)
from games.core.protocol import Decision, Game, GameState
from games.core.text import t, tn


def clock_stamp(decision: Decision) -> str:
    """What a decision's clock is tied to: the decision itself, or a whole race (its
    options shrink as cards are grabbed, and its window must not start again)."""
    return decision.race_stamp if decision.window is not None else decision.stamp


class Deadlines(Play):
    # --- clocks ------------------------------------------------------------------------
    async def timers_after(
        self, record: MatchRecord, before: GameState | None, state: GameState
    ) -> list[Timer]:
        """The deadline and reminders of every pending decision. A new decision's clock
        starts now; one that still stands (others answered simultaneous choices, or a race
        goes on) keeps the timers it had, so nobody's clock restarts for another's move."""
        if record.status != "active":
            return []
        game, settings, now = self.game_of(record), settings_of(record), self.clock.now()
        standing = set()
        if before is not None:
            standing = {clock_stamp(d) for d in self.decisions(game, before)}
        kept = []
        timers = []
        for decision in self.decisions(game, state):
            if decision.optional:
                continue
            stamp = clock_stamp(decision)
            if stamp in standing:
                kept.append((decision.seat, stamp))
                continue
            budget = settings.budget(decision.reaction)
            if settings.pace == "live":
                budget = decision.window or decision.live_seconds or budget
            timers += [
                Timer(
                    match_id=record.match_id,
                    kind=kind,
                    seat=decision.seat,
                    version=state.version,
                    due_at=due_at,
                    stamp=stamp,
                )
                for kind, due_at in plan(budget, now)
            ]
        if kept:
            old = await self.store.timers_of(record.match_id)
            timers += [t for t in old if (t.seat, t.stamp) in kept]
        return timers

    async def on_timer(self, timer: Timer) -> None:
        """A deadline or a reminder came due: the same locked path as a click."""
        try:
            record, state = await self._running(timer.match_id)
        except UserError:
            return  # the match is gone or over
        if record.status != "active" or not self._still_stands(record, state, timer):
            return  # stale: the decision it was set for was answered meanwhile
        if await self.postpone_for_vacation(record, timer):
            return
        if timer.kind == "timeout":
            await self.time_out(timer)
        else:
            await self.notify(Change(kind="reminder", match=record, state=state, timer=timer))

    async def time_out(self, timer: Timer) -> Change | None:
        """A clock ran out: the match's policy decides what happens to the seat.

        default_move: the decision's default move is played. bot: a bot takes the seat until
        its player is back, starting with this move. forfeit: default moves, and after
        ``forfeit_after`` timeouts in a row a bot takes the seat for good.
        """

        def choose(record: MatchRecord, game: Game, state: GameState) -> Choice:
            decision = self._still_stands(record, state, timer)
            if decision is None:
                raise StaleClick()
            if (decision.window is not None or decision.lenient) and decision.default is not None:
                # A race window closed, or silence meant "pass": nobody is to blame.
                return Choice(timer.seat, decision.default, decision)
            if decision.reaction and decision.default is not None:
                # A missed answer to someone else's move (a challenge) plays its default;
                # only a missed turn counts toward a bot taking the seat or a forfeit.
                return Choice(timer.seat, decision.default, decision, timed_out=True)
            settings = settings_of(record)
            seat = record.seats[timer.seat]
            away, missed = seat.away, seat.missed + 1
            if settings.on_timeout == "bot":
                away = max(away, STANDING_IN)
            elif settings.on_timeout == "forfeit" and missed >= settings.forfeit_after:
                away = GONE
            after = seat.model_copy(update={"away": away, "missed": missed})
            if away != PRESENT:
                # The bot now playing the seat plays the rest of its turn too.
                action = game.bot_action(state, timer.seat, decision=decision)
                return Choice(timer.seat, action, decision, after, timed_out=True)
            # One absence is one missed turn: the rest of it is played by default at once,
            # without a clock or a miss of its own (a Swap's cards after its player).
            action = default_answer(decision)
            return Choice(timer.seat, action, decision, after, timed_out=True, rest_of_turn=True)

        try:
            return await self._apply(timer.match_id, choose)
        except (StaleClick, NotRunning, MatchNotFound, Held):
            return None  # a click got there first: exactly one of them applies

    def _still_stands(self, record: MatchRecord, state: GameState, timer: Timer) -> Decision | None:
        """The decision a timer was set for, if it is still pending."""
        for decision in self.decisions(self.game_of(record), state):
            if decision.seat != timer.seat or decision.optional:
                continue
            if timer.stamp == clock_stamp(decision) or (
                not timer.stamp and timer.version == state.version  # set before stamps
            ):
                return decision
        return None

    async def postpone_for_vacation(self, record: MatchRecord, timer: Timer) -> bool:
        """With clocks of a day or more, a player's clock stops while they are away."""
        settings = settings_of(record)
        user_id = record.seats[timer.seat].user_id
        if settings.budget() < PAUSED_FROM or user_id is None:
            return False
        person = await self.user_settings(user_id)
        if not person.away_at(self.clock.now()):
            return False
        assert person.away_from is not None and person.away_until is not None
        later = timer.model_copy(
            update={
                "due_at": paused_due(
                    timer.due_at, settings.budget(), person.away_from, person.away_until
                )
            }
        )
        others = [
            t
            for t in await self.store.timers_of(record.match_id)
            if (t.kind, t.seat) != (timer.kind, timer.seat)
        ]
        await self.store.replace_timers(record.match_id, [*others, later])
        self._keep_timers(record.match_id, [*others, later])
        self.timers_changed()
        return True

    # --- people ------------------------------------------------------------------------
    async def user_settings(self, user_id: int) -> UserSettings:
        """A person's settings, for deciding something (a ping, a clock, a forced answer, a
        change to them): remembered, or read fresh on a shared database, where another
        process may have changed them (``Store.shared``)."""
        if self.store.shared:
            return await self._read_person(user_id)
        return await self.known_settings(user_id)

    async def known_settings(self, user_id: int) -> UserSettings:
        """A person's settings as remembered, for showing only (every table edit shows
        vacations): on a shared database they may lag another process's change."""
        known = self._people.get(user_id)
        if known is None:
            return await self._read_person(user_id)
        self._people.move_to_end(user_id)
        return known

    async def _read_person(self, user_id: int) -> UserSettings:
        known = UserSettings.model_validate_json(await self.store.user_settings(user_id))
        self._keep_person(user_id, known)
        return known

    def _keep_person(self, user_id: int, settings: UserSettings) -> None:
        self._people[user_id] = settings
        self._people.move_to_end(user_id)
        while len(self._people) > PEOPLE_KEPT:
            self._people.popitem(last=False)

    async def _save_person(self, user_id: int, settings: UserSettings) -> None:
        await self.store.save_user_settings(user_id, settings.model_dump_json())
        self._keep_person(user_id, settings)

    async def set_notify(self, user_id: int, on: bool) -> UserSettings:
        updated = (await self.user_settings(user_id)).model_copy(update={"notify": on})
        await self._save_person(user_id, updated)
        return updated

    async def set_always_ask(self, user_id: int, on: bool) -> UserSettings:
        updated = (await self.user_settings(user_id)).model_copy(update={"always_ask": on})
        await self._save_person(user_id, updated)
        return updated

    async def forced_for(self, record: MatchRecord, state: GameState) -> dict[int, Decision]:
        """The people's decisions that will be answered for them (``answer_forced``): ones
        with nothing to choose, of seats played by their own player who did not ask to
        be asked always. Bots answer their own; races and chances are never forced."""
        if record.status != "active":
            return {}
        forced = {}
        for decision in self.decisions(self.game_of(record), state):
            seat = record.seats[decision.seat]
            if decision.forced is None or seat.played_by_bot or seat.user_id is None:
                continue
            if not (await self.user_settings(seat.user_id)).always_ask:
                forced[decision.seat] = decision
        return forced

    async def answer_forced(self, match_id: str, seat: int, stamp: str) -> Change | None:
        """Play the one possible answer for a person, if that decision still stands. It is
        neither their click (a stand-in bot stays) nor an absence (no timeout is counted)."""
        try:
            record, _ = await self._running(match_id)
        except UserError:
            return None  # the match is gone
        user_id = record.seats[seat].user_id if seat < len(record.seats) else None
        if user_id is not None and (await self.user_settings(user_id)).always_ask:
            return None  # they asked, during the pause, to be asked after all

        def choose(record: MatchRecord, game: Game, state: GameState) -> Choice:
            decision = next(
                (d for d in game.decisions(state) if d.seat == seat and d.stamp == stamp), None
            )
            if decision is None or decision.forced is None or record.seats[seat].played_by_bot:
                raise StaleClick()
            return Choice(seat, decision.forced, decision)

        try:
            return await self._apply(match_id, choose)
        except (StaleClick, NotRunning, MatchNotFound, Held):
            return None  # answered, or changed, meanwhile

    async def go_away(self, user_id: int, until: float) -> UserSettings:
        """A vacation: clocks of async and correspondence games stop until ``until``.

        At most 14 days a calendar month (UTC), counted when booked."""
        now = self.clock.now()
        if until <= now:
            raise UserError(t("Pick a date in the future for your return."))
        current = await self.user_settings(user_id)
        month = datetime.fromtimestamp(now, UTC).strftime("%Y-%m")
        used = current.vacation_days if current.vacation_month == month else 0.0
        if current.away_at(now) and current.away_until is not None:
            used -= (current.away_until - now) / DAY  # replacing the vacation under way
        days = (until - now) / DAY
        if used + days > VACATION_DAYS_A_MONTH + 1e-9:
            left = max(0, int(VACATION_DAYS_A_MONTH - used + 1e-9))
            last = latest_return(now, used)
            if last is None:
                raise UserError(
                    tn(
                        "Vacations are limited to {most} days a month; you have {n} day left "
                        "this month.",
                        "Vacations are limited to {most} days a month; you have {n} days left "
                        "this month.",
                        n=left,
                        most=VACATION_DAYS_A_MONTH,
                    )
                )
            raise UserError(
                tn(
                    "Vacations are limited to {most} days a month; you have {n} day left "
                    "this month. The latest return date you can pick is {date}.",
                    "Vacations are limited to {most} days a month; you have {n} days left "
                    "this month. The latest return date you can pick is {date}.",
                    n=left,
                    most=VACATION_DAYS_A_MONTH,
                    date=last,
                )
            )
        updated = current.model_copy(
            update={
                "away_from": now,
                "away_until": until,
                "vacation_month": month,
                "vacation_days": used + days,
            }
        )
        await self._save_person(user_id, updated)
        return updated

    async def come_back(self, user_id: int) -> UserSettings:
        """Back early: the unused days return to this month's allowance."""
        now = self.clock.now()
        current = await self.user_settings(user_id)
        if not current.away_at(now) or current.away_until is None:
            # /away with no date is how one comes back: say how one goes, too.
            raise UserError(
                t(
                    "You are not away, so your clocks already run. To stop them in slow games, "
                    "give the date you are back: /away until: YYYY-MM-DD."
                )
            )
        refund = (current.away_until - now) / DAY
        updated = current.model_copy(
            update={"away_until": now, "vacation_days": max(0.0, current.vacation_days - refund)}
        )
        await self._save_person(user_id, updated)
        return updated

    async def _change_seat(
        self, match_id: str, user_id: int, update: Callable[[SeatRecord], SeatRecord]
    ) -> MatchRecord:
        async with self.lock(match_id):
            record, state = await self._running(match_id)
            if record.status != "active":
                raise NotRunning()
            seat = record.seat_of(user_id)
            if seat is None:
                raise NotSeated()
            record = await self._save_seat(record, update(record.seats[seat]))
            self._remember(record, state)
        await self.notify(Change(kind="seats", match=record, state=state, previous=state))
        return record

    async def im_back(self, match_id: str, user_id: int) -> MatchRecord:
        """The player takes their seat back from the bot standing in for them."""

        def back(seat: SeatRecord) -> SeatRecord:
            if seat.away == GONE:
                raise UserError(t("You left this match; a bot plays your seat to the end."))
            if seat.away == PRESENT:
                raise UserError(t("You are already playing your own seat."))
            return seat.model_copy(update={"away": PRESENT, "missed": 0})

        return await self._change_seat(match_id, user_id, back)

    async def leave_match(self, match_id: str, user_id: int) -> MatchRecord:
        """Leave a running match: a bot plays the seat to the end; with nobody left, it ends."""

        def gone(seat: SeatRecord) -> SeatRecord:
            if seat.away == GONE:
                raise UserError(t("You already left this match."))
            return seat.model_copy(update={"away": GONE})

        await self._change_seat(match_id, user_id, gone)
        # A listener may have ended it meanwhile (a tournament ends a forfeited table).
        record = await self.current(match_id)
        if record.is_open and not any(
            s.user_id is not None and s.away != GONE for s in record.seats
        ):
            return await self.cancel(match_id, None)
        return record

    async def release(self, match_id: str) -> None:
        """A hold on the match was lifted (``holds``): listeners show the table again and
        ask its bots and forced answers anew, which the hold had refused."""
        async with self.lock(match_id):
            try:
                record, state = await self._running(match_id)
            except UserError:
                return  # the match is gone
            if record.status != "active":
                return
            # A clock that ran out just as the hold began was refused, and the scheduler
            # deleted it: a decision left without one gets a fresh clock.
            timers = await self.store.timers_of(match_id)
            timed = {t.seat for t in timers if t.kind == "timeout"}
            kept = {(t.seat, t.kind) for t in timers}
            fresh = [
                t
                for t in await self.timers_after(record, None, state)
                if t.seat not in timed and (t.seat, t.kind) not in kept
            ]
            if fresh:
                timers = [*timers, *fresh]
                await self.store.replace_timers(match_id, timers)
                self._remember(record, state, timers)
        if fresh:
            self.timers_changed()
        await self.notify(Change(kind="released", match=record, state=state, previous=state))

    async def shift_timers(self, match_id: str, by: float, which: Callable[[Timer], bool]) -> None:
        """Move the match's timers that ``which`` picks by ``by`` seconds (an event's pause
        and resume), under the match's lock so no move saves its clocks in between; the
        remembered copy follows, as every table, /games and ping reads that one."""
        async with self.lock(match_id):
            moved = [
                t.model_copy(update={"due_at": t.due_at + by}) if which(t) else t
                for t in await self.store.timers_of(match_id)
            ]
            await self.store.replace_timers(match_id, moved)
            self._keep_timers(match_id, moved)
        self.timers_changed()

    async def hold_began(self, match_id: str) -> None:
        """A hold on the match began (``holds``): listeners show the table again, which
        says why it is held instead of a running clock."""
        try:
            record = await self.current(match_id)
        except UserError:
            return  # the match is gone
        if record.status == "active":
            await self.notify(Change(kind="held", match=record))

    async def end_by_forfeit(self, match_id: str) -> MatchRecord:
        """End a running match that at most one seat still plays, the game unfinished:
        it is finished, its outcome the forfeit's (``match_outcome``: the seat still in
        first, the gone last), so it is rated and listed like any finished match. Its
        state and log stay as they were, so its replay ends where play stopped."""
        async with self.lock(match_id):
            record, state = await self._running(match_id)
            if record.status != "active":
                raise NotRunning()
            if sum(s.away != GONE for s in record.seats) > 1:
                raise UserError(t("Only a match its players but one have left ends by forfeit."))
            await self.store.set_status(match_id, "finished")
            await self.store.replace_timers(match_id, [])
            self._forget(match_id)
            record = record.model_copy(update={"status": "finished"})
        self.timers_changed()
        await self.notify(Change(kind="finished", match=record, state=state, previous=state))
        return record

    async def racing(self, match_id: str) -> frozenset[int]:
        """The seats taking part in a race now (a scramble)."""
        record, state = await self._running(match_id)
        if record.status != "active":
            return frozenset()
        return frozenset(d.seat for d in self.decisions(self.game_of(record), state) if d.window)

    async def deadlines(self, match_id: str) -> dict[int, float]:
        """When each seat that must decide runs out of time."""
        return {t.seat: t.due_at for t in await self.timers_of(match_id) if t.kind == "timeout"}

    async def open_for_user(self, guild_id: int, user_id: int) -> list[MyMatch]:
        """The user's open matches here: the ones waiting on them first, soonest deadline
        first; then the ones waiting on others."""
        found = []
        for record in await self.store.open_for_user(guild_id, user_id):
            waiting_on: frozenset[int] = frozenset()
            if record.status == "active" and record.state:
                state = self.load_state(record)
                waiting_on = seats_waited_on(self.game_of(record).decisions(state))
            seat = record.seat_of(user_id)
            deadlines = await self.deadlines(record.match_id) if waiting_on else {}
            found.append(
                MyMatch(
                    match=record,
                    my_turn=seat in waiting_on,
                    waiting_on=waiting_on,
                    my_deadline=deadlines.get(seat) if seat is not None else None,
                )
            )
        found.sort(key=lambda m: (not m.my_turn, m.my_deadline or float("inf")))
        return found

    async def remind(
        self,
        guild_id: int,
        user_id: int,
        pinged_at: Callable[[str, int], float | None] = lambda match_id, seat: None,
    ) -> Nudges:
        """Ping whoever holds up the user's matches; at most once an hour per match, and
        never a person pinged within the hour (``pinged_at``: when the table last called on
        a seat, a turn ping included) or away (their phone rests; their clock stands)."""
        nudges = Nudges()
        now = self.clock.now()
        for mine in await self.open_for_user(guild_id, user_id):
            record = mine.match
            others = []
            for seat in record.seats:
                if seat.seat not in mine.waiting_on or seat.user_id in (None, user_id):
                    continue
                if seat.played_by_bot:
                    continue
                why = await self._not_to_nudge(record.match_id, seat, now, pinged_at)
                if why:
                    nudges.skipped.append(why)
                else:
                    others.append(seat)
            if not others or not await self.store.claim_reminder(
                record.match_id, now, REMIND_EVERY
            ):
                continue
            for seat in others:
                timer = Timer(
                    match_id=record.match_id,
                    kind="remind_asked",
                    seat=seat.seat,
                    version=record.version,
                    due_at=now,
                )
                change = Change(kind="reminder", match=record, timer=timer)
                await self.notify(change)
                nudges.sent.append(change)
        return nudges

    async def _not_to_nudge(
        self,
        match_id: str,
        seat: SeatRecord,
        now: float,
        pinged_at: Callable[[str, int], float | None],
    ) -> str | None:
        """Why a waiting person is left alone, in words for the one who asked; or None."""
        assert seat.user_id is not None
        person = await self.user_settings(seat.user_id)
        if person.away_at(now) and person.away_until is not None:
            return t(
                "{name} is away until <t:{until}:f>.",
                name=seat.name,
                until=int(person.away_until),
            )
        at = pinged_at(match_id, seat.seat)
        if at is not None and now - at < REMIND_EVERY:
            minutes = int(now - at) // 60
            if not minutes:
                return t("{name} was pinged moments ago.", name=seat.name)
            return tn(
                "{name} was pinged {n} minute ago.",
                "{name} was pinged {n} minutes ago.",
                n=minutes,
                name=seat.name,
            )
        return None


@dataclass
class Nudges:
    """What /remind did: the reminders sent, and why anyone waited on was left alone."""

    sent: list[Change] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class MyMatch:
    match: MatchRecord
    my_turn: bool
    waiting_on: frozenset[int]
    my_deadline: float | None


def latest_return(now: float, used: float) -> str | None:
    """The latest date /away takes with ``used`` days of the month booked, so that a refused
    date is followed by one that works (None when no whole date fits)."""
    last = datetime.fromtimestamp(now + (VACATION_DAYS_A_MONTH - used) * DAY, UTC).date()
    if last <= datetime.fromtimestamp(now, UTC).date():
        return None
    return last.isoformat()
