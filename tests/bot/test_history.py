"""Finished matches through the service: history, refusals, exports, replays, and the
round-trip check itself."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from bot.service import MatchService
from bot.service.history import NeverFinished, NoSuchFinishedMatch, StillRunning
from bot.store import SQLiteStore
from bot.store.sqlite import migrations
from games import GAMES
from games.core.replay import final_state
from tests.bot.conftest import ANA, BEN, four_player_match
from tests.replay_check import check_replays


async def finished_match(service: MatchService, channel_id: int = 10) -> str:
    """Ana and two bots (an easy one, a hard one) play Cookie Chomper to the end; Ana takes
    her first option(s)."""
    record = await service.open_lobby(
        guild_id=1, channel_id=channel_id, host=ANA, game_key="cookie_chomper"
    )
    for level in ("easy", "hard"):
        await service.add_bot(record.match_id, ANA, level)
    await service.start(record.match_id, ANA)
    for _ in range(5000):
        if (await service.get(record.match_id)).status == "finished":
            return record.match_id
        if await service.play_bot(record.match_id) is None:
            seen = await service.seat_view(record.match_id, ANA.user_id)
            decision = seen.decision or seen.chances[0]
            picks = list(range(decision.min_picks))
            await service.act(record.match_id, ANA.user_id, stamp=decision.stamp, picks=picks)
    raise AssertionError("the match did not end")


async def test_history_names_a_player_who_left_as_gone(service: MatchService) -> None:
    """Ben left for good and a bot played his seat on: his line says so, whatever place
    the seat reached (his rating and /stats rank him last)."""
    record = await service.open_lobby(
        guild_id=1, channel_id=10, host=ANA, game_key="cookie_chomper"
    )
    await service.join(record.match_id, BEN)
    await service.add_bot(record.match_id, ANA)
    await service.start(record.match_id, ANA)
    await service.leave_match(record.match_id, BEN.user_id)
    for _ in range(5000):
        if (await service.get(record.match_id)).status == "finished":
            break
        if await service.play_bot(record.match_id) is None:
            seen = await service.seat_view(record.match_id, ANA.user_id)
            decision = seen.decision or seen.chances[0]
            picks = list(range(decision.min_picks))
            await service.act(record.match_id, ANA.user_id, stamp=decision.stamp, picks=picks)
    (past,) = (await service.history(1)).entries
    names = [name for _, name, _ in past.standings]
    assert sorted(names) == sorted(["Ana", "Ben (left)", "🤖 Abe"])


async def test_finishing_or_cancelling_a_match_notes_when_it_ended(
    service: MatchService,
) -> None:
    before = time.time()
    done = await service.get(await finished_match(service))
    assert done.finished_at is not None and before - 1 <= done.finished_at <= time.time() + 1
    running = await four_player_match(service, channel_id=11)
    assert (await service.get(running)).finished_at is None
    await service.cancel(running, ANA)
    assert (await service.get(running)).finished_at is not None


async def test_only_a_finished_match_of_this_server_is_replayed_or_exported(
    service: MatchService,
) -> None:
    done = await finished_match(service)
    running = await four_player_match(service, channel_id=11)
    lobby = await service.open_lobby(
        guild_id=1, channel_id=12, host=BEN, game_key="toss_your_cookies"
    )
    for ask in (service.replay, service.export):
        with pytest.raises(StillRunning, match="still being played"):
            await ask(1, running)
        with pytest.raises(NeverFinished, match="never started"):
            await ask(1, lobby.match_id)
        with pytest.raises(NoSuchFinishedMatch):
            await ask(2, done)  # another server's match
        with pytest.raises(NoSuchFinishedMatch):
            await ask(1, "ffffffffff")
    await service.cancel(running, ANA)
    with pytest.raises(NeverFinished, match="was cancelled before it ended"):
        await service.replay(1, running)
    exported = await service.export(1, done)
    record = await service.get(done)
    assert exported.seed == record.seed and len(exported.actions) == record.version
    assert [(s.bot, s.level) for s in exported.seats] == [
        (False, None),
        (True, "easy"),
        (True, "hard"),
    ]
    found = await service.replay(1, done)
    assert [f.step for f in found.frames] == list(range(record.version + 1))
    assert found.frames[-1].state.model_dump_json() == record.state
    assert found.frames[1].label and found.frames[1].seat is not None


@pytest.mark.parametrize("backend", ["sqlite"])  # SQLite files by hand
async def test_a_match_from_before_this_feature_is_listed_and_replayed(
    service: MatchService, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = await finished_match(service)
    saved = await service.get(match_id)
    await service.store.close()
    # The database as it was before 010_finished_at.sql: no column, no index.
    before = max(n for n, _ in migrations() if n < 10)
    with sqlite3.connect(db_path) as db:
        db.execute("DROP INDEX matches_history")
        db.execute("ALTER TABLE matches DROP COLUMN finished_at")
        db.execute(f"PRAGMA user_version = {before}")
    # Only 010 was undone: later migrations' tables are still there, so only 010 runs.
    shipped = migrations()
    monkeypatch.setattr("bot.store.sqlite.migrations", lambda: [m for m in shipped if m[0] <= 10])
    store = SQLiteStore(db_path)
    await store.connect()
    try:
        again = MatchService(store, GAMES)
        record = await again.get(match_id)
        assert record.finished_at == pytest.approx(saved.updated_at.timestamp(), abs=0.01)
        page = await again.history(1)
        assert [p.record.match_id for p in page.entries] == [match_id]
        assert page.entries[0].standings[0][0] == 1 and page.entries[0].moves == saved.version
        found = await again.replay(1, match_id)
        assert found.frames[-1].state.model_dump_json() == saved.state
    finally:
        await store.close()


@pytest.mark.parametrize("backend", ["sqlite"])  # SQLite files by hand
async def test_the_round_trip_check_names_a_match_whose_log_does_not_replay(
    service: MatchService, db_path: Path
) -> None:
    match_id = await finished_match(service)
    assert check_replays(db_path, GAMES) == 1
    export = await service.export(1, match_id)
    short = export.model_copy(update={"actions": export.actions[:-1]})
    game = GAMES["cookie_chomper"]
    with sqlite3.connect(db_path) as db:
        (saved,) = db.execute("SELECT state FROM matches WHERE id = ?", (match_id,)).fetchone()
        # A snapshot one move short of the log, as a lost write would leave it.
        db.execute(
            "UPDATE matches SET state = ? WHERE id = ?",
            (final_state(game, short).model_dump_json(), match_id),
        )
    with pytest.raises(AssertionError, match=f"cookie_chomper match {match_id}"):
        check_replays(db_path, GAMES)
    with sqlite3.connect(db_path) as db:
        db.execute("UPDATE matches SET state = ? WHERE id = ?", (saved, match_id))
    assert check_replays(db_path, GAMES) == 1
