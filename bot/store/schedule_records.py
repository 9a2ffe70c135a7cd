"""Records of recurring events (023_schedules.sql): a schedule an organiser sets once, and
each occurrence it made. Pydantic models, like the tournament records."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

ScheduleStatus = Literal["active", "ended"]
# The next step of the schedule's current occurrence: made public (a Discord scheduled
# event and an announcement), sign-up opened, check-in opened, started.
ScheduleStep = Literal["announce", "signup", "checkin", "start"]
OccurrenceStatus = Literal["announced", "signup", "started", "done", "cancelled", "skipped"]
SCHEDULE_TIMER = "schedule:"  # prefix of a schedule's ``Timer.match_id``


class ScheduleRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    schedule_id: str
    guild_id: int
    channel_id: int
    organiser_id: int
    game: str
    config: str  # JSON of the TournamentConfig each occurrence is created with
    weekdays: str  # Monday 0 … Sunday 6, comma-separated: "4" is every Friday
    at_time: str  # "20:00", local to ``zone``
    zone: str  # an IANA time zone name
    signup_hours: int
    checkin_minutes: int  # 0: no check-in
    status: ScheduleStatus = "active"
    step: ScheduleStep = "announce"
    occurrence: float  # the current occurrence's start
    next_due: float | None = None  # when its step is taken (None: the series ended)
    created_at: float

    @property
    def days(self) -> list[int]:
        return [int(day) for day in self.weekdays.split(",")]


class OccurrenceRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    schedule_id: str
    starts_at: float
    status: OccurrenceStatus = "announced"
    tournament_id: str | None = None
    discord_event_id: int | None = None
