"""The SQLite store: migrations, one open match per channel, guarded saves, durability."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime

import pytest

from bot.store import ChannelBusy, MatchRecord, SeatRecord, SQLiteStore, VersionConflict
from bot.store.sqlite import migrations


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


async def started(store: SQLiteStore) -> str:
    await store.create_match(lobby("aaaaaaaaaa"))
    await store.start("aaaaaaaaaa", [SeatRecord(seat=0, user_id=5, name="Ana")], 42, '{"v":0}', 0)
    return "aaaaaaaaaa"


async def move(store: SQLiteStore, expected: int, state: str, action: str) -> None:
    await store.save_action(
        "aaaaaaaaaa",
        expected_version=expected,
        state=state,
        version=expected + 1,
        seat=0,
        action=action,
        status="active",
    )


async def test_migrations_run_once_and_set_the_user_version(store: SQLiteStore, db_path) -> None:
    latest = migrations()[-1][0]
    with sqlite3.connect(db_path) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == latest
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert await store.migrate() == latest  # a second start changes nothing


async def test_a_channel_holds_one_open_match(store: SQLiteStore) -> None:
    await store.create_match(lobby("aaaaaaaaaa"))
    with pytest.raises(ChannelBusy) as busy:
        await store.create_match(lobby("bbbbbbbbbb"))
    assert busy.value.match_id == "aaaaaaaaaa"
    await store.set_status("aaaaaaaaaa", "cancelled")
    await store.create_match(lobby("bbbbbbbbbb"))  # a closed match frees the channel


async def test_save_action_is_guarded_by_the_version(store: SQLiteStore) -> None:
    await started(store)
    await move(store, 0, '{"v":1}', "discard.piano")
    with pytest.raises(VersionConflict):
        await move(store, 0, '{"v":"lost"}', "discard.cash")
    record = await store.get("aaaaaaaaaa")
    assert (record.state, record.version) == ('{"v":1}', 1)
    assert [a.action for a in await store.actions("aaaaaaaaaa")] == ["discard.piano"]


async def test_a_failure_inside_the_transaction_leaves_the_old_state(store: SQLiteStore) -> None:
    await started(store)
    await move(store, 0, '{"v":1}', "a")
    # Force the second statement (the action log insert) to fail after the UPDATE ran.
    await store.db.execute(
        "CREATE TRIGGER boom BEFORE INSERT ON actions "
        "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END"
    )
    with pytest.raises(sqlite3.IntegrityError):
        await move(store, 1, '{"v":2}', "b")
    record = await store.get("aaaaaaaaaa")
    assert (record.state, record.version) == ('{"v":1}', 1)


async def test_committed_actions_survive_closing_and_reopening(db_path) -> None:
    first = SQLiteStore(db_path)
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
    second = SQLiteStore(db_path)
    await second.connect()
    record = await second.get("aaaaaaaaaa")
    await second.close()
    assert record.version == 1 and record.seed == 42 and record.status == "active"


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

    results = await asyncio.gather(
        *(save(m, 0) for m in ids), save(ids[0], 5), return_exceptions=True
    )
    assert results[:6] == [None] * 6 and isinstance(results[6], VersionConflict)
    assert 1 <= len(commits) <= 2  # the first move's commit, then everyone else's together
    # Every acknowledged move is on disk, in its match and its action log.
    with sqlite3.connect(db_path) as raw:
        rows = raw.execute("SELECT id, version, state FROM matches ORDER BY id").fetchall()
        logged = raw.execute("SELECT count(*) FROM actions").fetchone()[0]
    assert rows == [(m, 1, f'{{"m":"{m}"}}') for m in ids] and logged == 6
