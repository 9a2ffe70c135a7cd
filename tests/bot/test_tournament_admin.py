"""Running an event, on both backends: the server's organiser role, the start time that
starts an event by itself, play held while it is paused, and a forfeited 2-player table
finished and rated with the forfeit last."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bot.clock import ManualClock
from bot.errors import Held, UserError
from bot.scheduler import Scheduler
from bot.service import Change, MatchService, Person
from bot.service.base import match_outcome
from bot.service.ratings import Ratings, rebuild
from bot.service.tournaments import PAUSED, TournamentChange, TournamentConfig, Tournaments
from bot.store import Store, Timer
from bot.store.tournament_records import TOURNAMENT_TIMER
from games import GAMES
from games.core.replay import final_state, outcome_of
from tests.bot.conftest import ANA, BEN, CLEO, MOD, stamp_of

GUILD = 1
ROLE = 4242
OPEN = "cover_your_assets"


def build(store: Store, clock: ManualClock) -> tuple[MatchService, Tournaments, Scheduler]:
    """The service, the events and the one scheduler serving both, as the bot wires them
    (built again on the same store: a restart)."""
    seeds = iter(range(1000, 100_000))
    service = MatchService(store, GAMES, new_seed=lambda: next(seeds), clock=clock)
    events = Tournaments(service)

    async def fire(timer: Timer) -> None:
        if timer.match_id.startswith(TOURNAMENT_TIMER):
            await events.on_timer(timer)
        else:
            await service.on_timer(timer)

    return service, events, Scheduler(store, clock, fire)


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def wired(store: Store, clock: ManualClock) -> tuple[MatchService, Tournaments, Scheduler]:
    return build(store, clock)


async def two_player_event(
    events: Tournaments, people: Sequence[Person | None], channel_id: int = 5, **config: object
) -> str:
    """A Swiss event of Cover Your Assets in sign-up with ``people`` in (None: a bot)."""
    event = await events.create(
        guild_id=GUILD,
        channel_id=channel_id,
        organiser=MOD,
        game_key=OPEN,
        config=TournamentConfig(format="swiss", pace="casual", **config),  # type: ignore[arg-type]
    )
    for who in people:
        if who is None:
            await events.add_bot(event.tournament_id, MOD)
        else:
            await events.join(event.tournament_id, who)
    return event.tournament_id


# --- the organiser role ----------------------------------------------------------------------
async def test_the_organiser_role_may_create_and_run_events_and_others_are_told_what_it_takes(
    wired: tuple[MatchService, Tournaments, Scheduler],
) -> None:
    service, events, _ = wired
    ana = Person(ANA.user_id, ANA.name, roles=frozenset({ROLE}))
    ben = Person(BEN.user_id, BEN.name, roles=frozenset({ROLE}))
    config = TournamentConfig(format="swiss")
    with pytest.raises(UserError, match="Only someone with Manage Server can run"):
        await events.create(
            guild_id=GUILD, channel_id=5, organiser=ana, game_key=OPEN, config=config
        )
    with pytest.raises(UserError, match="Manage Server"):
        await service.set_guild_defaults(GUILD, ana, {"organiser_role": ROLE})
    await service.set_guild_defaults(GUILD, MOD, {"organiser_role": ROLE})
    assert (await service.guild_settings(GUILD)).organiser_role == ROLE

    # Cleo holds another role: refused, told which role it takes; nothing is created.
    cleo = Person(CLEO.user_id, CLEO.name, roles=frozenset({ROLE + 1}))
    with pytest.raises(UserError, match=f"Manage Server or the <@&{ROLE}> role can run"):
        await events.create(
            guild_id=GUILD, channel_id=5, organiser=cleo, game_key=OPEN, config=config
        )
    assert await events.store.tournaments(GUILD, open_only=False) == []

    event = await events.create(
        guild_id=GUILD, channel_id=5, organiser=ana, game_key=OPEN, config=config
    )
    tid = event.tournament_id
    # Ben, not its organiser but of the role, runs it too: a bot, the start, a pause.
    await events.add_bot(tid, ben)
    await events.join(tid, CLEO)
    with pytest.raises(
        UserError,
        match=f"Only the organiser or someone with Manage Server or the <@&{ROLE}> role can start",
    ):
        await events.start(tid, cleo)
    assert (await events.get(tid)).status == "signup"
    await events.start(tid, ben)
    await events.pause(tid, ben)
    await events.resume(tid, ana)
    audit = [(row.actor_name, row.action) for row in await events.store.audit(tid)]
    assert audit == [
        ("Ana", "create"),
        ("Ben", "add bot"),
        ("Ben", "start"),
        ("Ben", "pause"),
        ("Ana", "resume"),
    ]

    # Cleared: the role runs nothing any more.
    await service.set_guild_defaults(GUILD, MOD, {"organiser_role": None})
    with pytest.raises(UserError, match="Only the organiser or someone with Manage Server can"):
        await events.pause(tid, ben)
    await events.pause(tid, ana)  # the event's own organiser still may
    await events.idle()


# --- a start time --------------------------------------------------------------------------
async def test_an_event_starts_by_itself_at_its_start_time_even_after_a_restart(
    store: Store, clock: ManualClock, wired: tuple[MatchService, Tournaments, Scheduler]
) -> None:
    _, events, _ = wired
    starts = clock.now() + 2 * 3600
    tid = await two_player_event(events, [ANA, BEN, CLEO], starts_at=starts, checkin=True)
    await events.check_in(tid, ANA)
    await events.check_in(tid, BEN)
    timers = await store.tournament_timers(tid)
    assert [(t.kind, t.due_at) for t in timers] == [("start", starts)]

    # The process restarts; at the start time the new one starts the event.
    _, events, scheduler = build(store, clock)
    await clock.advance(2 * 3600 - 1)
    assert await scheduler.fire_due() == 0
    await clock.advance(1)
    assert await scheduler.fire_due() == 1
    await events.idle()
    view = await events.view(tid)
    assert view.event.status == "running" and view.event.round == 1
    # Cleo never checked in: she dropped at the start; Ana and Ben play.
    assert view.of_user(CLEO.user_id).state == "dropped"  # type: ignore[union-attr]
    [table] = view.tables
    assert sorted(view.name(p) for p in table.seats) == ["Ana", "Ben"]
    assert ("Start time", "start") in [(r.actor_name, r.action) for r in await store.audit(tid)]


async def test_too_few_players_at_the_start_time_cancel_the_event_saying_why(
    store: Store, clock: ManualClock, wired: tuple[MatchService, Tournaments, Scheduler]
) -> None:
    _, events, scheduler = wired
    seen: list[TournamentChange] = []

    async def listen(change: TournamentChange) -> None:
        seen.append(change)

    events.listeners.append(listen)
    tid = await two_player_event(events, [ANA], starts_at=clock.now() + 600)
    await clock.advance(600)
    await scheduler.fire_due()
    assert (await events.get(tid)).status == "cancelled"
    cancelled = [c for c in seen if c.kind == "cancelled"]
    assert [c.text for c in cancelled] == [
        "it needed at least 2 players at its start time and had 1"
    ]
    assert await store.tournament_timers(tid) == []
    assert await store.tournament_tables(tid) == []


async def test_pressing_start_sooner_leaves_the_start_time_nothing_to_do(
    store: Store, clock: ManualClock, wired: tuple[MatchService, Tournaments, Scheduler]
) -> None:
    _, events, scheduler = wired
    with pytest.raises(UserError, match="has passed"):
        await two_player_event(events, [], starts_at=clock.now())
    tid = await two_player_event(events, [ANA, BEN], starts_at=clock.now() + 600)
    start = next(t for t in await store.tournament_timers(tid) if t.kind == "start")
    await events.start(tid, MOD)
    before = await events.view(tid)
    # Even if it fires (stored before the start replaced the event's timers): nothing.
    await events.on_timer(start)
    await clock.advance(600)
    await scheduler.fire_due()
    after = await events.view(tid)
    assert after.event.round == 1 and after.tables == before.tables
    assert [r.action for r in await store.audit(tid)].count("start") == 1
    await events.idle()


# --- a pause holds play --------------------------------------------------------------------
async def test_a_paused_event_takes_no_move_from_a_player_a_bot_or_a_timer(
    wired: tuple[MatchService, Tournaments, Scheduler],
) -> None:
    service, events, _ = wired
    released: list[str] = []

    async def listen(change: Change) -> None:
        if change.kind == "released":
            released.append(change.match.match_id)

    service.listeners.append(listen)
    people = await two_player_event(events, [ANA, BEN])
    bots = await two_player_event(events, [None, None], channel_id=6)
    await events.start(people, MOD)
    await events.start(bots, MOD)
    [people_table] = (await events.view(people)).tables
    [bots_table] = (await events.view(bots)).tables
    match_id, bots_match = people_table.match_id, bots_table.match_id
    assert match_id and bots_match
    seen = await service.seat_view(match_id, None)
    seat = min(seen.waiting_on)
    mover = (await service.get(match_id)).seats[seat].user_id
    assert mover is not None
    stamp = await stamp_of(service, match_id, mover)
    version = (await service.get(match_id)).version

    await events.pause(people, MOD)
    await events.pause(bots, MOD)
    with pytest.raises(Held) as refused:
        await service.act(match_id, mover, stamp=stamp, picks=[0])
    assert str(refused.value) == PAUSED
    assert await service.play_bot(bots_match) is None
    [timeout] = [t for t in await service.timers_of(match_id) if t.kind == "timeout"]
    await service.on_timer(timeout)  # a clock that fired anyway
    assert (await service.get(match_id)).version == version
    assert (await service.get(bots_match)).version == 0
    assert (await service.get(match_id)).seats[seat].missed == 0

    # A match of no event, on the same service, plays on.
    other = await service.open_lobby(guild_id=GUILD, channel_id=77, host=ANA, game_key=OPEN)
    await service.add_bot(other.match_id, ANA)
    await service.start(other.match_id, ANA)
    mine = await service.seat_view(other.match_id, ANA.user_id)
    if mine.decision is not None:
        await service.act(other.match_id, ANA.user_id, stamp=mine.decision.stamp, picks=[0])
    else:
        assert await service.play_bot(other.match_id) is not None
    assert (await service.get(other.match_id)).version == 1

    # That clock fired as the pause began: refused, and the scheduler deleted it.
    await service.store.delete_timers([timeout])
    await events.resume(people, MOD)
    assert released == [match_id]
    # Resumed, the decision has a clock again: a fresh one, from now.
    [again] = [t for t in await service.store.timers_of(match_id) if t.kind == "timeout"]
    assert again.seat == seat and again.due_at > service.clock.now()
    await service.act(match_id, mover, stamp=stamp, picks=[0])
    assert (await service.get(match_id)).version == version + 1
    await events.resume(bots, MOD)
    assert await service.play_bot(bots_match) is not None
    await events.idle()


# --- a forfeit finishes a 2-player table -----------------------------------------------------
async def test_a_forfeited_two_player_table_finishes_and_is_rated_with_the_forfeit_last(
    store: Store, wired: tuple[MatchService, Tournaments, Scheduler]
) -> None:
    service, events, _ = wired
    ratings = Ratings(service)
    tid = await two_player_event(events, [ANA, BEN])
    await events.start(tid, MOD)
    [table] = (await events.view(tid)).tables
    assert table.match_id is not None
    await service.leave_match(table.match_id, BEN.user_id)
    await events.idle()
    await ratings.idle()  # rated after the move that ended it was answered

    view = await events.view(tid)
    ana, ben = view.of_user(ANA.user_id), view.of_user(BEN.user_id)
    assert ana is not None and ben is not None
    [result] = view.results
    # The event's result is as it always was: Ben, who left, last.
    assert result.source == "match" and result.gone == [ben.entrant]
    assert dict(zip(result.players, result.places, strict=True)) == {ana.entrant: 1, ben.entrant: 2}
    assert view.event.status == "finished"

    # The match finished (not cancelled) with the forfeit's outcome, so it is rated.
    record = await service.get(table.match_id)
    assert record.status == "finished" and record.finished_at is not None
    game = service.game_of(record)
    state = service.load_state(record)
    assert game.outcome(state) is None  # the game itself did not end
    outcome = match_outcome(record, game, state)
    assert outcome is not None and outcome.reason == "Ben forfeited."
    by_user = {record.seats[p.seat].user_id: p.place for p in outcome.placements}
    assert by_user == {ANA.user_id: 1, BEN.user_id: 2}
    rows = {e.user_id: e for e in await store.all_rating_changes()}
    assert rows[BEN.user_id].mu_after < rows[BEN.user_id].mu_before
    assert rows[ANA.user_id].mu_after > rows[ANA.user_id].mu_before
    assert rows[BEN.user_id].place == 2 and rows[ANA.user_id].place == 1
    # The export replays to the same end, and says the same outcome.
    export = await service.export(GUILD, table.match_id)
    end = final_state(game, export)
    assert end.model_dump_json() == record.state
    assert outcome_of(game, export, end) == outcome
    # A rebuild replays the forfeit to the very same ratings.
    assert (await rebuild(store, GAMES)).changed == 0
    assert ratings.store is store


async def test_leaving_a_table_against_a_bot_entrant_ends_it_finished_not_cancelled(
    wired: tuple[MatchService, Tournaments, Scheduler],
) -> None:
    service, events, _ = wired
    tid = await two_player_event(events, [ANA, None])
    await events.start(tid, MOD)
    [table] = (await events.view(tid)).tables
    assert table.match_id is not None
    left = await service.leave_match(table.match_id, ANA.user_id)
    await events.idle()
    assert left.status == "finished"
    view = await events.view(tid)
    mine = view.of_user(ANA.user_id)
    assert mine is not None and view.results[0].gone == [mine.entrant]
