"""``python -m bot copy-db``: SQLite to an empty PostgreSQL, every table, verified."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.bots import BotDriver
from bot.clock import ManualClock
from bot.service import MatchService
from bot.store import SQLiteStore, open_store
from bot.store.copy import CopyRefused, copy_database, replays_to_snapshot
from bot.store.models import Timer
from bot.store.ratings import RatingRecord
from bot.store.tournament_records import (
    TOURNAMENT_TIMER,
    AuditRecord,
    EntrantRecord,
    TournamentRecord,
)
from games import GAMES
from tests.replay_check import check_exports, postgres_exports

from .conftest import ANA, MOD, four_player_match

ROOT = Path(__file__).resolve().parents[2]


async def a_busy_sqlite_database(path: Path) -> dict[str, object]:
    """A finished match played by bots, a running one with timers, settings, a reminder."""
    store = SQLiteStore(path)
    await store.connect()
    clock = ManualClock()
    seeds = iter(range(7, 1000))
    service = MatchService(store, GAMES, new_seed=lambda: next(seeds), clock=clock)
    await service.set_guild_defaults(1, MOD, {"forfeit_after": 3})
    await store.save_user_settings(ANA.user_id, '{"notify": true}')
    finished = asyncio.Event()

    async def on_change(change) -> None:  # type: ignore[no-untyped-def]
        if change.kind == "finished":
            finished.set()

    service.listeners.append(on_change)
    lobby = await service.open_lobby(
        guild_id=1, channel_id=5, host=ANA, game_key="cover_your_assets"
    )
    await service.set_option(lobby.match_id, ANA, "end_mode", "quick")
    for _ in range(3):
        await service.add_bot(lobby.match_id, ANA)
    driver = BotDriver(service, delay=0)
    await service.set_pace(lobby.match_id, ANA, "async")
    # Ana's seat times out to its default move until the bots have finished the match.
    await service.start(lobby.match_id, ANA)
    while not finished.is_set():
        await clock.advance(24 * 3600)
        for timer in await store.due_timers(clock.now()):
            await service.on_timer(timer)
        await asyncio.sleep(0)
    await driver.close()
    running = await four_player_match(service, channel_id=6)
    state = service.load_state(await service.get(running))
    seat = GAMES["cover_your_assets"].decisions(state)[0].seat
    await store.claim_reminder(running, clock.now(), 3600)
    expected = {
        "finished": lobby.match_id,
        "running": running,
        "actions": len(await store.actions(lobby.match_id)),
        "timers": await store.timers_of(running),
        "mover": seat,
    }
    await store.close()
    return expected


async def test_every_table_moves_and_each_log_replays_to_its_snapshot(
    tmp_path: Path, postgres_url: str
) -> None:
    source = tmp_path / "cookie.db"
    expected = await a_busy_sqlite_database(source)
    report = await copy_database(f"sqlite:///{source}", postgres_url)
    assert report.replayed == 2
    assert report.rows["matches"] == 2 and report.rows["seats"] == 8
    assert report.rows["actions"] == expected["actions"] > 0
    assert report.rows["user_settings"] == report.rows["guild_settings"] == 1
    assert report.rows["reminders"] == 1
    # The copied finished match also replays through games.core.replay (as /replay does).
    assert check_exports(await postgres_exports(postgres_url), GAMES) == 1
    target = open_store(postgres_url)
    await target.connect()
    try:
        finished = await target.get(expected["finished"])
        assert finished is not None and finished.status == "finished"
        assert await target.timers_of(expected["running"]) == expected["timers"] != []
        assert await target.user_settings(ANA.user_id) == '{"notify": true}'
        # The copied running match goes on from PostgreSQL.
        service = MatchService(target, GAMES)
        running = await service.get(expected["running"])
        mover = running.seats[expected["mover"]].user_id
        seen = await service.seat_view(expected["running"], mover)
        change = await service.act(expected["running"], mover, stamp=seen.decision.stamp, picks=[0])
        assert change.state.version == 1
    finally:
        await target.close()


async def test_a_non_empty_target_is_refused_and_left_alone(
    tmp_path: Path, postgres_url: str
) -> None:
    source = tmp_path / "cookie.db"
    store = SQLiteStore(source)
    await store.connect()
    service = MatchService(store, GAMES, new_seed=lambda: 3)
    await four_player_match(service)
    await store.close()
    await copy_database(f"sqlite:///{source}", postgres_url)
    with pytest.raises(CopyRefused, match="not empty"):
        await copy_database(f"sqlite:///{source}", postgres_url)
    target = open_store(postgres_url)
    await target.connect()
    try:
        assert len(await target.open_matches()) == 1
    finally:
        await target.close()


async def test_a_snapshot_its_log_does_not_reach_copies_nothing(
    tmp_path: Path, postgres_url: str
) -> None:
    source = tmp_path / "cookie.db"
    store = SQLiteStore(source)
    await store.connect()
    match_id = await four_player_match(MatchService(store, GAMES, new_seed=lambda: 3))
    await store.db.execute("UPDATE matches SET state = '{}' WHERE id = ?", (match_id,))
    await store.close()
    with pytest.raises(CopyRefused, match="does not replay"):
        await copy_database(f"sqlite:///{source}", postgres_url)
    target = open_store(postgres_url)
    await target.connect()
    try:
        assert await target.open_matches() == []  # the transaction rolled back
    finally:
        await target.close()


async def test_the_command_line_says_in_one_line_why_it_refused(
    tmp_path: Path, postgres_url: str
) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    source = f"sqlite:///{tmp_path}/none.db"
    result = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", "bot", "copy-db", "--from", source, "--to", postgres_url],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"cookie-jar copy-db: no SQLite database at {tmp_path}/none.db; nothing was copied"
    ]


async def test_tournaments_and_ratings_move_and_the_next_audit_row_follows_them(
    tmp_path: Path, postgres_url: str
) -> None:
    source_path = tmp_path / "cookie.db"
    await a_busy_sqlite_database(source_path)
    source = SQLiteStore(source_path)
    await source.connect()
    event = TournamentRecord(
        tournament_id="t1",
        guild_id=1,
        channel_id=2,
        organiser_id=MOD.user_id,
        game="cover_your_assets",
        config="{}",
        status="running",
        round=1,
        seed=2**40,
        created_at=100.5,
    )
    await source.create_tournament(event)
    ana = EntrantRecord(
        tournament_id="t1", entrant=1, user_id=ANA.user_id, name="Ana", joined_at=1.0
    )
    await source.save_entrant(ana.model_copy(update={"checked_in": True}))
    audit = AuditRecord(
        tournament_id="t1",
        actor_id=MOD.user_id,
        actor_name="Mod",
        action="start",
        before="{}",
        after="{}",
        at=3.0,
    )
    await source.add_audit(audit)
    await source.add_audit(audit.model_copy(update={"action": "pause"}))
    deadline = Timer(
        match_id=TOURNAMENT_TIMER + "t1", kind="deadline", seat=0, version=1, due_at=9.0
    )
    await source.replace_tournament_timers("t1", [deadline])
    ratings = await source.all_ratings()  # the bots' match rated nobody: a row by hand
    rating = RatingRecord(guild_id=1, game="x", user_id=7, mu=25.1, sigma=8.2, games=1, display=1)
    await source.replace_ratings([*ratings, rating], [])
    await source.close()

    report = await copy_database(f"sqlite:///{source_path}", postgres_url)
    assert report.rows["tournaments"] == report.rows["entrants"] == 1
    assert report.rows["tournament_audit"] == 2 and report.rows["event_timers"] == 1
    target = open_store(postgres_url)
    await target.connect()
    try:
        assert await target.get_tournament("t1") == event
        assert [e.checked_in for e in await target.entrants("t1")] == [True]
        assert await target.tournament_timers("t1") == [deadline]
        assert rating in await target.all_ratings()
        await target.add_audit(audit.model_copy(update={"action": "resume"}))
        rows = await target.audit("t1")
        assert [(r.seq, r.action) for r in rows] == [(1, "start"), (2, "pause"), (3, "resume")]
    finally:
        await target.close()


def test_a_snapshot_saved_before_a_field_existed_still_replays_to_itself() -> None:
    # Chomper's ``seeks`` came after matches had been saved without it: such a snapshot
    # reads as its default, as the bot reads it, and is compared in that form.
    game = GAMES["cookie_chomper"]
    names = ["Ana", "Ben"]
    state = game.setup(game.options_model(), names, 5)
    log = []
    while game.outcome(state) is None:
        seat = game.decisions(state)[0].seat
        action = game.bot_action(state, seat)
        log.append({"seat": seat, "action": action.encode()})
        state, _ = game.apply(state, seat, action)
    saved = state.model_dump_json()
    older = saved.replace('"seeks":0,', "")
    assert older != saved
    match = {"options": state.options.model_dump_json(), "seed": 5}
    assert replays_to_snapshot(game, {**match, "state": older}, names, log)
    assert replays_to_snapshot(game, {**match, "state": saved}, names, log)
    assert not replays_to_snapshot(
        game, {**match, "state": saved.replace('"version":', '"version":1')}, names, log
    )
    assert not replays_to_snapshot(game, {**match, "state": "{}"}, names, log)
