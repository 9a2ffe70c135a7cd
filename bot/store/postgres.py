"""PostgreSQL store on asyncpg: a pool, numbered migrations under an advisory lock, and a
move saved as one statement guarded by the version.

Several bot processes may share one database. Each owns some shards (``Shards``): it lists,
resumes and fires timers only for matches of its own guilds, and claims a due timer with a
lease (``FOR UPDATE SKIP LOCKED``), so two processes never both fire it within the lease.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from importlib import resources
from typing import Any

import asyncpg

from bot.store.base import ChannelBusy, Shards, Store, StoreBusy, StoreError, VersionConflict
from bot.store.models import (
    OPEN_STATUSES,
    DeckRecord,
    LoggedAction,
    MatchRecord,
    SeatRecord,
    Status,
    Timer,
)

_MATCH_COLUMNS = (
    "id, guild_id, channel_id, message_id, game, status, host_id, options, seed, version, "
    "state, rematch_of, settings, created_at, updated_at"
)
# Read back with the ending time, which only the store itself writes (010_finished_at.sql).
_READ_COLUMNS = _MATCH_COLUMNS + ", finished_at"
_OPEN = "('" + "', '".join(OPEN_STATUSES) + "')"
_TIMER_COLUMNS = "match_id, kind, seat, version, due_at, stamp"
# Any constant both processes agree on: it serialises migrations across processes.
MIGRATION_LOCK = 0x436F6F6B6965  # "Cookie"
# Seconds a claimed timer stays with the process that claimed it; a process that dies
# while firing leaves it to be claimed again after this.
LEASE = 60.0

# A move in one statement, so one round trip and one atomic write: the guarded UPDATE of
# the snapshot, its log row and the match's timers (set anew: rows the move no longer has
# are deleted, the others upserted; the two touch disjoint rows, as one statement must).
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
    folder = resources.files("bot.store") / "migrations_pg"
    found = []
    for entry in folder.iterdir():
        if entry.name.endswith(".sql"):
            found.append((int(entry.name.split("_", 1)[0]), entry.read_text("utf-8")))
    return sorted(found)


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


def shard_filter(shards: Shards | None, guild: str) -> str:
    """A WHERE term keeping the guilds of the owned shards (Discord's own formula)."""
    if shards is None:
        return "TRUE"
    ids = ", ".join(str(int(i)) for i in sorted(shards.ids))
    return f"(({guild} >> 22) % {int(shards.count)}) IN ({ids})"


def _history_filters(
    guild_id: int, game: str | None, user_id: int | None
) -> tuple[str, list[object]]:
    where, params = ["guild_id = $1", "status = 'finished'"], [guild_id]
    if game is not None:
        params.append(game)
        where.append(f"game = ${len(params)}")
    if user_id is not None:
        params.append(user_id)
        where.append(f"id IN (SELECT match_id FROM seats WHERE user_id = ${len(params)})")
    return " AND ".join(where), params


class PostgresStore(Store):
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
        )
        await self.migrate()

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    async def migrate(self) -> int:
        """Apply the migrations not yet applied, each in its own transaction. Processes
        starting at once queue on the advisory lock; the later ones find nothing to do."""
        async with self.pool.acquire() as conn:
            # Another process may migrate for longer than a click may wait: wait for it.
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
        return current

    # --- reads -------------------------------------------------------------------------
    async def _matches(self, where: str, *params: object) -> list[MatchRecord]:
        async with (
            self.pool.acquire() as conn,
            conn.transaction(isolation="repeatable_read", readonly=True),
        ):
            # One snapshot for the matches and their seats (read committed would take one
            # per statement, and could pair a match with seats saved after it).
            rows = await conn.fetch(f"SELECT {_READ_COLUMNS} FROM matches WHERE {where}", *params)
            seat_rows = await conn.fetch(
                "SELECT match_id, seat, user_id, name, away, missed FROM seats "
                "WHERE match_id = any($1::text[]) ORDER BY match_id, seat",
                [row["id"] for row in rows],
            )
        seats: dict[str, list[SeatRecord]] = {row["id"]: [] for row in rows}
        for row in seat_rows:
            seats[row["match_id"]].append(
                SeatRecord(
                    seat=row["seat"],
                    user_id=row["user_id"],
                    name=row["name"],
                    away=row["away"],
                    missed=row["missed"],
                )
            )
        return [
            MatchRecord(
                match_id=row["id"],
                **{k: v for k, v in row.items() if k != "id"},
                seats=seats[row["id"]],
            )
            for row in rows
        ]

    async def get(self, match_id: str) -> MatchRecord | None:
        found = await self._matches("id = $1", match_id)
        return found[0] if found else None

    async def open_in_channel(self, channel_id: int) -> MatchRecord | None:
        found = await self._matches(f"channel_id = $1 AND status IN {_OPEN}", channel_id)
        return found[0] if found else None

    async def open_for_user(self, guild_id: int, user_id: int) -> list[MatchRecord]:
        return await self._matches(
            f"guild_id = $1 AND status IN {_OPEN} AND id IN "
            "(SELECT match_id FROM seats WHERE user_id = $2) ORDER BY updated_at DESC",
            guild_id,
            user_id,
        )

    async def open_matches(self) -> list[MatchRecord]:
        return await self._matches(
            f"status IN {_OPEN} AND {shard_filter(self.shards, 'guild_id')} ORDER BY created_at"
        )

    async def actions(self, match_id: str) -> list[LoggedAction]:
        rows = await self.pool.fetch(
            "SELECT seq, seat, action, at FROM actions WHERE match_id = $1 ORDER BY seq", match_id
        )
        return [LoggedAction(**dict(row)) for row in rows]

    # --- history (bot/store/history.py) -------------------------------------------------
    async def finished_matches(
        self,
        guild_id: int,
        *,
        game: str | None = None,
        user_id: int | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[MatchRecord]:
        where, params = _history_filters(guild_id, game, user_id)
        n = len(params)
        return await self._matches(
            f"{where} ORDER BY finished_at DESC, id LIMIT ${n + 1} OFFSET ${n + 2}",
            *params,
            limit,
            offset,
        )

    async def count_finished(
        self, guild_id: int, *, game: str | None = None, user_id: int | None = None
    ) -> int:
        where, params = _history_filters(guild_id, game, user_id)
        return int(await self.pool.fetchval(f"SELECT count(*) FROM matches WHERE {where}", *params))

    async def first_moves(self, match_ids: Sequence[str]) -> dict[str, datetime]:
        rows = await self.pool.fetch(
            "SELECT match_id, at FROM actions WHERE seq = 0 AND match_id = any($1::text[])",
            list(match_ids),
        )
        return {row["match_id"]: row["at"] for row in rows}

    # --- writes ------------------------------------------------------------------------
    async def _replace_seats(
        self, conn: asyncpg.Connection, match_id: str, seats: Sequence[SeatRecord]
    ) -> None:
        await conn.execute("DELETE FROM seats WHERE match_id = $1", match_id)
        await conn.executemany(
            "INSERT INTO seats (match_id, seat, user_id, name) VALUES ($1, $2, $3, $4)",
            [(match_id, s.seat, s.user_id, s.name) for s in seats],
        )

    async def create_match(self, record: MatchRecord) -> None:
        stamp = datetime.now(UTC)
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                await conn.execute(
                    f"INSERT INTO matches ({_MATCH_COLUMNS}) VALUES "
                    "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
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
                )
                await self._replace_seats(conn, record.match_id, record.seats)
        except asyncpg.UniqueViolationError as exc:
            if exc.constraint_name != "matches_one_open_per_channel":
                raise
            existing = await self.open_in_channel(record.channel_id)
            if existing is None:
                raise
            raise ChannelBusy(existing.match_id) from exc

    async def _guarded(
        self, match_id: str, sql: str, params: Sequence[object], seats: Sequence[SeatRecord]
    ) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            if await conn.fetchval(sql, *params) is None:
                raise VersionConflict(match_id)
            await self._replace_seats(conn, match_id, seats)

    async def save_lobby(
        self,
        match_id: str,
        seats: Sequence[SeatRecord],
        options: str,
        host_id: int,
        settings: str,
    ) -> None:
        await self._guarded(
            match_id,
            "UPDATE matches SET options = $1, host_id = $2, settings = $3, updated_at = $4 "
            "WHERE id = $5 AND status = 'lobby' RETURNING id",
            (options, host_id, settings, datetime.now(UTC), match_id),
            seats,
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
        async with self.pool.acquire() as conn, conn.transaction():
            # ``status``: finished at once when the deal decides the match.
            moved = await conn.fetchval(
                "UPDATE matches SET status = $6, seed = $1, state = $2, version = $3, "
                "updated_at = $4, finished_at = CASE WHEN $6 = 'active' THEN NULL "
                "ELSE extract(epoch FROM $4::timestamptz) END "
                "WHERE id = $5 AND status = 'lobby' RETURNING id",
                seed,
                state,
                version,
                datetime.now(UTC),
                match_id,
                status,
            )
            if moved is None:
                raise VersionConflict(match_id)
            await self._replace_seats(conn, match_id, seats)
            await self._replace_timers(conn, match_id, timers)

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
    ) -> None:
        if version != expected_version + 1:
            raise StoreError("a move must advance the version by exactly one")
        try:
            moved = await self.pool.fetchval(
                _SAVE_ACTION,
                match_id,
                expected_version,
                state,
                version,
                status,
                datetime.now(UTC),
                seat,
                action,
                *timer_arrays(timers),
            )
        except asyncpg.LockNotAvailableError as exc:
            raise StoreBusy(str(exc)) from exc  # nothing was written
        if moved != 1:
            raise VersionConflict(match_id)

    async def save_seat(self, match_id: str, seat: SeatRecord) -> None:
        await self.pool.execute(
            "UPDATE seats SET away = $1, missed = $2 WHERE match_id = $3 AND seat = $4",
            seat.away,
            seat.missed,
            match_id,
            seat.seat,
        )

    async def user_settings(self, user_id: int) -> str:
        found = await self.pool.fetchval(
            "SELECT settings FROM user_settings WHERE user_id = $1", user_id
        )
        return found if found is not None else "{}"

    async def save_user_settings(self, user_id: int, settings: str) -> None:
        await self.pool.execute(
            "INSERT INTO user_settings (user_id, settings) VALUES ($1, $2) "
            "ON CONFLICT (user_id) DO UPDATE SET settings = excluded.settings",
            user_id,
            settings,
        )

    async def guild_settings(self, guild_id: int) -> str:
        found = await self.pool.fetchval(
            "SELECT settings FROM guild_settings WHERE guild_id = $1", guild_id
        )
        return found if found is not None else "{}"

    async def save_guild_settings(self, guild_id: int, settings: str) -> None:
        await self.pool.execute(
            "INSERT INTO guild_settings (guild_id, settings) VALUES ($1, $2) "
            "ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
            guild_id,
            settings,
        )

    async def claim_reminder(self, match_id: str, now: float, every: float) -> bool:
        claimed = await self.pool.fetchval(
            "INSERT INTO reminders (match_id, reminded_at) VALUES ($1, $2) "
            "ON CONFLICT (match_id) DO UPDATE SET reminded_at = excluded.reminded_at "
            "WHERE reminders.reminded_at <= excluded.reminded_at - $3 RETURNING match_id",
            match_id,
            now,
            every,
        )
        return claimed is not None  # no row changed: it pinged within the hour

    async def set_status(self, match_id: str, status: Status) -> None:
        await self.pool.execute(
            "UPDATE matches SET status = $1, updated_at = $2, finished_at = CASE WHEN $1 IN "
            "('finished', 'cancelled') THEN extract(epoch FROM $2::timestamptz) "
            "ELSE finished_at END WHERE id = $3",
            status,
            datetime.now(UTC),
            match_id,
        )

    async def set_message(self, match_id: str, message_id: int) -> None:
        await self.pool.execute(
            "UPDATE matches SET message_id = $1 WHERE id = $2", message_id, match_id
        )

    # --- decks ----------------------------------------------------------------------------
    async def decks(self, user_id: int) -> list[DeckRecord]:
        rows = await self.pool.fetch(
            "SELECT user_id, name, catalogue, cards, created_at, updated_at FROM decks "
            "WHERE user_id = $1 ORDER BY name",
            user_id,
        )
        return [DeckRecord(**{**dict(row), "cards": json.loads(row["cards"])}) for row in rows]

    async def save_deck(self, deck: DeckRecord, most: int) -> bool:
        # A new name only under the limit; the same name is replaced (its created_at kept).
        # Under read committed two new names saved at once could both count under the
        # limit; serialisable makes the later one count again.
        async with self.pool.acquire() as conn:
            for _ in range(5):
                try:
                    async with conn.transaction(isolation="serializable"):
                        saved = await conn.fetchval(
                            "INSERT INTO decks (user_id, name, catalogue, cards, created_at, "
                            "updated_at) SELECT $1, $2, $3, $4, $5, $6 WHERE "
                            "(SELECT count(*) FROM decks WHERE user_id = $1) < $7 OR EXISTS "
                            "(SELECT 1 FROM decks WHERE user_id = $1 AND name = $2) "
                            "ON CONFLICT (user_id, name) DO UPDATE SET catalogue = "
                            "excluded.catalogue, cards = excluded.cards, "
                            "updated_at = excluded.updated_at RETURNING name",
                            deck.user_id,
                            deck.name,
                            deck.catalogue,
                            json.dumps(deck.cards),
                            deck.created_at,
                            deck.updated_at,
                            most,
                        )
                    return saved is not None
                except asyncpg.SerializationError:
                    continue  # the other save committed first: count again
        raise StoreError("could not save the deck: too many saves at once")

    async def delete_deck(self, user_id: int, name: str) -> bool:
        gone = await self.pool.fetchval(
            "DELETE FROM decks WHERE user_id = $1 AND name = $2 RETURNING name", user_id, name
        )
        return gone is not None

    # --- timers --------------------------------------------------------------------------
    @staticmethod
    async def _replace_timers(
        conn: asyncpg.Connection, match_id: str, timers: Sequence[Timer]
    ) -> None:
        await conn.execute("DELETE FROM timers WHERE match_id = $1", match_id)
        await conn.execute(
            f"INSERT INTO timers ({_TIMER_COLUMNS}) SELECT $1, * FROM "
            "unnest($2::text[], $3::int[], $4::int[], $5::float8[], $6::text[])",
            match_id,
            *timer_arrays(timers),
        )

    async def replace_timers(self, match_id: str, timers: Sequence[Timer]) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await self._replace_timers(conn, match_id, timers)

    def _owned_timers(self) -> str:
        if self.shards is None:
            return "TRUE"
        return f"match_id IN (SELECT id FROM matches WHERE {shard_filter(self.shards, 'guild_id')})"

    async def next_due(self) -> float | None:
        # A claimed timer is not due again before its lease ends.
        return await self.pool.fetchval(
            "SELECT min(greatest(due_at, coalesce(claimed_until, 0))) FROM timers "
            f"WHERE {self._owned_timers()}"
        )

    async def due_timers(self, now: float, limit: int = 100) -> list[Timer]:
        """Claim the due timers of this process's shards: no other process gets them
        until the lease ends (the firing process deletes them before that)."""
        rows = await self.pool.fetch(
            f"UPDATE timers SET claimed_until = $1 + $3 WHERE (match_id, kind, seat) IN ("
            "SELECT match_id, kind, seat FROM timers WHERE due_at <= $1 "
            "AND (claimed_until IS NULL OR claimed_until <= $1) "
            f"AND {self._owned_timers()} "
            "ORDER BY due_at, match_id, kind, seat LIMIT $2 FOR UPDATE SKIP LOCKED) "
            f"RETURNING {_TIMER_COLUMNS}",
            now,
            limit,
            LEASE,
        )
        timers = [Timer(**dict(row)) for row in rows]
        return sorted(timers, key=lambda t: (t.due_at, t.match_id, t.kind, t.seat))

    async def timers_of(self, match_id: str) -> list[Timer]:
        rows = await self.pool.fetch(
            f"SELECT {_TIMER_COLUMNS} FROM timers WHERE match_id = $1 ORDER BY due_at",
            match_id,
        )
        return [Timer(**dict(row)) for row in rows]

    async def delete_timers(self, timers: Sequence[Timer]) -> None:
        """Remove fired timers: exactly those, so one set again while firing stays."""
        if not timers:
            return
        await self.pool.execute(
            "DELETE FROM timers t USING unnest($1::text[], $2::text[], $3::int[], $4::int[], "
            "$5::float8[]) AS f(match_id, kind, seat, version, due_at) "
            "WHERE t.match_id = f.match_id AND t.kind = f.kind AND t.seat = f.seat "
            "AND t.version = f.version AND t.due_at = f.due_at",
            [t.match_id for t in timers],
            [t.kind for t in timers],
            [t.seat for t in timers],
            [t.version for t in timers],
            [t.due_at for t in timers],
        )

    async def counts(self) -> dict[str, int]:
        row = await self.pool.fetchrow(
            "SELECT (SELECT count(*) FROM matches WHERE status = 'active' AND "
            f"{shard_filter(self.shards, 'guild_id')}) AS active_matches, "
            f"(SELECT count(*) FROM timers WHERE {self._owned_timers()}) AS pending_timers"
        )
        return dict(row)
