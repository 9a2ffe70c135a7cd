"""The store interface. SQLite (``sqlite.py``) is the embedded default, PostgreSQL
(``postgres.py``) serves several processes; both are ``shared.SQLStore``, which holds the
reads and writes they share."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.seasons import Tally
from bot.store.models import (
    DeckRecord,
    LoggedAction,
    MatchMark,
    MatchRecord,
    SeatRecord,
    Status,
    Timer,
    mark_of,
)
from bot.store.ratings import RatingChangeRecord, RatingRecord
from bot.store.schedule_records import OccurrenceRecord, ScheduleRecord
from bot.store.seasons import SeasonRecord, SeasonSetup
from bot.store.tournament_records import (
    AuditRecord,
    EntrantRecord,
    ResultRecord,
    RoundRecord,
    TournamentRecord,
    TournamentTable,
)


class StoreError(Exception):
    pass


class ChannelBusy(StoreError):
    """The channel already has an open match."""

    def __init__(self, match_id: str) -> None:
        super().__init__(match_id)
        self.match_id = match_id


class StoreBusy(StoreError):
    """Another writer held the database longer than we may wait: nothing was written."""


class VersionConflict(StoreError):
    """Somebody saved this match first: the caller's state is stale."""


@dataclass(frozen=True)
class Shards:
    """The Discord shards one process serves: of ``count`` shards, those in ``ids``."""

    count: int
    ids: frozenset[int]

    def owns(self, guild_id: int) -> bool:
        # Discord's own formula: a guild's events come through this shard.
        return (guild_id >> 22) % self.count in self.ids

    @property
    def all(self) -> bool:
        return self.ids == frozenset(range(self.count))


class Store(ABC):
    # Whether other processes may write this database meanwhile (PostgreSQL's shard
    # processes, two of them during a rolling restart). Then what a process remembers of a
    # match or a person is a hint, proven against the database before anything is decided.
    shared: bool = False

    @abstractmethod
    async def connect(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def create_match(self, record: MatchRecord) -> None:
        """Insert a lobby with its seats; raise ``ChannelBusy`` if the channel has one open."""

    @abstractmethod
    async def get(self, match_id: str) -> MatchRecord | None: ...

    async def on_handover(self, take_over: Callable[[list[str]], None]) -> None:
        """Call ``take_over`` with the matches another process hands over as it stops
        (``hand_over``). A database only one process uses has nobody to hear from."""
        return

    async def hand_over(self, matches: Sequence[tuple[str, int]]) -> None:
        """A stopping process's (match, guild) pairs whose bots or forced answers it left
        pending: a process serving their guilds' shards plays them (``on_handover``)."""
        return

    async def match_mark(self, match_id: str) -> MatchMark | None:
        """The row's ``mark_of``, read fresh: equal to a remembered record's, the memory is
        current. A backend may read less than the whole match."""
        record = await self.get(match_id)
        return None if record is None else mark_of(record)

    @abstractmethod
    async def open_in_channel(self, channel_id: int) -> MatchRecord | None: ...

    @abstractmethod
    async def open_for_user(self, guild_id: int, user_id: int) -> list[MatchRecord]: ...

    @abstractmethod
    async def open_matches(self) -> list[MatchRecord]: ...

    @abstractmethod
    async def running_in_guild(self, guild_id: int) -> list[MatchRecord]:
        """A server's matches being played, oldest first (the web page's front page)."""

    @abstractmethod
    async def player_names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        """The name each person last sat down with on this server; unknown ones missing."""

    @abstractmethod
    async def save_lobby(
        self, match_id: str, seats: Sequence[SeatRecord], options: str
    ) -> None: ...

    @abstractmethod
    async def start(
        self,
        match_id: str,
        seats: Sequence[SeatRecord],
        seed: int,
        state: str,
        version: int,
        timers: Sequence[Timer] = (),
        status: Status = "active",
    ) -> None:
        """Lobby to running (or straight to finished when the deal decides the match)."""

    @abstractmethod
    async def save_action(
        self,
        match_id: str,
        *,
        expected_version: int,
        state: str,
        version: int,
        seat: int,
        action: str,
        status: Status,
        timers: Sequence[Timer] = (),
        meanwhile: Callable[[], object] | None = None,
    ) -> None:
        """One transaction: snapshot, action log row, version check, timers replaced;
        ``VersionConflict`` if the version moved.

        ``meanwhile``: work for the event loop while the commit waits for the disk (it is
        run once the write is under way, whether or not it succeeds)."""

    @abstractmethod
    async def set_status(self, match_id: str, status: Status) -> None: ...

    @abstractmethod
    async def save_seat(self, match_id: str, seat: SeatRecord) -> None:
        """A seat's absence state (who plays it) and its run of timeouts."""

    @abstractmethod
    async def user_settings(self, user_id: int) -> str: ...

    @abstractmethod
    async def save_user_settings(self, user_id: int, settings: str) -> None: ...

    @abstractmethod
    async def guild_settings(self, guild_id: int) -> str: ...

    @abstractmethod
    async def save_guild_settings(self, guild_id: int, settings: str) -> None: ...

    @abstractmethod
    async def set_message(self, match_id: str, message_id: int) -> None: ...

    @abstractmethod
    async def claim_reminder(self, match_id: str, now: float, every: float) -> bool:
        """Note that /remind pings the match now, unless it did so less than ``every``
        seconds ago; True if this caller may ping. One guarded statement: two askers at
        once never both get it."""

    @abstractmethod
    async def actions(self, match_id: str) -> list[LoggedAction]: ...

    # Decks: a user's saved lists, the same on every server.
    @abstractmethod
    async def decks(self, user_id: int) -> list[DeckRecord]:
        """The user's decks, by name."""

    @abstractmethod
    async def save_deck(self, deck: DeckRecord, most: int) -> bool:
        """Insert or replace the user's deck of that name; a new name only while the user
        has fewer than ``most`` decks (one guarded statement). False: the limit refused it."""

    @abstractmethod
    async def delete_deck(self, user_id: int, name: str) -> bool:
        """False if the user had no deck of that name."""

    # Timers: derived from the state and the pace, and kept so that they survive restarts.
    @abstractmethod
    async def replace_timers(self, match_id: str, timers: Sequence[Timer]) -> None: ...

    @abstractmethod
    async def next_due(self) -> float | None: ...

    @abstractmethod
    async def due_timers(self, now: float, limit: int = 100) -> list[Timer]: ...

    @abstractmethod
    async def timers_of(self, match_id: str) -> list[Timer]: ...

    @abstractmethod
    async def delete_timers(self, timers: Sequence[Timer]) -> None: ...

    # --- recurring events (migration 023): ``schedules.py`` ------------------------------
    # A schedule's row is its own timer: ``due_schedules`` hands out its due step, which
    # ``advance_schedule`` takes (a guarded update: one process of several wins it).
    @abstractmethod
    async def save_schedule(self, schedule: ScheduleRecord) -> None: ...

    @abstractmethod
    async def get_schedule(self, schedule_id: str) -> ScheduleRecord | None: ...

    @abstractmethod
    async def schedules(self, guild_id: int) -> list[ScheduleRecord]: ...

    @abstractmethod
    async def advance_schedule(self, before: ScheduleRecord, after: ScheduleRecord) -> bool: ...

    @abstractmethod
    async def next_schedule_due(self) -> float | None: ...

    @abstractmethod
    async def due_schedules(self, now: float, limit: int = 100) -> list[Timer]: ...

    @abstractmethod
    async def new_occurrence(self, occurrence: OccurrenceRecord) -> bool: ...

    @abstractmethod
    async def save_occurrence(self, occurrence: OccurrenceRecord) -> None: ...

    @abstractmethod
    async def occurrence(self, schedule_id: str, starts_at: float) -> OccurrenceRecord | None: ...

    @abstractmethod
    async def occurrences(self, schedule_id: str) -> list[OccurrenceRecord]: ...

    @abstractmethod
    async def occurrence_of(self, tournament_id: str) -> OccurrenceRecord | None: ...

    # --- tournaments (migration 013) --------------------------------------------------------
    # Event timers come out of ``next_due``/``due_timers`` with the matches' timers, as
    # ``Timer(match_id=TOURNAMENT_TIMER + id, version=round)``, and ``delete_timers`` takes both.
    @abstractmethod
    async def create_tournament(self, record: TournamentRecord) -> None: ...

    @abstractmethod
    async def get_tournament(self, tournament_id: str) -> TournamentRecord | None: ...

    @abstractmethod
    async def tournaments(self, guild_id: int | None, *, open_only: bool) -> list[TournamentRecord]:
        """A server's events (``guild_id`` None: every server's), newest first."""

    @abstractmethod
    async def tournaments_entered(self, guild_id: int, user_id: int) -> list[TournamentRecord]:
        """The server's events the user has an entrant row in (any state), newest first."""

    @abstractmethod
    async def save_tournament(self, record: TournamentRecord) -> None:
        """Status, round, message and config of an existing event."""

    @abstractmethod
    async def entrants(self, tournament_id: str) -> list[EntrantRecord]: ...

    @abstractmethod
    async def save_entrant(self, entrant: EntrantRecord) -> None:
        """Insert or replace one entrant."""

    @abstractmethod
    async def rounds(self, tournament_id: str) -> list[RoundRecord]: ...

    @abstractmethod
    async def save_round(self, round: RoundRecord) -> None: ...

    @abstractmethod
    async def tournament_tables(self, tournament_id: str) -> list[TournamentTable]: ...

    @abstractmethod
    async def tournament_table_of(self, match_id: str) -> TournamentTable | None: ...

    @abstractmethod
    async def save_tournament_table(self, table: TournamentTable) -> None: ...

    @abstractmethod
    async def results(self, tournament_id: str) -> list[ResultRecord]: ...

    @abstractmethod
    async def add_result(self, result: ResultRecord, *, replace: bool = False) -> bool:
        """Record a table's result; without ``replace`` an existing one stays (False)."""

    @abstractmethod
    async def delete_results(self, tournament_id: str, round: int) -> None: ...

    @abstractmethod
    async def add_audit(self, row: AuditRecord) -> None: ...

    @abstractmethod
    async def audit(self, tournament_id: str) -> list[AuditRecord]: ...

    @abstractmethod
    async def replace_tournament_timers(self, tournament_id: str, timers: Sequence[Timer]) -> None:
        """The event's pending timers, all at once (``Timer.kind``, ``version`` = round)."""

    @abstractmethod
    async def tournament_timers(self, tournament_id: str) -> list[Timer]: ...

    # --- seasons (migration 022; a season's row is its end's timer) ------------------------
    @abstractmethod
    async def season_setup(self, guild_id: int, game: str) -> SeasonSetup | None: ...

    @abstractmethod
    async def season_setups(self, guild_id: int) -> list[SeasonSetup]: ...

    @abstractmethod
    async def seasons(self, guild_id: int, game: str) -> list[SeasonRecord]:
        """The game's seasons here, newest first."""

    @abstractmethod
    async def season(self, guild_id: int, game: str, number: int) -> SeasonRecord | None: ...

    @abstractmethod
    async def save_season_setup(self, setup: SeasonSetup) -> None: ...

    @abstractmethod
    async def start_seasons(
        self, setup: SeasonSetup, first: SeasonRecord, members: Mapping[int, int]
    ) -> None: ...

    @abstractmethod
    async def stop_seasons(self, guild_id: int, game: str) -> bool: ...

    @abstractmethod
    async def season_members(self, guild_id: int, game: str, number: int) -> dict[int, int]: ...

    @abstractmethod
    async def season_tallies(
        self, guild_id: int, game: str, start: float, end: float
    ) -> dict[int, Tally]: ...

    @abstractmethod
    async def displayed_ratings(self, guild_id: int, game: str) -> dict[int, int]: ...

    @abstractmethod
    async def end_season(
        self, ended: SeasonRecord, following: SeasonRecord | None, members: Mapping[int, int]
    ) -> bool: ...

    @abstractmethod
    async def season_announced(self, guild_id: int, game: str, number: int) -> None: ...

    @abstractmethod
    async def counts(self) -> dict[str, int]:
        """``active_matches`` (of the owned shards) and ``pending_timers``, for metrics."""

    # --- history (/history, /replay, /export): finished matches, newest first ---------------
    @abstractmethod
    async def finished_matches(
        self,
        guild_id: int,
        *,
        game: str | None = None,
        user_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[MatchRecord]:
        """A server's finished matches, newest first (optionally one game, one player's)."""

    @abstractmethod
    async def count_finished(
        self, guild_id: int, *, game: str | None = None, user_id: int | None = None
    ) -> int: ...

    @abstractmethod
    async def first_moves(self, match_ids: Sequence[str]) -> dict[str, datetime]:
        """When each match's first move was saved: a match's length runs from there."""

    # --- ratings (012_ratings.sql): one rating per (server, game, user) and its changes ----
    @abstractmethod
    async def ratings_of(
        self, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, RatingRecord]:
        """The players' current ratings; a player never rated here is missing."""

    @abstractmethod
    async def save_match_ratings(self, events: Sequence[RatingChangeRecord]) -> bool:
        """One transaction: a rated match's ``rating_events`` rows and its players' new
        ratings. False, changing nothing, if that match was rated already;
        ``RatingConflict`` if a player's rating is no longer the one the events start from."""

    @abstractmethod
    async def match_rated(self, match_id: str) -> bool: ...

    @abstractmethod
    async def leaderboard(
        self, guild_id: int, game: str, *, limit: int, offset: int = 0
    ) -> list[RatingRecord]:
        """Highest display rating first (ties: lower user id first)."""

    @abstractmethod
    async def count_rated(self, guild_id: int, game: str, above: int | None = None) -> int:
        """People rated in the game here (``above``: only those rated higher than it)."""

    @abstractmethod
    async def rating_changes_of(
        self, guild_id: int, game: str | None, user_id: int
    ) -> list[RatingChangeRecord]:
        """A player's changes, oldest first (``game`` None: every game)."""

    @abstractmethod
    async def unrated_since(self, since: float) -> list[str]:
        """Finished matches that ended after ``since`` and after the last rated match, and
        have no rating rows, in (finished_at, id) order: what a crash between a match's
        end and its rating left behind."""

    @abstractmethod
    async def rated_matches(self) -> list[str]:
        """Every rated match, in the order ratings replay them: (finished_at, id)."""

    @abstractmethod
    async def all_ratings(self) -> list[RatingRecord]: ...

    @abstractmethod
    async def all_rating_changes(self) -> list[RatingChangeRecord]: ...

    @abstractmethod
    async def replace_ratings(
        self, ratings: Sequence[RatingRecord], events: Sequence[RatingChangeRecord]
    ) -> None:
        """Both tables replaced in one transaction (``ratings rebuild``)."""
