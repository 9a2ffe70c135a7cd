"""The store interface. SQLite is the embedded default; PostgreSQL can implement the same."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

from bot.store.history import HistoryReads
from bot.store.models import DeckRecord, LoggedAction, MatchRecord, SeatRecord, Status, Timer


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


class Store(HistoryReads, ABC):
    @abstractmethod
    async def connect(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def create_match(self, record: MatchRecord) -> None:
        """Insert a lobby with its seats; raise ``ChannelBusy`` if the channel has one open."""

    @abstractmethod
    async def get(self, match_id: str) -> MatchRecord | None: ...

    @abstractmethod
    async def open_in_channel(self, channel_id: int) -> MatchRecord | None: ...

    @abstractmethod
    async def open_for_user(self, guild_id: int, user_id: int) -> list[MatchRecord]: ...

    @abstractmethod
    async def open_matches(self) -> list[MatchRecord]: ...

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
    ) -> None:
        """One transaction: snapshot, action log row, version check, timers replaced;
        ``VersionConflict`` if the version moved."""

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

    @abstractmethod
    async def counts(self) -> dict[str, int]:
        """``active_matches`` (of the owned shards) and ``pending_timers``, for metrics."""
