"""Ratings storage (012_ratings.sql): one rating per (server, game, user) and its changes.

Plain SQL that PostgreSQL runs as well (``ON CONFLICT ... DO UPDATE ... WHERE``), so the
PostgreSQL store ports it line for line.
"""

from __future__ import annotations

import contextlib
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from bot.store.transactions import immediate

if TYPE_CHECKING:
    import asyncio

    import aiosqlite


class RatingRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    guild_id: int
    game: str
    user_id: int
    mu: float
    sigma: float
    games: int
    display: int


class RatingEventRecord(BaseModel):
    """One player's change from one rated match."""

    model_config = ConfigDict(frozen=True)

    match_id: str
    user_id: int
    guild_id: int
    game: str
    at: float  # the match's finished_at
    place: int  # among the rated seats
    players: int  # rated seats in the match
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    games_after: int
    display_after: int

    def rating(self) -> RatingRecord:
        """The player's rating right after this match."""
        return RatingRecord(
            guild_id=self.guild_id,
            game=self.game,
            user_id=self.user_id,
            mu=self.mu_after,
            sigma=self.sigma_after,
            games=self.games_after,
            display=self.display_after,
        )


class RatingConflict(Exception):
    """A player's rating moved since it was read (another process rated a match of theirs)."""


class RatingsStore(ABC):
    @abstractmethod
    async def ratings_of(
        self, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, RatingRecord]:
        """The players' current ratings; a player never rated here is missing."""

    @abstractmethod
    async def save_match_ratings(self, events: Sequence[RatingEventRecord]) -> bool:
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
    async def count_rated(self, guild_id: int, game: str) -> int: ...

    @abstractmethod
    async def rating_events_of(
        self, guild_id: int, game: str | None, user_id: int
    ) -> list[RatingEventRecord]:
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
    async def all_rating_events(self) -> list[RatingEventRecord]: ...

    @abstractmethod
    async def replace_ratings(
        self, ratings: Sequence[RatingRecord], events: Sequence[RatingEventRecord]
    ) -> None:
        """Both tables replaced in one transaction (``ratings rebuild``)."""


_RATING = "guild_id, game, user_id, mu, sigma, games, display"
_EVENT = (
    "match_id, user_id, guild_id, game, at, place, players, mu_before, sigma_before, "
    "mu_after, sigma_after, games_after, display_after"
)
_INSERT_EVENT = f"INSERT INTO rating_events ({_EVENT}) VALUES ({', '.join('?' * 13)})"
_INSERT_RATING = f"INSERT INTO ratings ({_RATING}) VALUES (?, ?, ?, ?, ?, ?, ?)"
# The update only lands on the rating the event started from (one game fewer): two
# processes rating matches of one player at once cannot both build on the same value.
_UPSERT_RATING = (
    f"{_INSERT_RATING} ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu, "
    "sigma = excluded.sigma, games = excluded.games, display = excluded.display "
    "WHERE ratings.games = excluded.games - 1"
)


def _event_row(event: RatingEventRecord) -> tuple[object, ...]:
    return tuple(getattr(event, name.strip()) for name in _EVENT.split(","))


def _rating_row(rating: RatingRecord) -> tuple[object, ...]:
    return tuple(getattr(rating, name.strip()) for name in _RATING.split(","))


def _save_match_ratings(events: Sequence[RatingEventRecord], db: sqlite3.Connection) -> bool:
    try:
        with immediate(db):
            db.executemany(_INSERT_EVENT, [_event_row(e) for e in events])
            for event in events:
                if db.execute(_UPSERT_RATING, _rating_row(event.rating())).rowcount != 1:
                    raise RatingConflict(event.user_id)
    except sqlite3.IntegrityError:
        return False  # the match's rows exist: it was rated already
    return True


class SQLiteRatings(RatingsStore):
    """The SQLite side; mixed into ``SQLiteStore``, whose connection and lock it uses."""

    db: aiosqlite.Connection
    _lock: asyncio.Lock
    in_thread: Callable[[Callable[[sqlite3.Connection], bool]], Awaitable[bool]]

    async def _rows(self, sql: str, params: tuple[object, ...] = ()) -> list[aiosqlite.Row]:
        async with self._lock:
            return list(await self.db.execute_fetchall(sql, params))

    async def ratings_of(
        self, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, RatingRecord]:
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        rows = await self._rows(
            f"SELECT {_RATING} FROM ratings WHERE guild_id = ? AND game = ? "
            f"AND user_id IN ({marks})",
            (guild_id, game, *user_ids),
        )
        return {row["user_id"]: RatingRecord(**dict(row)) for row in rows}

    async def save_match_ratings(self, events: Sequence[RatingEventRecord]) -> bool:
        async with self._lock:
            # One trip to the database's thread: the store's lock is held meanwhile, and
            # moves' commits wait for it (see ``SQLiteStore.in_thread``).
            return await self.in_thread(partial(_save_match_ratings, events))

    async def match_rated(self, match_id: str) -> bool:
        rows = await self._rows(
            "SELECT 1 FROM rating_events WHERE match_id = ? LIMIT 1", (match_id,)
        )
        return bool(rows)

    async def leaderboard(
        self, guild_id: int, game: str, *, limit: int, offset: int = 0
    ) -> list[RatingRecord]:
        rows = await self._rows(
            f"SELECT {_RATING} FROM ratings WHERE guild_id = ? AND game = ? "
            "ORDER BY display DESC, user_id LIMIT ? OFFSET ?",
            (guild_id, game, limit, offset),
        )
        return [RatingRecord(**dict(row)) for row in rows]

    async def count_rated(self, guild_id: int, game: str) -> int:
        rows = await self._rows(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?", (guild_id, game)
        )
        return int(rows[0][0])

    async def rating_events_of(
        self, guild_id: int, game: str | None, user_id: int
    ) -> list[RatingEventRecord]:
        where, params = "guild_id = ? AND user_id = ?", [guild_id, user_id]
        if game is not None:
            where += " AND game = ?"
            params.append(game)
        rows = await self._rows(
            f"SELECT {_EVENT} FROM rating_events WHERE {where} ORDER BY at, match_id",
            tuple(params),
        )
        return [RatingEventRecord(**dict(row)) for row in rows]

    async def unrated_since(self, since: float) -> list[str]:
        rows = await self._rows(
            "SELECT id FROM matches WHERE status = 'finished' AND finished_at > max(?, "
            "coalesce((SELECT max(at) FROM rating_events), ?)) AND id NOT IN "
            "(SELECT match_id FROM rating_events) ORDER BY finished_at, id",
            (since, since),
        )
        return [row["id"] for row in rows]

    async def rated_matches(self) -> list[str]:
        rows = await self._rows(
            "SELECT id FROM matches WHERE id IN (SELECT match_id FROM rating_events) "
            "ORDER BY finished_at, id"
        )
        return [row["id"] for row in rows]

    async def all_ratings(self) -> list[RatingRecord]:
        rows = await self._rows(f"SELECT {_RATING} FROM ratings ORDER BY guild_id, game, user_id")
        return [RatingRecord(**dict(row)) for row in rows]

    async def all_rating_events(self) -> list[RatingEventRecord]:
        rows = await self._rows(f"SELECT {_EVENT} FROM rating_events ORDER BY match_id, user_id")
        return [RatingEventRecord(**dict(row)) for row in rows]

    async def replace_ratings(
        self, ratings: Sequence[RatingRecord], events: Sequence[RatingEventRecord]
    ) -> None:
        async with self._lock:
            try:
                await self.db.execute("BEGIN IMMEDIATE")
                await self.db.execute("DELETE FROM rating_events")
                await self.db.execute("DELETE FROM ratings")
                await self.db.executemany(_INSERT_EVENT, [_event_row(e) for e in events])
                await self.db.executemany(_INSERT_RATING, [_rating_row(r) for r in ratings])
                await self.db.execute("COMMIT")
            except BaseException:
                with contextlib.suppress(sqlite3.Error):
                    await self.db.execute("ROLLBACK")
                raise
