"""The tournament service without Discord: who may create what, forfeits placed last, a
result recorded once, and an event of bots that plays itself to the end."""

from __future__ import annotations

import pytest

from bot.bots import BotDriver
from bot.errors import UserError
from bot.service import Change, MatchService
from bot.service.tournaments import (
    TournamentConfig,
    Tournaments,
    gone_last,
    participants,
    places_from_groups,
)
from bot.store.tournament_records import EntrantRecord
from tests.bot.conftest import ANA, MOD
from tests.bot.event_play import until_finished


def test_a_forfeit_is_last_tied_with_other_quitters_and_the_rest_keep_their_order() -> None:
    # Seats 10..13 finished 1, 2, 2, 4; 11 and 13 forfeited.
    assert gone_last([10, 11, 12, 13], [1, 2, 2, 4], {11, 13}) == [1, 3, 2, 3]
    assert gone_last([10, 11], [1, 1], {10}) == [2, 1]
    assert gone_last([10, 11, 12], [1, 1, 1], set()) == [1, 1, 1]


def test_an_organisers_order_ties_share_the_best_place() -> None:
    assert places_from_groups([[1], [2, 3], [4]]) == {1: 1, 2: 2, 3: 2, 4: 4}


def test_the_standings_list_dropped_players_but_not_those_gone_before_round_one() -> None:
    def entrant(number: int, state: str, dropped_round: int | None = None) -> EntrantRecord:
        return EntrantRecord(
            tournament_id="t",
            entrant=number,
            user_id=number,
            name=str(number),
            state=state,  # type: ignore[arg-type]
            dropped_round=dropped_round,
            joined_at=0.0,
        )

    field = [
        entrant(1, "entered"),
        entrant(2, "dropped", 2),  # dropped after playing
        entrant(3, "dropped"),  # unchecked at the start
        entrant(4, "waitlist"),
        entrant(5, "disqualified", 1),
    ]
    assert participants(field, "running") == [1, 2, 5]
    assert participants(field, "signup") == [1]


@pytest.fixture
def events(service: MatchService) -> Tournaments:
    return Tournaments(service)


async def test_who_may_create_which_format(events: Tournaments) -> None:
    swiss = TournamentConfig(format="swiss")
    with pytest.raises(UserError, match="Manage Server"):
        await events.create(
            guild_id=1, channel_id=5, organiser=ANA, game_key="cover_your_assets", config=swiss
        )
    with pytest.raises(UserError, match="pick the pods format"):
        await events.create(
            guild_id=1, channel_id=5, organiser=MOD, game_key="toss_your_cookies", config=swiss
        )
    with pytest.raises(UserError, match="played by two"):
        await events.create(
            guild_id=1,
            channel_id=5,
            organiser=MOD,
            game_key="braverse",
            config=TournamentConfig(format="pods"),
        )
    with pytest.raises(UserError, match="final table"):
        await events.create(
            guild_id=1,
            channel_id=5,
            organiser=MOD,
            game_key="toss_your_cookies",
            config=TournamentConfig(format="pods", top_cut=9),
        )
    assert await events.store.tournaments(1, open_only=False) == []


async def test_the_end_of_a_match_outside_any_event_asks_nothing_of_the_event_tables(
    service: MatchService, events: Tournaments
) -> None:
    asked: list[str] = []
    table_of = events.store.tournament_table_of

    async def counted(match_id: str):  # type: ignore[no-untyped-def]
        asked.append(match_id)
        return await table_of(match_id)

    events.store.tournament_table_of = counted  # type: ignore[method-assign]
    record = await service.open_lobby(guild_id=1, channel_id=9, host=ANA, game_key="cookie_chomper")
    await service.add_bot(record.match_id, ANA)
    await service.start(record.match_id, ANA)
    # Its end is on the path of the click that ended it: no query where none can match.
    await service.cancel(record.match_id, ANA)
    await events.idle()
    assert asked == []


async def test_an_event_of_bots_plays_itself_and_a_second_finish_changes_nothing(
    service: MatchService, events: Tournaments
) -> None:
    driver = BotDriver(service, delay=0)
    event = await events.create(
        guild_id=1,
        channel_id=5,
        organiser=MOD,
        game_key="cover_your_assets",
        config=TournamentConfig(format="swiss", pace="async"),
    )
    for _ in range(4):
        await events.add_bot(event.tournament_id, MOD)
    await events.start(event.tournament_id, MOD)
    await until_finished(events, event.tournament_id)
    await events.idle()
    view = await events.view(event.tournament_id)
    assert view.event.status == "finished" and view.rounds == 3
    assert len([r for r in view.results if r.kind == "table"]) == 6
    assert {r.source for r in view.results} == {"match"}
    # The same "finished" again (a replayed notification): nothing changes.
    table = view.tables[0]
    record = await service.get(table.match_id)  # type: ignore[arg-type]
    await events.on_match_change(Change(kind="finished", match=record))
    await events.idle()
    assert (await events.view(event.tournament_id)).results == view.results
    await driver.close()


async def test_a_deal_that_decides_the_match_finishes_it_at_the_start(store) -> None:  # type: ignore[no-untyped-def]
    from games import GAMES

    toss = GAMES["toss_your_cookies"]
    seed = next(
        s
        for s in range(5000)
        if toss.outcome(toss.setup(toss.options_model(), ["A", "B", "C"], s)) is not None
    )
    changes: list[Change] = []
    service = MatchService(store, GAMES, new_seed=lambda: seed)

    async def listen(change: Change) -> None:
        changes.append(change)

    service.listeners.append(listen)
    lobby = await service.open_lobby(
        guild_id=1, channel_id=9, host=ANA, game_key="toss_your_cookies"
    )
    await service.add_bot(lobby.match_id, ANA)
    await service.add_bot(lobby.match_id, ANA)
    record = await service.start(lobby.match_id, ANA)
    # A winning hand on the deal: the match is over, not left running with nobody to move.
    assert record.status == "finished"
    assert (await service.get(lobby.match_id)).status == "finished"
    assert changes[-1].kind == "finished"
