"""PostgreSQL store on asyncpg: a pool, numbered migrations under an advisory lock, and a
move saved as one statement guarded by the version.

Several bot processes may share one database. Each owns some shards (``Shards``): it lists,
resumes and fires timers only for matches of its own guilds, and claims a due timer with a
lease (``FOR UPDATE SKIP LOCKED``), so two processes never both fire it within the lease.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from importlib import resources
from typing import Any

import asyncpg

from bot.store.base import ChannelBusy, Shards, Store, StoreBusy, StoreError, VersionConflict
from bot.store.events import (
    EVENT_TIMER,
    AuditRecord,
    EntrantRecord,
    EventTable,
    ResultRecord,
    RoundRecord,
    TournamentRecord,
)
from bot.store.models import (
    OPEN_STATUSES,
    DeckRecord,
    LoggedAction,
    MatchMark,
    MatchRecord,
    SeatRecord,
    Status,
    Timer,
)
from bot.store.ratings import (
    _EVENT,
    _RATING,
    RatingConflict,
    RatingEventRecord,
    RatingRecord,
    _event_row,
    _rating_row,
)

_MATCH_COLUMNS = (
    "id, guild_id, channel_id, message_id, game, status, host_id, options, seed, version, "
    "state, rematch_of, settings, created_at, updated_at"
)
# Read back with the ending time, which only the store itself writes (010_finished_at.sql).
_READ_COLUMNS = _MATCH_COLUMNS + ", finished_at"
_OPEN = "('" + "', '".join(OPEN_STATUSES) + "')"
_TIMER_COLUMNS = "match_id, kind, seat, version, due_at, stamp"
# An event's timer read as a match timer ($1: EVENT_TIMER), as SQLite hands both out.
_EVENT_TIMER_COLUMNS = (
    "$1 || tournament_id AS match_id, kind, 0 AS seat, round AS version, due_at, '' AS stamp"
)
_TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, message_id, organiser_id, game, config, status, round, seed, "
    "created_at"
)
_TABLE_COLUMNS = (
    "tournament_id, round, table_no, match_id, thread_id, seats, status, bracket_id, games"
)
_PG_INSERT_EVENT = (
    f"INSERT INTO rating_events ({_EVENT}) VALUES ({', '.join(f'${n}' for n in range(1, 14))})"
)
_PG_INSERT_RATING = f"INSERT INTO ratings ({_RATING}) VALUES ($1, $2, $3, $4, $5, $6, $7)"
# As in ratings.py: the update only lands on the rating the event started from.
_PG_UPSERT_RATING = (
    f"{_PG_INSERT_RATING} ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu, "
    "sigma = excluded.sigma, games = excluded.games, display = excluded.display "
    "WHERE ratings.games = excluded.games - 1"
)
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
        meanwhile: Callable[[], object] | None = None,
    ) -> None:
        if version != expected_version + 1:
            raise StoreError("a move must advance the version by exactly one")
        if meanwhile is not None:
            # Run at the query's first wait: the server works while the loop does.
            asyncio.get_running_loop().call_soon(meanwhile)
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
        return await self.pool.fetchval(
            "SELECT min(due) FROM ("
            "SELECT min(greatest(due_at, coalesce(claimed_until, 0))) AS due FROM timers "
            f"WHERE {self._owned_timers()} UNION ALL "
            "SELECT min(greatest(due_at, coalesce(claimed_until, 0))) FROM event_timers "
            f"WHERE {self._owned_event_timers()}) AS both_kinds"
        )

    async def due_timers(self, now: float, limit: int = 100) -> list[Timer]:
        """Claim the due timers, the matches' and the events', of this process's shards in
        one due-time order: no other process gets them until the lease ends (the firing
        process deletes them before that)."""
        rows = await self.pool.fetch(
            "WITH match_due AS ("
            "SELECT match_id, kind, seat, due_at FROM timers WHERE due_at <= $1 "
            "AND (claimed_until IS NULL OR claimed_until <= $1) "
            f"AND {self._owned_timers()} "
            "ORDER BY due_at, match_id, kind, seat LIMIT $2 FOR UPDATE SKIP LOCKED"
            "), event_due AS ("
            "SELECT tournament_id, kind, due_at FROM event_timers WHERE due_at <= $1 "
            "AND (claimed_until IS NULL OR claimed_until <= $1) "
            f"AND {self._owned_event_timers()} "
            "ORDER BY due_at, tournament_id, kind LIMIT $2 FOR UPDATE SKIP LOCKED"
            "), picked AS ("
            # Only the first ``limit`` of both are claimed; the rest stay due.
            "SELECT match_id AS id, kind, seat, due_at, FALSE AS event FROM match_due "
            "UNION ALL SELECT $4 || tournament_id, kind, 0, due_at, TRUE FROM event_due "
            "ORDER BY due_at, id, kind, seat LIMIT $2"
            "), claimed_matches AS ("
            "UPDATE timers SET claimed_until = $1 + $3 WHERE (match_id, kind, seat) IN "
            "(SELECT id, kind, seat FROM picked WHERE NOT event) "
            f"RETURNING {_TIMER_COLUMNS}"
            "), claimed_events AS ("
            "UPDATE event_timers SET claimed_until = $1 + $3 WHERE (tournament_id, kind) IN "
            "(SELECT substr(id, length($4) + 1), kind FROM picked WHERE event) "
            "RETURNING $4 || tournament_id AS match_id, kind, 0 AS seat, round AS version, "
            "due_at, '' AS stamp"
            f") SELECT {_TIMER_COLUMNS} FROM claimed_matches "
            f"UNION ALL SELECT {_TIMER_COLUMNS} FROM claimed_events",
            now,
            limit,
            LEASE,
            EVENT_TIMER,
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
        events = [t for t in timers if t.match_id.startswith(EVENT_TIMER)]
        matches = [t for t in timers if not t.match_id.startswith(EVENT_TIMER)]
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "DELETE FROM timers t USING unnest($1::text[], $2::text[], $3::int[], "
                "$4::int[], $5::float8[]) AS f(match_id, kind, seat, version, due_at) "
                "WHERE t.match_id = f.match_id AND t.kind = f.kind AND t.seat = f.seat "
                "AND t.version = f.version AND t.due_at = f.due_at",
                [t.match_id for t in matches],
                [t.kind for t in matches],
                [t.seat for t in matches],
                [t.version for t in matches],
                [t.due_at for t in matches],
            )
            await conn.execute(
                "DELETE FROM event_timers t USING unnest($1::text[], $2::text[], $3::int[], "
                "$4::float8[]) AS f(tournament_id, kind, round, due_at) "
                "WHERE t.tournament_id = f.tournament_id AND t.kind = f.kind "
                "AND t.round = f.round AND t.due_at = f.due_at",
                [t.match_id.removeprefix(EVENT_TIMER) for t in events],
                [t.kind for t in events],
                [t.version for t in events],
                [t.due_at for t in events],
            )

    async def counts(self) -> dict[str, int]:
        row = await self.pool.fetchrow(
            "SELECT (SELECT count(*) FROM matches WHERE status = 'active' AND "
            f"{shard_filter(self.shards, 'guild_id')}) AS active_matches, "
            f"(SELECT count(*) FROM timers WHERE {self._owned_timers()}) AS pending_timers"
        )
        return dict(row)

    # --- ratings (bot/store/ratings.py) ---------------------------------------------------
    async def ratings_of(
        self, guild_id: int, game: str, user_ids: Sequence[int]
    ) -> dict[int, RatingRecord]:
        rows = await self.pool.fetch(
            f"SELECT {_RATING} FROM ratings WHERE guild_id = $1 AND game = $2 "
            "AND user_id = any($3::bigint[])",
            guild_id,
            game,
            list(user_ids),
        )
        return {row["user_id"]: RatingRecord(**dict(row)) for row in rows}

    async def save_match_ratings(self, events: Sequence[RatingEventRecord]) -> bool:
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                await conn.executemany(_PG_INSERT_EVENT, [_event_row(e) for e in events])
                for event in events:
                    # The upsert only lands on the rating the event started from.
                    saved = await conn.fetchval(
                        f"{_PG_UPSERT_RATING} RETURNING 1", *_rating_row(event.rating())
                    )
                    if saved is None:
                        raise RatingConflict(event.user_id)
        except asyncpg.UniqueViolationError:
            return False  # the match's rows exist: it was rated already
        return True

    async def match_rated(self, match_id: str) -> bool:
        found = await self.pool.fetchval(
            "SELECT 1 FROM rating_events WHERE match_id = $1 LIMIT 1", match_id
        )
        return found is not None

    async def leaderboard(
        self, guild_id: int, game: str, *, limit: int, offset: int = 0
    ) -> list[RatingRecord]:
        rows = await self.pool.fetch(
            f"SELECT {_RATING} FROM ratings WHERE guild_id = $1 AND game = $2 "
            "ORDER BY display DESC, user_id LIMIT $3 OFFSET $4",
            guild_id,
            game,
            limit,
            offset,
        )
        return [RatingRecord(**dict(row)) for row in rows]

    async def count_rated(self, guild_id: int, game: str) -> int:
        return int(
            await self.pool.fetchval(
                "SELECT count(*) FROM ratings WHERE guild_id = $1 AND game = $2", guild_id, game
            )
        )

    async def rating_events_of(
        self, guild_id: int, game: str | None, user_id: int
    ) -> list[RatingEventRecord]:
        rows = await self.pool.fetch(
            f"SELECT {_EVENT} FROM rating_events WHERE guild_id = $1 AND user_id = $2 "
            "AND ($3::text IS NULL OR game = $3) ORDER BY at, match_id",
            guild_id,
            user_id,
            game,
        )
        return [RatingEventRecord(**dict(row)) for row in rows]

    async def unrated_since(self, since: float) -> list[str]:
        rows = await self.pool.fetch(
            "SELECT id FROM matches WHERE status = 'finished' AND finished_at > greatest($1, "
            "coalesce((SELECT max(at) FROM rating_events), $1)) AND id NOT IN "
            "(SELECT match_id FROM rating_events) ORDER BY finished_at, id",
            since,
        )
        return [row["id"] for row in rows]

    async def rated_matches(self) -> list[str]:
        rows = await self.pool.fetch(
            "SELECT id FROM matches WHERE id IN (SELECT match_id FROM rating_events) "
            "ORDER BY finished_at, id"
        )
        return [row["id"] for row in rows]

    async def all_ratings(self) -> list[RatingRecord]:
        rows = await self.pool.fetch(
            f"SELECT {_RATING} FROM ratings ORDER BY guild_id, game, user_id"
        )
        return [RatingRecord(**dict(row)) for row in rows]

    async def all_rating_events(self) -> list[RatingEventRecord]:
        rows = await self.pool.fetch(
            f"SELECT {_EVENT} FROM rating_events ORDER BY match_id, user_id"
        )
        return [RatingEventRecord(**dict(row)) for row in rows]

    async def replace_ratings(
        self, ratings: Sequence[RatingRecord], events: Sequence[RatingEventRecord]
    ) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("DELETE FROM rating_events")
            await conn.execute("DELETE FROM ratings")
            await conn.executemany(_PG_INSERT_EVENT, [_event_row(e) for e in events])
            await conn.executemany(_PG_INSERT_RATING, [_rating_row(r) for r in ratings])

    # --- tournaments (bot/store/events.py) -------------------------------------------------
    async def create_tournament(self, record: TournamentRecord) -> None:
        await self.pool.execute(
            "INSERT INTO tournaments (id, guild_id, channel_id, message_id, organiser_id, "
            "game, config, status, round, seed, created_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
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
        )

    @staticmethod
    def _tournament(row: asyncpg.Record) -> TournamentRecord:
        data = dict(row)
        return TournamentRecord(tournament_id=data.pop("id"), **data)

    async def get_tournament(self, tournament_id: str) -> TournamentRecord | None:
        row = await self.pool.fetchrow(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1", tournament_id
        )
        return self._tournament(row) if row is not None else None

    async def tournaments(self, guild_id: int | None, *, open_only: bool) -> list[TournamentRecord]:
        rows = await self.pool.fetch(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments "
            "WHERE ($1::bigint IS NULL OR guild_id = $1) "
            "AND (NOT $2 OR status IN ('signup', 'running', 'paused')) "
            "ORDER BY created_at DESC, id",
            guild_id,
            open_only,
        )
        return [self._tournament(row) for row in rows]

    async def save_tournament(self, record: TournamentRecord) -> None:
        saved = await self.pool.fetchval(
            "UPDATE tournaments SET message_id = $1, config = $2, status = $3, round = $4 "
            "WHERE id = $5 RETURNING id",
            record.message_id,
            record.config,
            record.status,
            record.round,
            record.tournament_id,
        )
        if saved is None:
            raise VersionConflict(record.tournament_id)

    async def entrants(self, tournament_id: str) -> list[EntrantRecord]:
        rows = await self.pool.fetch(
            "SELECT tournament_id, entrant, user_id, name, state, checked_in, forfeited, "
            "dropped_round, joined_at FROM entrants WHERE tournament_id = $1 ORDER BY entrant",
            tournament_id,
        )
        return [EntrantRecord(**dict(row)) for row in rows]

    async def save_entrant(self, entrant: EntrantRecord) -> None:
        await self.pool.execute(
            "INSERT INTO entrants (tournament_id, entrant, user_id, name, state, checked_in, "
            "forfeited, dropped_round, joined_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
            "ON CONFLICT (tournament_id, entrant) DO UPDATE SET user_id = excluded.user_id, "
            "name = excluded.name, state = excluded.state, checked_in = excluded.checked_in, "
            "forfeited = excluded.forfeited, dropped_round = excluded.dropped_round, "
            "joined_at = excluded.joined_at",
            entrant.tournament_id,
            entrant.entrant,
            entrant.user_id,
            entrant.name,
            entrant.state,
            int(entrant.checked_in),
            int(entrant.forfeited),
            entrant.dropped_round,
            entrant.joined_at,
        )

    async def rounds(self, tournament_id: str) -> list[RoundRecord]:
        rows = await self.pool.fetch(
            "SELECT tournament_id, round, stage, deadline, message_id, started_at FROM rounds "
            "WHERE tournament_id = $1 ORDER BY round",
            tournament_id,
        )
        return [RoundRecord(**dict(row)) for row in rows]

    async def save_round(self, round: RoundRecord) -> None:
        await self.pool.execute(
            "INSERT INTO rounds (tournament_id, round, stage, deadline, message_id, started_at) "
            "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (tournament_id, round) DO UPDATE SET "
            "stage = excluded.stage, deadline = excluded.deadline, "
            "message_id = excluded.message_id, started_at = excluded.started_at",
            round.tournament_id,
            round.round,
            round.stage,
            round.deadline,
            round.message_id,
            round.started_at,
        )

    @staticmethod
    def _table(row: asyncpg.Record) -> EventTable:
        return EventTable(
            **{**dict(row), "seats": json.loads(row["seats"]), "games": json.loads(row["games"])}
        )

    async def event_tables(self, tournament_id: str) -> list[EventTable]:
        rows = await self.pool.fetch(
            f"SELECT {_TABLE_COLUMNS} FROM event_tables WHERE tournament_id = $1 "
            "ORDER BY round, table_no",
            tournament_id,
        )
        return [self._table(row) for row in rows]

    async def event_table_of(self, match_id: str) -> EventTable | None:
        row = await self.pool.fetchrow(
            f"SELECT {_TABLE_COLUMNS} FROM event_tables WHERE match_id = $1", match_id
        )
        return self._table(row) if row is not None else None

    async def save_event_table(self, table: EventTable) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            # SQLite's INSERT OR REPLACE also drops another table holding the same match
            # (match_id is UNIQUE): the same here, so a match moved to a table is there only.
            await conn.execute(
                "DELETE FROM event_tables WHERE match_id = $1 AND NOT "
                "(tournament_id = $2 AND round = $3 AND table_no = $4)",
                table.match_id,
                table.tournament_id,
                table.round,
                table.table_no,
            )
            await conn.execute(
                f"INSERT INTO event_tables ({_TABLE_COLUMNS}) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
                "ON CONFLICT (tournament_id, round, table_no) DO UPDATE SET "
                "match_id = excluded.match_id, thread_id = excluded.thread_id, "
                "seats = excluded.seats, status = excluded.status, "
                "bracket_id = excluded.bracket_id, games = excluded.games",
                table.tournament_id,
                table.round,
                table.table_no,
                table.match_id,
                table.thread_id,
                json.dumps(table.seats),
                table.status,
                table.bracket_id,
                json.dumps([game.model_dump() for game in table.games]),
            )

    async def results(self, tournament_id: str) -> list[ResultRecord]:
        rows = await self.pool.fetch(
            "SELECT tournament_id, round, table_no, players, places, kind, gone, source, "
            "match_id, game_wins, game_draws FROM results WHERE tournament_id = $1 "
            "ORDER BY round, table_no",
            tournament_id,
        )
        return [
            ResultRecord(
                **{
                    **dict(row),
                    **{key: json.loads(row[key]) for key in ("players", "places", "gone")},
                    "game_wins": json.loads(row["game_wins"] or "null"),
                }
            )
            for row in rows
        ]

    async def add_result(self, result: ResultRecord, *, replace: bool = False) -> bool:
        on_conflict = (
            "DO UPDATE SET players = excluded.players, places = excluded.places, "
            "kind = excluded.kind, gone = excluded.gone, source = excluded.source, "
            "match_id = excluded.match_id, game_wins = excluded.game_wins, "
            "game_draws = excluded.game_draws"
            if replace
            else "DO NOTHING"
        )
        written = await self.pool.fetchval(
            "INSERT INTO results (tournament_id, round, table_no, players, places, kind, gone, "
            "source, match_id, game_wins, game_draws) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) "
            f"ON CONFLICT (tournament_id, round, table_no) {on_conflict} RETURNING 1",
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
        )
        return written is not None

    async def delete_results(self, tournament_id: str, round: int) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            for table in ("results", "event_tables"):
                await conn.execute(
                    f"DELETE FROM {table} WHERE tournament_id = $1 AND round = $2",
                    tournament_id,
                    round,
                )

    async def add_audit(self, row: AuditRecord) -> None:
        await self.pool.execute(
            "INSERT INTO tournament_audit (tournament_id, actor_id, actor_name, action, "
            "before, after, at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            row.tournament_id,
            row.actor_id,
            row.actor_name,
            row.action,
            row.before,
            row.after,
            row.at,
        )

    async def audit(self, tournament_id: str) -> list[AuditRecord]:
        rows = await self.pool.fetch(
            "SELECT id AS seq, tournament_id, actor_id, actor_name, action, before, after, at "
            "FROM tournament_audit WHERE tournament_id = $1 ORDER BY id",
            tournament_id,
        )
        return [AuditRecord(**dict(row)) for row in rows]

    async def replace_event_timers(self, tournament_id: str, timers: Sequence[Timer]) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("DELETE FROM event_timers WHERE tournament_id = $1", tournament_id)
            await conn.execute(
                "INSERT INTO event_timers (tournament_id, kind, round, due_at) "
                "SELECT $1, * FROM unnest($2::text[], $3::int[], $4::float8[])",
                tournament_id,
                [t.kind for t in timers],
                [t.version for t in timers],
                [t.due_at for t in timers],
            )

    async def event_timers(self, tournament_id: str) -> list[Timer]:
        rows = await self.pool.fetch(
            f"SELECT {_EVENT_TIMER_COLUMNS} FROM event_timers WHERE tournament_id = $2 "
            "ORDER BY due_at",
            EVENT_TIMER,
            tournament_id,
        )
        return [Timer(**dict(row)) for row in rows]
