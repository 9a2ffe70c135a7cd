"""How an event is run: the organiser's choices, fixed at creation (they may end, pause or
extend it), kept as JSON with the event."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from bot.forward_compatible import FORWARD_COMPATIBLE

TournamentPace = Literal["live", "casual", "async", "correspondence"]
Seeding = Literal["lot", "rating"]
DAY = 86_400.0
# How long a round may last before its unfinished tables are drawn (live: no deadline).
ROUND_DEADLINES: dict[str, float | None] = {
    "live": None,
    "casual": DAY,
    "async": 14 * DAY,
    "correspondence": 30 * DAY,
}


class TournamentConfig(BaseModel):
    """How an event is run: fixed at creation (the organiser may end, pause or extend)."""

    model_config = FORWARD_COMPATIBLE

    format: str = "swiss"  # a key of ``bot.tournaments.formats.FORMATS``
    rounds: int | None = Field(default=None, ge=1, le=30)  # None: the format's default
    pace: TournamentPace = "casual"
    max_players: int = Field(default=64, ge=2, le=512)
    # The event starts by itself then (as if the organiser pressed Start, which they may
    # do sooner); shown on the sign-up embed.
    starts_at: float | None = None
    pod_size: int | None = Field(default=None, ge=3, le=8)
    # Swiss: a single-elimination bracket of the top N (2, 4 or 8); pods: a final table.
    top_cut: int = Field(default=0, ge=0, le=16)
    checkin: bool = False
    # Check-in opens then (None: with sign-up): a recurring event's, minutes before its start.
    checkin_opens: float | None = None
    reset: bool = True  # double elimination: a grand final lost by the unbeaten is replayed
    best_of: Literal[1, 3] = 1  # 3: two-player tables go to the first to win two games
    paused_at: float | None = None  # set while the organiser holds the event
    # Multiplayer elimination: how many of each table go on (None: half the table size).
    advance: int | None = Field(default=None, ge=1, le=7)
    # Group events: players a group (None: the format's default for the game's tables).
    group_size: int | None = Field(default=None, ge=2, le=64)
    # Pods: the organiser's place scores per table size, as ``3:6/3/0, 4:6/4/2/0``.
    scores: str | None = None
    # Swiss: the top cut sized by the field at the start (``default_cut``: top 4 from 9
    # players, 8 from 17, none below); ``top_cut`` is set then.
    default_cut: bool = False
    # Pods: ⌊N/s⌋ larger tables instead of ⌈N/s⌉ smaller ones (17 → 5/4/4/4).
    larger_tables: bool = False
    # The organiser's round length in hours (None: the pace's, ``ROUND_DEADLINES``).
    round_hours: int | None = Field(default=None, ge=1, le=720)
    # How ties are ordered for pairing and seeding: the seeded lot, or the entrants' ratings
    # (then the lot): round 1 by rating, rating neighbours within a score group, brackets
    # seeded by rating.
    seeding: Seeding = "lot"
    # A rating-seeded bracket (``Format.seeded_at_start``): each entrant's rating at the start.
    seed_ratings: dict[int, int] | None = None

    @property
    def round_length(self) -> float | None:
        """Seconds a round lasts before its unfinished tables are drawn (None: no end)."""
        if self.round_hours is not None:
            return self.round_hours * 3600.0
        return ROUND_DEADLINES[self.pace]
