"""Seasons storage (022_seasons.sql), the same SQL on both backends: a server's season set-up
per game, its seasons (each row also the stored timer of its end), the players' divisions,
and the season points summed from ``rating_events``.

A season's end is one guarded write (``end_season``): the season ended, its final table
and role holders kept, the next season and its divisions begun. Its guard, the season
still running, makes the end happen exactly once however many times its timer fires.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from bot.seasons import Tally
from bot.store.models import Timer
from bot.store.sql import Executor, Step, insert

SEASON_TIMER = "season:"  # prefix of a season timer's ``Timer.match_id``
SEASON_END = "season_end"


class SeasonSetup(BaseModel):
    model_config = ConfigDict(frozen=True)

    guild_id: int
    game: str
    length: str
    divisions: int
    size: int
    role_id: int | None = None
    role_places: int = 0
    channel_id: int


class SeasonRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    guild_id: int
    game: str
    number: int
    starts_at: float
    ends_at: float
    status: str  # running, ended, stopped
    due_at: float | None = None
    final: str | None = None  # JSON of the final tables: [[line, ...] per division]
    holders: str = "[]"  # JSON list of the user ids given the role at its end

    @property
    def timer(self) -> Timer | None:
        if self.due_at is None:
            return None
        return season_timer(self.guild_id, self.game, self.number, self.due_at)

    def holder_ids(self) -> list[int]:
        return [int(user) for user in json.loads(self.holders)]


def season_timer(guild_id: int, game: str, number: int, due_at: float) -> Timer:
    return Timer(
        match_id=f"{SEASON_TIMER}{guild_id}:{game}:{number}",
        kind=SEASON_END,
        seat=0,
        version=number,
        due_at=due_at,
    )


def season_of_timer(timer: Timer) -> tuple[int, str, int]:
    guild, game, number = timer.match_id.removeprefix(SEASON_TIMER).split(":")
    return int(guild), game, int(number)


SETUP_COLUMNS = "guild_id, game, length, divisions, size, role_id, role_places, channel_id"
SEASON_COLUMNS = "guild_id, game, number, starts_at, ends_at, status, due_at, final, holders"
_INSERT_SEASON = insert("seasons", SEASON_COLUMNS)
_INSERT_MEMBER = insert("season_members", "guild_id, game, number, user_id, division")
_SAVE_SETUP = insert("season_setups", SETUP_COLUMNS, key="guild_id, game", conflict="replace")
_GAME = "guild_id = :guild AND game = :game"
# The season points of each person's rated matches between :start and :end, as
# ``bot.seasons.match_points`` gives them: ties share the average of the places they cover
# (2·(n − place) − (tied − 1) is twice n less that average), rounded half up in integers so
# both backends sum the same.
_TALLIES = (
    "WITH played AS (SELECT user_id, place, players, "
    # A match's rows share its ``at``: partitioned in the index's order, nothing is sorted.
    "count(*) OVER (PARTITION BY at, match_id, place) AS tied FROM rating_events "
    f"WHERE {_GAME} AND at >= :start AND at < :end AND user_id >= 0) "
    "SELECT user_id, sum(CASE WHEN players < 2 THEN 0 ELSE "
    "(100 * (2 * (players - place) - (tied - 1)) + players - 1) / (2 * (players - 1)) END) "
    "AS points, count(*) AS played, sum(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS wins "
    "FROM played GROUP BY user_id"
)


class SeasonSQL(Executor):
    """Both backends' season reads and writes."""

    async def season_setup(self, guild_id: int, game: str) -> SeasonSetup | None:
        rows = await self._fetch(
            f"SELECT {SETUP_COLUMNS} FROM season_setups WHERE {_GAME}",
            {"guild": guild_id, "game": game},
        )
        return SeasonSetup(**dict(rows[0])) if rows else None

    async def season_setups(self, guild_id: int) -> list[SeasonSetup]:
        rows = await self._fetch(
            f"SELECT {SETUP_COLUMNS} FROM season_setups WHERE guild_id = :guild ORDER BY game",
            {"guild": guild_id},
        )
        return [SeasonSetup(**dict(row)) for row in rows]

    async def seasons(self, guild_id: int, game: str) -> list[SeasonRecord]:
        """The game's seasons here, newest first."""
        rows = await self._fetch(
            f"SELECT {SEASON_COLUMNS} FROM seasons WHERE {_GAME} ORDER BY number DESC",
            {"guild": guild_id, "game": game},
        )
        return [SeasonRecord(**dict(row)) for row in rows]

    async def season(self, guild_id: int, game: str, number: int) -> SeasonRecord | None:
        rows = await self._fetch(
            f"SELECT {SEASON_COLUMNS} FROM seasons WHERE {_GAME} AND number = :number",
            {"guild": guild_id, "game": game, "number": number},
        )
        return SeasonRecord(**dict(rows[0])) if rows else None

    async def save_season_setup(self, setup: SeasonSetup) -> None:
        """A changed set-up of seasons that run: the running season keeps its end and its
        divisions; the next one follows the new set-up."""
        await self._write(Step(_SAVE_SETUP, setup.model_dump()))

    async def start_seasons(
        self, setup: SeasonSetup, first: SeasonRecord, members: Mapping[int, int]
    ) -> None:
        """Turn seasons on: the set-up saved and a first season begun, in one write."""
        await self._write(
            Step(_SAVE_SETUP, setup.model_dump()),
            Step(_INSERT_SEASON, first.model_dump()),
            Step(_INSERT_MEMBER, rows=_member_rows(first, members)),
        )

    async def stop_seasons(self, guild_id: int, game: str) -> bool:
        """Seasons off: the set-up gone, the running season stopped where it stands (no
        end, no role moved). False if seasons were not on."""
        changed = await self._write(
            Step(f"DELETE FROM season_setups WHERE {_GAME}", {"guild": guild_id, "game": game}),
            Step(
                "UPDATE seasons SET status = 'stopped', due_at = NULL "
                f"WHERE {_GAME} AND status = 'running'",
                {"guild": guild_id, "game": game},
            ),
        )
        return bool(changed[0])

    async def season_members(self, guild_id: int, game: str, number: int) -> dict[int, int]:
        rows = await self._fetch(
            f"SELECT user_id, division FROM season_members WHERE {_GAME} AND number = :number",
            {"guild": guild_id, "game": game, "number": number},
        )
        return {row["user_id"]: row["division"] for row in rows}

    async def season_tallies(
        self, guild_id: int, game: str, start: float, end: float
    ) -> dict[int, Tally]:
        rows = await self._fetch(
            _TALLIES, {"guild": guild_id, "game": game, "start": start, "end": end}
        )
        return {
            row["user_id"]: Tally(int(row["points"]), int(row["played"]), int(row["wins"]))
            for row in rows
        }

    async def displayed_ratings(self, guild_id: int, game: str) -> dict[int, int]:
        rows = await self._fetch(
            f"SELECT user_id, display FROM ratings WHERE {_GAME} AND user_id >= 0",
            {"guild": guild_id, "game": game},
        )
        return {row["user_id"]: row["display"] for row in rows}

    async def end_season(
        self,
        ended: SeasonRecord,
        following: SeasonRecord | None,
        members: Mapping[int, int],
    ) -> bool:
        """The season's end, once: ``ended`` (its final table and holders) replaces the
        running row and ``following`` begins with ``members``' divisions. False: it had
        ended already (another firing of its timer got there first)."""
        steps = [
            Step(
                "UPDATE seasons SET status = :status, final = :final, holders = :holders, "
                "due_at = :due_at WHERE guild_id = :guild_id AND game = :game "
                "AND number = :number AND status = 'running'",
                ended.model_dump(exclude={"starts_at", "ends_at"}),
                refuse=_AlreadyEnded(),
            )
        ]
        if following is not None:
            steps += [
                Step(_INSERT_SEASON, following.model_dump()),
                Step(_INSERT_MEMBER, rows=_member_rows(following, members)),
            ]
        try:
            await self._write(*steps)
        except _AlreadyEnded:
            return False
        return True

    async def season_announced(self, guild_id: int, game: str, number: int) -> None:
        """Its end is posted and its role moved: its timer is done."""
        await self._write(
            Step(
                f"UPDATE seasons SET due_at = NULL WHERE {_GAME} AND number = :number "
                "AND status = 'ended'",
                {"guild": guild_id, "game": game, "number": number},
            )
        )


class _AlreadyEnded(Exception):
    pass


def _member_rows(season: SeasonRecord, members: Mapping[int, int]) -> Sequence[dict[str, object]]:
    return [
        {"guild_id": season.guild_id, "game": season.game, "number": season.number}
        | {"user_id": user, "division": division}
        for user, division in sorted(members.items())
    ]
