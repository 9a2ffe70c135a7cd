"""Tournament storage (migration 013): results written once, event timers served with the
matches' timers by one scheduler query."""

from __future__ import annotations

from bot.store import SQLiteStore
from bot.store.models import Timer
from bot.store.tournament_records import (
    TOURNAMENT_TIMER,
    EntrantRecord,
    ResultRecord,
    TableGame,
    TournamentRecord,
    TournamentTable,
)


def event(tournament_id: str = "t1") -> TournamentRecord:
    return TournamentRecord(
        tournament_id=tournament_id,
        guild_id=1,
        channel_id=2,
        organiser_id=3,
        game="cover_your_assets",
        config="{}",
        status="signup",
        seed=42,
        created_at=100.0,
    )


async def test_a_table_result_is_written_once_unless_replaced(store: SQLiteStore) -> None:
    await store.create_tournament(event())
    first = ResultRecord(
        tournament_id="t1", round=1, table_no=1, players=[1, 2], places=[1, 2], match_id="m1"
    )
    assert await store.add_result(first)
    assert not await store.add_result(first.model_copy(update={"places": [2, 1]}))
    assert (await store.results("t1"))[0].places == [1, 2]
    corrected = first.model_copy(update={"places": [1, 1], "source": "organiser"})
    assert await store.add_result(corrected, replace=True)
    stored = await store.results("t1")
    assert [(r.places, r.source) for r in stored] == [([1, 1], "organiser")]


async def test_entrants_keep_their_state_and_one_entry_per_user(store: SQLiteStore) -> None:
    await store.create_tournament(event())
    ana = EntrantRecord(tournament_id="t1", entrant=1, user_id=7, name="Ana", joined_at=1.0)
    bot = EntrantRecord(tournament_id="t1", entrant=2, user_id=None, name="🤖 Abe", joined_at=2.0)
    await store.save_entrant(ana)
    await store.save_entrant(bot)
    await store.save_entrant(ana.model_copy(update={"state": "dropped", "dropped_round": 2}))
    found = await store.entrants("t1")
    assert [(e.name, e.state, e.dropped_round, e.is_bot) for e in found] == [
        ("Ana", "dropped", 2, False),
        ("🤖 Abe", "entered", None, True),
    ]


async def test_event_timers_come_due_with_match_timers_and_are_deleted(store: SQLiteStore) -> None:
    await store.create_tournament(event())
    deadline = Timer(
        match_id=TOURNAMENT_TIMER + "t1", kind="deadline", seat=0, version=3, due_at=50.0
    )
    await store.replace_tournament_timers("t1", [deadline])
    assert await store.next_due() == 50.0
    assert await store.due_timers(49.0) == []
    due = await store.due_timers(60.0)
    assert due == [deadline]
    await store.delete_timers(due)
    assert await store.next_due() is None
    assert await store.tournament_timers("t1") == []


async def test_a_best_of_three_tables_games_and_game_points_are_kept(store: SQLiteStore) -> None:
    """Migration 015: the finished games of a table and the games won with its result."""
    await store.create_tournament(event())
    table = TournamentTable(
        tournament_id="t1",
        round=1,
        table_no=1,
        match_id="m3",
        seats=[1, 2],
        games=[TableGame(match_id="m1", winner=2), TableGame(match_id="m2", winner=None)],
    )
    await store.save_tournament_table(table)
    assert await store.tournament_table_of("m3") == table
    assert await store.tournament_table_of("m1") is None  # a finished game is not the table's match
    assert (await store.tournament_tables("t1")) == [table]
    two_one = ResultRecord(
        tournament_id="t1",
        round=1,
        table_no=1,
        players=[1, 2],
        places=[2, 1],
        match_id="m3",
        game_wins=[1, 1],
        game_draws=1,
    )
    bye = ResultRecord(
        tournament_id="t1", round=1, table_no=900, players=[3], places=[1], kind="bye"
    )
    assert await store.add_result(two_one) and await store.add_result(bye)
    assert await store.results("t1") == [two_one, bye]
    corrected = two_one.model_copy(update={"game_wins": [0, 2], "game_draws": 0})
    assert await store.add_result(corrected, replace=True)
    assert (await store.results("t1"))[0] == corrected


async def test_an_events_tables_and_results_read_back_in_round_and_table_order(
    store: SQLiteStore,
) -> None:
    """Both are read as one JSON array the database builds: saved out of order, with
    another event's rows beside them, they come back in (round, table_no) order, and an
    event with none reads as empty lists."""
    await store.create_tournament(event("t1"))
    await store.create_tournament(event("t2"))
    assert await store.results("t1") == [] and await store.tournament_tables("t1") == []
    keys = [(2, 1), (1, 10), (2, 2), (1, 2), (1, 1)]
    for number, (round_no, table_no) in enumerate(keys):
        for tid in ("t1", "t2"):
            seats = [number + 1, number + 20]
            await store.save_tournament_table(
                TournamentTable(
                    tournament_id=tid,
                    round=round_no,
                    table_no=table_no,
                    seats=seats,
                    match_id=f"{tid}-{number}",
                    thread_id=2**40 + number,  # past 32 bits: Discord's ids are
                    status="done",
                )
            )
            await store.add_result(
                ResultRecord(
                    tournament_id=tid,
                    round=round_no,
                    table_no=table_no,
                    players=seats,
                    places=[2, 1],
                    gone=[seats[0]] if number == 3 else [],
                    source="organiser",
                )
            )
    tables = await store.tournament_tables("t1")
    results = await store.results("t1")
    assert [(t.round, t.table_no) for t in tables] == sorted(keys)
    assert [(r.round, r.table_no) for r in results] == sorted(keys)
    assert {t.tournament_id for t in tables} == {r.tournament_id for r in results} == {"t1"}
    assert tables[0] == TournamentTable(
        tournament_id="t1",
        round=1,
        table_no=1,
        seats=[5, 24],
        match_id="t1-4",
        thread_id=2**40 + 4,
        status="done",
    )
    assert results[1] == ResultRecord(
        tournament_id="t1",
        round=1,
        table_no=2,
        players=[4, 23],
        places=[2, 1],
        gone=[4],
        source="organiser",
    )


async def test_the_events_a_user_entered_on_a_server_come_newest_first(
    store: SQLiteStore,
) -> None:
    for tid, guild, created in (
        ("t1", 1, 100.0),
        ("t2", 1, 300.0),
        ("t3", 2, 200.0),
        ("t4", 1, 50.0),
    ):
        await store.create_tournament(
            event(tid).model_copy(update={"guild_id": guild, "created_at": created})
        )
    for tid, user in (("t1", 7), ("t2", 7), ("t3", 7), ("t4", 8), ("t2", 8)):
        await store.save_entrant(
            EntrantRecord(tournament_id=tid, entrant=user, user_id=user, name="x", joined_at=1.0)
        )
    assert [e.tournament_id for e in await store.tournaments_entered(1, 7)] == ["t2", "t1"]
    assert [e.tournament_id for e in await store.tournaments_entered(1, 8)] == ["t2", "t4"]
    assert await store.tournaments_entered(2, 8) == []
