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


class MatchSettings(BaseModel):
    """How a match is run (not the game's rules): its pace."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pace: Pace = Field(default="casual", title="Pace", json_schema_extra={"labels": PACE_LABELS})


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
