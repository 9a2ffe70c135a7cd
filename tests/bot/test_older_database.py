"""A database the code of 1e2760e wrote (before the stores shared their statements, the
service was split and the names changed) opens and plays on: a running match with its
timers in its row, a finished and rated match, a tournament in its first round, a person
away and another who asked always to be asked. Made by playing that code; kept gzipped."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

from bot.clock import ManualClock
from bot.scheduler import Scheduler
from bot.service import MatchService
from bot.service.tournaments import Tournaments
from bot.store import open_store
from games import GAMES
from tests.replay_check import check_replays

WRITTEN = Path(__file__).parent / "data" / "written_by_1e2760e.sqlite.gz"
RUNNING, FINISHED, TOURNAMENT = "c6448fd20e", "ad7d1a9fab", "58d5494c"
TABLE = "8c958c7667"  # the tournament's first table
ANA, BEN = 101, 102
WRITTEN_AT = 1_790_000_000.0  # the clock the old code ran on


async def play_one(service: MatchService, match_id: str) -> None:
    """The next move: a bot's, or a person's first option."""
    seen = await service.seat_view(match_id, None)
    record = await service.get(match_id)
    seat = min(seen.waiting_on)
    user_id = record.seats[seat].user_id
    if user_id is None:
        assert await service.play_bot(match_id, seat=seat) is not None
        return
    mine = await service.seat_view(match_id, user_id)
    assert mine.decision is not None
    picks = list(range(mine.decision.min_picks or 1))
    await service.act(match_id, user_id, stamp=mine.decision.stamp, picks=picks)


async def test_a_database_the_previous_code_wrote_opens_and_plays_on(tmp_path: Path) -> None:
    path = tmp_path / "older.db"
    with gzip.open(WRITTEN) as packed, path.open("wb") as unpacked:
        shutil.copyfileobj(packed, unpacked)
    store = open_store(f"sqlite:///{path}")
    await store.connect()
    clock = ManualClock(start=WRITTEN_AT + 60)
    service = MatchService(store, GAMES, new_seed=iter(range(1, 10**6)).__next__, clock=clock)
    tournaments = Tournaments(service)
    try:
        # People's settings as they were saved.
        assert (await service.user_settings(ANA)).always_ask
        assert (await service.user_settings(BEN)).away_at(WRITTEN_AT + 60)
        # The running match goes on from version 6, move after move.
        assert (await service.get(RUNNING)).version == 6
        for _ in range(5):
            await play_one(service, RUNNING)
        assert (await service.get(RUNNING)).version == 11
        # Its clock, kept in its row, runs out and plays the default move.
        [deadline] = [t for t in await store.timers_of(RUNNING) if t.kind == "timeout"]
        await clock.advance(deadline.due_at - clock.now() + 1)
        await Scheduler(store, clock, service.on_timer).fire_due()
        assert (await service.get(RUNNING)).version == 12
        # The tournament's table plays, and the event reads back.
        view = await tournaments.view(TOURNAMENT)
        assert [t.match_id for t in view.tables] == [TABLE]
        await play_one(service, TABLE)
        assert (await service.get(TABLE)).version >= 1
        # The finished match is rated and listed.
        assert {r.user_id for r in await store.all_ratings()} == {ANA, BEN}
        assert (await service.get(FINISHED)).status == "finished"
    finally:
        await store.close()
    # Every finished match replays from its seed and log to its stored state.
    assert check_replays(path, GAMES) >= 1
