"""Event behaviour the other service tests leave out, on both backends: the round's
reminders on a moved clock, /away stopping move clocks but never the round's deadline, the
async forfeit after two timeouts in a row, and bot entrants kept out of the top cut."""

from __future__ import annotations

import pytest

from bot.clock import ManualClock
from bot.scheduler import Scheduler
from bot.service import MatchService
from bot.service.tournaments import (
    DAY,
    FORFEIT_AFTER,
    TournamentChange,
    TournamentConfig,
    Tournaments,
)
from bot.store import Store
from bot.store.models import GONE
from bot.store.tournament_records import EntrantRecord, ResultRecord, TournamentRecord
from tests.bot.conftest import ANA, BEN, MOD
from tests.bot.test_tournament_admin import build

HOUR = 3600.0


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def wired(store: Store, clock: ManualClock) -> tuple[MatchService, Tournaments, Scheduler]:
    return build(store, clock)


async def async_event(events: Tournaments) -> str:
    """An async Swiss of Cover Your Assets, Ana against Ben, started: one round."""
    event = await events.create(
        guild_id=1,
        channel_id=5,
        organiser=MOD,
        game_key="cover_your_assets",
        config=TournamentConfig(format="swiss", pace="async"),
    )
    for who in (ANA, BEN):
        await events.join(event.tournament_id, who)
    await events.start(event.tournament_id, MOD)
    return event.tournament_id


async def run_to(clock: ManualClock, scheduler: Scheduler, events: Tournaments, at: float) -> None:
    """Move the clock to ``at`` an hour at a time, firing what falls due on the way."""
    while clock.now() < at:
        await clock.advance(min(HOUR, at - clock.now()))
        await scheduler.fire_due()
        await events.idle()


async def test_away_players_keep_their_clocks_the_reminders_come_and_the_deadline_draws(
    store: Store, clock: ManualClock, wired: tuple[MatchService, Tournaments, Scheduler]
) -> None:
    service, events, scheduler = wired
    seen: list[TournamentChange] = []

    async def listen(change: TournamentChange) -> None:
        seen.append(change)

    events.listeners.append(listen)
    tid = await async_event(events)
    start = clock.now()
    [round_one] = await store.rounds(tid)
    assert round_one.deadline == start + 14 * DAY  # an async round lasts two weeks
    # Both go /away for the whole round: their move clocks stop, the round's does not.
    for who in (ANA, BEN):
        await service.go_away(who.user_id, start + 14 * DAY)

    def reminders() -> list[tuple[str, float]]:
        return [(c.text, c.tables[0].table_no) for c in seen if c.kind == "reminder"]

    await run_to(clock, scheduler, events, start + 7 * DAY - 60)
    assert reminders() == []
    await run_to(clock, scheduler, events, start + 7 * DAY)
    assert reminders() == [("remind_half", 1)]  # half time
    await run_to(clock, scheduler, events, start + 13 * DAY - 60)
    assert reminders() == [("remind_half", 1)]
    await run_to(clock, scheduler, events, start + 13 * DAY)
    assert reminders() == [("remind_half", 1), ("remind_day", 1)]  # 24 h before the end

    # Thirteen days, many move clocks' worth, and nobody timed out: the clocks stopped.
    [table] = (await events.view(tid)).tables
    record = await service.get(table.match_id)  # type: ignore[arg-type]
    assert record.status == "active" and [s.missed for s in record.seats] == [0, 0]
    assert (await events.view(tid)).results == []

    # The deadline still comes on time: the unfinished table is drawn.
    await run_to(clock, scheduler, events, start + 14 * DAY - 60)
    assert (await events.view(tid)).results == []
    await run_to(clock, scheduler, events, start + 14 * DAY)
    [result] = (await events.view(tid)).results
    assert result.source == "adjudicated" and result.places == [1, 1] and result.gone == []
    record = await service.get(table.match_id)  # type: ignore[arg-type]
    assert [s.missed for s in record.seats] == [0, 0]


async def test_an_async_seat_that_times_out_twice_in_a_row_forfeits(
    store: Store, clock: ManualClock, wired: tuple[MatchService, Tournaments, Scheduler]
) -> None:
    service, events, scheduler = wired
    assert FORFEIT_AFTER["async"] == 2
    tid = await async_event(events)
    [table] = (await events.view(tid)).tables
    timeouts: list[tuple[int, list[int]]] = []  # (seat that timed out, every seat's misses)
    for _ in range(14 * 24):
        before = await service.get(table.match_id)  # type: ignore[arg-type]
        if before.status != "active":
            break
        await run_to(clock, scheduler, events, clock.now() + HOUR)
        after = await service.get(table.match_id)  # type: ignore[arg-type]
        for b, a in zip(before.seats, after.seats, strict=True):
            if a.missed > b.missed:
                timeouts.append((a.seat, [s.missed for s in after.seats]))
    record = await service.get(table.match_id)  # type: ignore[arg-type]
    assert record.status == "finished"
    [seat] = [s for s in record.seats if s.away == GONE]
    assert seat.missed == 2
    # The seat went at its second timeout in a row, not before: one timeout left it in.
    assert [t[0] for t in timeouts].count(seat.seat) == 2
    first = next(misses for s, misses in timeouts if s == seat.seat)
    assert first[seat.seat] == 1
    view = await events.view(tid)
    [result] = view.results
    loser = view.of_user(seat.user_id)  # type: ignore[arg-type]
    assert loser is not None and result.gone == [loser.entrant] and result.source == "match"
    assert result.places[result.players.index(loser.entrant)] == 2
    assert loser.forfeited


# --- bot entrants and the top cut ---------------------------------------------------------------
def entrant(number: int, *, bot: bool = False, dropped: bool = False) -> EntrantRecord:
    return EntrantRecord(
        tournament_id="t",
        entrant=number,
        user_id=None if bot else 100 + number,
        name=f"P{number}",
        state="dropped" if dropped else "entered",
        dropped_round=1 if dropped else None,
        joined_at=float(number),
    )


def won(table_no: int, winner: int, loser: int) -> ResultRecord:
    return ResultRecord(
        tournament_id="t",
        round=1,
        table_no=table_no,
        players=[winner, loser],
        places=[1, 2],
        source="match",
    )


EVENT = TournamentRecord(
    tournament_id="t",
    guild_id=1,
    channel_id=5,
    organiser_id=1,
    game="cover_your_assets",
    config="{}",
    status="running",
    round=1,
    seed=7,
    created_at=0.0,
)
CUT_OF_4 = TournamentConfig(format="swiss", rounds=1, top_cut=4)


def test_a_bot_atop_the_swiss_is_passed_over_for_people_in_the_cut(
    events_only: Tournaments,
) -> None:
    # Bots 1 and 2 win their tables; four people (3–6) are enough for a cut of four.
    field = [entrant(1, bot=True), entrant(2, bot=True), *(entrant(n) for n in (3, 4, 5, 6))]
    results = [won(1, 1, 3), won(2, 2, 4), won(3, 5, 6)]
    seeds = events_only._cut(EVENT, CUT_OF_4, field, results, [1, 2, 3, 4, 5, 6])
    assert seeds[0] == 5 and set(seeds) == {3, 4, 5, 6}


def test_bots_fill_the_cut_only_when_people_are_short_never_a_dropped_player(
    events_only: Tournaments,
) -> None:
    # Person 6 beat bot 2 and then dropped; only three people remain for a cut of four.
    # The best bot (1, a win) fills the place, not 6, who left: a seat in the bracket
    # would hand their opponent a walkover.
    field = [
        entrant(1, bot=True),
        entrant(2, bot=True),
        *(entrant(n) for n in (3, 4, 5)),
        entrant(6, dropped=True),
    ]
    results = [won(1, 1, 3), won(2, 6, 2), won(3, 5, 4)]
    seeds = events_only._cut(EVENT, CUT_OF_4, field, results, [1, 2, 3, 4, 5, 6])
    assert set(seeds) == {1, 3, 4, 5}
    # In standings order: the winners (the bot among them) seed above the losers.
    assert set(seeds[:2]) == {1, 5}


@pytest.fixture
def events_only(service: MatchService) -> Tournaments:
    return Tournaments(service)


def test_a_cut_with_one_player_left_still_has_a_bracket_of_two(events_only: Tournaments) -> None:
    # Everyone but 3 dropped and no bots: 3 meets the best who left, who cannot play.
    field = [entrant(3), entrant(4, dropped=True), entrant(5, dropped=True)]
    results = [won(1, 4, 5)]
    seeds = events_only._cut(EVENT, CUT_OF_4, field, results, [3, 4, 5])
    assert sorted(seeds) == [3, 4, 5]
