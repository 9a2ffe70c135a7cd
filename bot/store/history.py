"""Reads for match history (/history, /replay, /export): finished matches, newest first."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from bot.store.models import MatchRecord

if TYPE_CHECKING:
    import asyncio

    import aiosqlite


class HistoryReads(ABC):
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


def _filters(guild_id: int, game: str | None, user_id: int | None) -> tuple[str, list[object]]:
    where, params = ["guild_id = ?", "status = 'finished'"], [guild_id]
    if game is not None:
        where.append("game = ?")
        params.append(game)
    if user_id is not None:
        where.append("id IN (SELECT match_id FROM seats WHERE user_id = ?)")
        params.append(user_id)
    return " AND ".join(where), params


class SQLiteHistory(HistoryReads):
    """The SQLite side; mixed into ``SQLiteStore``, whose connection and lock it uses."""

    db: aiosqlite.Connection
    _lock: asyncio.Lock
    if TYPE_CHECKING:

        async def _matches(self, where: str, params: tuple[object, ...]) -> list[MatchRecord]: ...

    async def finished_matches(
        self,
        guild_id: int,
        *,
        game: str | None = None,
        user_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[MatchRecord]:
        where, params = _filters(guild_id, game, user_id)
        return await self._matches(
            f"{where} ORDER BY finished_at DESC, id LIMIT ? OFFSET ?", (*params, limit, offset)
        )

    async def count_finished(
        self, guild_id: int, *, game: str | None = None, user_id: int | None = None
    ) -> int:
        where, params = _filters(guild_id, game, user_id)
        async with self._lock:
            rows = await self.db.execute_fetchall(
                f"SELECT COUNT(*) FROM matches WHERE {where}", tuple(params)
            )
        return int(next(iter(rows))[0])

    async def first_moves(self, match_ids: Sequence[str]) -> dict[str, datetime]:
        if not match_ids:
            return {}
        marks = ",".join("?" * len(match_ids))
        async with self._lock:
            rows = await self.db.execute_fetchall(
                f"SELECT match_id, at FROM actions WHERE seq = 0 AND match_id IN ({marks})",
                tuple(match_ids),
            )
        return {row[0]: datetime.fromisoformat(row[1]) for row in rows}
