"""Seat 0 goes round in a running event (bot/tournaments/seating.py through the service):
who sat second in round 1 sits first in round 2, in the stored table and its match."""

from __future__ import annotations

import pytest

from bot.service import MatchService
from bot.service.tournaments import TournamentConfig, Tournaments
from tests.bot.conftest import ANA, BEN, CLEO, DEV, MOD

pytestmark = pytest.mark.parametrize("backend", ["sqlite"])


async def test_who_sat_second_in_round_one_sits_first_in_round_two(
    service: MatchService,
) -> None:
    events = Tournaments(service)
    event = await events.create(
        guild_id=1,
        channel_id=5,
        organiser=MOD,
        game_key="cover_your_assets",
        config=TournamentConfig(format="swiss", pace="casual"),
    )
    tid = event.tournament_id
    for who in (ANA, BEN, CLEO, DEV):
        await events.join(tid, who)
    await events.start(tid, MOD)
    view = await events.view(tid)
    (a, b), (c, d) = sorted(tuple(t.seats) for t in view.tables if t.round == 1)
    # The second seat of the first table and the first seat of the other win: the winners
    # meet (b second before, c first) and so do the losers (a first, d second).
    await events.set_result(tid, MOD, f"{view.name(b)} > {view.name(a)}")
    await events.set_result(tid, MOD, f"{view.name(c)} > {view.name(d)}")
    await events.idle()
    view = await events.view(tid)
    assert view.event.round == 2
    second = {tuple(t.seats) for t in view.tables if t.round == 2}
    assert second == {(b, c), (d, a)}
    # The match itself seats them so: its seat 0 is the table's first entrant.
    for table in (t for t in view.tables if t.round == 2):
        match = await service.get(table.match_id)  # type: ignore[arg-type]
        assert [s.user_id for s in match.seats] == [view.entrant(p).user_id for p in table.seats]
    # Round 3 (b–d's and a–c's rematch-free pairs): everyone has sat first once, so each
    # sits first at most twice in the three rounds.
    for table in [t for t in view.tables if t.round == 2]:
        first, other = table.seats
        await events.set_result(tid, MOD, f"{view.name(first)} > {view.name(other)}")
    await events.idle()
    view = await events.view(tid)
    firsts = [t.seats[0] for t in view.tables]
    assert len(firsts) == 6 and sorted(firsts.count(p) for p in (a, b, c, d)) == [1, 1, 2, 2]
