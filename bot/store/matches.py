"""Matches, their seats, reminders and settings: the reads and writes both backends share.

Where the backends differ, a hook says so: how a move is saved (``_save_move``) and where
a match's timers live (``_STARTED``, ``_timer_writes``).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import ClassVar, NamedTuple

from bot.store.base import ChannelBusy, Shards, StoreError, VersionConflict
from bot.store.models import OPEN_STATUSES, MatchRecord, SeatRecord, Status, Timer
from bot.store.sql import Executor, Params, Step, marks

MATCH_COLUMNS = (
    "id, guild_id, channel_id, message_id, game, status, host_id, options, seed, version, "
    "state, rematch_of, settings, created_at, updated_at"
)
# Read back with the ending time, which only the store itself writes (010_finished_at.sql).
READ_MATCHES = f"SELECT {MATCH_COLUMNS}, finished_at FROM matches WHERE "
OPEN = "('" + "', '".join(OPEN_STATUSES) + "')"
_GET = READ_MATCHES + "id = :id"
_OPEN_IN_CHANNEL = f"{READ_MATCHES}channel_id = :channel AND status IN {OPEN}"
_SEATS = (
    "SELECT match_id, seat, user_id, name, away, missed, level FROM seats "
    "WHERE match_id IN (:ids) ORDER BY match_id, seat"
)
_INSERT_MATCH = f"INSERT INTO matches ({MATCH_COLUMNS}) VALUES ({marks(MATCH_COLUMNS)})"
_START = (
    "UPDATE matches SET status = :status, seed = :seed, state = :state, version = :version, "
    "{sets}updated_at = :at WHERE id = :id AND status = 'lobby'"
)


class Move(NamedTuple):
    """A move to save: the snapshot it leads to, its log entry and the timers it leaves."""

    match_id: str
    expected_version: int
    state: str
    version: int
    seat: int
    action: str
    status: Status
    timers: Sequence[Timer]


def shard_filter(shards: Shards | None, guild: str) -> str:
    """A WHERE term keeping the guilds of the owned shards (Discord's own formula)."""
    if shards is None:
        return "TRUE"
    ids = ", ".join(str(int(i)) for i in sorted(shards.ids))
    return f"(({guild} >> 22) % {int(shards.count)}) IN ({ids})"


class MatchSQL(Executor):
    # The shards this process serves (PostgreSQL; SQLite serves every guild).
    shards: Shards | None = None
    # ``start``'s SET terms for the backend's own columns of the match row: its timers
    # (``_timer_writes``), or its ending time (``:ended``, when the deal decides the match).
    _STARTED: ClassVar[str] = ""

    @abstractmethod
    def _timer_writes(self, match_id: str, timers: Sequence[Timer]) -> tuple[Params, list[Step]]:
        """A match's timers, all at once: as values of its row's own columns (SQLite), or as
        statements of their own (PostgreSQL's timers table)."""

    @abstractmethod
    async def _save_move(self, move: Move, meanwhile: Callable[[], object] | None) -> int:
        """Write the move (see ``Store.save_action``); the rows its guarded update changed."""

    # --- reads -------------------------------------------------------------------------
    async def _matches(self, sql: str, params: Params) -> list[MatchRecord]:
        async with self._snapshot() as fetch:
            # One snapshot for the matches and their seats: never a match with seats saved
            # after it.
            rows = await fetch(sql, params)
            found = await fetch(_SEATS, {"ids": [row["id"] for row in rows]}) if rows else []
        seats: dict[str, list[SeatRecord]] = {row["id"]: [] for row in rows}
        for row in found:
            seats[row["match_id"]].append(
                SeatRecord(
                    seat=row["seat"],
                    user_id=row["user_id"],
                    name=row["name"],
                    away=row["away"],
                    missed=row["missed"],
                    level=row["level"],
                )
            )
        return [
            MatchRecord(
                match_id=row["id"],
                **{k: row[k] for k in row.keys() if k != "id"},  # noqa: SIM118
                seats=seats[row["id"]],
            )
            for row in rows
        ]

    async def get(self, match_id: str) -> MatchRecord | None:
        found = await self._matches(_GET, {"id": match_id})
        return found[0] if found else None

    async def open_in_channel(self, channel_id: int) -> MatchRecord | None:
        found = await self._matches(_OPEN_IN_CHANNEL, {"channel": channel_id})
        return found[0] if found else None

    async def open_for_user(self, guild_id: int, user_id: int) -> list[MatchRecord]:
        return await self._matches(
            f"{READ_MATCHES}guild_id = :guild AND status IN {OPEN} AND id IN "
            "(SELECT match_id FROM seats WHERE user_id = :user) ORDER BY updated_at DESC",
            {"guild": guild_id, "user": user_id},
        )

    async def open_matches(self) -> list[MatchRecord]:
        owned = "" if self.shards is None else f" AND {shard_filter(self.shards, 'guild_id')}"
        return await self._matches(f"{READ_MATCHES}status IN {OPEN}{owned} ORDER BY created_at", {})

    async def running_in_guild(self, guild_id: int) -> list[MatchRecord]:
        return await self._matches(
            f"{READ_MATCHES}guild_id = :guild AND status = 'active' ORDER BY created_at",
            {"guild": guild_id},
        )

    async def player_names(self, guild_id: int, user_ids: Sequence[int]) -> dict[int, str]:
        if not user_ids:
            return {}
        # The name each person last sat down with on this server (seats keep it per match).
        rows = await self._fetch(
            "SELECT s.user_id, s.name FROM seats s JOIN matches m ON m.id = s.match_id "
            "WHERE m.guild_id = :guild AND s.user_id IN (:ids) ORDER BY m.created_at",
            {"guild": guild_id, "ids": list(user_ids)},
        )
        return {int(row[0]): str(row[1]) for row in rows}

    # --- writes ------------------------------------------------------------------------
    @staticmethod
    def _seat_steps(match_id: str, seats: Sequence[SeatRecord]) -> list[Step]:
        rows = [
            {
                "match_id": match_id,
                "seat": s.seat,
                "user_id": s.user_id,
                "name": s.name,
                "level": s.level,
            }
            for s in seats
        ]
        return [
            Step("DELETE FROM seats WHERE match_id = :id", {"id": match_id}),
            Step(
                "INSERT INTO seats (match_id, seat, user_id, name, level) VALUES "
                "(:match_id, :seat, :user_id, :name, :level)",
                rows=rows,
            ),
        ]

    async def create_match(self, record: MatchRecord) -> None:
        stamp = datetime.now(UTC)
        values = {**record.model_dump(exclude={"seats"}), "id": record.match_id}
        values["created_at"] = values["updated_at"] = stamp
        try:
            await self._write(
                Step(_INSERT_MATCH, values),
                *self._seat_steps(record.match_id, record.seats),
            )
        except Exception as exc:
            if not self._unique_violation(exc, "matches_one_open_per_channel"):
                raise
            existing = await self.open_in_channel(record.channel_id)
            if existing is None:
                raise
            raise ChannelBusy(existing.match_id) from exc

    async def save_lobby(
        self,
        match_id: str,
        seats: Sequence[SeatRecord],
        options: str,
        host_id: int,
        settings: str,
    ) -> None:
        values = {"options": options, "host": host_id, "settings": settings}
        await self._write(
            Step(
                "UPDATE matches SET options = :options, host_id = :host, settings = :settings, "
                "updated_at = :at WHERE id = :id AND status = 'lobby'",
                {**values, "at": datetime.now(UTC), "id": match_id},
                refuse=VersionConflict(match_id),
            ),
            *self._seat_steps(match_id, seats),
        )

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
        stamp = datetime.now(UTC)
        ended = None if status == "active" else stamp.timestamp()
        row, elsewhere = self._timer_writes(match_id, timers)
        values = {"status": status, "seed": seed, "state": state, "version": version}
        await self._write(
            Step(
                _START.format(sets=self._STARTED),
                {**values, **row, "at": stamp, "ended": ended, "id": match_id},
                refuse=VersionConflict(match_id),
            ),
            *self._seat_steps(match_id, seats),
            *elsewhere,
        )

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
        if version != expected_version + 1:
            raise StoreError("a move must advance the version by exactly one")
        move = Move(match_id, expected_version, state, version, seat, action, status, timers)
        if await self._save_move(move, meanwhile) != 1:
            raise VersionConflict(match_id)

    async def save_seat(self, match_id: str, seat: SeatRecord) -> None:
        await self._write(
            Step(
                "UPDATE seats SET away = :away, missed = :missed "
                "WHERE match_id = :id AND seat = :seat",
                {"away": seat.away, "missed": seat.missed, "id": match_id, "seat": seat.seat},
            )
        )

    async def set_status(self, match_id: str, status: Status) -> None:
        stamp = datetime.now(UTC)
        ended = stamp.timestamp() if status in ("finished", "cancelled") else None
        await self._write(
            Step(
                "UPDATE matches SET status = :status, updated_at = :at, "
                "finished_at = coalesce(:ended, finished_at) WHERE id = :id",
                {"status": status, "at": stamp, "ended": ended, "id": match_id},
            )
        )

    async def set_message(self, match_id: str, message_id: int) -> None:
        await self._write(
            Step(
                "UPDATE matches SET message_id = :message WHERE id = :id",
                {"message": message_id, "id": match_id},
            )
        )

    async def claim_reminder(self, match_id: str, now: float, every: float) -> bool:
        (claimed,) = await self._write(
            Step(
                "INSERT INTO reminders (match_id, reminded_at) VALUES (:id, :now) "
                "ON CONFLICT (match_id) DO UPDATE SET reminded_at = excluded.reminded_at "
                "WHERE reminders.reminded_at <= excluded.reminded_at - :every",
                {"id": match_id, "now": now, "every": every},
            )
        )
        return claimed == 1  # no row changed: it pinged within the hour

    # --- settings ------------------------------------------------------------------------
    async def user_settings(self, user_id: int) -> str:
        return await self._settings("user", user_id)

    async def save_user_settings(self, user_id: int, settings: str) -> None:
        await self._save_settings("user", user_id, settings)

    async def guild_settings(self, guild_id: int) -> str:
        return await self._settings("guild", guild_id)

    async def save_guild_settings(self, guild_id: int, settings: str) -> None:
        await self._save_settings("guild", guild_id, settings)

    async def _settings(self, whose: str, key: int) -> str:
        found = await self._value(
            f"SELECT settings FROM {whose}_settings WHERE {whose}_id = :key", {"key": key}
        )
        return found if found is not None else "{}"

    async def _save_settings(self, whose: str, key: int, settings: str) -> None:
        await self._write(
            Step(
                f"INSERT INTO {whose}_settings ({whose}_id, settings) VALUES (:key, :settings) "
                f"ON CONFLICT ({whose}_id) DO UPDATE SET settings = excluded.settings",
                {"key": key, "settings": settings},
            )
        )
