"""Records the store keeps. Pydantic models, so every layer gets validated data."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from games.core.levels import DEFAULT_LEVEL, Level

Status = Literal["lobby", "active", "finished", "cancelled"]
OPEN_STATUSES: tuple[Status, ...] = ("lobby", "active")


PRESENT, STANDING_IN, GONE = 0, 1, 2  # SeatRecord.away


class SeatRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    user_id: int | None  # None: a bot plays this seat
    name: str
    away: int = PRESENT  # STANDING_IN: a bot plays until they are back; GONE: for good
    missed: int = 0  # timeouts in a row
    level: Level = DEFAULT_LEVEL  # how hard a bot seat plays; a person's seat ignores it

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def played_by_bot(self) -> bool:
        return self.user_id is None or self.away != PRESENT

    @property
    def bot_level(self) -> Level:
        """The level a bot plays this seat at: its own for a bot seat; normal for a bot
        standing in for a person, who did not choose to play a harder or weaker game."""
        return self.level if self.user_id is None else DEFAULT_LEVEL


class MatchRecord(BaseModel):
    match_id: str
    guild_id: int
    channel_id: int
    message_id: int | None = None
    game: str
    status: Status
    host_id: int
    options: str  # JSON of the game's options model
    seed: int | None = None
    version: int = 0
    state: str | None = None  # JSON of the game state, once started
    rematch_of: str | None = None
    settings: str = "{}"  # JSON of MatchSettings: how the match is run (its pace)
    created_at: datetime
    updated_at: datetime
    finished_at: float | None = None  # unix time it finished or was cancelled
    seats: list[SeatRecord] = []

    def seat_of(self, user_id: int) -> int | None:
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


# What proves a remembered match current (``Store.match_mark``): everything of its row a
# running match's decisions read. The version alone misses a seat's absence, which changes
# without a move.
MatchMark = tuple[int, str, int | None, tuple[tuple[int | None, int, int], ...]]


def mark_of(record: MatchRecord) -> MatchMark:
    seats = tuple((s.user_id, s.away, s.missed) for s in record.seats)
    return (record.version, record.status, record.message_id, seats)


class LoggedAction(BaseModel):
    model_config = ConfigDict(frozen=True)

    seq: int
    seat: int
    action: str
    at: datetime


class Timer(BaseModel):
    model_config = ConfigDict(frozen=True)

    match_id: str
    kind: str
    seat: int
    version: int
    due_at: float
    stamp: str = ""  # the decision it was set for (``Decision.stamp``, or a race's)


class DeckRecord(BaseModel):
    """A player's saved list (a deck): legal or a draft, the game decides at use."""

    model_config = ConfigDict(frozen=True)

    user_id: int
    name: str
    catalogue: str  # the game whose cards it lists
    cards: list[str]  # one entry per copy
    created_at: datetime
    updated_at: datetime
