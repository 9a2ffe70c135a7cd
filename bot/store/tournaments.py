"""Tournaments (013_tournaments.sql): the event, its entrants, rounds, tables, results, audit
rows and timers. Both backends' reads and writes; the records are in ``events.py``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TypeVar

from pydantic import TypeAdapter

from bot.store.base import VersionConflict
from bot.store.models import Timer
from bot.store.sql import Dialects, Executor, Row, Step, insert
from bot.store.tournament_records import (
    TOURNAMENT_TIMER,
    AuditRecord,
    EntrantRecord,
    ResultRecord,
    RoundRecord,
    TournamentRecord,
    TournamentTable,
)

_TOURNAMENT = (
    "id, guild_id, channel_id, message_id, organiser_id, game, config, status, round, seed, "
    "created_at"
)
_ENTRANT = (
    "tournament_id, entrant, user_id, name, state, checked_in, forfeited, dropped_round, "
    "joined_at, level"
)
_ROUND = "tournament_id, round, stage, deadline, message_id, started_at"
_TABLE = "tournament_id, round, table_no, match_id, thread_id, seats, status, bracket_id, games"
_RESULT = (
    "tournament_id, round, table_no, players, places, kind, gone, source, match_id, "
    "game_wins, game_draws"
)
_AUDIT = "tournament_id, actor_id, actor_name, action, before, after, at"
_PER_TABLE = "tournament_id, round, table_no"  # the key of a table and of its result
_INSERT_TOURNAMENT = insert("tournaments", _TOURNAMENT)
# Replaced whole; on SQLite that also drops another entrant row of the same user.
_SAVE_ENTRANT = insert("entrants", _ENTRANT, key="tournament_id, entrant", conflict="replace")
_SAVE_ROUND = insert("rounds", _ROUND, key="tournament_id, round", conflict="replace")
_SAVE_TABLE = insert("event_tables", _TABLE, key=_PER_TABLE, conflict="replace")
_KEEP_RESULT = insert("results", _RESULT, key=_PER_TABLE, conflict="ignore")
_REPLACE_RESULT = insert("results", _RESULT, key=_PER_TABLE, conflict="replace")
_INSERT_AUDIT = insert("tournament_audit", _AUDIT)
_OPEN = "status IN ('signup', 'running', 'paused')"


def _as_json(table: str, columns: str, json_columns: set[str]) -> Dialects:
    """An event's rows of ``table`` as one JSON array of objects, built by the database:
    a 512-player Swiss has 2,304 results and as many tables, and decoding their JSON
    columns row by row in Python took most of its standings page's read. The order is
    the caller's (SQLite before 3.44 orders no aggregate)."""
    names = [name.strip() for name in columns.split(",")]

    def pairs(as_json: str) -> str:
        return ", ".join(
            f"'{name}', {as_json.format(name) if name in json_columns else name}" for name in names
        )

    where = f"FROM {table} WHERE tournament_id = :id"
    return Dialects(
        sqlite=f"SELECT json_group_array(json_object({pairs('json({})')})) {where}",
        postgres=f"SELECT coalesce(json_agg(json_build_object({pairs('{}::json')})), '[]') {where}",
    )


_TABLES_JSON = _as_json("event_tables", _TABLE, {"seats", "games"})
_RESULTS_JSON = _as_json("results", _RESULT, {"players", "places", "gone", "game_wins"})
_TABLES = TypeAdapter(list[TournamentTable])
_RESULTS = TypeAdapter(list[ResultRecord])
_Kept = TypeVar("_Kept", TournamentTable, ResultRecord)


def _in_table_order(records: list[_Kept]) -> list[_Kept]:
    return sorted(records, key=lambda record: (record.round, record.table_no))


def _tournament(row: Row) -> TournamentRecord:
    data = dict(row)
    return TournamentRecord(tournament_id=data.pop("id"), **data)


def _table(row: Row) -> TournamentTable:
    return TournamentTable(
        **{**dict(row), "seats": json.loads(row["seats"]), "games": json.loads(row["games"])}
    )


class TournamentSQL(Executor):
    async def _of(self, tournament_id: str, columns_from: str, order: str) -> list[Row]:
        """``SELECT <columns_from> WHERE tournament_id = ... ORDER BY <order>``."""
        return await self._fetch(
            f"SELECT {columns_from} WHERE tournament_id = :id ORDER BY {order}",
            {"id": tournament_id},
        )

    async def create_tournament(self, record: TournamentRecord) -> None:
        await self._write(
            Step(_INSERT_TOURNAMENT, {**record.model_dump(), "id": record.tournament_id})
        )

    async def get_tournament(self, tournament_id: str) -> TournamentRecord | None:
        rows = await self._fetch(
            f"SELECT {_TOURNAMENT} FROM tournaments WHERE id = :id", {"id": tournament_id}
        )
        return _tournament(rows[0]) if rows else None

    async def tournaments(self, guild_id: int | None, *, open_only: bool) -> list[TournamentRecord]:
        where = []
        if guild_id is not None:
            where.append("guild_id = :guild")
        if open_only:
            where.append(_OPEN)
        clause = f"WHERE {' AND '.join(where)} " if where else ""
        rows = await self._fetch(
            f"SELECT {_TOURNAMENT} FROM tournaments {clause}ORDER BY created_at DESC, id",
            {"guild": guild_id},
        )
        return [_tournament(row) for row in rows]

    async def tournaments_entered(self, guild_id: int, user_id: int) -> list[TournamentRecord]:
        rows = await self._fetch(
            f"SELECT {_TOURNAMENT} FROM tournaments WHERE guild_id = :guild AND id IN "
            "(SELECT tournament_id FROM entrants WHERE user_id = :user) "
            "ORDER BY created_at DESC, id",
            {"guild": guild_id, "user": user_id},
        )
        return [_tournament(row) for row in rows]

    async def save_tournament(self, record: TournamentRecord) -> None:
        await self._write(
            Step(
                "UPDATE tournaments SET message_id = :message_id, config = :config, "
                "status = :status, round = :round WHERE id = :tournament_id",
                record.model_dump(),
                refuse=VersionConflict(record.tournament_id),
            )
        )

    async def entrants(self, tournament_id: str) -> list[EntrantRecord]:
        rows = await self._of(tournament_id, f"{_ENTRANT} FROM entrants", "entrant")
        return [EntrantRecord(**dict(row)) for row in rows]

    async def save_entrant(self, entrant: EntrantRecord) -> None:
        values = entrant.model_dump()
        values.update(checked_in=int(entrant.checked_in), forfeited=int(entrant.forfeited))
        await self._write(Step(_SAVE_ENTRANT, values))

    async def rounds(self, tournament_id: str) -> list[RoundRecord]:
        rows = await self._of(tournament_id, f"{_ROUND} FROM rounds", "round")
        return [RoundRecord(**dict(row)) for row in rows]

    async def save_round(self, round: RoundRecord) -> None:
        await self._write(Step(_SAVE_ROUND, round.model_dump()))

    async def tournament_tables(self, tournament_id: str) -> list[TournamentTable]:
        (row,) = await self._fetch(_TABLES_JSON, {"id": tournament_id})
        return _in_table_order(_TABLES.validate_json(row[0]))

    async def tournament_table_of(self, match_id: str) -> TournamentTable | None:
        rows = await self._fetch(
            f"SELECT {_TABLE} FROM event_tables WHERE match_id = :id", {"id": match_id}
        )
        return _table(rows[0]) if rows else None

    async def save_tournament_table(self, table: TournamentTable) -> None:
        values = table.model_dump()
        values.update(seats=json.dumps(table.seats), games=json.dumps(values["games"]))
        await self._write(
            # A match moved to a table is there only: any other table holding it goes (on
            # SQLite, INSERT OR REPLACE would drop it anyway: match_id is UNIQUE).
            Step(
                "DELETE FROM event_tables WHERE match_id = :match_id AND NOT "
                "(tournament_id = :tournament_id AND round = :round AND table_no = :table_no)",
                values,
            ),
            Step(_SAVE_TABLE, values),
        )

    async def results(self, tournament_id: str) -> list[ResultRecord]:
        (row,) = await self._fetch(_RESULTS_JSON, {"id": tournament_id})
        return _in_table_order(_RESULTS.validate_json(row[0]))

    async def add_result(self, result: ResultRecord, *, replace: bool = False) -> bool:
        values = result.model_dump()
        for key in ("players", "places", "gone"):
            values[key] = json.dumps(values[key])
        values["game_wins"] = None if result.game_wins is None else json.dumps(result.game_wins)
        (written,) = await self._write(Step(_REPLACE_RESULT if replace else _KEEP_RESULT, values))
        return written == 1

    async def delete_results(self, tournament_id: str, round: int) -> None:
        where = "WHERE tournament_id = :id AND round = :round"
        values = {"id": tournament_id, "round": round}
        await self._write(
            Step(f"DELETE FROM results {where}", values),
            Step(f"DELETE FROM event_tables {where}", values),
        )

    async def add_audit(self, row: AuditRecord) -> None:
        await self._write(Step(_INSERT_AUDIT, row.model_dump()))

    async def audit(self, tournament_id: str) -> list[AuditRecord]:
        rows = await self._of(tournament_id, f"id AS seq, {_AUDIT} FROM tournament_audit", "id")
        return [AuditRecord(**dict(row)) for row in rows]

    async def replace_tournament_timers(self, tournament_id: str, timers: Sequence[Timer]) -> None:
        rows = [
            {"id": tournament_id, "kind": t.kind, "round": t.version, "due_at": t.due_at}
            for t in timers
        ]
        await self._write(
            Step("DELETE FROM event_timers WHERE tournament_id = :id", {"id": tournament_id}),
            Step(
                "INSERT INTO event_timers (tournament_id, kind, round, due_at) "
                "VALUES (:id, :kind, :round, :due_at)",
                rows=rows,
            ),
        )

    @staticmethod
    def _event_timer_deletes(timers: Sequence[Timer]) -> list[Step]:
        """Fired timers of events (among ``timers``) deleted: exactly those, so one set again
        while firing stays."""
        rows = [
            {"id": t.match_id.removeprefix(TOURNAMENT_TIMER), "kind": t.kind, "round": t.version}
            | {"due_at": t.due_at}
            for t in timers
            if t.match_id.startswith(TOURNAMENT_TIMER)
        ]
        return [
            Step(
                "DELETE FROM event_timers WHERE tournament_id = :id AND kind = :kind "
                "AND round = :round AND due_at = :due_at",
                rows=rows,
            )
        ]

    async def tournament_timers(self, tournament_id: str) -> list[Timer]:
        rows = await self._of(tournament_id, "kind, round, due_at FROM event_timers", "due_at")
        return [
            Timer(
                match_id=TOURNAMENT_TIMER + tournament_id,
                kind=row["kind"],
                seat=0,
                version=row["round"],
                due_at=row["due_at"],
            )
            for row in rows
        ]
