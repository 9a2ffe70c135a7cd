"""Records of tournaments the store keeps: the event, its entrants, rounds, tables, results,
audit rows and timers. Pydantic models, like the match records."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from games.core.levels import DEFAULT_LEVEL, Level

TournamentStatus = Literal["signup", "running", "paused", "finished", "cancelled"]
EntrantState = Literal["entered", "waitlist", "dropped", "disqualified"]
TableStatus = Literal["playing", "done", "cancelled"]
ResultSource = Literal["match", "adjudicated", "organiser", "bye"]
TOURNAMENT_TIMER = "event:"  # prefix of an event timer's ``Timer.match_id``


class TournamentRecord(BaseModel):
    tournament_id: str
    guild_id: int
    channel_id: int
    message_id: int | None = None
    organiser_id: int
    game: str
    config: str  # JSON of TournamentConfig
    status: TournamentStatus
    round: int = 0
    seed: int
    created_at: float

    @property
    def is_open(self) -> bool:
        return self.status in ("signup", "running", "paused")


class EntrantRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    tournament_id: str
    entrant: int
    user_id: int | None  # None: a bot entrant
    name: str
    state: EntrantState = "entered"
    checked_in: bool = False
    forfeited: bool = False
    dropped_round: int | None = None
    joined_at: float
    level: Level = DEFAULT_LEVEL  # how hard a bot entrant plays its tables

    @property
    def is_bot(self) -> bool:
        return self.user_id is None

    @property
    def playing(self) -> bool:
        return self.state == "entered"


class RoundRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    tournament_id: str
    round: int
    stage: str
    deadline: float | None = None
    message_id: int | None = None
    started_at: float


class TableGame(BaseModel):
    """A finished game of a best-of-three table: its match and who won it (None: drawn)."""

    model_config = ConfigDict(frozen=True)

    match_id: str
    winner: int | None


class TournamentTable(BaseModel):
    model_config = ConfigDict(frozen=True)

    tournament_id: str
    round: int
    table_no: int
    match_id: str | None = None
    thread_id: int | None = None
    seats: list[int]
    status: TableStatus = "playing"
    bracket_id: str | None = None
    games: list[TableGame] = []  # best of three: the games finished; match_id plays the next


class ResultRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    tournament_id: str
    round: int
    table_no: int
    players: list[int]
    places: list[int]
    kind: Literal["table", "bye", "missed"] = "table"
    gone: list[int] = []
    source: ResultSource = "match"
    match_id: str | None = None
    game_wins: list[int] | None = None  # best of three: games each seat won (None: best of one)
    game_draws: int = 0


class AuditRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    tournament_id: str
    seq: int = 0
    actor_id: int
    actor_name: str
    action: str
    before: str  # JSON
    after: str  # JSON
    at: float
