"""The store on both backends: migrations, one open match per channel, guarded saves,
durability, timers claimed once."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from contextlib import closing
from datetime import UTC, datetime

import pytest

from bot.store import (
    ChannelBusy,
    DeckRecord,
    MatchRecord,
    SeatRecord,
    Shards,
    SQLiteStore,
    Store,
    StoreBusy,
    Timer,
    VersionConflict,
    open_store,
)
from bot.store import postgres as pg
from bot.store import sqlite as lite
from bot.store.tournament_records import TOURNAMENT_TIMER, TournamentRecord


def lobby(match_id: str, channel_id: int = 7) -> MatchRecord:
    stamp = datetime.now(UTC)
    return MatchRecord(
        match_id=match_id,
        guild_id=1,
        channel_id=channel_id,
        game="cover_your_assets",
        status="lobby",
        host_id=5,
        options="{}",
        created_at=stamp,
        updated_at=stamp,
        seats=[SeatRecord(seat=0, user_id=5, name="Ana")],
    )


async def started(store: Store) -> str:
    await store.create_match(lobby("aaaaaaaaaa"))
    await store.start("aaaaaaaaaa", [SeatRecord(seat=0, user_id=5, name="Ana")], 42, '{"v":0}', 0)
    return "aaaaaaaaaa"


async def move(store: Store, expected: int, state: str, action: str) -> None:
    await store.save_action(
        "aaaaaaaaaa",
        expected_version=expected,
        state=state,
        version=expected + 1,
        seat=0,
        action=action,
        status="active",
    )


async def test_migrations_run_once(store: Store) -> None:
    latest = (lite if isinstance(store, SQLiteStore) else pg).migrations()[-1][0]
    assert await store.migrate() == latest  # a second start changes nothing
    assert await store.migrate() == latest


async def test_sqlite_sets_the_user_version_and_wal(tmp_path) -> None:
    store = SQLiteStore(tmp_path / "cookie.db")
    await store.connect()
    await store.close()
    with sqlite3.connect(tmp_path / "cookie.db") as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == lite.migrations()[-1][0]
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_sqlite_copies_its_log_back_beside_the_moves_never_inside_one(tmp_path) -> None:
    """No move's commit copies the write-ahead log into the database (SQLite's own
    checkpoint made the move that filled the log wait tens of milliseconds): a connection
    of the store's own does it every ``checkpoint_every`` commits, so the database file
    catches up and the log stops growing."""

    async def play(folder: str, every: int) -> tuple[int | None, int]:
        (tmp_path / folder).mkdir()
        path = tmp_path / folder / "cookie.db"
        store = SQLiteStore(path)
        await store.connect()
        store.checkpoint_every = every
        async with store.db.execute("PRAGMA wal_autocheckpoint") as cursor:
            assert (await cursor.fetchone())[0] == 0
        await started(store)
        wal = tmp_path / folder / "cookie.db-wal"
        before = wal.stat().st_size  # the schema's pages: a log file never shrinks
        for version in range(120):
            await move(store, version, f'{{"v":{version + 1}}}', f"m{version}")
            # Each checkpoint ends before the next is due: on a busy machine one still
            # running when the next comes due is skipped, by design, and the count below
            # would depend on the machine's speed.
            if store._checkpointing is not None:
                await store._checkpointing
        # The database file alone, without its log: what the checkpoints copied into it.
        (tmp_path / folder / "file-only.db").write_bytes(path.read_bytes())
        with sqlite3.connect(tmp_path / folder / "file-only.db") as raw:
            tables = raw.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            row = raw.execute("SELECT version FROM matches").fetchone() if tables else None
        growth = wal.stat().st_size - before
        assert store.checkpoints == (122 // every if every <= 122 else 0)
        await store.close()
        return (row[0] if row else None), growth

    copied, bounded = await play("checkpointed", every=10)
    # The last checkpoint started at the 120th commit (the 118th move) or later.
    assert 118 <= copied <= 120
    never, grown = await play("never", every=10_000)
    assert never is None  # nothing copied: even the tables are still only in the log
    # A log copied to its end is written again from its start: it grew only until the
    # first checkpoint, where the unchecked one grew with every move.
    assert grown > 300_000 and bounded < grown / 5


def test_postgres_migrations_mirror_the_sqlite_numbers() -> None:
    """One PostgreSQL file per SQLite migration, same number: a later SQLite migration
    without its twin fails here, not in production."""
    assert [n for n, _ in pg.migrations()] == [n for n, _ in lite.migrations()]


async def test_a_comment_only_twin_of_a_sqlite_only_migration_is_recorded(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = pg.migrations()
    later = shipped[-1][0] + 1
    monkeypatch.setattr(pg, "migrations", lambda: [*shipped, (later, "-- SQLite only\n")])
    store = open_store(postgres_url)
    await store.connect()
    try:
        assert await store.migrate() == later
    finally:
        await store.close()


async def test_processes_starting_at_once_migrate_once(postgres_url: str) -> None:
    stores = [open_store(postgres_url) for _ in range(4)]
    await asyncio.gather(*(s.connect() for s in stores))
    try:
        applied = await stores[0].pool.fetch("SELECT number FROM schema_migrations")
        assert sorted(r["number"] for r in applied) == [n for n, _ in pg.migrations()]
    finally:
        await asyncio.gather(*(s.close() for s in stores))


async def test_a_channel_holds_one_open_match(store: Store) -> None:
    await store.create_match(lobby("aaaaaaaaaa"))
    with pytest.raises(ChannelBusy) as busy:
        await store.create_match(lobby("bbbbbbbbbb"))
    assert busy.value.match_id == "aaaaaaaaaa"
    await store.set_status("aaaaaaaaaa", "cancelled")
    await store.create_match(lobby("bbbbbbbbbb"))  # a closed match frees the channel


async def test_save_action_is_guarded_by_the_version(store: Store) -> None:
    await started(store)
    await move(store, 0, '{"v":1}', "discard.piano")
    with pytest.raises(VersionConflict):
        await move(store, 0, '{"v":"lost"}', "discard.cash")
    record = await store.get("aaaaaaaaaa")
    assert (record.state, record.version) == ('{"v":1}', 1)
    assert [a.action for a in await store.actions("aaaaaaaaaa")] == ["discard.piano"]


async def break_the_action_log(store: Store) -> type[Exception]:
    """Make every insert into the action log fail; the error the save will raise."""
    if isinstance(store, SQLiteStore):
        await store.db.execute(
            "CREATE TRIGGER boom BEFORE INSERT ON actions "
            "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END"
        )
        return sqlite3.IntegrityError
    import asyncpg

    await store.pool.execute(
        "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'disk on fire'; END $$; "
        "CREATE TRIGGER boom BEFORE INSERT ON actions FOR EACH ROW EXECUTE FUNCTION boom()"
    )
    return asyncpg.RaiseError


async def test_a_failure_inside_the_transaction_leaves_the_old_state(store: Store) -> None:
    await started(store)
    await move(store, 0, '{"v":1}', "a")
    # The action log insert fails after the snapshot UPDATE ran: neither may stay.
    error = await break_the_action_log(store)
    with pytest.raises(error):
        await move(store, 1, '{"v":2}', "b")
    record = await store.get("aaaaaaaaaa")
    assert (record.state, record.version) == ('{"v":1}', 1)
    assert [a.action for a in await store.actions("aaaaaaaaaa")] == ["a"]


def count_trips(store: SQLiteStore) -> list[object]:
    """What every call the store sends to its database thread from now on answered."""
    trips: list[object] = []
    execute = store.db._execute

    async def counted(fn, *args, **kwargs):  # type: ignore[no-untyped-def]
        answer = await execute(fn, *args, **kwargs)
        trips.append(answer)
        return answer

    store.db._execute = counted  # type: ignore[method-assign]
    return trips


async def test_a_long_match_is_read_back_in_one_trip_to_the_database_thread(tmp_path) -> None:
    store = SQLiteStore(tmp_path / "cookie.db")
    await store.connect()
    await started(store)
    for version in range(120):
        await move(store, version, f'{{"v":{version + 1}}}', f"play.{version}")
    trips = count_trips(store)
    logged = await store.actions("aaaaaaaaaa")
    read = list(trips)
    await store.close()
    assert [a.action for a in logged] == [f"play.{v}" for v in range(120)]
    assert [a.seq for a in logged] == list(range(120))
    # A replay holds the store's lock while it reads: each extra trip kept moves waiting.
    # And one row, not 120: the database's thread gives up the GIL for every row it steps
    # to and waits to take it back, while the group commits queue behind it.
    assert len(read) == 1 and len(read[0]) == 1  # type: ignore[arg-type]


async def test_a_transaction_is_one_trip_and_a_failed_guard_leaves_nothing(tmp_path) -> None:
    store = SQLiteStore(tmp_path / "cookie.db")
    await store.connect()
    await store.create_match(lobby("aaaaaaaaaa"))
    seats = [SeatRecord(seat=s, user_id=5 + s, name=f"P{s}") for s in range(4)]
    trips = count_trips(store)
    await store.start("aaaaaaaaaa", seats, 42, '{"v":0}', 0)  # six statements
    started_in = len(trips)
    with pytest.raises(VersionConflict):  # started already: the guard refuses, all undone
        await store.start("aaaaaaaaaa", seats[:2], 7, '{"v":9}', 0)
    record = await store.get("aaaaaaaaaa")
    await store.close()
    assert started_in == 1
    assert record is not None and record.state == '{"v":0}' and len(record.seats) == 4


async def test_committed_actions_survive_closing_and_reopening(database_url: str) -> None:
    first = open_store(database_url)
    await first.connect()
    await first.create_match(lobby("aaaaaaaaaa"))
    await first.start("aaaaaaaaaa", [SeatRecord(seat=0, user_id=5, name="Ana")], 42, "{}", 0)
    await first.save_action(
        "aaaaaaaaaa",
        expected_version=0,
        state='{"v":1}',
        version=1,
        seat=0,
        action="a",
        status="active",
    )
    await first.close()
    second = open_store(database_url)
    await second.connect()
    record = await second.get("aaaaaaaaaa")
    await second.close()
    assert record.version == 1 and record.seed == 42 and record.status == "active"


def timer(match_id: str, kind: str, due_at: float, version: int = 1) -> Timer:
    return Timer(match_id=match_id, kind=kind, seat=0, version=version, due_at=due_at)


async def test_a_move_replaces_its_matchs_timers_in_the_same_write(store: Store) -> None:
    await started(store)
    await store.replace_timers("aaaaaaaaaa", [timer("aaaaaaaaaa", "remind", 5.0, 0)])
    await store.save_action(
        "aaaaaaaaaa",
        expected_version=0,
        state='{"v":1}',
        version=1,
        seat=0,
        action="a",
        status="active",
        timers=[timer("aaaaaaaaaa", "timeout", 9.0), timer("aaaaaaaaaa", "remind", 7.0)],
    )
    assert await store.timers_of("aaaaaaaaaa") == [
        timer("aaaaaaaaaa", "remind", 7.0),
        timer("aaaaaaaaaa", "timeout", 9.0),
    ]
    with pytest.raises(VersionConflict):  # a refused move leaves the timers alone
        await move(store, 0, '{"v":"lost"}', "b")
    assert len(await store.timers_of("aaaaaaaaaa")) == 2
    assert await store.next_due() == 7.0
    assert await store.due_timers(8.0) == [timer("aaaaaaaaaa", "remind", 7.0)]


async def test_a_fired_timer_is_deleted_alone_and_the_next_one_becomes_due(store: Store) -> None:
    await started(store)
    first, second = timer("aaaaaaaaaa", "remind", 5.0), timer("aaaaaaaaaa", "timeout", 9.0)
    await store.replace_timers("aaaaaaaaaa", [second, first])
    # Same kind and seat, set for another version: not the timer that fired.
    await store.delete_timers([timer("aaaaaaaaaa", "remind", 5.0, version=2)])
    assert await store.timers_of("aaaaaaaaaa") == [first, second]
    await store.delete_timers([first])
    assert await store.timers_of("aaaaaaaaaa") == [second]
    assert await store.next_due() == 9.0 and await store.due_timers(8.0) == []
    assert (await store.counts())["pending_timers"] == 1
    await store.delete_timers([second])
    assert await store.timers_of("aaaaaaaaaa") == [] and await store.next_due() is None
    assert (await store.counts())["pending_timers"] == 0


async def test_sqlite_action_logs_move_into_a_table_keyed_by_match_and_seq(tmp_path) -> None:
    """Migration 017: every logged action is kept, in its table WITHOUT ROWID, and a move
    still logs its action through the trigger the migration made again."""
    path = tmp_path / "cookie.db"
    with closing(database_before(path, 17)) as raw:
        for version in range(3):
            raw.execute(
                "UPDATE matches SET version = ?, updated_at = ?, last_seat = ?, last_action = ?",
                (
                    version + 1,
                    f"2026-11-0{version + 1}T12:00:00+00:00",
                    version % 2,
                    f"p.{version}",
                ),
            )
    store = SQLiteStore(path)
    await store.connect()
    try:
        await move(store, 3, '{"v":4}', "play.3")
        logged = [(a.seq, a.seat, a.action, a.at.day) for a in await store.actions("aaaaaaaaaa")]
        assert logged[:3] == [(0, 0, "p.0", 1), (1, 1, "p.1", 2), (2, 0, "p.2", 3)]
        assert [a[:3] for a in logged[3:]] == [(3, 0, "play.3")]
        async with store.db.execute(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'actions'"
        ) as cursor:
            assert "WITHOUT ROWID" in (await cursor.fetchone())[0]
    finally:
        await store.close()


async def test_due_timers_come_earliest_first_across_matches_and_go_together(
    store: Store,
) -> None:
    due = {"aaaaaaaaaa": (1.0, 4.0), "bbbbbbbbbb": (2.0, 3.0), "cccccccccc": (5.0,)}
    for channel, (match_id, times) in enumerate(due.items()):
        await store.create_match(lobby(match_id, channel_id=10 + channel))
        await store.start(match_id, [SeatRecord(seat=0, user_id=5, name="Ana")], 1, "{}", 0)
        await store.replace_timers(match_id, [timer(match_id, f"k{t}", t) for t in times])
    first = await store.due_timers(10.0, limit=3)
    # b's second timer is due before a's: a batch is the earliest timers, not matches.
    assert [(t.match_id[0], t.due_at) for t in first] == [("a", 1.0), ("b", 2.0), ("b", 3.0)]
    await store.delete_timers(first)
    assert await store.timers_of("bbbbbbbbbb") == [] and await store.next_due() == 4.0
    assert [(t.match_id[0], t.due_at) for t in await store.due_timers(10.0)] == [
        ("a", 4.0),
        ("c", 5.0),
    ]


def database_before(path, migration: int) -> sqlite3.Connection:
    """A SQLite database as the bot left it before ``migration``, with one running match."""
    raw = sqlite3.connect(path, isolation_level=None)
    for number, sql in lite.migrations():
        if number < migration:
            for statement in lite.split_statements(sql):
                raw.execute(statement)
            raw.execute(f"PRAGMA user_version = {number}")
    raw.execute(
        "INSERT INTO matches (id, guild_id, channel_id, game, status, host_id, options, "
        "created_at, updated_at, state) VALUES "
        "('aaaaaaaaaa', 1, 7, 'cover_your_assets', 'active', 5, '{}', '', '', '{}')"
    )
    return raw


async def test_sqlite_timers_move_into_their_matchs_row_as_the_table_held_them(tmp_path) -> None:
    """Migration 016: a database written before it keeps every pending timer, and only
    those (the row's old list still named one that had fired and been deleted)."""
    path = tmp_path / "cookie.db"
    with closing(database_before(path, 16)) as raw:
        fired = '{"kind": "remind_half", "seat": 0, "version": 3, "due_at": 50.0, "stamp": "s"}'
        # Due times as the clock gives them: a REAL in JSON must keep all its digits.
        pending = [
            ("remind_final", 0, 3, 1795817680.2190416, "s"),
            ("timeout", 0, 3, 1795826320.2190416, "s"),
            ("timeout", 2, 2, 1795783120.2337728, "r"),
        ]
        listed = [fired] + [
            f'{{"kind": "{k}", "seat": {s}, "version": {v}, "due_at": {d}, "stamp": "{st}"}}'
            for k, s, v, d, st in pending
        ]
        # The last move's list, which the old trigger turned into rows; then the scheduler
        # fired the first and deleted its row, and only its row.
        raw.execute("UPDATE matches SET timers = ?", (f"[{', '.join(listed)}]",))
        raw.execute("DELETE FROM timers WHERE kind = 'remind_half'")
        assert raw.execute("SELECT count(*) FROM timers").fetchone()[0] == 3
    store = SQLiteStore(path)
    await store.connect()
    try:
        expected = [
            Timer(match_id="aaaaaaaaaa", kind=k, seat=s, version=v, due_at=d, stamp=st)
            for k, s, v, d, st in sorted(pending, key=lambda p: p[3])
        ]
        assert await store.timers_of("aaaaaaaaaa") == expected
        assert await store.next_due() == 1795783120.2337728
        assert await store.due_timers(1795820000.0) == expected[:2]
    finally:
        await store.close()


async def test_two_processes_never_both_claim_a_due_timer(postgres_url: str) -> None:
    """Both look for due timers at once: each timer goes to exactly one of them, and a
    claimed one is not due again for either until its lease ends."""
    first, second = open_store(postgres_url), open_store(postgres_url)
    await first.connect()
    await second.connect()
    try:
        for n in range(20):
            match_id = f"m{n:09d}"
            await first.create_match(lobby(match_id, channel_id=100 + n))
            await first.start(match_id, [], 1, "{}", 0, [timer(match_id, "timeout", float(n))])
        claims = await asyncio.gather(
            *(store.due_timers(100.0, limit=3) for store in (first, second) for _ in range(5))
        )
        claimed = [t.match_id for batch in claims for t in batch]
        assert sorted(claimed) == [f"m{n:09d}" for n in range(20)]
        assert await first.due_timers(100.0) == []
        assert await first.next_due() == 100.0 + pg.LEASE
    finally:
        await first.close()
        await second.close()


async def test_a_process_fires_only_the_timers_of_its_shards(postgres_url: str) -> None:
    # Guild ids whose shard (of 2) is 0 and 1.
    even, odd = 0 << 22, 1 << 22
    setup = open_store(postgres_url)
    await setup.connect()
    for match_id, guild, channel in (("even000000", even, 1), ("odd0000000", odd, 2)):
        record = lobby(match_id, channel).model_copy(update={"guild_id": guild})
        await setup.create_match(record)
        await setup.start(match_id, [], 1, "{}", 0, [timer(match_id, "timeout", 1.0)])
    await setup.close()
    zero = open_store(postgres_url, Shards(2, frozenset({0})))
    await zero.connect()
    try:
        assert [m.match_id for m in await zero.open_matches()] == ["even000000"]
        assert await zero.counts() == {"active_matches": 1, "pending_timers": 1}
        assert [t.match_id for t in await zero.due_timers(5.0)] == ["even000000"]
        assert await zero.next_due() == 5.0 + pg.LEASE  # the odd guild's timer is not its own
    finally:
        await zero.close()


@pytest.mark.parametrize("backend", ["sqlite"])  # SQLite's group commit
async def test_moves_of_many_matches_share_a_commit_and_a_conflict_fails_alone(
    store: SQLiteStore, db_path
) -> None:
    ids = [f"{i:010x}" for i in range(1, 7)]
    for number, match_id in enumerate(ids):
        await store.create_match(lobby(match_id, channel_id=100 + number))
        await store.start(match_id, [SeatRecord(seat=0, user_id=5, name="Ana")], 1, "{}", 0)
    commits = []
    await store.db.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)

    async def save(match_id: str, expected: int) -> None:
        await store.save_action(
            match_id,
            expected_version=expected,
            state=f'{{"m":"{match_id}"}}',
            version=expected + 1,
            seat=0,
            action="x",
            status="active",
        )

    trips = count_trips(store)
    results = await asyncio.gather(
        *(save(m, 0) for m in ids), save(ids[0], 5), return_exceptions=True
    )
    assert results[:6] == [None] * 6 and isinstance(results[6], VersionConflict)
    assert 1 <= len(commits) <= 2  # the first move's commit, then everyone else's together
    # A commit is one trip to the database's thread, however many moves it carries: under
    # load each trip waits for the loop, and every move behind it waited for all of them.
    assert len(trips) <= 2
    # Every acknowledged move is on disk, in its match and its action log.
    with sqlite3.connect(db_path) as raw:
        rows = raw.execute("SELECT id, version, state FROM matches ORDER BY id").fetchall()
        logged = raw.execute("SELECT count(*) FROM actions").fetchone()[0]
    assert rows == [(m, 1, f'{{"m":"{m}"}}') for m in ids] and logged == 6


async def test_work_given_to_a_move_runs_before_it_is_acknowledged_and_cannot_fail_it(
    store: Store,
) -> None:
    await started(store)
    done: list[str] = []

    def broken() -> None:
        done.append("tried")
        raise RuntimeError("a table that cannot be drawn")

    for expected, work in ((0, lambda: done.append("drawn")), (1, broken)):
        await store.save_action(
            "aaaaaaaaaa",
            expected_version=expected,
            state=f'{{"v":{expected + 1}}}',
            version=expected + 1,
            seat=0,
            action=f"a{expected}",
            status="active",
            meanwhile=work,
        )
    assert done == ["drawn", "tried"]
    record = await store.get("aaaaaaaaaa")
    assert record is not None and record.version == 2 and record.state == '{"v":2}'


async def test_the_work_beside_a_commit_starts_once_the_database_thread_binds_it() -> None:
    found: list[object] = []
    bound_at: list[float] = []
    ran_at: list[float] = []
    done = asyncio.Event()

    def work() -> None:
        ran_at.append(time.perf_counter())
        done.set()

    bound = lite._Bound(7, asyncio.get_running_loop(), work)

    def database_thread() -> None:
        time.sleep(0.05)  # a thread slow to take the statement up
        with sqlite3.connect(":memory:") as raw:
            bound_at.append(time.perf_counter())
            found.append(raw.execute("SELECT ?", (bound,)).fetchone()[0])
            raw.execute("SELECT ?", (bound,))  # bound again: the work is not done twice

    thread = threading.Thread(target=database_thread)
    thread.start()
    await asyncio.wait_for(done.wait(), 10)
    await asyncio.to_thread(thread.join)
    await asyncio.sleep(0)
    assert found == [7] and len(ran_at) == 1 and ran_at[0] >= bound_at[0]


@pytest.mark.parametrize("backend", ["sqlite"])  # SQLite's group commit
async def test_moves_queued_behind_a_caller_cancelled_mid_commit_are_still_committed(
    store: SQLiteStore, db_path
) -> None:
    ids = [f"{i:010x}" for i in range(1, 4)]
    for number, match_id in enumerate(ids):
        await store.create_match(lobby(match_id, channel_id=100 + number))
        await store.start(match_id, [SeatRecord(seat=0, user_id=5, name="Ana")], 1, "{}", 0)

    async def save(match_id: str) -> None:
        await store.save_action(
            match_id, expected_version=0, state="{}", version=1, seat=0, action="x", status="active"
        )

    first = asyncio.create_task(save(ids[0]))
    await asyncio.sleep(0)  # the first move is being committed by its own caller
    queued = [asyncio.create_task(save(m)) for m in ids[1:]]
    await asyncio.sleep(0)  # the others wait for the next commit
    first.cancel()
    # Stranded moves would wait for ever: a bound turns that into a failure.
    assert await asyncio.wait_for(asyncio.gather(*queued), 10) == [None, None]
    with sqlite3.connect(db_path) as raw:
        versions = dict(raw.execute("SELECT id, version FROM matches").fetchall())
    assert versions[ids[1]] == versions[ids[2]] == 1


@pytest.mark.parametrize("backend", ["sqlite"])  # a lone move is one autocommit statement
async def test_a_lone_move_waiting_too_long_for_another_sqlite_writer_is_refused_unwritten(
    store: SQLiteStore, db_path
) -> None:
    await started(store)
    await move(store, 0, '{"v":1}', "a")
    await store.db.execute("PRAGMA busy_timeout = 100")
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # a backup or an admin's shell holds the database
        with pytest.raises(StoreBusy):
            await move(store, 1, '{"v":2}', "b")
        other.execute("ROLLBACK")
        record = await store.get("aaaaaaaaaa")
        assert record is not None and record.version == 1 and record.state == '{"v":1}'
        assert [a.action for a in await store.actions("aaaaaaaaaa")] == ["a"]
        await move(store, 1, '{"v":2}', "b")  # once it is free, the same move goes through
    finally:
        other.close()
    with sqlite3.connect(db_path) as raw:
        row = raw.execute("SELECT version, state FROM matches").fetchone()
        logged = raw.execute("SELECT seq, action FROM actions ORDER BY seq").fetchall()
    assert row == (2, '{"v":2}') and logged == [(0, "a"), (1, "b")]


async def test_two_new_decks_saved_at_once_never_pass_the_limit_together(store: Store) -> None:
    stamp = datetime.now(UTC)

    def deck(name: str) -> DeckRecord:
        return DeckRecord(
            user_id=5, name=name, catalogue="braverse", cards=[], created_at=stamp, updated_at=stamp
        )

    assert await store.save_deck(deck("first"), most=2)
    saved = await asyncio.gather(*(store.save_deck(deck(n), most=2) for n in ("a", "b", "c")))
    assert sorted(saved) == [False, False, True]
    assert len(await store.decks(5)) == 2
    assert await store.save_deck(deck("first"), most=2)  # replacing one is always allowed


async def test_a_move_waiting_too_long_for_another_writer_is_refused_unwritten(
    postgres_url: str,
) -> None:
    store = pg.PostgresStore(postgres_url, lock_wait=0.2)
    await store.connect()
    try:
        await started(store)
        async with store.pool.acquire() as other, other.transaction():
            # Another process holds the match's row (say, mid-way through its own save).
            await other.execute("SELECT 1 FROM matches WHERE id = 'aaaaaaaaaa' FOR UPDATE")
            with pytest.raises(StoreBusy):
                await move(store, 0, '{"v":1}', "a")
        record = await store.get("aaaaaaaaaa")
        assert record.version == 0 and await store.actions("aaaaaaaaaa") == []
        await move(store, 0, '{"v":1}', "a")  # once it is free, the same move goes through
    finally:
        await store.close()


def tournament(tournament_id: str, guild_id: int) -> TournamentRecord:
    return TournamentRecord(
        tournament_id=tournament_id,
        guild_id=guild_id,
        channel_id=9,
        organiser_id=3,
        game="cover_your_assets",
        config="{}",
        status="running",
        seed=1,
        created_at=0.0,
    )


def event_timer(tournament_id: str, kind: str, due_at: float) -> Timer:
    return Timer(
        match_id=TOURNAMENT_TIMER + tournament_id, kind=kind, seat=0, version=1, due_at=due_at
    )


async def test_event_timers_are_claimed_with_match_timers_by_the_shard_of_their_guild(
    postgres_url: str,
) -> None:
    even, odd = 0 << 22, 1 << 22  # guilds of shard 0 and 1 (of 2)
    setup = open_store(postgres_url)
    await setup.connect()
    record = lobby("even000000", 1).model_copy(update={"guild_id": even})
    await setup.create_match(record)
    await setup.start("even000000", [], 1, "{}", 0, [timer("even000000", "timeout", 2.0)])
    for tournament_id, guild in (("mine", even), ("theirs", odd)):
        await setup.create_tournament(tournament(tournament_id, guild))
    mine = [event_timer("mine", "next_round", 1.0), event_timer("mine", "deadline", 3.0)]
    await setup.replace_tournament_timers("mine", mine)
    await setup.replace_tournament_timers("theirs", [event_timer("theirs", "deadline", 0.5)])
    await setup.close()
    zero = open_store(postgres_url, Shards(2, frozenset({0})))
    other = open_store(postgres_url, Shards(2, frozenset({0})))
    await zero.connect()
    await other.connect()
    try:
        assert await zero.next_due() == 1.0  # the odd guild's event is not its own
        # One due-time order over both kinds; only the first two are claimed.
        first = await zero.due_timers(10.0, limit=2)
        assert first == [mine[0], timer("even000000", "timeout", 2.0)]
        assert await other.due_timers(10.0) == [mine[1]]  # the claimed ones are leased
        assert await zero.due_timers(10.0) == []
        await zero.delete_timers([*first, mine[1]])
        assert await zero.tournament_timers("mine") == []
        assert await zero.timers_of("even000000") == []
        assert await zero.next_due() is None
        assert await setup_free_timers(postgres_url) == [event_timer("theirs", "deadline", 0.5)]
    finally:
        await zero.close()
        await other.close()


async def setup_free_timers(postgres_url: str) -> list[Timer]:
    """Every due timer, as a process owning every shard sees it."""
    store = open_store(postgres_url)
    await store.connect()
    try:
        return await store.due_timers(10.0)
    finally:
        await store.close()
