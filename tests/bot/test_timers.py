"""Clocks: deadlines and reminders as stored timers, one sleeping scheduler, simulated time."""

from __future__ import annotations

import asyncio
import math

import pytest

from bot.bots import BotDriver
from bot.clock import ManualClock
from bot.errors import NotManager, UserError
from bot.scheduler import Scheduler
from bot.service import Change, MatchService
from bot.store import Store, Timer, open_store
from bot.store.models import GONE, PRESENT, STANDING_IN
from bot.timing import DAY
from games import GAMES
from games.toss.state import Roll
from tests.games.toss.conftest import FixedDice

from .conftest import ANA, BEN, CLEO, MOD, stamp_of

HOUR = 3600.0


async def eventually(check, seconds: float = 30.0) -> None:  # type: ignore[no-untyped-def]
    """Yield to the scheduler task until ``check()`` holds (real time only bounds the wait)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not check():
        assert loop.time() < deadline, "the scheduler did not get there"
        await asyncio.sleep(0.001)


async def asleep_until(scheduler: Scheduler, deadline: float) -> None:
    """Wait until the scheduler task sleeps until ``deadline``: an event to wait on, where a
    fixed real-time pause was sometimes shorter than a PostgreSQL read under load."""
    await eventually(lambda: scheduler.sleeping_until == deadline)


NO_PAUSE = (0.0, 0.0)


async def bots_done(driver: BotDriver) -> None:
    """Wait for the bots' pending moves and forced answers (and those they cause) to be
    saved: on PostgreSQL a save is a socket round trip, which one turn of the loop does not
    cover. Drivers here answer forced decisions at once (``NO_PAUSE``), so nothing in these
    tests waits on the real clock."""
    # By name, not from the driver's tables: a bot's task leaves them before its moves (so
    # the changes they cause can schedule the next), and is still saving after that.
    while pending := [
        t
        for t in asyncio.all_tasks()
        if t.get_name().startswith(("bots:", "grab:", "forced:")) and not t.done()
    ]:
        await asyncio.wait(pending)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def timed(store: Store, clock: ManualClock) -> MatchService:
    seeds = iter(range(500, 100_000))
    return MatchService(store, GAMES, new_seed=lambda: next(seeds), clock=clock)


async def ana_and_ben(timed: MatchService, channel_id: int, pace: str | None = None) -> str:
    record = await timed.open_lobby(
        guild_id=1, channel_id=channel_id, host=ANA, game_key="cover_your_assets"
    )
    if pace is not None:
        await timed.set_pace(record.match_id, ANA, pace)
    await timed.join(record.match_id, BEN)
    await timed.start(record.match_id, ANA)
    return record.match_id


async def mover_of(timed: MatchService, match_id: str) -> int:
    state = timed.load_state(await timed.get(match_id))
    return GAMES["cover_your_assets"].decisions(state)[0].seat


def record_changes(service: MatchService) -> list[Change]:
    seen: list[Change] = []

    async def listen(change: Change) -> None:
        seen.append(change)

    service.listeners.append(listen)
    return seen


async def async_match_with_bots(
    service: MatchService, pace: str = "async", policy: str = "default_move"
) -> str:
    """Ana (who never answers) and three bots, under the server's timeout policy."""
    await service.set_guild_defaults(1, MOD, {"on_timeout": policy, "forfeit_after": 2})
    record = await service.open_lobby(
        guild_id=1, channel_id=10, host=ANA, game_key="cover_your_assets"
    )
    await service.set_pace(record.match_id, ANA, pace)
    await service.set_option(record.match_id, ANA, "end_mode", "quick")
    for _ in range(3):
        await service.add_bot(record.match_id, ANA)
    await service.start(record.match_id, ANA)
    return record.match_id


async def test_each_pending_decision_gets_a_deadline_and_two_reminders(timed, clock) -> None:
    match_id = await ana_and_ben(timed, 10, pace="async")
    seat = await mover_of(timed, match_id)
    timers = await timed.store.timers_of(match_id)
    start = clock.now()
    assert [(t.kind, t.seat, t.due_at - start) for t in timers] == [
        ("remind_half", seat, 12 * HOUR),
        ("remind_final", seat, 0.9 * 24 * HOUR),
        ("timeout", seat, 24 * HOUR),
    ]
    assert await timed.deadlines(match_id) == {seat: start + 24 * HOUR}


async def test_a_live_match_has_no_reminders_and_short_reaction_clocks(timed, clock) -> None:
    match_id = await ana_and_ben(timed, 10, pace="live")
    timers = await timed.store.timers_of(match_id)
    assert [(t.kind, t.due_at - clock.now()) for t in timers] == [("timeout", 60.0)]


@pytest.mark.parametrize("policy", ["default_move", "bot", "forfeit"])
async def test_an_absent_player_cannot_stall_an_async_match(timed, clock, policy) -> None:
    match_id = await async_match_with_bots(timed, policy=policy)
    changes = record_changes(timed)
    driver = BotDriver(timed, delay=0, forced_pause=NO_PAUSE)
    scheduler = Scheduler(timed.store, clock, timed.on_timer)
    for _ in range(400):
        if (await timed.get(match_id)).status == "finished":
            break
        await bots_done(driver)
        await clock.advance(6 * HOUR)
        await scheduler.fire_due()
    await driver.close()
    assert (await timed.get(match_id)).status == "finished"
    timeouts = [c for c in changes if c.timed_out == 0]
    reminders = [c.timer.kind for c in changes if c.kind == "reminder"]
    assert timeouts and reminders.count("remind_half") >= len(timeouts)
    assert "remind_final" in reminders
    assert await timed.store.timers_of(match_id) == []  # a finished match keeps no timers
    ana = (await timed.get(match_id)).seats[0]
    if policy == "default_move":
        assert ana.away == PRESENT and ana.missed == len(timeouts) > 1
    elif policy == "bot":
        assert ana.away == STANDING_IN and len(timeouts) == 1  # the bot took over at once
    else:
        assert ana.away == GONE and len(timeouts) == 2  # two in a row, then forfeited


async def test_a_player_back_from_absence_takes_their_seat_again(timed, clock) -> None:
    match_id = await async_match_with_bots(timed, pace="live", policy="bot")
    scheduler = Scheduler(timed.store, clock, timed.on_timer)
    driver = BotDriver(timed, delay=0, forced_pause=NO_PAUSE)
    for _ in range(20):  # until Ana's clock runs out once
        await bots_done(driver)
        await clock.advance(61)
        await scheduler.fire_due()
        if (await timed.get(match_id)).seats[0].away == STANDING_IN:
            break
    assert (await timed.get(match_id)).seats[0].away == STANDING_IN
    await timed.im_back(match_id, ANA.user_id)
    assert (await timed.get(match_id)).seats[0].away == PRESENT
    with pytest.raises(UserError, match="already playing"):
        await timed.im_back(match_id, ANA.user_id)
    await driver.close()


async def test_a_forfeited_player_cannot_move_and_leaving_hands_the_seat_to_a_bot(
    timed, clock
) -> None:
    match_id = await ana_and_ben(timed, 11)
    await timed.leave_match(match_id, BEN.user_id)
    after = await timed.get(match_id)
    assert after.seats[1].away == GONE and after.status == "active"
    with pytest.raises(UserError, match="You left this match"):
        await timed.act(
            match_id, BEN.user_id, stamp=await stamp_of(timed, match_id, BEN.user_id), picks=[0]
        )
    await timed.leave_match(match_id, ANA.user_id)  # nobody left: the match ends
    assert (await timed.get(match_id)).status == "cancelled"


async def test_server_defaults_are_for_managers_and_seed_new_lobbies(timed) -> None:
    with pytest.raises(NotManager):
        await timed.set_guild_defaults(1, ANA, {"pace": "live"})
    await timed.set_guild_defaults(1, MOD, {"pace": "correspondence", "on_timeout": "bot"})
    record = await timed.open_lobby(
        guild_id=1, channel_id=12, host=ANA, game_key="cover_your_assets"
    )
    assert '"pace":"correspondence"' in record.settings and '"on_timeout":"bot"' in record.settings
    with pytest.raises(UserError):
        await timed.set_guild_defaults(1, MOD, {"pace": "glacial"})


async def test_a_click_racing_the_timeout_applies_exactly_once(timed, clock) -> None:
    match_id = await ana_and_ben(timed, 10)
    seat = await mover_of(timed, match_id)
    user = (ANA, BEN)[seat].user_id
    timeout = next(t for t in await timed.store.timers_of(match_id) if t.kind == "timeout")
    stamp = await stamp_of(timed, match_id, user)
    results = await asyncio.gather(
        timed.act(match_id, user, stamp=stamp, picks=[0]),
        timed.on_timer(timeout),
        return_exceptions=True,
    )
    assert len(await timed.store.actions(match_id)) == 1
    assert (await timed.get(match_id)).version == 1
    assert sum(isinstance(r, Exception) for r in results) <= 1


async def test_a_stale_timer_does_nothing(timed, clock) -> None:
    match_id = await async_match_with_bots(timed)
    stale = Timer(match_id=match_id, kind="timeout", seat=0, version=99, due_at=clock.now())
    await timed.on_timer(stale)
    assert (await timed.get(match_id)).version == 0


async def test_overdue_timers_fire_at_once_in_order_after_a_restart(
    store: Store, clock: ManualClock
) -> None:
    fired: list[str] = []

    async def fire(timer: Timer) -> None:
        fired.append(f"{timer.match_id}:{timer.kind}")

    first = MatchService(store, GAMES, clock=clock)
    for channel, match in ((1, "a"), (2, "b")):
        record = await first.open_lobby(
            guild_id=1, channel_id=channel, host=ANA, game_key="cover_your_assets"
        )
        await store.replace_timers(
            record.match_id,
            [
                Timer(
                    match_id=record.match_id,
                    kind=f"{match}-late",
                    seat=0,
                    version=0,
                    due_at=clock.now() - (100 if match == "a" else 50),
                ),
                Timer(
                    match_id=record.match_id,
                    kind=f"{match}-later",
                    seat=0,
                    version=0,
                    due_at=clock.now() + HOUR - (10 if match == "a" else 0),
                ),
            ],
        )
    # "Restart": a new scheduler over the same store fires what came due while it was down.
    scheduler = Scheduler(store, clock, fire)
    task = asyncio.create_task(scheduler.run())
    await eventually(lambda: len(fired) == 2)
    assert [f.split(":")[1] for f in fired] == ["a-late", "b-late"]
    await clock.advance(HOUR)
    await eventually(lambda: len(fired) == 4)
    assert [f.split(":")[1] for f in fired][2:] == ["a-later", "b-later"]
    task.cancel()


async def a_lobby(store: Store, clock: ManualClock) -> str:
    """A match whose timers the scheduler tests set by hand."""
    service = MatchService(store, GAMES, clock=clock)
    record = await service.open_lobby(
        guild_id=1, channel_id=1, host=ANA, game_key="cover_your_assets"
    )
    return record.match_id


def due_in(match_id: str, clock: ManualClock, kind: str, seconds: float) -> Timer:
    return Timer(match_id=match_id, kind=kind, seat=0, version=0, due_at=clock.now() + seconds)


async def test_an_earlier_timer_wakes_the_sleeping_scheduler(store, clock) -> None:
    fired: list[str] = []

    async def fire(timer: Timer) -> None:
        fired.append(timer.kind)

    match_id = await a_lobby(store, clock)
    scheduler = Scheduler(store, clock, fire)
    task = asyncio.create_task(scheduler.run())
    await asleep_until(scheduler, math.inf)  # no timers at all
    await store.replace_timers(match_id, [due_in(match_id, clock, "soon", 10)])
    scheduler.wake()
    await asleep_until(scheduler, clock.now() + 10)
    assert fired == []  # woken, it sleeps again until the new timer is due
    await clock.advance(10)
    await eventually(lambda: fired == ["soon"])
    task.cancel()


async def test_timers_saved_while_the_scheduler_reads_are_kept_without_reading_again(
    store, clock
) -> None:
    """Under load a move saved timers during every read of the scheduler's: waking it for
    each kept it reading the store without end. It notes them, sleeps until the earliest,
    and still fires each one when due."""
    fired: list[str] = []
    reads = 0
    match_id = await a_lobby(store, clock)

    async def fire(one: Timer) -> None:
        fired.append(one.kind)

    scheduler = Scheduler(store, clock, fire)
    next_due = store.next_due

    async def reading() -> float | None:
        nonlocal reads
        reads += 1
        due = await next_due()
        if reads == 1:  # a move saves a timer while the scheduler reads, too late for it
            await store.replace_timers(match_id, [due_in(match_id, clock, "saved-meanwhile", 10)])
            scheduler.wake(clock.now() + 10)
        return due

    store.next_due = reading  # type: ignore[method-assign]
    task = asyncio.create_task(scheduler.run())
    # Asleep until the noted timer, not reading again. (The clock moved on only after
    # that: under load a read outlasted a fixed real-time pause, the clock moved before
    # the timer was saved, and the timer, due ten seconds after that, never came.)
    await asleep_until(scheduler, clock.now() + 10)
    await asyncio.sleep(0.05)  # time to read again, were it to
    assert reads == 1 and fired == []
    await clock.advance(10)
    await eventually(lambda: fired == ["saved-meanwhile"])
    task.cancel()


async def test_a_timer_no_earlier_than_the_next_deadline_leaves_the_scheduler_asleep(
    store, clock
) -> None:
    """Every move saves its match's timers: the scheduler reads the store again only for
    one due sooner than what it sleeps until (each read held the store's lock under load)."""
    fired: list[str] = []
    reads = 0

    async def fire(timer: Timer) -> None:
        fired.append(timer.kind)

    match_id = await a_lobby(store, clock)
    due_timers = store.due_timers

    async def counted(now: float, limit: int = 100) -> list[Timer]:
        nonlocal reads
        reads += 1
        return await due_timers(now, limit)

    store.due_timers = counted  # type: ignore[method-assign]

    def timer(kind: str, seconds: float) -> Timer:
        return due_in(match_id, clock, kind, seconds)

    await store.replace_timers(match_id, [timer("first", 10)])
    scheduler = Scheduler(store, clock, fire)
    task = asyncio.create_task(scheduler.run())
    await asleep_until(scheduler, clock.now() + 10)  # the first timer
    before = reads
    await store.replace_timers(match_id, [timer("first", 10), timer("later", 20)])
    scheduler.wake(clock.now() + 20)
    await asyncio.sleep(0.02)  # time to wake and read, were it to
    assert reads == before  # not woken: nothing due sooner
    await store.replace_timers(
        match_id, [timer("sooner", 5), timer("first", 10), timer("later", 20)]
    )
    scheduler.wake(clock.now() + 5)
    await asleep_until(scheduler, clock.now() + 5)
    assert reads == before + 1
    await clock.advance(5)
    await eventually(lambda: fired == ["sooner"])
    await clock.advance(15)
    await eventually(lambda: fired == ["sooner", "first", "later"])
    task.cancel()


async def test_remind_pings_whoever_holds_up_my_match_at_most_hourly(timed, clock) -> None:
    match_id = await ana_and_ben(timed, 20)
    state = timed.load_state(await timed.get(match_id))
    mover = GAMES["cover_your_assets"].decisions(state)[0].seat
    waiting, asker = (ANA, BEN) if mover == 0 else (BEN, ANA)
    sent = (await timed.remind(1, asker.user_id)).sent
    assert [(c.match.match_id, c.timer.seat) for c in sent] == [(match_id, mover)]
    assert (await timed.remind(1, asker.user_id)).sent == []  # not again within the hour
    assert (await timed.remind(1, waiting.user_id)).sent == []  # it waits on them: nobody to nudge
    await clock.advance(HOUR)
    assert len((await timed.remind(1, asker.user_id)).sent) == 1


async def test_remind_remembers_its_hour_across_a_restart(timed, clock, database_url: str) -> None:
    """The once-an-hour memory lives in the database: a new process on the same database
    (a restart) does not ping the same match again within the hour, and does after it."""
    match_id = await ana_and_ben(timed, 21)
    mover = await mover_of(timed, match_id)
    asker = BEN if mover == 0 else ANA
    assert len((await timed.remind(1, asker.user_id)).sent) == 1
    reopened = open_store(database_url)
    await reopened.connect()
    try:
        restarted = MatchService(reopened, GAMES, clock=clock)
        assert (await restarted.remind(1, asker.user_id)).sent == []
        await clock.advance(HOUR - 1)
        assert (await restarted.remind(1, asker.user_id)).sent == []
        await clock.advance(1)
        assert len((await restarted.remind(1, asker.user_id)).sent) == 1
    finally:
        await reopened.close()


async def test_my_matches_list_mine_first_with_deadlines(timed, clock) -> None:
    ids = []
    for channel in (30, 31):
        record = await timed.open_lobby(
            guild_id=1, channel_id=channel, host=ANA, game_key="cover_your_assets"
        )
        await timed.join(record.match_id, BEN)
        await timed.start(record.match_id, ANA)
        ids.append(record.match_id)
    found = await timed.open_for_user(1, ANA.user_id)
    assert {m.match.match_id for m in found} == set(ids)
    assert [m.my_turn for m in found] == sorted((m.my_turn for m in found), reverse=True)
    for mine in found:
        assert (mine.my_deadline is not None) == mine.my_turn


async def test_vacations_are_bounded_to_fourteen_days_a_month(timed, clock) -> None:
    now = clock.now()
    away = await timed.go_away(ANA.user_id, now + 10 * DAY)
    assert away.away_at(now + 1) and away.vacation_days == pytest.approx(10)
    with pytest.raises(UserError, match=r"you have 14 days left this month"):
        await timed.go_away(ANA.user_id, now + 20 * DAY)  # replaces the 10: 20 is too many
    await clock.advance(2 * DAY)
    back = await timed.come_back(ANA.user_id)  # back early: 8 days return to the allowance
    assert not back.away_at(clock.now()) and back.vacation_days == pytest.approx(2)
    with pytest.raises(UserError, match="not away"):
        await timed.come_back(ANA.user_id)
    with pytest.raises(UserError, match="future"):
        await timed.go_away(ANA.user_id, clock.now() - 1)


async def test_a_vacation_stops_the_clock_of_an_async_match(timed, clock) -> None:
    match_id = await async_match_with_bots(timed)
    driver = BotDriver(timed, delay=0, forced_pause=NO_PAUSE)
    driver.poke(match_id)  # the match started before the driver listened
    scheduler = Scheduler(timed.store, clock, timed.on_timer)
    for _ in range(5000):  # bots play until the match waits on Ana
        if 0 in (await timed.deadlines(match_id)):
            break
        await asyncio.sleep(0.001)
    due = (await timed.deadlines(match_id))[0]
    version = (await timed.get(match_id)).version
    await timed.go_away(ANA.user_id, clock.now() + 5 * DAY)  # gone after 0 h of her 24 h
    await clock.advance(2 * DAY)
    await scheduler.fire_due()
    assert (await timed.get(match_id)).version == version  # no timeout while she is away
    postponed = (await timed.deadlines(match_id))[0]
    assert postponed == pytest.approx(clock.now() + 3 * DAY + (due - (clock.now() - 2 * DAY)))
    await clock.advance(4 * DAY)  # back, and her whole day has run out again
    await scheduler.fire_due()
    assert (await timed.get(match_id)).version > version
    await driver.close()


async def test_a_server_may_set_its_own_pace(timed, clock) -> None:
    with pytest.raises(UserError, match="custom pace needs"):
        await timed.set_guild_defaults(1, MOD, {"pace": "custom"})
    await timed.set_guild_defaults(1, MOD, {"pace": "custom", "custom_minutes": 90})
    match_id = await ana_and_ben(timed, 40)
    timers = {t.kind: t.due_at - clock.now() for t in await timed.store.timers_of(match_id)}
    assert timers == {"timeout": 5400.0, "remind_half": 2700.0, "remind_final": 4860.0}
    other = await timed.open_lobby(
        guild_id=2, channel_id=41, host=ANA, game_key="cover_your_assets"
    )
    with pytest.raises(UserError, match="not available"):
        await timed.set_pace(other.match_id, ANA, "custom")  # that server has no pace of its own


@pytest.mark.parametrize(
    ("pace", "budget", "reminded"),
    [
        ("live", 60, False),
        ("casual", 600, True),
        ("async", DAY, True),
        ("correspondence", 3 * DAY, True),
    ],
)
async def test_each_pace_runs_its_reminders_and_timeout_in_simulated_time(
    timed, clock, pace, budget, reminded
) -> None:
    match_id = await async_match_with_bots(timed, pace=pace)
    changes = record_changes(timed)
    driver = BotDriver(timed, delay=0, forced_pause=NO_PAUSE)
    driver.poke(match_id)
    scheduler = Scheduler(timed.store, clock, timed.on_timer)
    for _ in range(5000):
        if 0 in await timed.deadlines(match_id):
            break
        await asyncio.sleep(0.001)
    version = (await timed.get(match_id)).version
    await clock.advance(budget * 0.95)
    await scheduler.fire_due()
    kinds = [c.timer.kind for c in changes if c.kind == "reminder"]
    assert kinds == (["remind_half", "remind_final"] if reminded else [])
    assert (await timed.get(match_id)).version == version  # not yet
    await clock.advance(budget * 0.05)
    await scheduler.fire_due()
    assert any(c.timed_out == 0 for c in changes)
    await driver.close()


async def test_one_absence_plays_the_rest_of_the_turn_by_default_as_one_miss(
    timed, clock, monkeypatch
) -> None:
    """Ana rolls Swap and is gone: one clock plays her player, her cards to give and her
    cards to take, as one change (one notice), one missed turn; Ben's clock starts."""
    game = FixedDice()
    game.rolls.extend([Roll(action="swap", number="2"), *[Roll(action="left", number="1")] * 5])
    real_setup = game.setup
    monkeypatch.setattr(
        game,
        "setup",
        lambda *args: real_setup(*args).model_copy(update={"turn": 0, "first": 0}),
    )
    monkeypatch.setitem(GAMES, "toss_your_cookies", game)
    await timed.set_guild_defaults(1, MOD, {"on_timeout": "forfeit", "forfeit_after": 2})
    record = await timed.open_lobby(
        guild_id=1, channel_id=10, host=ANA, game_key="toss_your_cookies"
    )
    match_id = record.match_id
    await timed.set_pace(match_id, ANA, "async")
    for who in (BEN, CLEO):
        await timed.join(match_id, who)
    await timed.start(match_id, ANA)
    await timed.act(
        match_id, ANA.user_id, stamp=await stamp_of(timed, match_id, ANA.user_id), picks=[0]
    )
    changes = record_changes(timed)
    scheduler = Scheduler(timed.store, clock, timed.on_timer)
    await clock.advance(25 * HOUR)
    await scheduler.fire_due()
    moves = [(c.kind, c.timed_out) for c in changes if c.kind != "reminder"]
    assert moves == [("action", 0)]
    actions = [(a.seat, a.action.split(".")[0]) for a in await timed.store.actions(match_id)]
    assert actions[-4:] == [(0, "roll"), (0, "swap_with"), (0, "give"), (0, "take")]
    state = timed.load_state(await timed.get(match_id))
    assert (state.phase, state.turn) == ("roll", 1)
    ana = (await timed.get(match_id)).seats[0]
    assert (ana.away, ana.missed) == (PRESENT, 1)  # one miss of two: not forfeited
    assert await timed.deadlines(match_id) == {1: clock.now() + DAY}


async def test_a_missed_two_action_turn_is_one_miss_with_both_actions_played(timed, clock) -> None:
    """Cover Your Assets with two actions a turn: one clock plays the first action's
    default and the second's ("I'm done"), and counts one missed turn."""
    await timed.set_guild_defaults(1, MOD, {"on_timeout": "forfeit", "forfeit_after": 2})
    record = await timed.open_lobby(
        guild_id=1, channel_id=10, host=ANA, game_key="cover_your_assets"
    )
    match_id = record.match_id
    await timed.set_pace(match_id, ANA, "async")
    await timed.set_switches(match_id, ANA, {"two_actions"})
    await timed.join(match_id, BEN)
    await timed.start(match_id, ANA)
    mover = await mover_of(timed, match_id)
    scheduler = Scheduler(timed.store, clock, timed.on_timer)
    await clock.advance(25 * HOUR)
    await scheduler.fire_due()
    actions = [(a.seat, a.action.split(".")[0]) for a in await timed.store.actions(match_id)]
    assert actions[-2:] == [(mover, "discard"), (mover, "done")]
    assert (await timed.get(match_id)).seats[mover].missed == 1
    assert set(await timed.deadlines(match_id)) == {1 - mover}
