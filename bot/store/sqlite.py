"""SQLite store on aiosqlite: WAL, numbered migrations, one transaction per action."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from importlib import resources
from pathlib import Path
from typing import TypeVar

import aiosqlite
from pydantic import TypeAdapter

from bot.store.base import ChannelBusy, Store, StoreBusy, StoreError, VersionConflict
from bot.store.events import (
    EVENT_TIMER,
    AuditRecord,
    EntrantRecord,
    EventTable,
    ResultRecord,
    RoundRecord,
    TournamentRecord,
)
from bot.store.history import SQLiteHistory
from bot.store.models import (
    OPEN_STATUSES,
    DeckRecord,
    LoggedAction,
    MatchRecord,
    SeatRecord,
    Status,
    Timer,
)
from bot.store.ratings import SQLiteRatings
from bot.store.transactions import immediate

_MATCH_COLUMNS = (
    "id, guild_id, channel_id, message_id, game, status, host_id, options, seed, version, "
    "state, rematch_of, settings, created_at, updated_at"
)
# Read back with the ending time, which only the store itself writes (010_finished_at.sql).
_READ_COLUMNS = _MATCH_COLUMNS + ", finished_at"
_OPEN = "('" + "', '".join(OPEN_STATUSES) + "')"
log = logging.getLogger(__name__)
T = TypeVar("T")
# Writes between two checkpoints of the write-ahead log (see ``SQLiteStore._wrote``): a
# move writes 5-10 pages, so about SQLite's own 1,000 pages.
CHECKPOINT_EVERY = 150


def now() -> str:
    return datetime.now(UTC).isoformat()


def unix_time(stamp: str) -> float:
    return datetime.fromisoformat(stamp).timestamp()


def migrations() -> list[tuple[int, str]]:
    """``(number, sql)`` for every ``NNN_name.sql`` shipped beside this module, in order."""
    folder = resources.files("bot.store") / "migrations"
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text("utf-8")))
    return sorted(found)


_TIMER_LIST = TypeAdapter(list[Timer])


def timers_json(timers: Sequence[Timer]) -> str:
    # Written with every move: pydantic-core's serializer, not a dict per timer and json.
    return _TIMER_LIST.dump_json(list(timers), exclude={"__all__": {"match_id"}}).decode()


def next_due(timers: Sequence[Timer]) -> float | None:
    """What the scheduler finds a match's timers by (016_timers_in_row.sql)."""
    return min((t.due_at for t in timers), default=None)


# A match's timers, one row each, out of its row's JSON list (016_timers_in_row.sql).
TIMER_COLUMNS = ("match_id", "kind", "seat", "version", "due_at", "stamp")
_TIMER_KEY = (
    "json_extract(t.value, '$.kind'), json_extract(t.value, '$.seat'), "
    "json_extract(t.value, '$.version'), json_extract(t.value, '$.due_at')"
)


def timer_rows(matches: str = "matches") -> str:
    """The timers of ``matches`` (a table or a subquery with id and timers), one row each."""
    return (
        "SELECT m.id AS match_id, json_extract(t.value, '$.kind') AS kind, "
        "json_extract(t.value, '$.seat') AS seat, json_extract(t.value, '$.version') AS version, "
        "json_extract(t.value, '$.due_at') AS due_at, "
        "coalesce(json_extract(t.value, '$.stamp'), '') AS stamp "
        f"FROM {matches} m, json_each(m.timers) t"
    )


TIMER_ROWS = timer_rows()


def split_statements(script: str) -> list[str]:
    """Split a migration into statements; a trigger body's semicolons stay inside it."""
    statements, current = [], ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            if current.strip():
                statements.append(current.strip())
            current = ""
    if current.strip() and not all(
        ln.strip().startswith("--") or not ln.strip() for ln in current.splitlines()
    ):
        raise StoreError(f"incomplete SQL statement in a migration: {current[:60]!r}")
    return statements


def busy_or(error: BaseException) -> BaseException:
    """``StoreBusy`` for SQLite's "database is locked" (another writer outlasted the busy
    timeout), else the error itself."""
    if isinstance(error, sqlite3.OperationalError) and "locked" in str(error):
        return StoreBusy(str(error))
    return error


class SQLiteStore(SQLiteHistory, SQLiteRatings, Store):
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db: aiosqlite.Connection | None = None
        # One connection serves every coroutine: without this lock, two coroutines could
        # interleave statements inside one another's transaction, or read half of one.
        self._lock = asyncio.Lock()
        # Moves waiting to be committed together (see ``_commit_together``).
        self._queued: list[tuple[str, tuple[object, ...], asyncio.Future[int]]] = []
        self._committer: asyncio.Task[None] | None = None
        self._committing = False  # a caller is committing its own move (no committer task)
        # The write-ahead log is copied back into the database on a connection of its own.
        self.checkpoint_every = CHECKPOINT_EVERY
        self.checkpoints = 0  # checkpoints done (the store's tests read it)
        self._since_checkpoint = 0
        self._checkpointer: aiosqlite.Connection | None = None
        self._checkpointing: asyncio.Task[None] | None = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("the store is not connected")
        return self._db

    async def connect(self) -> None:
        # isolation_level=None: we issue BEGIN ourselves, so a transaction is exactly the
        # statements between BEGIN and COMMIT.
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        self._db.row_factory = aiosqlite.Row
        await self._db.execute("PRAGMA journal_mode = WAL")
        # FULL: a commit is on disk before we tell a player their move counted, so an
        # acknowledged action survives even a power cut (NORMAL would only survive a crash).
        await self._db.execute("PRAGMA synchronous = FULL")
        await self._db.execute("PRAGMA foreign_keys = ON")
        # Another writer (a backup, an admin's sqlite3 shell) may hold the database: wait
        # for it, but not past Discord's 3 seconds for answering the click that waits.
        await self._db.execute("PRAGMA busy_timeout = 2000")
        # No commit of this connection copies the log back into the database: ``_wrote``
        # has another connection do it.
        await self._db.execute("PRAGMA wal_autocheckpoint = 0")
        await self.migrate()

    async def close(self) -> None:
        if self._committer is not None and not self._committer.done():
            await asyncio.wait([self._committer])
        if self._checkpointing is not None and not self._checkpointing.done():
            await asyncio.wait([self._checkpointing])
        if self._checkpointer is not None:
            await self._checkpointer.close()
            self._checkpointer = None
        if self._db is not None:
            # The last connection to close copies what is left and deletes the log.
            await self._db.close()
            self._db = None

    async def migrate(self) -> int:
        async with self.db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        current = row[0] if row else 0
        for number, sql in migrations():
            if number <= current:
                continue
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                for statement in split_statements(sql):
                    await self.db.execute(statement)
                await self.db.execute(f"PRAGMA user_version = {int(number)}")
                await self.db.execute("COMMIT")
            except Exception:
                await self.db.execute("ROLLBACK")
                raise
            current = number
        return current

    async def in_thread(self, work: Callable[[sqlite3.Connection], T], *, writes: int = 1) -> T:
        """Run ``work`` with the connection on the database's thread, in one trip.

        Under load every trip to that thread waits for the loop to come round to its
        answer, several milliseconds each: a group commit of fifteen moves, statement by
        statement, was seventeen trips, and every move queued behind it waited for all of
        them. A transaction done in one trip is also never left half done by a cancelled
        caller. aiosqlite runs its own calls the same way (``Connection._execute``); the
        version range is pinned in pyproject.toml, and the store's tests count the trips.
        ``writes``: how many moves or changes the work commits (see ``_wrote``)."""
        db = self.db
        try:
            return await db._execute(lambda: work(db._conn))
        finally:
            self._wrote(writes)

    def _wrote(self, writes: int = 1) -> None:
        """Count writes (a commit, or each move of a group commit); every
        ``checkpoint_every`` of them, copy the write-ahead log back into the database, on
        a connection and a thread of its own.

        SQLite's own checkpoint runs inside the commit that takes the log past 1,000 pages:
        that move waited for the copy and for the database file's fsync, 10-90 ms on this
        machine, once every 100-200 moves (the service benchmark's mean moved by up to a
        fifth with it). A PASSIVE checkpoint takes no lock a writer needs, so the moves'
        commits go on beside it; the log they write is durable on its own, as before."""
        self._since_checkpoint += writes
        if self._since_checkpoint < self.checkpoint_every:
            return
        if self._checkpointing is None or self._checkpointing.done():
            self._since_checkpoint = 0
            self._checkpointing = asyncio.create_task(self._checkpoint(), name="store:checkpoint")

    async def _checkpoint(self) -> None:
        try:
            if self._checkpointer is None:
                self._checkpointer = await aiosqlite.connect(self.path, isolation_level=None)
                # FULL: the database file is on disk before the log it came from is reused.
                await self._checkpointer.execute("PRAGMA synchronous = FULL")
            # Most of the log, beside the moves: PASSIVE takes no lock a writer needs.
            await self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
            # The few pages committed meanwhile, with the moves held back (they wait for the
            # next group commit): a log copied to its end is reused from its start by the
            # next commit; one that is always a little behind grows without end.
            async with self._lock:
                await self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
            self.checkpoints += 1
        except Exception:
            # The log only grows meanwhile; the next round of commits tries again.
            log.warning("checkpoint of %s failed", self.path, exc_info=True)

    # --- reads -------------------------------------------------------------------------
    async def _seats(self, match_ids: Sequence[str]) -> dict[str, list[SeatRecord]]:
        seats: dict[str, list[SeatRecord]] = {m: [] for m in match_ids}
        if not match_ids:
            return seats
        marks = ",".join("?" * len(match_ids))
        rows = await self.db.execute_fetchall(
            "SELECT match_id, seat, user_id, name, away, missed FROM seats "
            f"WHERE match_id IN ({marks}) ORDER BY match_id, seat",
            tuple(match_ids),
        )
        for row in rows:
            seats[row["match_id"]].append(
                SeatRecord(
                    seat=row["seat"],
                    user_id=row["user_id"],
                    name=row["name"],
                    away=row["away"],
                    missed=row["missed"],
                )
            )
        return seats

    async def _matches(self, where: str, params: tuple[object, ...]) -> list[MatchRecord]:
        async with self._lock:
            rows = list(
                await self.db.execute_fetchall(
                    f"SELECT {_READ_COLUMNS} FROM matches WHERE {where}", params
                )
            )
            seats = await self._seats([row["id"] for row in rows])
        return [
            MatchRecord(
                match_id=row["id"],
                **{k: row[k] for k in row.keys() if k != "id"},  # noqa: SIM118
                seats=seats[row["id"]],
            )
            for row in rows
        ]

    async def get(self, match_id: str) -> MatchRecord | None:
        found = await self._matches("id = ?", (match_id,))
        return found[0] if found else None

    async def open_in_channel(self, channel_id: int) -> MatchRecord | None:
        found = await self._matches(f"channel_id = ? AND status IN {_OPEN}", (channel_id,))
        return found[0] if found else None

    async def open_for_user(self, guild_id: int, user_id: int) -> list[MatchRecord]:
        return await self._matches(
            f"guild_id = ? AND status IN {_OPEN} AND id IN "
            "(SELECT match_id FROM seats WHERE user_id = ?) ORDER BY updated_at DESC",
            (guild_id, user_id),
        )

    async def open_matches(self) -> list[MatchRecord]:
        return await self._matches(f"status IN {_OPEN} ORDER BY created_at", ())

    async def actions(self, match_id: str) -> list[LoggedAction]:
        # The whole log as one JSON value, built by SQLite in one step: a row at a time, the
        # database's thread gave up and took back the GIL for every row, and under load each
        # taking back waits on the loop's thread. A long match's replay held that thread
        # (and the group commit queued behind it) for 15 ms and up to 120 ms.
        async with self._lock:
            rows = await self.db.execute_fetchall(
                "SELECT json_group_array(json_array(seq, seat, action, at)) FROM actions "
                "WHERE match_id = ?",
                (match_id,),
            )
        logged = [
            LoggedAction(seq=seq, seat=seat, action=action, at=at)
            for seq, seat, action, at in json.loads(rows[0][0])
        ]
        logged.sort(key=lambda a: a.seq)  # an aggregate's order is not promised
        return logged

    # --- writes ------------------------------------------------------------------------
    async def _transaction(
        self, statements: Sequence[tuple[str, tuple[object, ...]]], *, guard_first: bool = False
    ) -> None:
        """Run statements in one IMMEDIATE transaction, all or nothing.

        ``guard_first``: the first statement is a guarded UPDATE that must change exactly one
        row (the optimistic version check); otherwise roll back with ``VersionConflict``.
        """
        async with self._lock:
            failed = await self.in_thread(partial(_run_transaction, statements, guard_first))
        if failed is not None:
            raise failed

    @staticmethod
    def _seat_rows(match_id: str, seats: Sequence[SeatRecord]) -> list[tuple[str, tuple]]:
        return [("DELETE FROM seats WHERE match_id = ?", (match_id,))] + [
            (
                "INSERT INTO seats (match_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                (match_id, s.seat, s.user_id, s.name),
            )
            for s in seats
        ]

    async def create_match(self, record: MatchRecord) -> None:
        stamp = now()
        try:
            await self._transaction(
                [
                    (
                        f"INSERT INTO matches ({_MATCH_COLUMNS}) VALUES "
                        "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            record.match_id,
                            record.guild_id,
                            record.channel_id,
                            record.message_id,
                            record.game,
                            record.status,
                            record.host_id,
                            record.options,
                            record.seed,
                            record.version,
                            record.state,
                            record.rematch_of,
                            record.settings,
                            stamp,
                            stamp,
                        ),
                    ),
                    *self._seat_rows(record.match_id, record.seats),
                ]
            )
        except sqlite3.IntegrityError as exc:
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
        await self._transaction(
            [
                (
                    "UPDATE matches SET options = ?, host_id = ?, settings = ?, updated_at = ? "
                    "WHERE id = ? AND status = 'lobby'",
                    (options, host_id, settings, now(), match_id),
                ),
                *self._seat_rows(match_id, seats),
            ],
            guard_first=True,
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
        await self._transaction(
            [
                (
                    "UPDATE matches SET status = ?, seed = ?, state = ?, version = ?, "
                    "timers = ?, next_due = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
                    (
                        status,
                        seed,
                        state,
                        version,
                        timers_json(timers),
                        next_due(timers),
                        now(),
                        match_id,
                    ),
                ),
                *self._seat_rows(match_id, seats),
            ],
            guard_first=True,
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
        # One statement, so one atomic transaction in autocommit mode: a trigger appends the
        # log row inside it (001_initial.sql), and the timers are the row's own columns
        # (016_timers_in_row.sql). status is only written when the move ends the match:
        # naming an indexed column in SET makes SQLite rewrite its index entries, which
        # costs more than the whole row (next_due's one entry changes with every move).
        sets = (
            "state = ?, version = ?, updated_at = ?, last_seat = ?, last_action = ?, timers = ?, "
            "next_due = ?"
        )
        stamp = now()
        params: list[object] = [
            state,
            version,
            stamp,
            seat,
            action,
            timers_json(timers),
            next_due(timers),
        ]
        if status != "active":
            sets += ", status = ?, finished_at = ?"
            params += [status, unix_time(stamp)]
        changed = await self._commit_together(
            f"UPDATE matches SET {sets} WHERE id = ? AND version = ? AND status = 'active'",
            (*params, match_id, expected_version),
            meanwhile,
        )
        if changed != 1:
            raise VersionConflict(match_id)

    async def _commit_together(
        self,
        sql: str,
        params: tuple[object, ...],
        meanwhile: Callable[[], object] | None = None,
    ) -> int:
        """Run one statement in the next group commit; its row count once it is on disk.

        With synchronous = FULL every commit waits for the disk, and moves of all matches
        queue behind one connection: under load the wait, not the work, was most of a
        click's time. Moves that arrive while a commit is under way are written by the
        next one, in one transaction and one fsync; each caller still hears only after
        its move is durable. A statement that fails alone (its error) fails alone.

        A move that finds no commit under way is committed by its own caller, without a
        task to start and to hear back from: on a quiet bot that is every move.

        ``meanwhile`` runs on the loop while the statement is with the database's thread
        (see ``_Bound``)."""
        if not self._committing and (self._committer is None or self._committer.done()):
            self._committing = True
            try:
                async with self._lock:
                    outcome = await self._commit_alone(sql, params, meanwhile)
            finally:
                self._committing = False
                if self._queued:  # moves that came meanwhile: the next commit, together
                    self._start_committer()
            if isinstance(outcome, BaseException):
                raise outcome
            return outcome
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._queued.append((sql, params, done))
        if not self._committing and (self._committer is None or self._committer.done()):
            self._start_committer()
        if meanwhile is not None:
            # Behind a commit under way: the database's thread is in SQLite already.
            asyncio.get_running_loop().call_soon(_run_meanwhile, meanwhile)
        return await done

    def _start_committer(self) -> None:
        self._committer = asyncio.create_task(self._commit_queued(), name="store:commit")

    async def _commit_queued(self) -> None:
        while self._queued:
            batch, self._queued = self._queued, []
            async with self._lock:
                if len(batch) == 1:
                    outcomes = [await self._commit_alone(*batch[0][:2])]
                else:
                    outcomes = await self._commit_batch([(sql, p) for sql, p, _ in batch])
            for (_, _, done), outcome in zip(batch, outcomes, strict=True):
                if done.done():
                    continue
                if isinstance(outcome, BaseException):
                    done.set_exception(outcome)
                else:
                    done.set_result(outcome)

    async def _commit_alone(
        self,
        sql: str,
        params: tuple[object, ...],
        meanwhile: Callable[[], object] | None = None,
    ) -> int | BaseException:
        """A lone statement is its own transaction in autocommit mode, triggers included,
        and as durable as BEGIN ... COMMIT: one trip to the database thread instead of
        three. Each trip is a thread switch, which a loaded machine makes slow."""
        try:
            if meanwhile is not None and params:
                bound = _Bound(params[-1], asyncio.get_running_loop(), meanwhile)
                params = (*params[:-1], bound)
            cursor = await self.db.execute(sql, params)
        except BaseException as exc:
            return busy_or(exc)
        finally:
            self._wrote()
        return cursor.rowcount

    async def _commit_batch(
        self, batch: Sequence[tuple[str, tuple[object, ...]]]
    ) -> list[int | BaseException]:
        # Each move of the batch grows the log: counted as a write each.
        return await self.in_thread(partial(_run_batch, batch), writes=len(batch))

    async def save_seat(self, match_id: str, seat: SeatRecord) -> None:
        await self._transaction(
            [
                (
                    "UPDATE seats SET away = ?, missed = ? WHERE match_id = ? AND seat = ?",
                    (seat.away, seat.missed, match_id, seat.seat),
                )
            ]
        )

    async def user_settings(self, user_id: int) -> str:
        async with self._lock:
            rows = list(
                await self.db.execute_fetchall(
                    "SELECT settings FROM user_settings WHERE user_id = ?", (user_id,)
                )
            )
        return rows[0]["settings"] if rows else "{}"

    async def save_user_settings(self, user_id: int, settings: str) -> None:
        await self._transaction(
            [
                (
                    "INSERT INTO user_settings (user_id, settings) VALUES (?, ?) "
                    "ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings",
                    (user_id, settings),
                )
            ]
        )

    async def guild_settings(self, guild_id: int) -> str:
        async with self._lock:
            rows = list(
                await self.db.execute_fetchall(
                    "SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,)
                )
            )
        return rows[0]["settings"] if rows else "{}"

    async def save_guild_settings(self, guild_id: int, settings: str) -> None:
        await self._transaction(
            [
                (
                    "INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?) "
                    "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
                    (guild_id, settings),
                )
            ]
        )

    async def claim_reminder(self, match_id: str, now: float, every: float) -> bool:
        try:
            await self._transaction(
                [
                    (
                        "INSERT INTO reminders (match_id, reminded_at) VALUES (?, ?) "
                        "ON CONFLICT (match_id) DO UPDATE SET reminded_at = excluded.reminded_at "
                        "WHERE reminders.reminded_at <= excluded.reminded_at - ?",
                        (match_id, now, every),
                    )
                ],
                guard_first=True,  # no row changed: it pinged within the hour
            )
        except VersionConflict:
            return False
        return True

    async def set_status(self, match_id: str, status: Status) -> None:
        stamp = now()
        ended = unix_time(stamp) if status in ("finished", "cancelled") else None
        await self._transaction(
            [
                (
                    "UPDATE matches SET status = ?, updated_at = ?, "
                    "finished_at = coalesce(?, finished_at) WHERE id = ?",
                    (status, stamp, ended, match_id),
                ),
            ]
        )

    async def set_message(self, match_id: str, message_id: int) -> None:
        await self._transaction(
            [
                ("UPDATE matches SET message_id = ? WHERE id = ?", (message_id, match_id)),
            ]
        )

    # --- decks ----------------------------------------------------------------------------
    async def decks(self, user_id: int) -> list[DeckRecord]:
        async with self._lock:
            rows = await self.db.execute_fetchall(
                "SELECT user_id, name, catalogue, cards, created_at, updated_at FROM decks "
                "WHERE user_id = ? ORDER BY name",
                (user_id,),
            )
        return [DeckRecord(**{**dict(row), "cards": json.loads(row["cards"])}) for row in rows]

    async def save_deck(self, deck: DeckRecord, most: int) -> bool:
        # A new name only under the limit; the same name is replaced (its created_at kept).
        try:
            await self._transaction(
                [
                    (
                        "INSERT INTO decks (user_id, name, catalogue, cards, created_at, "
                        "updated_at) SELECT ?, ?, ?, ?, ?, ? WHERE "
                        "(SELECT COUNT(*) FROM decks WHERE user_id = ?) < ? OR EXISTS "
                        "(SELECT 1 FROM decks WHERE user_id = ? AND name = ?) "
                        "ON CONFLICT (user_id, name) DO UPDATE SET catalogue = "
                        "excluded.catalogue, cards = excluded.cards, "
                        "updated_at = excluded.updated_at",
                        (
                            deck.user_id,
                            deck.name,
                            deck.catalogue,
                            json.dumps(deck.cards),
                            deck.created_at.isoformat(),
                            deck.updated_at.isoformat(),
                            deck.user_id,
                            most,
                            deck.user_id,
                            deck.name,
                        ),
                    )
                ],
                guard_first=True,
            )
        except VersionConflict:
            return False
        return True

    async def delete_deck(self, user_id: int, name: str) -> bool:
        try:
            await self._transaction(
                [("DELETE FROM decks WHERE user_id = ? AND name = ?", (user_id, name))],
                guard_first=True,
            )
        except VersionConflict:
            return False
        return True

    # --- timers --------------------------------------------------------------------------
    async def replace_timers(self, match_id: str, timers: Sequence[Timer]) -> None:
        await self._transaction(
            [
                (
                    "UPDATE matches SET timers = ?, next_due = ? WHERE id = ?",
                    (timers_json(timers), next_due(timers), match_id),
                )
            ]
        )

    async def next_due(self) -> float | None:
        async with self._lock:
            rows = await self.db.execute_fetchall(
                "SELECT MIN(due) FROM (SELECT MIN(next_due) AS due FROM matches "
                "WHERE next_due IS NOT NULL UNION ALL SELECT MIN(due_at) FROM event_timers)"
            )
        return next(iter(rows))[0]

    async def due_timers(self, now: float, limit: int = 100) -> list[Timer]:
        async with self._lock:
            # The earliest ``limit`` timers are among the ``limit`` matches due first: each
            # of those has one at least as early as its next_due. A due list taken whole
            # (every match due, each list read) made a backlog quadratic to fire.
            due_first = (
                "(SELECT id, timers FROM matches WHERE next_due <= ? ORDER BY next_due LIMIT ?)"
            )
            rows = await self.db.execute_fetchall(
                f"SELECT * FROM ({timer_rows(due_first)}) WHERE due_at <= ? "
                "UNION ALL SELECT ? || tournament_id, kind, 0, round, due_at, '' "
                "FROM event_timers WHERE due_at <= ? "
                "ORDER BY due_at, match_id, kind, seat LIMIT ?",
                (now, limit, now, EVENT_TIMER, now, limit),
            )
        return [Timer(**dict(row)) for row in rows]

    async def timers_of(self, match_id: str) -> list[Timer]:
        async with self._lock:
            rows = await self.db.execute_fetchall(
                f"{TIMER_ROWS} WHERE m.id = ? ORDER BY due_at, kind, seat", (match_id,)
            )
        return [Timer(**dict(row)) for row in rows]

    async def delete_timers(self, timers: Sequence[Timer]) -> None:
        """Remove fired timers: exactly those, so one set again while firing stays."""
        statements: list[tuple[str, tuple[object, ...]]] = []
        fired: dict[str, list[Timer]] = {}
        for t in timers:
            if t.match_id.startswith(EVENT_TIMER):
                statements.append(
                    (
                        "DELETE FROM event_timers WHERE tournament_id = ? AND kind = ? "
                        "AND round = ? AND due_at = ?",
                        (t.match_id.removeprefix(EVENT_TIMER), t.kind, t.version, t.due_at),
                    )
                )
            else:
                fired.setdefault(t.match_id, []).append(t)
        for match_id, gone in fired.items():
            # The row's list without those timers, and the earliest of the rest. A due_at
            # compared here was read out of this same JSON (due_timers), so it is equal.
            keys = ", ".join("(?, ?, ?, ?)" for _ in gone)
            statements.append(
                (
                    "UPDATE matches SET (timers, next_due) = ("
                    "SELECT coalesce(json_group_array(json(t.value)), '[]'), "
                    "min(json_extract(t.value, '$.due_at')) FROM json_each(matches.timers) t "
                    f"WHERE ({_TIMER_KEY}) NOT IN (VALUES {keys})) "
                    "WHERE id = ? AND next_due IS NOT NULL",
                    (*(v for t in gone for v in (t.kind, t.seat, t.version, t.due_at)), match_id),
                )
            )
        await self._transaction(statements)

    # --- tournaments -----------------------------------------------------------------------
    async def create_tournament(self, record: TournamentRecord) -> None:
        await self._transaction(
            [
                (
                    "INSERT INTO tournaments (id, guild_id, channel_id, message_id, organiser_id, "
                    "game, config, status, round, seed, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        record.tournament_id,
                        record.guild_id,
                        record.channel_id,
                        record.message_id,
                        record.organiser_id,
                        record.game,
                        record.config,
                        record.status,
                        record.round,
                        record.seed,
                        record.created_at,
                    ),
                )
            ]
        )

    @staticmethod
    def _tournament(row: aiosqlite.Row) -> TournamentRecord:
        data = dict(row)
        return TournamentRecord(tournament_id=data.pop("id"), **data)

    async def get_tournament(self, tournament_id: str) -> TournamentRecord | None:
        rows = await self._rows("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        return self._tournament(rows[0]) if rows else None

    async def tournaments(self, guild_id: int | None, *, open_only: bool) -> list[TournamentRecord]:
        where, params = [], []
        if guild_id is not None:
            where.append("guild_id = ?")
            params.append(guild_id)
        if open_only:
            where.append("status IN ('signup', 'running', 'paused')")
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = await self._rows(
            f"SELECT * FROM tournaments {clause} ORDER BY created_at DESC, id", tuple(params)
        )
        return [self._tournament(row) for row in rows]

    async def save_tournament(self, record: TournamentRecord) -> None:
        await self._transaction(
            [
                (
                    "UPDATE tournaments SET message_id = ?, config = ?, status = ?, round = ? "
                    "WHERE id = ?",
                    (
                        record.message_id,
                        record.config,
                        record.status,
                        record.round,
                        record.tournament_id,
                    ),
                )
            ],
            guard_first=True,
        )

    async def entrants(self, tournament_id: str) -> list[EntrantRecord]:
        rows = await self._rows(
            "SELECT * FROM entrants WHERE tournament_id = ? ORDER BY entrant", (tournament_id,)
        )
        return [EntrantRecord(**dict(row)) for row in rows]

    async def save_entrant(self, entrant: EntrantRecord) -> None:
        await self._transaction(
            [
                (
                    "INSERT OR REPLACE INTO entrants (tournament_id, entrant, user_id, name, "
                    "state, checked_in, forfeited, dropped_round, joined_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        entrant.tournament_id,
                        entrant.entrant,
                        entrant.user_id,
                        entrant.name,
                        entrant.state,
                        int(entrant.checked_in),
                        int(entrant.forfeited),
                        entrant.dropped_round,
                        entrant.joined_at,
                    ),
                )
            ]
        )

    async def rounds(self, tournament_id: str) -> list[RoundRecord]:
        rows = await self._rows(
            "SELECT * FROM rounds WHERE tournament_id = ? ORDER BY round", (tournament_id,)
        )
        return [RoundRecord(**dict(row)) for row in rows]

    async def save_round(self, round: RoundRecord) -> None:
        await self._transaction(
            [
                (
                    "INSERT OR REPLACE INTO rounds (tournament_id, round, stage, deadline, "
                    "message_id, started_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        round.tournament_id,
                        round.round,
                        round.stage,
                        round.deadline,
                        round.message_id,
                        round.started_at,
                    ),
                )
            ]
        )

    @staticmethod
    def _table(row: aiosqlite.Row) -> EventTable:
        data = dict(row)
        data["seats"] = json.loads(data["seats"])
        data["games"] = json.loads(data["games"])
        return EventTable(**data)

    async def event_tables(self, tournament_id: str) -> list[EventTable]:
        rows = await self._rows(
            "SELECT * FROM event_tables WHERE tournament_id = ? ORDER BY round, table_no",
            (tournament_id,),
        )
        return [self._table(row) for row in rows]

    async def event_table_of(self, match_id: str) -> EventTable | None:
        rows = await self._rows("SELECT * FROM event_tables WHERE match_id = ?", (match_id,))
        return self._table(rows[0]) if rows else None

    async def save_event_table(self, table: EventTable) -> None:
        await self._transaction(
            [
                (
                    "INSERT OR REPLACE INTO event_tables (tournament_id, round, table_no, "
                    "match_id, thread_id, seats, status, bracket_id, games) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        table.tournament_id,
                        table.round,
                        table.table_no,
                        table.match_id,
                        table.thread_id,
                        json.dumps(table.seats),
                        table.status,
                        table.bracket_id,
                        json.dumps([game.model_dump() for game in table.games]),
                    ),
                )
            ]
        )

    async def results(self, tournament_id: str) -> list[ResultRecord]:
        rows = await self._rows(
            "SELECT * FROM results WHERE tournament_id = ? ORDER BY round, table_no",
            (tournament_id,),
        )
        found = []
        for row in rows:
            data = dict(row)
            for key in ("players", "places", "gone"):
                data[key] = json.loads(data[key])
            data["game_wins"] = json.loads(data["game_wins"] or "null")
            found.append(ResultRecord(**data))
        return found

    async def add_result(self, result: ResultRecord, *, replace: bool = False) -> bool:
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
        async with self._lock:
            cursor = await self.db.execute(
                f"{verb} INTO results (tournament_id, round, table_no, players, places, kind, "
                "gone, source, match_id, game_wins, game_draws) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    result.tournament_id,
                    result.round,
                    result.table_no,
                    json.dumps(result.players),
                    json.dumps(result.places),
                    result.kind,
                    json.dumps(result.gone),
                    result.source,
                    result.match_id,
                    None if result.game_wins is None else json.dumps(result.game_wins),
                    result.game_draws,
                ),
            )
        return cursor.rowcount == 1

    async def delete_results(self, tournament_id: str, round: int) -> None:
        await self._transaction(
            [
                (
                    "DELETE FROM results WHERE tournament_id = ? AND round = ?",
                    (tournament_id, round),
                ),
                (
                    "DELETE FROM event_tables WHERE tournament_id = ? AND round = ?",
                    (tournament_id, round),
                ),
            ]
        )

    async def add_audit(self, row: AuditRecord) -> None:
        await self._transaction(
            [
                (
                    "INSERT INTO tournament_audit (tournament_id, actor_id, actor_name, action, "
                    "before, after, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (
                        row.tournament_id,
                        row.actor_id,
                        row.actor_name,
                        row.action,
                        row.before,
                        row.after,
                        row.at,
                    ),
                )
            ]
        )

    async def audit(self, tournament_id: str) -> list[AuditRecord]:
        rows = await self._rows(
            "SELECT id AS seq, tournament_id, actor_id, actor_name, action, before, after, at "
            "FROM tournament_audit WHERE tournament_id = ? ORDER BY id",
            (tournament_id,),
        )
        return [AuditRecord(**dict(row)) for row in rows]

    async def replace_event_timers(self, tournament_id: str, timers: Sequence[Timer]) -> None:
        await self._transaction(
            [
                ("DELETE FROM event_timers WHERE tournament_id = ?", (tournament_id,)),
                *(
                    (
                        "INSERT INTO event_timers (tournament_id, kind, round, due_at) "
                        "VALUES (?, ?, ?, ?)",
                        (tournament_id, t.kind, t.version, t.due_at),
                    )
                    for t in timers
                ),
            ]
        )

    async def event_timers(self, tournament_id: str) -> list[Timer]:
        rows = await self._rows(
            "SELECT kind, round, due_at FROM event_timers WHERE tournament_id = ? ORDER BY due_at",
            (tournament_id,),
        )
        return [
            Timer(
                match_id=EVENT_TIMER + tournament_id,
                kind=row["kind"],
                seat=0,
                version=row["round"],
                due_at=row["due_at"],
            )
            for row in rows
        ]

    async def counts(self) -> dict[str, int]:
        async with self._lock:
            rows = await self.db.execute_fetchall(
                "SELECT (SELECT count(*) FROM matches WHERE status = 'active'), "
                "(SELECT coalesce(sum(json_array_length(timers)), 0) FROM matches "
                "WHERE next_due IS NOT NULL)"
            )
        active, timers = next(iter(rows))
        return {"active_matches": active, "pending_timers": timers}


def _run_transaction(
    statements: Sequence[tuple[str, tuple[object, ...]]],
    guard_first: bool,
    db: sqlite3.Connection,
) -> BaseException | None:
    """``SQLiteStore._transaction`` on the database's thread: the error to raise, if any."""
    try:
        with immediate(db):
            for index, (sql, params) in enumerate(statements):
                cursor = db.execute(sql, params)
                if guard_first and index == 0 and cursor.rowcount != 1:
                    raise VersionConflict(sql)
    except Exception as exc:
        busy = busy_or(exc)
        if busy is not exc:
            busy.__cause__ = exc
        return busy
    return None


def _run_batch(
    batch: Sequence[tuple[str, tuple[object, ...]]], db: sqlite3.Connection
) -> list[int | BaseException]:
    """A group commit on the database's thread: each statement's row count, or its error
    (SQLite undid that statement alone); everyone's error if the commit itself failed."""
    outcomes: list[int | BaseException] = []
    try:
        with immediate(db):
            for sql, params in batch:
                try:
                    outcomes.append(db.execute(sql, params).rowcount)
                except sqlite3.Error as exc:
                    outcomes.append(exc)
    except Exception as exc:
        outcomes = [busy_or(exc)] * len(batch)
    return outcomes


class _Bound:
    """A statement's last parameter, which hands the loop ``meanwhile`` as the database's
    thread binds it: the statement is under way.

    From then until the commit is on disk the thread is inside SQLite without the GIL, so
    the loop's own work costs the move no time. Run any earlier, that work would hold the
    GIL the thread needs to take the statement up at all (Python hands the GIL over only
    every few milliseconds), and the commit would wait for it instead. The work is queued
    before the statement's answer, so it is done before the move is acknowledged."""

    def __init__(
        self, value: object, loop: asyncio.AbstractEventLoop, meanwhile: Callable[[], object]
    ) -> None:
        self.value = value
        self._loop = loop
        self._meanwhile: Callable[[], object] | None = meanwhile

    def __conform__(self, protocol: object) -> object:
        # sqlite3 asks an object it cannot store as it is for its value: this runs in the
        # database's thread, as the statement's parameters are bound.
        meanwhile, self._meanwhile = self._meanwhile, None
        if meanwhile is not None:
            self._loop.call_soon_threadsafe(_run_meanwhile, meanwhile)
        return self.value


def _run_meanwhile(meanwhile: Callable[[], object]) -> None:
    try:
        meanwhile()
    except Exception:
        # Work beside the commit (a table drawn ahead) must not fail the move it serves.
        log.exception("work done during a commit failed")
