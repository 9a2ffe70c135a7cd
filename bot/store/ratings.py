"""Ratings storage (012_ratings.sql): one rating per (server, game, user) and its changes,
the same SQL on both backends."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from bot.store.sql import Executor, Step, insert


class RatingRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    guild_id: int
    game: str
    user_id: int
    mu: float
    sigma: float
    games: int
    display: int


class RatingChangeRecord(BaseModel):
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


RATING_COLUMNS = "guild_id, game, user_id, mu, sigma, games, display"
CHANGE_COLUMNS = (
    "match_id, user_id, guild_id, game, at, place, players, mu_before, sigma_before, "
    "mu_after, sigma_after, games_after, display_after"
)
_INSERT_CHANGE = insert("rating_events", CHANGE_COLUMNS)
_INSERT_RATING = insert("ratings", RATING_COLUMNS)
# The update only lands on the rating the event started from (one game fewer): two
# processes rating matches of one player at once cannot both build on the same value.
_UPSERT_RATING = (
    f"{_INSERT_RATING} ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu, "
    "sigma = excluded.sigma, games = excluded.games, display = excluded.display "
    "WHERE ratings.games = excluded.games - 1"
)


# People's rows: bot levels are rated beside them under negative ids (bot/ratings.py
# BOT_IDS), shown apart and never ranked among them.
PEOPLE = "user_id >= 0"


class RatingSQL(Executor):
    """Both backends' ratings reads and writes."""

    async def ratings_of(
        self, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, RatingRecord]:
        if not user_ids:
            return {}
        rows = await self._fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = :guild AND game = :game "
            "AND user_id IN (:users)",
            {"guild": guild_id, "game": game, "users": list(user_ids)},
        )
        return {row["user_id"]: RatingRecord(**dict(row)) for row in rows}

    async def save_match_ratings(self, events: Sequence[RatingChangeRecord]) -> bool:
        try:
            await self._write(
                Step(_INSERT_CHANGE, rows=[e.model_dump() for e in events]),
                *(
                    Step(_UPSERT_RATING, e.rating().model_dump(), refuse=RatingConflict(e.user_id))
                    for e in events
                ),
            )
        except Exception as exc:
            if self._unique_violation(exc):
                return False  # the match's rows exist: it was rated already
            raise
        return True

    async def match_rated(self, match_id: str) -> bool:
        rows = await self._fetch(
            "SELECT 1 FROM rating_events WHERE match_id = :id LIMIT 1", {"id": match_id}
        )
        return bool(rows)

    async def leaderboard(
        self, guild_id: int, game: str, *, limit: int, offset: int = 0
    ) -> list[RatingRecord]:
        rows = await self._fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings WHERE guild_id = :guild AND game = :game "
            f"AND {PEOPLE} ORDER BY display DESC, user_id LIMIT :limit OFFSET :offset",
            {"guild": guild_id, "game": game, "limit": limit, "offset": offset},
        )
        return [RatingRecord(**dict(row)) for row in rows]

    async def count_rated(self, guild_id: int, game: str, above: int | None = None) -> int:
        params: dict[str, object] = {"guild": guild_id, "game": game}
        higher = ""
        if above is not None:
            higher, params["above"] = " AND display > :above", above
        return int(
            await self._value(
                "SELECT count(*) FROM ratings WHERE guild_id = :guild AND game = :game "
                f"AND {PEOPLE}{higher}",
                params,
            )
        )

    async def rating_changes_of(
        self, guild_id: int, game: str | None, user_id: int
    ) -> list[RatingChangeRecord]:
        where = "guild_id = :guild AND user_id = :user" + (
            "" if game is None else " AND game = :game"
        )
        rows = await self._fetch(
            f"SELECT {CHANGE_COLUMNS} FROM rating_events WHERE {where} ORDER BY at, match_id",
            {"guild": guild_id, "user": user_id, "game": game},
        )
        return [RatingChangeRecord(**dict(row)) for row in rows]

    async def unrated_since(self, since: float) -> list[str]:
        # After both ``since`` and the last rated match.
        rows = await self._fetch(
            "SELECT id FROM matches WHERE status = 'finished' AND finished_at > :since "
            "AND finished_at > coalesce((SELECT max(at) FROM rating_events), :since) "
            "AND id NOT IN (SELECT match_id FROM rating_events) ORDER BY finished_at, id",
            {"since": since},
        )
        return [row["id"] for row in rows]

    async def rated_matches(self) -> list[str]:
        rows = await self._fetch(
            "SELECT id FROM matches WHERE id IN (SELECT match_id FROM rating_events) "
            "ORDER BY finished_at, id"
        )
        return [row["id"] for row in rows]

    async def all_ratings(self) -> list[RatingRecord]:
        rows = await self._fetch(
            f"SELECT {RATING_COLUMNS} FROM ratings ORDER BY guild_id, game, user_id"
        )
        return [RatingRecord(**dict(row)) for row in rows]

    async def all_rating_changes(self) -> list[RatingChangeRecord]:
        rows = await self._fetch(
            f"SELECT {CHANGE_COLUMNS} FROM rating_events ORDER BY match_id, user_id"
        )
        return [RatingChangeRecord(**dict(row)) for row in rows]

    async def replace_ratings(
        self, ratings: Sequence[RatingRecord], events: Sequence[RatingChangeRecord]
    ) -> None:
        await self._write(
            Step("DELETE FROM rating_events"),
            Step("DELETE FROM ratings"),
            Step(_INSERT_CHANGE, rows=[e.model_dump() for e in events]),
            Step(_INSERT_RATING, rows=[r.model_dump() for r in ratings]),
        )
