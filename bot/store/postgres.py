"""PostgreSQL store on asyncpg: a pool, numbered migrations under an advisory lock, and a
move saved as one statement guarded by the version. The reads and writes both backends
share are in ``shared.py``.

Several bot processes may share one database. Each owns some shards (``Shards``): it lists,
resumes and fires timers only for matches of its own guilds, and claims a due timer with a
lease (``FOR UPDATE SKIP LOCKED``), so two processes never both fire it within the lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any

import asyncpg

from bot.store.base import Shards, StoreBusy, StoreError
from bot.store.matches import Move, shard_filter
from bot.store.models import LoggedAction, MatchMark, Timer
from bot.store.seasons import SEASON_END, SEASON_TIMER
from bot.store.shared import SQLStore
from bot.store.sql import EMPTY, SQL, Fetch, Params, Row, Step, render, shipped
from bot.store.tournament_records import TOURNAMENT_TIMER

_TIMER_COLUMNS = "match_id, kind, seat, version, due_at, stamp"
# Any constant both processes agree on: it serialises migrations across processes.
MIGRATION_LOCK = 0x436F6F6B6965  # "Cookie"
# Seconds a claimed timer stays with the process that claimed it; a process that dies
# while firing leaves it to be claimed again after this.
LEASE = 60.0
# The channel a stopping process names the matches it leaves to others on (``hand_over``).
HANDOVER = "cookie_jar_handover"

# A move in one statement, so one round trip and one atomic write: the guarded UPDATE of
# the snapshot, its log row and the match's timers (set anew: rows the move no longer has
# are deleted, the others upserted; the two touch disjoint rows, as one statement must).
# PostgreSQL's alone and sent with every move, so written in its own marks.
_SAVE_ACTION = f"""
WITH moved AS (
    UPDATE matches SET state = $3, version = $4, status = $5, updated_at = $6,
        finished_at = CASE WHEN $5 = 'active' THEN NULL
            ELSE extract(epoch FROM $6::timestamptz) END
    WHERE id = $1 AND version = $2 AND status = 'active'
    RETURNING id
), logged AS (
    INSERT INTO actions (match_id, seq, seat, action, at)
    SELECT id, $2, $7, $8, $6 FROM moved
), new_timers AS (
    SELECT * FROM unnest($9::text[], $10::int[], $11::int[], $12::float8[], $13::text[])
        AS t(kind, seat, version, due_at, stamp)
), dropped AS (
    DELETE FROM timers WHERE match_id IN (SELECT id FROM moved)
    AND (kind, seat) NOT IN (SELECT kind, seat FROM new_timers)
), kept AS (
    INSERT INTO timers ({_TIMER_COLUMNS})
    SELECT moved.id, t.kind, t.seat, t.version, t.due_at, t.stamp FROM moved, new_timers t
    ON CONFLICT (match_id, kind, seat) DO UPDATE SET version = excluded.version,
        due_at = excluded.due_at, stamp = excluded.stamp, claimed_until = NULL
)
SELECT count(*) FROM moved
"""


def migrations() -> list[tuple[int, str]]:
    """``(number, sql)`` for every ``NNN_name.sql`` in ``migrations_pg``, in order. The
    numbers are those of the SQLite migrations they mirror."""
    return shipped("migrations_pg")


def has_statements(sql: str) -> bool:
    return any(line.strip() and not line.strip().startswith("--") for line in sql.splitlines())


def timer_arrays(timers: Sequence[Timer]) -> tuple[list[Any], ...]:
    return (
        [t.kind for t in timers],
        [t.seat for t in timers],
        [t.version for t in timers],
        [t.due_at for t in timers],
        [t.stamp for t in timers],
    )


async def _fetch_on(conn: asyncpg.Connection, sql: SQL, params: Params = EMPTY) -> list[Row]:
    text, values = render(sql, "postgres").bind(params)
    return await conn.fetch(text, *values)


async def _run(conn: asyncpg.Pool | asyncpg.Connection, step: Step) -> int:
    """One step of ``PostgresStore._write``: its row count (-1 for ``rows``: not told)."""
    rendered = render(step.sql, "postgres")
    if step.rows is not None:
        if step.rows:
            await conn.executemany(rendered.pieces[0], [rendered.bind(r)[1] for r in step.rows])
        return -1
    text, values = rendered.bind(step.params)
    status = await conn.execute(text, *values)  # "UPDATE 1", "INSERT 0 1" ...
    count = int(status.rsplit(" ", 1)[-1])
    if step.refuse is not None and count != 1:
        raise step.refuse
    return count


async def _nothing_left(conn: asyncpg.Connection) -> None:
    """A connection back in the pool is left as it was taken. asyncpg's own reset ran a
    query at every release (unlock advisory locks, close cursors, UNLISTEN, RESET ALL): a
    second round trip for each statement, a third of the event loop's time at 1,000 tables
    (bench load --database postgres). The store leaves none of that behind: its advisory
    lock and its one SET are undone where they are taken (``migrate``), it listens on a
    connection of its own, and asyncpg still rolls back a transaction left open."""


class PostgresStore(SQLStore):
    shared = True  # shard processes share it (see ``Store.shared``)

    def __init__(
        self,
        dsn: str,
        *,
        shards: Shards | None = None,
        min_size: int = 1,
        max_size: int = 10,
        lock_wait: float = 2.0,
    ) -> None:
        self.dsn = dsn
        self.shards = shards
        # A row another writer holds is waited for, but not past Discord's 3 seconds for
        # answering the click that waits: then the statement fails having written nothing.
        self.lock_wait = lock_wait
        self._sizes = (min_size, max_size)
        self._pool: asyncpg.Pool | None = None
        self._listener: asyncpg.Connection | None = None

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StoreError("the store is not connected")
        return self._pool

    async def connect(self) -> None:
        self._pool = await asyncpg.create_pool(
            self.dsn,
            min_size=self._sizes[0],
            max_size=self._sizes[1],
            server_settings={"lock_timeout": f"{int(self.lock_wait * 1000)}ms"},
            reset=_nothing_left,
        )
        await self.migrate()

    async def close(self) -> None:
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def on_handover(self, take_over: Callable[[list[str]], None]) -> None:
        def heard(_conn: object, _pid: int, _channel: str, payload: str) -> None:
            pairs = json.loads(payload)
            owned = [m for m, guild in pairs if self.shards is None or self.shards.owns(guild)]
            if owned:
                take_over(owned)

        # A connection of its own: a pooled one goes back to the pool and stops listening.
        self._listener = await asyncpg.connect(self.dsn)
        await self._listener.add_listener(HANDOVER, heard)

    async def hand_over(self, matches: Sequence[tuple[str, int]]) -> None:
        pairs = [[m, g] for m, g in matches]
        # NOTIFY's payload holds 8,000 bytes: ~250 pairs a message.
        for start in range(0, len(pairs), 200):
            await self.pool.execute(
                "SELECT pg_notify($1, $2)", HANDOVER, json.dumps(pairs[start : start + 200])
            )

    async def migrate(self) -> int:
        """Apply the migrations not yet applied, each in its own transaction. Processes
        starting at once queue on the advisory lock; the later ones find nothing to do."""
        async with self.pool.acquire() as conn:
            # Another process may migrate for longer than a click may wait: wait for it
            # (and give the connection back with the pool's lock_timeout: RESET below).
            await conn.execute("SET lock_timeout = 0")
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations ("
                    "number INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
                )
                current = await conn.fetchval(
                    "SELECT coalesce(max(number), 0) FROM schema_migrations"
                )
                for number, sql in migrations():
                    if number <= current:
                        continue
                    async with conn.transaction():
                        # A twin of a SQLite-only migration may hold nothing but comments
                        # (asyncpg fails on an empty query): only its number is recorded.
                        if has_statements(sql):
                            await conn.execute(sql)
                        await conn.execute(
                            "INSERT INTO schema_migrations (number) VALUES ($1)", number
                        )
                    current = number
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
                await conn.execute("RESET lock_timeout")
        return current

    # --- the executor of the shared reads and writes (``sql.Executor``) -------------------
    async def _fetch(self, sql: SQL, params: Params = EMPTY) -> list[Row]:
        return await _fetch_on(self.pool, sql, params)

    @contextlib.asynccontextmanager
    async def _snapshot(self) -> AsyncIterator[Fetch]:
        # Read committed would take a snapshot per statement (and could pair a match with
        # seats saved after it).
        async with (
            self.pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield partial(_fetch_on, conn)

    async def _write(self, *steps: Step, serializable: bool = False) -> list[int]:
        if len(steps) == 1 and steps[0].rows is None and not serializable:
            return [await _run(self.pool, steps[0])]  # one statement: atomic on its own
        async with self.pool.acquire() as conn:
            for _ in range(5 if serializable else 1):
                try:
                    async with conn.transaction(isolation="serializable" if serializable else None):
                        return [await _run(conn, step) for step in steps]
                except asyncpg.SerializationError:
                    if not serializable:
                        raise
                    continue  # the other writer committed first: read again
        raise StoreError("could not save: too many saves at once")

    async def match_mark(self, match_id: str) -> MatchMark | None:
        # One indexed read of a few columns: the price of each decision on a shared database.
        row = await self.pool.fetchrow(
            "SELECT m.version, m.status, m.message_id, "
            "array(SELECT array[s.user_id, s.away, s.missed] FROM seats s "
            "WHERE s.match_id = m.id ORDER BY s.seat) AS seats FROM matches m WHERE m.id = $1",
            match_id,
        )
        if row is None:
            return None
        seats = tuple((user_id, away, missed) for user_id, away, missed in row["seats"])
        return (row["version"], row["status"], row["message_id"], seats)

    def _unique_violation(self, error: BaseException, constraint: str | None = None) -> bool:
        return isinstance(error, asyncpg.UniqueViolationError) and (
            constraint is None or error.constraint_name == constraint
        )

    # --- reads -------------------------------------------------------------------------
    async def actions(self, match_id: str) -> list[LoggedAction]:
        rows = await self._fetch(
            "SELECT seq, seat, action, at FROM actions WHERE match_id = :id ORDER BY seq",
            {"id": match_id},
        )
        return [LoggedAction(**dict(row)) for row in rows]

    # --- writes ------------------------------------------------------------------------
    # A match the deal decides ends as it starts.
    _STARTED = "finished_at = :ended, "

    def _timer_writes(self, match_id: str, timers: Sequence[Timer]) -> tuple[Params, list[Step]]:
        kinds, seats, versions, due, stamps = timer_arrays(timers)
        return {}, [
            Step("DELETE FROM timers WHERE match_id = :id", {"id": match_id}),
            Step(
                f"INSERT INTO timers ({_TIMER_COLUMNS}) SELECT :id, * FROM unnest(:kinds::text[], "
                ":seats::int[], :versions::int[], :due::float8[], :stamps::text[])",
                {"id": match_id, "kinds": kinds, "seats": seats, "versions": versions}
                | {"due": due, "stamps": stamps},
            ),
        ]

    async def _save_move(self, move: Move, meanwhile: Callable[[], object] | None) -> int:
        if meanwhile is not None:
            # Run at the query's first wait: the server works while the loop does.
            asyncio.get_running_loop().call_soon(meanwhile)
        try:
            return await self.pool.fetchval(
                _SAVE_ACTION,
                move.match_id,
                move.expected_version,
                move.state,
                move.version,
                move.status,
                datetime.now(UTC),
                move.seat,
                move.action,
                *timer_arrays(move.timers),
            )
        except asyncpg.LockNotAvailableError as exc:
            raise StoreBusy(str(exc)) from exc  # nothing was written

    # --- timers --------------------------------------------------------------------------
    async def replace_timers(self, match_id: str, timers: Sequence[Timer]) -> None:
        await self._write(*self._timer_writes(match_id, timers)[1])

    def _owned_timers(self) -> str:
        if self.shards is None:
            return "TRUE"
        return f"match_id IN (SELECT id FROM matches WHERE {shard_filter(self.shards, 'guild_id')})"

    def _owned_event_timers(self) -> str:
        """An event's timers belong to the shard of its guild, as its matches do."""
        if self.shards is None:
            return "TRUE"
        return (
            "tournament_id IN (SELECT id FROM tournaments WHERE "
            f"{shard_filter(self.shards, 'guild_id')})"
        )

    async def next_due(self) -> float | None:
        # A claimed timer is not due again before its lease ends.
        return await self._value(
            "SELECT min(due) FROM ("
            "SELECT min(greatest(due_at, coalesce(claimed_until, 0))) AS due FROM timers "
            f"WHERE {self._owned_timers()} UNION ALL "
            "SELECT min(greatest(due_at, coalesce(claimed_until, 0))) FROM event_timers "
            f"WHERE {self._owned_event_timers()} UNION ALL "
            "SELECT min(greatest(due_at, coalesce(claimed_until, 0))) FROM seasons "
            f"WHERE due_at IS NOT NULL AND {self._owned_seasons()}) AS every_kind"
        )

    def _owned_seasons(self) -> str:
        return "TRUE" if self.shards is None else shard_filter(self.shards, "guild_id")

    async def due_timers(self, now: float, limit: int = 100) -> list[Timer]:
        """Claim the due timers, the matches' and the events', of this process's shards in
        one due-time order: no other process gets them until the lease ends (the firing
        process deletes them before that)."""
        rows = await self._fetch(
            "WITH match_due AS ("
            "SELECT match_id, kind, seat, due_at FROM timers WHERE due_at <= :now "
            "AND (claimed_until IS NULL OR claimed_until <= :now) "
            f"AND {self._owned_timers()} "
            "ORDER BY due_at, match_id, kind, seat LIMIT :limit FOR UPDATE SKIP LOCKED"
            "), event_due AS ("
            "SELECT tournament_id, kind, due_at FROM event_timers WHERE due_at <= :now "
            "AND (claimed_until IS NULL OR claimed_until <= :now) "
            f"AND {self._owned_event_timers()} "
            "ORDER BY due_at, tournament_id, kind LIMIT :limit FOR UPDATE SKIP LOCKED"
            "), picked AS ("
            # Only the first ``limit`` of both are claimed; the rest stay due.
            "SELECT match_id AS id, kind, seat, due_at, FALSE AS event FROM match_due "
            "UNION ALL SELECT :event || tournament_id, kind, 0, due_at, TRUE FROM event_due "
            "ORDER BY due_at, id, kind, seat LIMIT :limit"
            "), claimed_matches AS ("
            "UPDATE timers SET claimed_until = :now + :lease WHERE (match_id, kind, seat) IN "
            "(SELECT id, kind, seat FROM picked WHERE NOT event) "
            f"RETURNING {_TIMER_COLUMNS}"
            "), claimed_events AS ("
            "UPDATE event_timers SET claimed_until = :now + :lease WHERE (tournament_id, kind) IN "
            "(SELECT substr(id, length(:event) + 1), kind FROM picked WHERE event) "
            "RETURNING :event || tournament_id AS match_id, kind, 0 AS seat, round AS version, "
            "due_at, '' AS stamp"
            f") SELECT {_TIMER_COLUMNS} FROM claimed_matches "
            f"UNION ALL SELECT {_TIMER_COLUMNS} FROM claimed_events",
            {"now": now, "limit": limit, "lease": LEASE, "event": TOURNAMENT_TIMER},
        )
        timers = [Timer(**dict(row)) for row in rows]
        # A season's row is its end's timer (022_seasons.sql), claimed alike.
        seasons = await self._fetch(
            "UPDATE seasons SET claimed_until = :now + :lease WHERE (guild_id, game, number) IN "
            "(SELECT guild_id, game, number FROM seasons WHERE due_at <= :now "
            "AND (claimed_until IS NULL OR claimed_until <= :now) "
            f"AND {self._owned_seasons()} ORDER BY due_at LIMIT :limit FOR UPDATE SKIP LOCKED) "
            "RETURNING :season::text || guild_id::text || ':' || game || ':' || number::text "
            "AS match_id, :season_end::text AS kind, 0 AS seat, number AS version, due_at, "
            "'' AS stamp",
            {"now": now, "limit": limit, "lease": LEASE}
            | {"season": SEASON_TIMER, "season_end": SEASON_END},
        )
        timers += [Timer(**dict(row)) for row in seasons]
        return sorted(timers, key=lambda t: (t.due_at, t.match_id, t.kind, t.seat))

    async def timers_of(self, match_id: str) -> list[Timer]:
        rows = await self._fetch(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE match_id = :id ORDER BY due_at",
            {"id": match_id},
        )
        return [Timer(**dict(row)) for row in rows]

    async def delete_timers(self, timers: Sequence[Timer]) -> None:
        """Remove fired timers: exactly those, so one set again while firing stays."""
        if not timers:
            return
        # A season's timer is done when its handler clears the season's due_at.
        fired = [t for t in timers if not t.match_id.startswith((TOURNAMENT_TIMER, SEASON_TIMER))]
        await self._write(
            Step(
                "DELETE FROM timers t USING unnest(:ids::text[], :kinds::text[], :seats::int[], "
                ":versions::int[], :due::float8[]) AS f(match_id, kind, seat, version, due_at) "
                "WHERE t.match_id = f.match_id AND t.kind = f.kind AND t.seat = f.seat "
                "AND t.version = f.version AND t.due_at = f.due_at",
                {"ids": [t.match_id for t in fired], "kinds": [t.kind for t in fired]}
                | {"seats": [t.seat for t in fired], "versions": [t.version for t in fired]}
                | {"due": [t.due_at for t in fired]},
            ),
            *self._event_timer_deletes(timers),
        )

    async def counts(self) -> dict[str, int]:
        (row,) = await self._fetch(
            "SELECT (SELECT count(*) FROM matches WHERE status = 'active' AND "
            f"{shard_filter(self.shards, 'guild_id')}) AS active_matches, "
            f"(SELECT count(*) FROM timers WHERE {self._owned_timers()}) AS pending_timers"
        )
        return dict(row)
