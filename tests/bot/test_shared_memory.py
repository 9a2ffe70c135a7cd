"""Two services on one PostgreSQL database, as two processes serving the same shard (a rolling
restart, a takeover): what one remembers is a hint, and every decision the other takes reads
the database or proves its memory current. One test for each memory a process keeps."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest

from bot.bots import BotDriver
from bot.clock import ManualClock
from bot.errors import Held, UserError
from bot.pictures import Pictures, picture_key
from bot.scheduler import Scheduler
from bot.service import MatchService
from bot.service.tournaments import TournamentConfig, Tournaments
from bot.store import Store, Timer, open_store
from bot.timing import DAY
from games import GAMES

from .conftest import ANA, BEN, MOD, stamp_of

Pair = tuple[MatchService, MatchService]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def two(postgres_url: str, clock: ManualClock) -> AsyncIterator[Pair]:
    """Two processes' services, each with its own store (its own connections and memory)."""
    stores = [open_store(postgres_url), open_store(postgres_url)]
    for store in stores:
        await store.connect()
    seeds = iter(range(700, 100_000))
    first, second = (
        MatchService(store, GAMES, new_seed=lambda: next(seeds), clock=clock) for store in stores
    )
    yield first, second
    for store in stores:
        await store.close()


async def ana_and_ben(service: MatchService, channel_id: int, pace: str) -> str:
    record = await service.open_lobby(
        guild_id=1, channel_id=channel_id, host=ANA, game_key="cover_your_assets"
    )
    await service.set_pace(record.match_id, ANA, pace)
    await service.join(record.match_id, BEN)
    await service.start(record.match_id, ANA)
    return record.match_id


async def mover(service: MatchService, match_id: str) -> int:
    """The user id of the seat the match waits on."""
    seen = await service.seat_view(match_id, None)
    record = await service.get(match_id)
    user_id = record.seats[min(seen.waiting_on)].user_id
    assert user_id is not None
    return user_id


async def move(service: MatchService, match_id: str) -> None:
    user_id = await mover(service, match_id)
    await service.act(
        match_id, user_id, stamp=await stamp_of(service, match_id, user_id), picks=[0]
    )


async def test_settings_changed_through_one_process_are_what_the_other_decides_by(
    two: Pair,
) -> None:
    one, other = two
    assert not (await other.user_settings(ANA.user_id)).always_ask  # remembered: off
    await one.set_always_ask(ANA.user_id, True)
    assert (await other.user_settings(ANA.user_id)).always_ask
    # A change through the other process starts from the fresh settings: none is lost.
    await one.set_notify(ANA.user_id, False)
    await other.set_always_ask(ANA.user_id, False)
    settled = await one.user_settings(ANA.user_id)
    assert (settled.notify, settled.always_ask) == (False, False)


async def test_away_through_one_process_stops_the_clock_the_other_process_fires(
    two: Pair, clock: ManualClock
) -> None:
    one, other = two
    match_id = await ana_and_ben(one, 10, "async")
    away = await mover(one, match_id)
    await other.seat_view(match_id, away)  # the other process has the match in memory
    assert not (await other.user_settings(away)).away_at(clock.now())
    await one.go_away(away, clock.now() + 5 * DAY)
    await clock.advance(2 * DAY)  # past the day the move had
    await Scheduler(other.store, clock, other.on_timer).fire_due()
    assert (await other.get(match_id)).version == 0  # no timeout while they are away
    seat = (await one.get(match_id)).seat_of(away)
    [deadline] = [
        t for t in await one.store.timers_of(match_id) if t.kind == "timeout" and t.seat == seat
    ]
    assert deadline.due_at > clock.now() + 2 * DAY  # postponed by the days away


async def test_a_click_on_a_match_the_other_process_moved_is_played(two: Pair) -> None:
    one, other = two
    match_id = await ana_and_ben(one, 10, "casual")
    await other.seat_view(match_id, ANA.user_id)  # remembered at version 0
    await move(one, match_id)
    # The player's buttons come from the fresh table (version 1); the other process's
    # memory is a version behind, and proves it before deciding the click is stale.
    await move_from(one, other, match_id)
    assert (await one.get(match_id)).version == 2
    assert len(await one.store.actions(match_id)) == 2


async def move_from(shown_by: MatchService, played_on: MatchService, match_id: str) -> None:
    user_id = await mover(shown_by, match_id)
    stamp = await stamp_of(shown_by, match_id, user_id)
    await played_on.act(match_id, user_id, stamp=stamp, picks=[0])


async def test_a_deadline_of_a_match_the_other_process_moved_fires_there(
    two: Pair, clock: ManualClock
) -> None:
    one, other = two
    match_id = await ana_and_ben(one, 10, "live")
    await other.seat_view(match_id, None)  # remembered at version 0
    await move(one, match_id)
    [deadline] = [t for t in await one.store.timers_of(match_id) if t.kind == "timeout"]
    await clock.advance(deadline.due_at - clock.now() + 1)
    assert await Scheduler(other.store, clock, other.on_timer).fire_due() == 1
    assert (await one.get(match_id)).version == 2  # the default move was played
    # The next decision has its own clock, from now.
    [fresh] = [t for t in await one.store.timers_of(match_id) if t.kind == "timeout"]
    assert fresh.due_at > clock.now()


async def test_a_player_who_left_through_one_process_cannot_move_through_the_other(
    two: Pair,
) -> None:
    """A seat's absence changes without a move (no new version): the mark covers it."""
    one, other = two
    match_id = await ana_and_ben(one, 10, "casual")
    user_id = await mover(one, match_id)
    stamp = await stamp_of(other, match_id, user_id)  # remembered: they play their seat
    await one.leave_match(match_id, user_id)
    with pytest.raises(UserError, match="You left this match"):
        await other.act(match_id, user_id, stamp=stamp, picks=[0])
    assert (await one.get(match_id)).version == 0


async def ana_and_ben_in_an_event(events: Tournaments, pace: str) -> tuple[str, str]:
    """A Swiss event of Ana and Ben started: its id and its one table's match."""
    event = await events.create(
        guild_id=1,
        channel_id=5,
        organiser=MOD,
        game_key="cover_your_assets",
        config=TournamentConfig(format="swiss", pace=pace),  # type: ignore[arg-type]
    )
    for who in (ANA, BEN):
        await events.join(event.tournament_id, who)
    await events.start(event.tournament_id, MOD)
    [table] = (await events.view(event.tournament_id)).tables
    assert table.match_id is not None
    return event.tournament_id, table.match_id


async def test_a_paused_tournament_holds_its_tables_in_the_other_process(two: Pair) -> None:
    one, other = two
    events = Tournaments(one)
    Tournaments(other)  # the other process's events service: its hold asks the database
    event, match_id = await ana_and_ben_in_an_event(events, "casual")
    await other.seat_view(match_id, None)
    await events.pause(event, MOD)
    user_id = await mover(one, match_id)
    with pytest.raises(Held):
        await other.act(
            match_id,
            user_id,
            stamp=await stamp_of(one, match_id, user_id),
            picks=[0],
        )
    assert (await one.get(match_id)).version == 0


async def test_ten_deadlines_with_two_processes_on_one_shard_each_fire_exactly_once(
    two: Pair, clock: ManualClock
) -> None:
    one, other = two
    matches = [await ana_and_ben(one, 20 + n, "live") for n in range(10)]
    for match_id in matches:
        await other.seat_view(match_id, None)  # both remember every match at version 0
    for match_id in matches[::2]:
        await move(one, match_id)  # half move on in one process: stale in the other
    before = {m: (await one.get(m)).version for m in matches}
    due = max([t.due_at for m in matches for t in await one.store.timers_of(m)])
    await clock.advance(due - clock.now() + 1)

    async def later(scheduler: Scheduler) -> int:
        await asyncio.sleep(0.05)
        return await scheduler.fire_due()

    # The stale process asks first, so it claims most (or all) of the due timers; the
    # other asks while it fires them.
    fired = await asyncio.gather(
        Scheduler(other.store, clock, other.on_timer).fire_due(),
        later(Scheduler(one.store, clock, one.on_timer)),
    )
    assert sum(fired) == 10
    for match_id in matches:
        assert (await one.get(match_id)).version == before[match_id] + 1
        assert len(await one.store.actions(match_id)) == before[match_id] + 1
        # Not dropped: the next decision has a clock, none of them in the past.
        timers = await one.store.timers_of(match_id)
        assert timers and all(t.due_at > clock.now() for t in timers)


async def test_a_handed_over_match_is_heard_by_the_process_that_goes_on(two: Pair) -> None:
    one, other = two
    heard: asyncio.Queue[list[str]] = asyncio.Queue()
    await other.store.on_handover(heard.put_nowait)
    await one.store.hand_over([("abc", 1), ("def", 2)])
    assert await asyncio.wait_for(heard.get(), 5) == ["abc", "def"]


async def test_a_process_that_takes_over_plays_the_bots_another_left_pending(
    two: Pair,
) -> None:
    one, other = two
    record = await one.open_lobby(guild_id=1, channel_id=30, host=ANA, game_key="cover_your_assets")
    await one.set_option(record.match_id, ANA, "end_mode", "quick")
    await one.add_bot(record.match_id, ANA)
    await one.start(record.match_id, ANA)
    leaving = BotDriver(one, delay=60)  # a long pause: still pending when it stops
    leaving.poke(record.match_id)
    if not await one.bot_seats_deciding(record.match_id, race=False):
        await move(one, record.match_id)  # Ana first: now the bot is to move
    assert record.match_id in leaving.pending()
    await leaving.close()
    version = (await other.get(record.match_id)).version
    staying = BotDriver(other, delay=0, forced_pause=(0.0, 0.0))
    await staying.take_over([record.match_id])
    for _ in range(500):
        if (await other.get(record.match_id)).version > version:
            break
        await asyncio.sleep(0.01)
    assert (await other.get(record.match_id)).version == version + 1  # the bot's move
    await staying.close()


async def test_a_failing_timer_stays_is_retried_later_and_is_logged_once(
    store: Store, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> None:
    service = MatchService(store, GAMES, new_seed=iter(range(5, 99)).__next__, clock=clock)
    match_id = await ana_and_ben(service, 10, "live")
    [deadline] = [t for t in await store.timers_of(match_id) if t.kind == "timeout"]
    tries: list[Timer] = []

    async def flaky(timer: Timer) -> None:
        tries.append(timer)
        if len(tries) < 3:
            raise ConnectionError("the database went away")
        await service.on_timer(timer)

    scheduler = Scheduler(store, clock, flaky)
    await clock.advance(deadline.due_at - clock.now() + 1)
    with caplog.at_level(logging.DEBUG, logger="bot.scheduler"):
        assert await scheduler.fire_due() == 0
        assert deadline in await store.timers_of(match_id)  # kept for its retry
        assert await scheduler.fire_due() == 0 and len(tries) == 1  # not tried in a loop
        await clock.advance(61)  # past the retry (and, on PostgreSQL, the claim's lease)
        assert await scheduler.fire_due() == 0 and len(tries) == 2
        await clock.advance(61)
        assert await scheduler.fire_due() == 1 and len(tries) == 3
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and match_id in errors[0].getMessage()
    assert (await service.get(match_id)).version == 1
    assert deadline not in await store.timers_of(match_id)


async def test_a_table_another_process_reposted_is_edited_where_it_now_is(two: Pair) -> None:
    one, other = two
    match_id = await ana_and_ben(one, 10, "casual")
    await one.set_message(match_id, 111)
    await other.seat_view(match_id, None)  # the other process remembers the match
    assert (await other.current(match_id)).message_id == 111
    await one.set_message(match_id, 222)  # the table was deleted and posted again
    assert (await other.current(match_id)).message_id == 222


async def test_pictures_follow_the_other_processs_settings_and_moves_at_once(two: Pair) -> None:
    one, other = two
    record = await one.open_lobby(guild_id=1, channel_id=30, host=ANA, game_key="braverse")
    await one.join(record.match_id, BEN)
    await one.start(record.match_id, ANA)
    pictures = Pictures(other.guild_settings)  # the other process's kept pictures

    async def table() -> bytes | None:
        seen = await other.seat_view(record.match_id, None)
        return await pictures.picture(1, seen.game, seen.view, picture_key(seen))

    before = await table()
    assert before is not None
    await move(one, record.match_id)
    after = await table()  # a new version is a picture of its own, never the kept one
    assert after is not None and after != before
    await one.set_guild_defaults(1, MOD, {"pictures": False})
    assert await table() is None  # though the process keeps that picture


async def test_a_resumed_events_moved_clocks_are_what_the_other_process_shows(
    two: Pair, clock: ManualClock
) -> None:
    one, other = two
    events = Tournaments(one)
    Tournaments(other)
    event, match_id = await ana_and_ben_in_an_event(events, "async")
    await move(other, match_id)  # the other process remembers the match and its clocks
    [(seat, due)] = (await other.deadlines(match_id)).items()
    await events.pause(event, MOD)
    await clock.advance(2 * DAY)
    await events.resume(event, MOD)
    assert await other.deadlines(match_id) == pytest.approx({seat: due + 2 * DAY})
