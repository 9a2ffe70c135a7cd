"""Recurring events: an organiser schedules an event once (weekdays and a local time in a
time zone, the event's format and options, sign-up N hours before, check-in M minutes
before) and the bot makes each occurrence itself.

An occurrence goes through four steps, each a timer of the schedule's row:

- **announce** (when the one before starts, or at once for the first): the occurrence's
  row is made (its key: schedule and start) and the Discord side publishes it (a Discord
  scheduled event, where people press "Interested", and a line in the channel);
- **signup** (N hours before): the event is created, starting by itself at the time (as
  ``/tournament create starts:`` does), its sign-up posted and the Interested pinged;
- **checkin** (M minutes before, if asked): check-in opens and the signed-up are called;
- **start**: the event starts on its own timer (the unchecked drop); the scheduled event
  is set active, and the next occurrence is announced.

Each step is taken by a guarded update of the schedule's row (``Store.advance_schedule``):
of several processes firing the same due step, exactly one wins and goes on; a step
overdue after a restart is taken once, at start. A step missed whole (the bot was down past
the start) cancels that occurrence, said in the channel, and the series goes on. When the
event ends the scheduled event is completed; when it is cancelled, it is deleted.
"""

from __future__ import annotations

import logging
import secrets
from typing import Literal, Protocol

from bot.errors import UserError
from bot.recurrence import next_start, parse_clock, parse_days, zone_of
from bot.service import Person
from bot.service.tournaments import TournamentChange, TournamentConfig, Tournaments
from bot.store.models import Timer
from bot.store.schedule_records import (
    SCHEDULE_TIMER,
    OccurrenceRecord,
    ScheduleRecord,
    ScheduleStep,
)
from games.core.text import Text, t

log = logging.getLogger(__name__)

HOUR = 3600.0
MOST_SIGNUP_HOURS = 168  # a week: sign-up opens after the occurrence before it started


class Publisher(Protocol):
    """The Discord side of a schedule (the cog): every call is about one occurrence."""

    async def publish(self, schedule: ScheduleRecord, starts_at: float) -> int | None:
        """Announce it and publish it as a Discord scheduled event; its id (None: none)."""

    async def moved(self, schedule: ScheduleRecord, occurrence: OccurrenceRecord) -> None:
        """Its start changed: the scheduled event follows."""

    async def signup_open(
        self, schedule: ScheduleRecord, occurrence: OccurrenceRecord, tournament_id: str
    ) -> None:
        """Post the event's sign-up and ping who pressed Interested."""

    async def checkin_open(self, schedule: ScheduleRecord, occurrence: OccurrenceRecord) -> None:
        """Call the signed-up who have not checked in."""

    async def progressed(
        self, occurrence: OccurrenceRecord, status: Literal["active", "completed"]
    ) -> None:
        """The scheduled event is under way, or over."""

    async def withdrawn(
        self, schedule: ScheduleRecord, occurrence: OccurrenceRecord, reason: Text | None
    ) -> None:
        """The occurrence will not take place: delete its scheduled event; say ``reason``."""


class Schedules:
    """Every change of a schedule, and the steps of its occurrences."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments
        self.store = tournaments.store
        self.publisher: Publisher | None = None
        tournaments.listeners.append(self.on_tournament_change)

    @property
    def clock(self):  # type: ignore[no-untyped-def]
        return self.tournaments.clock

    # --- the organiser's commands ----------------------------------------------------------
    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser: Person,
        game_key: str,
        config: TournamentConfig,
        days: str,
        at: str,
        zone: str | None,
        signup_hours: int,
        checkin_minutes: int,
    ) -> ScheduleRecord:
        """Checks everything before anything is saved: a refusal leaves nothing made."""
        await self._may_schedule(guild_id, organiser)
        config = self.tournaments.checked_config(game_key, config)
        if zone is None:
            zone = (await self.tournaments.matches.guild_settings(guild_id)).time_zone
        rule = self._rule(days, at, zone, signup_hours, checkin_minutes)
        now = self.clock.now()
        first = next_start(rule["weekdays"], rule["at_time"], rule["zone"], now)
        if first is None:
            raise UserError(t("That date and time have passed: give a day and time in the future."))
        schedule = ScheduleRecord(
            schedule_id=secrets.token_hex(3),
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=organiser.user_id,
            game=game_key,
            config=config.model_dump_json(),
            **rule,  # type: ignore[arg-type]
            step="announce",
            occurrence=first,
            next_due=now,
            created_at=now,
        )
        await self.store.save_schedule(schedule)
        self.tournaments.matches.timers_changed()
        return schedule

    def _rule(
        self,
        days: str | None,
        at: str | None,
        zone: str | None,
        signup_hours: int,
        checkin_minutes: int,
        was: ScheduleRecord | None = None,
    ) -> dict[str, object]:
        """The schedule's rule as stored, each piece typed checked; what is left out
        (None) stays as ``was`` has it."""
        if zone is not None:
            zone_of(zone)
        if not 1 <= signup_hours <= MOST_SIGNUP_HOURS:
            raise UserError(
                t("Sign-up opens 1 to {most} hours before the start.", most=MOST_SIGNUP_HOURS)
            )
        if not 0 <= checkin_minutes < signup_hours * 60:
            raise UserError(t("Check-in must open after sign-up does: give fewer minutes."))
        return {
            "weekdays": parse_days(days) if days is not None else was and was.weekdays,
            "at_time": parse_clock(at) if at is not None else was and was.at_time,
            "zone": zone.strip() if zone is not None else was and was.zone,
            "signup_hours": signup_hours,
            "checkin_minutes": checkin_minutes,
        }

    async def _may_schedule(self, guild_id: int, actor: Person) -> None:
        if not await self.tournaments.may_organise(guild_id, actor):
            who = await self.tournaments.organisers(guild_id)
            raise UserError(t("Only someone with {who} can schedule tournaments here.", who=who))

    async def find(self, guild_id: int, channel_id: int, schedule_id: str | None) -> ScheduleRecord:
        """The schedule named, or else the one running in this channel."""
        found = [s for s in await self.store.schedules(guild_id) if s.status == "active"]
        if schedule_id:
            named = [s for s in found if s.schedule_id == schedule_id.strip().lower()]
            if named:
                return named[0]
            raise UserError(
                t(
                    "There is no running schedule '{id}' here: /tournament schedule list "
                    "shows them.",
                    id=schedule_id.strip()[:20],
                )
            )
        here = [s for s in found if s.channel_id == channel_id]
        if len(here) == 1:
            return here[0]
        raise UserError(
            t("Name the schedule: /tournament schedule list shows this server's schedules.")
        )

    async def _organised(self, schedule: ScheduleRecord, actor: Person) -> None:
        if actor.user_id != schedule.organiser_id:
            await self._may_schedule(schedule.guild_id, actor)

    async def running(self, guild_id: int) -> list[ScheduleRecord]:
        return [s for s in await self.store.schedules(guild_id) if s.status == "active"]

    async def skip(self, schedule: ScheduleRecord, actor: Person) -> float:
        """The next occurrence will not take place (its event is cancelled if its sign-up
        is open); the series goes on. Returns the skipped start."""
        await self._organised(schedule, actor)
        skipped = schedule.occurrence
        occurrence = await self.store.occurrence(schedule.schedule_id, skipped)
        if occurrence is not None and occurrence.tournament_id is not None:
            event = await self.store.get_tournament(occurrence.tournament_id)
            if event is not None and event.status != "signup":
                raise UserError(
                    t("The next one has already started: /tournament end or cancel stops it.")
                )
        following = next_start(schedule.weekdays, schedule.at_time, schedule.zone, skipped)
        after = self._announcing(schedule, following)
        if not await self.store.advance_schedule(schedule, after):
            raise UserError(t("The schedule changed meanwhile: try again."))
        await self._call_off(schedule, skipped, actor, "skipped")
        self.tournaments.matches.timers_changed()
        return skipped

    async def end(self, schedule: ScheduleRecord, actor: Person) -> None:
        """No more occurrences. An event whose sign-up is open goes on."""
        await self._organised(schedule, actor)
        after = schedule.model_copy(update={"status": "ended", "next_due": None})
        if not await self.store.advance_schedule(schedule, after):
            raise UserError(t("The schedule changed meanwhile: try again."))
        if schedule.step == "signup":  # announced, no event yet: it goes with the series
            await self._call_off(schedule, schedule.occurrence, actor, "cancelled")

    async def change(
        self,
        schedule: ScheduleRecord,
        actor: Person,
        *,
        days: str | None,
        at: str | None,
        zone: str | None,
        signup_hours: int | None,
        checkin_minutes: int | None,
    ) -> ScheduleRecord:
        """A new rule. An occurrence only announced moves to the rule's first start whose
        sign-up is still ahead (its scheduled event with it); one whose sign-up is open
        keeps its time, and the rule holds from the one after."""
        await self._organised(schedule, actor)
        rule = self._rule(
            days,
            at,
            zone,
            schedule.signup_hours if signup_hours is None else signup_hours,
            schedule.checkin_minutes if checkin_minutes is None else checkin_minutes,
            was=schedule,
        )
        after = schedule.model_copy(update=rule)
        if schedule.step in ("announce", "signup"):
            # The rule's first start whose sign-up is still ahead: never one sprung on
            # players at once.
            ahead = self.clock.now() + after.signup_hours * HOUR
            starts = next_start(after.weekdays, after.at_time, after.zone, ahead)
            if starts is None:
                raise UserError(
                    t("That date and time have passed: give a day and time in the future.")
                )
            after = after.model_copy(update={"occurrence": starts})
            if schedule.step == "signup":
                after = after.model_copy(update={"next_due": self._signup_due(after)})
        if not await self.store.advance_schedule(schedule, after):
            raise UserError(t("The schedule changed meanwhile: try again."))
        if schedule.step == "signup" and after.occurrence != schedule.occurrence:
            old = await self.store.occurrence(schedule.schedule_id, schedule.occurrence)
            if old is not None:
                moved = old.model_copy(update={"starts_at": after.occurrence})
                await self.store.save_occurrence(old.model_copy(update={"status": "skipped"}))
                await self.store.save_occurrence(moved)
                if self.publisher is not None:
                    await self.publisher.moved(after, moved)
        self.tournaments.matches.timers_changed()
        return after

    # --- the steps -------------------------------------------------------------------------
    async def on_timer(self, timer: Timer) -> None:
        schedule = await self.store.get_schedule(timer.match_id.removeprefix(SCHEDULE_TIMER))
        if schedule is None or schedule.status != "active" or schedule.step != timer.kind:
            return  # taken already (another process, or before a restart)
        step = {
            "announce": self._announce,
            "signup": self._open_signup,
            "checkin": self._open_checkin,
            "start": self._start,
        }[schedule.step]
        await step(schedule)

    def _signup_due(self, schedule: ScheduleRecord) -> float:
        return schedule.occurrence - schedule.signup_hours * HOUR

    def _announcing(self, schedule: ScheduleRecord, starts: float | None) -> ScheduleRecord:
        """The schedule moved on to the occurrence starting ``starts`` (None: it is over)."""
        if starts is None:
            return schedule.model_copy(update={"status": "ended", "next_due": None})
        return schedule.model_copy(
            update={"step": "announce", "occurrence": starts, "next_due": self.clock.now()}
        )

    async def _take(self, schedule: ScheduleRecord, step: ScheduleStep, due: float) -> bool:
        after = schedule.model_copy(update={"step": step, "next_due": due})
        return await self.store.advance_schedule(schedule, after)

    async def _announce(self, schedule: ScheduleRecord) -> None:
        if not await self._take(schedule, "signup", self._signup_due(schedule)):
            return
        occurrence = OccurrenceRecord(
            schedule_id=schedule.schedule_id, starts_at=schedule.occurrence
        )
        if not await self.store.new_occurrence(occurrence):
            return  # made already: the key decides
        if self.publisher is not None:
            event_id = await self.publisher.publish(schedule, schedule.occurrence)
            occurrence = occurrence.model_copy(update={"discord_event_id": event_id})
            await self.store.save_occurrence(occurrence)

    async def _open_signup(self, schedule: ScheduleRecord) -> None:
        starts = schedule.occurrence
        now = self.clock.now()
        if now >= starts:
            # The bot was down from before sign-up to past the start: this one is gone.
            following = next_start(schedule.weekdays, schedule.at_time, schedule.zone, now)
            if await self.store.advance_schedule(schedule, self._announcing(schedule, following)):
                reason = t("the bot was offline when its sign-up was due.")
                await self._call_off(schedule, starts, None, "cancelled", reason)
            return
        minutes = schedule.checkin_minutes
        checkin_at = starts - minutes * 60
        step: ScheduleStep = "checkin" if minutes and checkin_at > now else "start"
        if not await self._take(schedule, step, checkin_at if step == "checkin" else starts):
            return
        occurrence = await self.store.occurrence(schedule.schedule_id, starts)
        if occurrence is None:
            return
        config = TournamentConfig.model_validate_json(schedule.config).model_copy(
            update={
                "starts_at": starts,
                "checkin": minutes > 0,  # as the schedule says now (an edit may change it)
                "checkin_opens": checkin_at if minutes else None,
            }
        )
        organiser = Person(schedule.organiser_id, "Schedule", can_manage=True)
        try:
            event = await self.tournaments.create(
                guild_id=schedule.guild_id,
                channel_id=schedule.channel_id,
                organiser=organiser,
                game_key=schedule.game,
                config=config,
            )
        except UserError as refused:
            # The channel still holds an open event: this occurrence cannot open there.
            log.info("schedule %s: %s", schedule.schedule_id, refused)
            await self.store.save_occurrence(occurrence.model_copy(update={"status": "cancelled"}))
            if self.publisher is not None:
                reason = t("this channel still has an open tournament.")
                await self.publisher.withdrawn(schedule, occurrence, reason)
            return
        occurrence = occurrence.model_copy(
            update={"status": "signup", "tournament_id": event.tournament_id}
        )
        await self.store.save_occurrence(occurrence)
        if self.publisher is not None:
            await self.publisher.signup_open(schedule, occurrence, event.tournament_id)

    async def _open_checkin(self, schedule: ScheduleRecord) -> None:
        if not await self._take(schedule, "start", schedule.occurrence):
            return
        occurrence = await self.store.occurrence(schedule.schedule_id, schedule.occurrence)
        if occurrence is not None and occurrence.status == "signup" and self.publisher:
            await self.publisher.checkin_open(schedule, occurrence)

    async def _start(self, schedule: ScheduleRecord) -> None:
        """The event starts on its own timer (its scheduled event follows it: see
        ``on_tournament_change``); the schedule goes on to the next occurrence."""
        following = next_start(
            schedule.weekdays, schedule.at_time, schedule.zone, schedule.occurrence
        )
        await self.store.advance_schedule(schedule, self._announcing(schedule, following))

    async def _call_off(
        self,
        schedule: ScheduleRecord,
        starts: float,
        actor: Person | None,
        status: Literal["cancelled", "skipped"],
        reason: Text | None = None,
    ) -> None:
        """The occurrence starting ``starts`` will not take place: its open event is
        cancelled (the listener then withdraws it), else its scheduled event withdrawn."""
        occurrence = await self.store.occurrence(schedule.schedule_id, starts)
        if occurrence is None:
            return
        if occurrence.tournament_id is not None and actor is not None:
            event = await self.store.get_tournament(occurrence.tournament_id)
            if event is not None and event.status == "signup":
                await self.store.save_occurrence(occurrence.model_copy(update={"status": status}))
                await self.tournaments.cancel(occurrence.tournament_id, actor)
                return
        await self.store.save_occurrence(occurrence.model_copy(update={"status": status}))
        if self.publisher is not None:
            said = reason if reason is not None else t("the organiser called it off.")
            await self.publisher.withdrawn(schedule, occurrence, said)

    # --- the events an occurrence made -----------------------------------------------------
    async def on_tournament_change(self, change: TournamentChange) -> None:
        """The scheduled event follows the event the occurrence made: active when its
        first round starts, completed when it ends, deleted when it is cancelled."""
        if change.kind not in ("round", "finished", "cancelled"):
            return
        occurrence = await self.store.occurrence_of(change.event.tournament_id)
        if occurrence is None or occurrence.status in ("done", "cancelled"):
            return
        if change.kind == "round":
            if occurrence.status == "signup":
                await self.store.save_occurrence(
                    occurrence.model_copy(update={"status": "started"})
                )
                if self.publisher is not None:
                    await self.publisher.progressed(occurrence, "active")
            return
        if change.kind == "finished" and occurrence.status == "started":
            await self.store.save_occurrence(occurrence.model_copy(update={"status": "done"}))
            if self.publisher is not None:
                await self.publisher.progressed(occurrence, "completed")
            return
        schedule = await self.store.get_schedule(occurrence.schedule_id)
        if occurrence.status != "skipped":
            occurrence = occurrence.model_copy(update={"status": "cancelled"})
            await self.store.save_occurrence(occurrence)
        if self.publisher is not None and schedule is not None:
            # The channel hears why from the event's own cancellation notice.
            await self.publisher.withdrawn(schedule, occurrence, None)
