"""Reads for match history (/history, /replay, /export): finished matches, newest first."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.store.matches import READ_MATCHES, MatchSQL
from bot.store.models import MatchRecord
from bot.store.sql import Params


def _filters(guild_id: int, game: str | None, user_id: int | None) -> tuple[str, Params]:
    where, params = ["guild_id = :guild", "status = 'finished'"], {"guild": guild_id}
    if game is not None:
        where.append("game = :game")
        params["game"] = game
    if user_id is not None:
        where.append("id IN (SELECT match_id FROM seats WHERE user_id = :user)")
        params["user"] = user_id
    return " AND ".join(where), params


class HistorySQL(MatchSQL):
    """Both backends' history reads."""

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
            f"{READ_MATCHES}{where} ORDER BY finished_at DESC, id LIMIT :limit OFFSET :offset",
            {**params, "limit": limit, "offset": offset},
        )

    async def count_finished(
        self, guild_id: int, *, game: str | None = None, user_id: int | None = None
    ) -> int:
        where, params = _filters(guild_id, game, user_id)
        return int(await self._value(f"SELECT count(*) FROM matches WHERE {where}", params))

    async def first_moves(self, match_ids: Sequence[str]) -> dict[str, datetime]:
        if not match_ids:
            return {}
        rows = await self._fetch(
            "SELECT match_id, at FROM actions WHERE seq = 0 AND match_id IN (:ids)",
            {"ids": list(match_ids)},
        )
        # SQLite keeps times as ISO 8601 text, PostgreSQL as timestamps.
        return {
            row[0]: row[1] if isinstance(row[1], datetime) else datetime.fromisoformat(row[1])
            for row in rows
        }
