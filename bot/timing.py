"""Paces and deadlines: how long a decision may take, and when its player is reminded."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Pace = Literal["live", "casual", "async", "correspondence"]

# Seconds for an ordinary decision, and for a reaction (answering a challenge, say).
PACES: dict[str, tuple[float, float]] = {
    "live": (60, 20),
    "casual": (10 * 60, 10 * 60),
    "async": (24 * 3600, 24 * 3600),
    "correspondence": (72 * 3600, 72 * 3600),
}
PACE_LABELS = {
    "live": "Live: 1 minute a move",
    "casual": "Casual: 10 minutes a move",
    "async": "Async: 24 hours a move",
    "correspondence": "Correspondence: 72 hours a move",
}
REMINDED = {"casual", "async", "correspondence"}  # a live table is watched as it plays


Policy = Literal["default_move", "bot", "forfeit"]
POLICY_LABELS = {
    "default_move": "Play the default move for them",
    "bot": "A bot takes the seat until they are back",
    "forfeit": "Default moves, then forfeit after repeated timeouts",
}


class MatchSettings(BaseModel):
    """How a match is run (not the game's rules): pace, and what a timeout does."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pace: Pace = Field(default="casual", title="Pace", json_schema_extra={"labels": PACE_LABELS})
    on_timeout: Policy = Field(
        default="default_move", title="On timeout", json_schema_extra={"labels": POLICY_LABELS}
    )
    forfeit_after: int = Field(default=3, ge=1, le=10, title="Timeouts in a row to forfeit")
    thread: bool = False  # the match lives in a thread the bot created for it


class GuildSettings(BaseModel):
    """A server's defaults for new matches, set by its admins with /settings."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    match: MatchSettings = MatchSettings()
    threads: bool = False  # /play opens each match in a thread of its own


class TimerPlan(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: Literal["timeout", "remind_half", "remind_final"]
    seat: int
    due_at: float


def plan(pace: str, seat: int, reaction: bool, since: float) -> list[TimerPlan]:
    """The timeout of one decision, and its reminders at half time and near the end."""
    budget = PACES[pace][1 if reaction else 0]
    timers = [TimerPlan(kind="timeout", seat=seat, due_at=since + budget)]
    if pace in REMINDED:
        timers += [
            TimerPlan(kind="remind_half", seat=seat, due_at=since + budget / 2),
            TimerPlan(kind="remind_final", seat=seat, due_at=since + budget * 0.9),
        ]
    return timers


VACATION_DAYS_A_MONTH = 14
DAY = 86_400.0
PAUSED_BY_VACATION = {"async", "correspondence"}


class UserSettings(BaseModel):
    """One person's preferences, across servers: reminders by DM, and vacations."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    notify: bool = False  # reminders also come as direct messages
    away_from: float | None = None
    away_until: float | None = None
    vacation_month: str = ""  # "YYYY-MM" the days below were booked in
    vacation_days: float = 0.0

    def away_at(self, now: float) -> bool:
        return self.away_until is not None and (self.away_from or 0) <= now < self.away_until


def paused_due(due_at: float, budget: float, away_from: float, away_until: float) -> float:
    """A deadline that falls in a vacation: the clock stood still while its player was away,
    so what was left of it when the vacation began counts again from their return."""
    left = min(budget, due_at - away_from)
    return away_until + max(0.0, left)
