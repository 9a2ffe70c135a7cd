"""SQLite store on aiosqlite: WAL, numbered migrations, a group commit of moves, the
write-ahead log checkpointed beside them, and a match's timers kept in its own row.
The reads and writes both backends share are in ``shared.py``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TypeVar

import aiosqlite
from pydantic import TypeAdapter

from bot.store.base import StoreBusy, StoreError
from bot.store.matches import Move
from bot.store.models import LoggedAction, Timer
from bot.store.seasons import SEASON_END, SEASON_TIMER
from bot.store.shared import SQLStore
from bot.store.sql import EMPTY, SQL, Fetch, Params, Row, Step, render, shipped
from bot.store.tournament_records import TOURNAMENT_TIMER
from bot.store.transactions import immediate

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
    """``(number, sql)`` for every ``NNN_name.sql`` in ``migrations``, in order."""
    return shipped("migrations")


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


class SQLiteStore(SQLStore):
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

    # --- the executor of the shared reads and writes (``sql.Executor``) -------------------
    async def _fetch(self, sql: SQL, params: Params = EMPTY) -> list[Row]:
        async with self._lock:
            return await self._fetch_held(sql, params)

    async def _fetch_held(self, sql: SQL, params: Params = EMPTY) -> list[Row]:
        text, values = render(sql, "sqlite").bind(params)
        return list(await self.db.execute_fetchall(text, values))

    @contextlib.asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[Fetch]:
        # One connection serves every coroutine: while the lock is held, nobody writes.
        async with self._lock:
            yield self._fetch_held

    async def _write(self, *steps: Step, serializable: bool = False) -> list[int]:
        """One IMMEDIATE transaction (serialisable already), in one trip to the database's
        thread: a transaction is never left half done by a cancelled caller."""
        bound = [_bind(step) for step in steps]
        async with self._lock:
            outcome = await self.in_thread(partial(_run_steps, bound))
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    def _unique_violation(self, error: BaseException, constraint: str | None = None) -> bool:
        # SQLite's message names the columns, not the index: any integrity error counts
        # (what the caller then reads decides).
        return isinstance(error, sqlite3.IntegrityError)

    # --- reads -------------------------------------------------------------------------
    async def actions(self, match_id: str) -> list[LoggedAction]:
        # The whole log as one JSON value, built by SQLite in one step: a row at a time, the
        # database's thread gave up and took back the GIL for every row, and under load each
        # taking back waits on the loop's thread. A long match's replay held that thread
        # (and the group commit queued behind it) for 15 ms and up to 120 ms.
        (row,) = await self._fetch(
            "SELECT json_group_array(json_array(seq, seat, action, at)) FROM actions "
            "WHERE match_id = :id",
            {"id": match_id},
        )
        logged = [
            LoggedAction(seq=seq, seat=seat, action=action, at=at)
            for seq, seat, action, at in json.loads(row[0])
        ]
        logged.sort(key=lambda a: a.seq)  # an aggregate's order is not promised
        return logged

    # --- writes ------------------------------------------------------------------------
    # A match's timers are the row's own columns (016_timers_in_row.sql).
    _STARTED = "timers = :timers, next_due = :next_due, "

    def _timer_writes(self, match_id: str, timers: Sequence[Timer]) -> tuple[Params, list[Step]]:
        return {"timers": timers_json(timers), "next_due": next_due(timers)}, []

    async def _save_move(self, move: Move, meanwhile: Callable[[], object] | None) -> int:
        # One statement, so one atomic transaction in autocommit mode: a trigger appends the
        # log row inside it (001_initial.sql), and the timers are the row's own columns
        # (016_timers_in_row.sql). status is only written when the move ends the match:
        # naming an indexed column in SET makes SQLite rewrite its index entries, which
        # costs more than the whole row (next_due's one entry changes with every move).
        # In SQLite's own marks: the group commit binds the values as they are (``_Bound``).
        sets = (
            "state = ?, version = ?, updated_at = ?, last_seat = ?, last_action = ?, timers = ?, "
            "next_due = ?"
        )
        stamp = now()
        params: list[object] = [
            move.state,
            move.version,
            stamp,
            move.seat,
            move.action,
            timers_json(move.timers),
            next_due(move.timers),
        ]
        if move.status != "active":
            sets += ", status = ?, finished_at = ?"
            params += [move.status, unix_time(stamp)]
        return await self._commit_together(
            f"UPDATE matches SET {sets} WHERE id = ? AND version = ? AND status = 'active'",
            (*params, move.match_id, move.expected_version),
            meanwhile,
        )

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

    # --- timers --------------------------------------------------------------------------
    async def replace_timers(self, match_id: str, timers: Sequence[Timer]) -> None:
        row, _ = self._timer_writes(match_id, timers)
        await self._write(
            Step(
                "UPDATE matches SET timers = :timers, next_due = :next_due WHERE id = :id",
                {**row, "id": match_id},
            )
        )

    async def next_due(self) -> float | None:
        return await self._value(
            "SELECT MIN(due) FROM (SELECT MIN(next_due) AS due FROM matches "
            "WHERE next_due IS NOT NULL UNION ALL SELECT MIN(due_at) FROM event_timers "
            "UNION ALL SELECT MIN(due_at) FROM seasons WHERE due_at IS NOT NULL)"
        )

    async def due_timers(self, now: float, limit: int = 100) -> list[Timer]:
        # The earliest ``limit`` timers are among the ``limit`` matches due first: each of
        # those has one at least as early as its next_due. A due list taken whole (every
        # match due, each list read) made a backlog quadratic to fire.
        due_first = (
            "(SELECT id, timers FROM matches WHERE next_due <= :now ORDER BY next_due LIMIT :limit)"
        )
        rows = await self._fetch(
            f"SELECT * FROM ({timer_rows(due_first)}) WHERE due_at <= :now "
            "UNION ALL SELECT :event || tournament_id, kind, 0, round, due_at, '' "
            "FROM event_timers WHERE due_at <= :now "
            # A season's row is its end's timer (022_seasons.sql).
            "UNION ALL SELECT :season || guild_id || ':' || game || ':' || number, :season_end, "
            "0, number, due_at, '' FROM seasons WHERE due_at <= :now "
            "ORDER BY due_at, match_id, kind, seat LIMIT :limit",
            {"now": now, "limit": limit, "event": TOURNAMENT_TIMER}
            | {"season": SEASON_TIMER, "season_end": SEASON_END},
        )
        return [Timer(**dict(row)) for row in rows]

    async def timers_of(self, match_id: str) -> list[Timer]:
        rows = await self._fetch(
            f"{TIMER_ROWS} WHERE m.id = :id ORDER BY due_at, kind, seat", {"id": match_id}
        )
        return [Timer(**dict(row)) for row in rows]

    async def delete_timers(self, timers: Sequence[Timer]) -> None:
        """Remove fired timers: exactly those, so one set again while firing stays."""
        fired: dict[str, list[Timer]] = {}
        for t in timers:
            # A season's timer is done when its handler clears the season's due_at.
            if not t.match_id.startswith((TOURNAMENT_TIMER, SEASON_TIMER)):
                fired.setdefault(t.match_id, []).append(t)
        steps = [self._fired(match_id, gone) for match_id, gone in fired.items()]
        await self._write(*self._event_timer_deletes(timers), *steps)

    @staticmethod
    def _fired(match_id: str, gone: Sequence[Timer]) -> Step:
        """The row's list without those timers, and the earliest of the rest. A due_at
        compared here was read out of this same JSON (due_timers), so it is equal."""
        keys = ", ".join(f"(:kind{n}, :seat{n}, :version{n}, :due_at{n})" for n in range(len(gone)))
        values: dict[str, object] = {"id": match_id}
        for n, t in enumerate(gone):
            values.update({f"kind{n}": t.kind, f"seat{n}": t.seat, f"version{n}": t.version})
            values[f"due_at{n}"] = t.due_at
        return Step(
            "UPDATE matches SET (timers, next_due) = ("
            "SELECT coalesce(json_group_array(json(t.value)), '[]'), "
            "min(json_extract(t.value, '$.due_at')) FROM json_each(matches.timers) t "
            f"WHERE ({_TIMER_KEY}) NOT IN (VALUES {keys})) "
            "WHERE id = :id AND next_due IS NOT NULL",
            values,
        )

    async def counts(self) -> dict[str, int]:
        (row,) = await self._fetch(
            "SELECT (SELECT count(*) FROM matches WHERE status = 'active'), "
            "(SELECT coalesce(sum(json_array_length(timers)), 0) FROM matches "
            "WHERE next_due IS NOT NULL)"
        )
        active, timers = row
        return {"active_matches": active, "pending_timers": timers}


def _bind(step: Step) -> tuple[Step, str, Sequence[object]]:
    """The step, its SQLite text and its values (a list of them, one a row, for ``rows``)."""
    rendered = render(step.sql, "sqlite")
    if step.rows is None:
        return step, *rendered.bind(step.params)
    rows = [rendered.bind(row) for row in step.rows]
    return step, rows[0][0] if rows else "", [values for _, values in rows]


def _run_steps(
    bound: Sequence[tuple[Step, str, Sequence[object]]], db: sqlite3.Connection
) -> list[int] | BaseException:
    """``SQLiteStore._write`` on the database's thread: the row counts, or the error to
    raise (nothing written)."""
    counts = []
    try:
        with immediate(db):
            for step, sql, values in bound:
                if step.rows is None:
                    count = db.execute(sql, values).rowcount
                else:
                    count = db.executemany(sql, values).rowcount if values else 0
                if step.refuse is not None and count != 1:
                    raise step.refuse
                counts.append(count)
    except Exception as exc:
        busy = busy_or(exc)
        if busy is not exc:
            busy.__cause__ = exc
        return busy
    return counts


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
