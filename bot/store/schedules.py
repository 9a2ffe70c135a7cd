"""Recurring events (023_schedules.sql): schedules and their occurrences. Both backends'
reads and writes; the records are in ``schedule_records.py``.

A schedule's row is its own timer: ``next_due`` is when its next step is taken, and a step
is taken by ``advance``, an update guarded by the step and occurrence it read, so of several
processes firing the same due step exactly one changes the row and goes on."""

from __future__ import annotations

from bot.store.base import Shards
from bot.store.matches import shard_filter
from bot.store.models import Timer
from bot.store.schedule_records import SCHEDULE_TIMER, OccurrenceRecord, ScheduleRecord
from bot.store.sql import Executor, Step, insert

_SCHEDULE = (
    "id, guild_id, channel_id, organiser_id, game, config, weekdays, at_time, zone, "
    "signup_hours, checkin_minutes, status, step, occurrence, next_due, created_at"
)
_OCCURRENCE = "schedule_id, starts_at, status, tournament_id, discord_event_id"
_SAVE_SCHEDULE = insert("schedules", _SCHEDULE, key="id", conflict="replace")
# An occurrence is made once: a second insert of its key changes nothing.
_NEW_OCCURRENCE = insert(
    "schedule_occurrences", _OCCURRENCE, key="schedule_id, starts_at", conflict="ignore"
)
_SAVE_OCCURRENCE = insert(
    "schedule_occurrences", _OCCURRENCE, key="schedule_id, starts_at", conflict="replace"
)


def _schedule(row: object) -> ScheduleRecord:
    values = dict(row)  # type: ignore[call-overload]
    return ScheduleRecord(schedule_id=values.pop("id"), **values)


def _row(schedule: ScheduleRecord) -> dict[str, object]:
    values = schedule.model_dump()
    values["id"] = values.pop("schedule_id")
    return values


class ScheduleSQL(Executor):
    # The shards this process serves (PostgreSQL): a schedule's steps are taken by the
    # process serving its guild, as its events' timers are.
    shards: Shards | None = None

    async def save_schedule(self, schedule: ScheduleRecord) -> None:
        await self._write(Step(_SAVE_SCHEDULE, _row(schedule)))

    async def get_schedule(self, schedule_id: str) -> ScheduleRecord | None:
        rows = await self._fetch(
            f"SELECT {_SCHEDULE} FROM schedules WHERE id = :id", {"id": schedule_id}
        )
        return _schedule(rows[0]) if rows else None

    async def schedules(self, guild_id: int) -> list[ScheduleRecord]:
        rows = await self._fetch(
            f"SELECT {_SCHEDULE} FROM schedules WHERE guild_id = :guild ORDER BY created_at, id",
            {"guild": guild_id},
        )
        return [_schedule(row) for row in rows]

    async def advance_schedule(self, before: ScheduleRecord, after: ScheduleRecord) -> bool:
        """Take a step: ``after`` is saved only if the row still holds the step, occurrence
        and status ``before`` read. False: another process (or command) moved it first."""
        (changed,) = await self._write(
            Step(
                "UPDATE schedules SET weekdays = :weekdays, at_time = :at_time, zone = :zone, "
                "signup_hours = :signup_hours, checkin_minutes = :checkin_minutes, "
                "status = :status, step = :step, occurrence = :occurrence, "
                "next_due = :next_due WHERE id = :id AND step = :was_step "
                "AND occurrence = :was_occurrence AND status = :was_status",
                _row(after)
                | {"was_step": before.step, "was_occurrence": before.occurrence}
                | {"was_status": before.status},
            )
        )
        return changed == 1

    async def next_schedule_due(self) -> float | None:
        return await self._value(
            "SELECT MIN(next_due) FROM schedules WHERE status = 'active' "
            f"AND next_due IS NOT NULL AND {shard_filter(self.shards, 'guild_id')}"
        )

    async def due_schedules(self, now: float, limit: int = 100) -> list[Timer]:
        """Each active schedule whose step is due, as a timer: taken by ``advance``, never
        deleted (its row's next_due moves on)."""
        rows = await self._fetch(
            "SELECT id, step, next_due FROM schedules WHERE status = 'active' "
            f"AND next_due <= :now AND {shard_filter(self.shards, 'guild_id')} "
            "ORDER BY next_due, id LIMIT :limit",
            {"now": now, "limit": limit},
        )
        return [
            Timer(
                match_id=SCHEDULE_TIMER + row["id"],
                kind=row["step"],
                seat=0,
                version=0,
                due_at=row["next_due"],
            )
            for row in rows
        ]

    async def new_occurrence(self, occurrence: OccurrenceRecord) -> bool:
        """True if this call made it; False if it existed already."""
        (made,) = await self._write(Step(_NEW_OCCURRENCE, occurrence.model_dump()))
        return made == 1

    async def save_occurrence(self, occurrence: OccurrenceRecord) -> None:
        await self._write(Step(_SAVE_OCCURRENCE, occurrence.model_dump()))

    async def occurrence(self, schedule_id: str, starts_at: float) -> OccurrenceRecord | None:
        rows = await self._fetch(
            f"SELECT {_OCCURRENCE} FROM schedule_occurrences "
            "WHERE schedule_id = :id AND starts_at = :at",
            {"id": schedule_id, "at": starts_at},
        )
        return OccurrenceRecord(**dict(rows[0])) if rows else None

    async def occurrences(self, schedule_id: str) -> list[OccurrenceRecord]:
        rows = await self._fetch(
            f"SELECT {_OCCURRENCE} FROM schedule_occurrences WHERE schedule_id = :id "
            "ORDER BY starts_at",
            {"id": schedule_id},
        )
        return [OccurrenceRecord(**dict(row)) for row in rows]

    async def occurrence_of(self, tournament_id: str) -> OccurrenceRecord | None:
        """The occurrence that made this event (None: an event created by hand)."""
        rows = await self._fetch(
            f"SELECT {_OCCURRENCE} FROM schedule_occurrences WHERE tournament_id = :id",
            {"id": tournament_id},
        )
        return OccurrenceRecord(**dict(rows[0])) if rows else None
