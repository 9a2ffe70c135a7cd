"""Round robin, multiplayer elimination, a pod event cut to 16 and organiser place scores,
run by the tournament service without Discord."""

from __future__ import annotations

import csv
import io
import itertools
from fractions import Fraction

import pytest

from bot.bots import BotDriver
from bot.errors import UserError
from bot.service import MatchService, Person
from bot.service.tournaments import (
    TournamentConfig,
    Tournaments,
    TournamentView,
    points_text,
    to_table_result,
)
from bot.tournaments.standings import pod_standings
from tests.bot.conftest import MOD
from tests.bot.event_play import until_finished

# These formats add no store code (the service's event tests cover both backends): one
# backend keeps the suite quick.
pytestmark = pytest.mark.parametrize("backend", ["sqlite"])

SNAKED = [[1, 8, 9, 16], [2, 7, 10, 15], [3, 6, 11, 14], [4, 5, 12, 13]]
PEOPLE = [Person(user_id=200 + i, name=name) for i, name in enumerate("ABCDEF")]


@pytest.fixture
def events(service: MatchService) -> Tournaments:
    return Tournaments(service)


async def create(events: Tournaments, game: str, **options: object) -> str:
    event = await events.create(
        guild_id=1, channel_id=5, organiser=MOD, game_key=game, config=TournamentConfig(**options)
    )
    return event.tournament_id


async def play_out(events: Tournaments, tid: str) -> TournamentView:
    """Let the bots play until the event is over."""
    await until_finished(events, tid)
    await events.idle()
    view = await events.view(tid)
    assert view.event.status == "finished"
    return view


async def test_formats_refuse_what_cannot_run_with_a_sentence(events: Tournaments) -> None:
    refusals = [
        (
            "toss_your_cookies",
            {"format": "round_robin"},
            "A round robin is for two-player tables and Toss Your Cookies needs 3 or more: "
            "pick the pods format or multiplayer elimination.",
        ),
        (
            "braverse",
            {"format": "double_round_robin", "max_players": 17},
            "A round robin takes at most 16 players: set max_players to 16 or fewer.",
        ),
        (
            "braverse",
            {"format": "round_robin", "max_players": 8, "rounds": 3},
            "A round robin plays every pairing: leave rounds out.",
        ),
        (
            "braverse",
            {"format": "multiplayer_elimination"},
            "CookieRun: Braverse is played by two: pick Swiss or an elimination.",
        ),
        (
            "toss_your_cookies",
            {"format": "multiplayer_elimination", "advance": 4},
            "Fewer than a whole table must go on: with tables of 4, advance 1 to 3.",
        ),
        (
            "toss_your_cookies",
            {"format": "pods", "advance": 2},
            "Advance is for multiplayer elimination and group events: how many of each table "
            "or group go on.",
        ),
        (
            "toss_your_cookies",
            {"format": "pods", "scores": "4:6/4/2"},
            "A table of 4 needs 4 scores, one a place; 4:6/4/2 has 3. "
            "For example: 4:6/4/2/0, 3:6/3/0.",
        ),
        (
            "toss_your_cookies",
            {"format": "pods", "scores": "4:6/4/5/0"},
            "Scores go from first place down and never rise (4:6/4/5/0). "
            "For example: 4:6/4/2/0, 3:6/3/0.",
        ),
        (
            "cover_your_assets",
            {"format": "swiss", "scores": "3:6/3/0"},
            "Place scores are for pod events: leave scores out.",
        ),
        (
            "toss_your_cookies",
            {"format": "pods", "top_cut": 12},
            "A final table of Toss Your Cookies seats 3 to 8 "
            "(or cut 16 for four semi-final tables, then a final).",
        ),
    ]
    for game, options, sentence in refusals:
        with pytest.raises(UserError) as refused:
            await create(events, game, **options)
        assert str(refused.value) == sentence
    assert await events.store.tournaments(1, open_only=False) == []
    # Accepted: the scores are kept in their canonical text.
    tid = await create(events, "toss_your_cookies", format="pods", scores="4:9/5/2/0;3:6/3/0")
    assert events.config_of(await events.get(tid)).scores == "3:6/3/0, 4:9/5/2/0"


async def test_a_round_robin_of_five_bots_meets_everyone_once_and_rests_each_once(
    service: MatchService, events: Tournaments
) -> None:
    driver = BotDriver(service, delay=0)
    tid = await create(events, "braverse", format="round_robin", pace="async", max_players=16)
    for _ in range(5):
        await events.add_bot(tid, MOD)
    assert (await events.view(tid)).rounds == 5
    await events.start(tid, MOD)
    view = await play_out(events, tid)
    await driver.close()
    assert view.event.round == 5
    tables = [r for r in view.results if r.kind == "table"]
    pairs = [frozenset(r.players) for r in tables]
    everyone = {e.entrant for e in view.entrants}
    assert sorted(pairs, key=sorted) == sorted(
        (frozenset(p) for p in itertools.combinations(everyone, 2)), key=sorted
    )
    rests = sorted(r.players[0] for r in view.results if r.kind == "bye")
    assert rests == sorted(everyone)  # one rest each, one a round
    assert {r.round for r in view.results if r.kind == "bye"} == {1, 2, 3, 4, 5}
    # 3 a win, 1 a draw, nothing for a rest; tiebreakers head to head, Sonneborn–Berger.
    for line in view.standings:
        mine = [to_table_result(r) for r in tables if line.player in r.players]
        won = sum(
            3 if r.tied_with(line.player) == 1 else 1 for r in mine if r.place_of(line.player) == 1
        )
        assert line.points == won
        assert [name for name, _ in line.tiebreakers] == ["H2H", "SB"]
    assert [s.points for s in view.standings] == sorted(
        (s.points for s in view.standings), reverse=True
    )
    assert view.champion().entrant == view.standings[0].player  # type: ignore[union-attr]


async def decide_round(events: Tournaments, tid: str) -> None:
    """The organiser sets every open table of this round: seat 0 wins."""
    view = await events.view(tid)
    for table in view.tables:
        if table.round == view.event.round and table.status == "playing":
            await events.set_result(tid, MOD, " > ".join(view.name(p) for p in table.seats))
    await events.idle()


async def test_a_round_robin_drop_before_half_voids_and_after_half_forfeits(
    events: Tournaments,
) -> None:
    tid = await create(events, "braverse", format="round_robin", pace="casual", max_players=6)
    for who in PEOPLE:
        await events.join(tid, who)
    await events.start(tid, MOD)
    assert (await events.view(tid)).rounds == 5  # five games each
    await decide_round(events, tid)  # round 1
    # In round 2, A leaves: their round 2 game is played, then nothing of theirs counts
    # (two of five games: under half).
    await events.drop(tid, PEOPLE[0])
    await decide_round(events, tid)
    with pytest.raises(UserError, match="no late entries"):
        await events.add_bot(tid, MOD)
    # In round 3 the organiser drops B, whose round 3 game is still played: three of five,
    # so B's last two games are forfeits B loses.
    await events.set_state(tid, MOD, "B", "dropped")
    view = await events.view(tid)
    a, b = (view.of_user(p.user_id).entrant for p in PEOPLE[:2])  # type: ignore[union-attr]
    assert view.event.round == 3 and any(b in t.seats for t in view.tables if t.round == 3)
    for _ in range(3):
        await decide_round(events, tid)
    view = await events.view(tid)
    assert view.event.status == "finished"
    for table in view.tables:
        assert a not in table.seats or table.round <= 2
        assert b not in table.seats or table.round <= 3
    played = [to_table_result(r) for r in view.results if r.kind == "table"]
    points = {s.player: s.points for s in view.standings}
    for player in {e.entrant for e in view.entrants} - {a, b}:
        wins = sum(
            1
            for r in played
            if player in r.players and a not in r.players and r.place_of(player) == 1
        )
        met_b = any({player, b} <= set(r.players) for r in played)
        # Wins that count (none against A), and a forfeit win over B if they had not met.
        assert points[player] == 3 * wins + (0 if met_b else 3)
    b_wins = sum(1 for r in played if b in r.players and a not in r.players and r.place_of(b) == 1)
    assert points[a] == 0 and points[b] == 3 * b_wins
    assert {s.player for s in view.standings if s.dropped} == {a, b}
    exported = await events.export(tid)
    rows = {row["player"]: row for row in csv.DictReader(io.StringIO(exported["standings.csv"]))}
    assert rows["A"]["points"] == "0" and rows["A"]["dropped"] == "yes"
    assert set(rows["C"]) >= {"H2H", "SB"}


async def test_a_multiplayer_elimination_of_ten_bots_runs_down_to_a_final_table(
    service: MatchService, events: Tournaments
) -> None:
    driver = BotDriver(service, delay=0)
    tid = await create(events, "toss_your_cookies", format="multiplayer_elimination", pace="async")
    for _ in range(10):
        await events.add_bot(tid, MOD)
    await events.start(tid, MOD)
    view = await play_out(events, tid)
    await driver.close()

    def round_of(number: int) -> list:  # type: ignore[type-arg]
        return sorted((t for t in view.tables if t.round == number), key=lambda t: t.table_no)

    def finish(table) -> list[int]:  # type: ignore[no-untyped-def]
        """A table's seats best first, a forfeit last, ties to the better seed (seat)."""
        result = to_table_result(
            next(r for r in view.results if (r.round, r.table_no) == (table.round, table.table_no))
        )
        return sorted(
            table.seats,
            key=lambda p: (p in result.gone, result.place_of(p), table.seats.index(p)),
        )

    # Ten at tables of four: 4/3/3, seeds snaked (seed 1 at table 1 seat 0, 2 and 3 at
    # the heads of tables 2 and 3); the top two of each go on. Six: two tables of three
    # (tables keep their size), then four at the final table.
    assert [[len(t.seats) for t in round_of(n)] for n in (1, 2, 3)] == [[4, 3, 3], [3, 3], [4]]
    assert view.event.round == 3 and [t.bracket_id for t in round_of(3)] == ["final"]
    for number in (1, 2):
        ahead = {p for t in round_of(number) for p in finish(t)[:2]}
        assert {p for t in round_of(number + 1) for p in t.seats} == ahead
        # Table winners are the next round's top seeds: the heads of its tables.
        winners = [finish(t)[0] for t in round_of(number)]
        heads = [t.seats[0] for t in round_of(number + 1)]
        assert set(heads) <= set(winners)
    final = finish(round_of(3)[0])
    assert [s.player for s in view.standings[:4]] == final
    assert view.champion().entrant == final[0]  # type: ignore[union-attr]
    out_first = {p for t in round_of(1) for p in finish(t)[2:]}
    assert {s.player for s in view.standings[6:]} == out_first


async def test_pods_with_organiser_scores_count_them_in_standings_and_export(
    service: MatchService, events: Tournaments
) -> None:
    driver = BotDriver(service, delay=0)
    tid = await create(
        events, "toss_your_cookies", format="pods", pace="async", rounds=2, scores="4:9/5/2/0"
    )
    for _ in range(8):
        await events.add_bot(tid, MOD)
    await events.start(tid, MOD)
    view = await play_out(events, tid)
    await driver.close()
    table = {1: Fraction(9), 2: Fraction(5), 3: Fraction(2), 4: Fraction(0)}
    for line in view.standings:
        expected = Fraction(0)
        for r in view.results:
            if line.player in r.players:
                result = to_table_result(r)
                place, tied = result.place_of(line.player), result.tied_with(line.player)
                expected += sum(table[k] for k in range(place, place + tied)) / tied
        assert line.points == expected
    assert sum(s.points for s in view.standings) == 2 * 2 * 16  # two tables a round
    exported = await events.export(tid)
    rows = list(csv.DictReader(io.StringIO(exported["standings.csv"])))
    assert [row["points"] for row in rows] == [points_text(s.points) for s in view.standings]


async def test_pods_cut_to_sixteen_play_four_snaked_semi_finals_then_a_final(
    service: MatchService, events: Tournaments
) -> None:
    driver = BotDriver(service, delay=0)
    tid = await create(
        events, "toss_your_cookies", format="pods", pace="async", rounds=1, top_cut=16
    )
    for _ in range(17):
        await events.add_bot(tid, MOD)
    await events.start(tid, MOD)
    view = await play_out(events, tid)
    await driver.close()
    assert view.event.round == 3
    first = [to_table_result(r) for r in view.results if r.round == 1]
    after_pods = pod_standings([e.entrant for e in view.entrants], first, view.event.seed, 1)
    seeds = [s.player for s in after_pods[:16]]
    semis = sorted((t for t in view.tables if t.round == 2), key=lambda t: t.table_no)
    # Seed 1 in seat 0 of table 1: 1 8 9 16 | 2 7 10 15 | 3 6 11 14 | 4 5 12 13.
    assert [t.seats for t in semis] == [[seeds[i - 1] for i in row] for row in SNAKED]
    assert [t.bracket_id for t in semis] == ["semi-1", "semi-2", "semi-3", "semi-4"]
    winners = []
    for table in semis:
        result = to_table_result(
            next(r for r in view.results if (r.round, r.table_no) == (2, table.table_no))
        )
        alive = [p for p in table.seats if p not in result.gone]
        winners.append(min(alive, key=lambda p: (result.place_of(p), table.seats.index(p))))
    final = next(t for t in view.tables if t.round == 3)
    assert final.bracket_id == "final" and final.seats == sorted(winners, key=seeds.index)
    result = to_table_result(next(r for r in view.results if r.round == 3))
    order = [s.player for s in view.standings]
    assert order[:4] == sorted(
        final.seats, key=lambda p: (result.place_of(p), final.seats.index(p))
    )
    assert set(order[4:16]) == set(seeds) - set(winners) and order[16] == after_pods[16].player
    # The semi-finals and the final decide the order; points come from the pod round only.
    assert {s.player: s.points for s in view.standings} == {s.player: s.points for s in after_pods}


async def test_a_multiplayer_elimination_gives_a_bye_when_no_split_fits(
    service: MatchService, events: Tournaments
) -> None:
    driver = BotDriver(service, delay=0)
    # Seven at a 3–6 game in tables of six, three going on: tables must seat four or more,
    # so 4/3 will not do and seven will not fit at one: seed 1 passes, six play.
    tid = await create(
        events,
        "cover_your_cookies",
        format="multiplayer_elimination",
        pace="async",
        pod_size=6,
        advance=3,
    )
    for _ in range(7):
        await events.add_bot(tid, MOD)
    await events.start(tid, MOD)
    view = await play_out(events, tid)
    await driver.close()
    first = next(t for t in view.tables if t.round == 1)
    bye = next(r for r in view.results if r.kind == "bye")
    assert len(first.seats) == 6 and bye.round == 1
    assert [e.entrant for e in view.entrants if e.entrant not in first.seats] == bye.players
    result = to_table_result(next(r for r in view.results if r.round == 1 and r.kind == "table"))
    top = sorted(
        (p for p in first.seats if p not in result.gone),
        key=lambda p: (result.place_of(p), first.seats.index(p)),
    )[:3]
    final = next(t for t in view.tables if t.round == 2)
    # The bye comes first in the new seeds: seat 0 of the final.
    assert final.bracket_id == "final" and final.seats == [bye.players[0], *top]
    assert view.event.round == 2 and view.champion().entrant in final.seats  # type: ignore[union-attr]


async def test_a_cut_to_sixteen_with_fewer_left_goes_to_a_final_table_of_four(
    service: MatchService, events: Tournaments
) -> None:
    driver = BotDriver(service, delay=0)
    tid = await create(
        events, "toss_your_cookies", format="pods", pace="async", rounds=1, top_cut=16
    )
    for _ in range(8):
        await events.add_bot(tid, MOD)
    await events.start(tid, MOD)
    view = await play_out(events, tid)
    await driver.close()
    first = [to_table_result(r) for r in view.results if r.round == 1]
    after_pods = pod_standings([e.entrant for e in view.entrants], first, view.event.seed, 1)
    final = next(t for t in view.tables if t.round == 2)
    assert view.event.round == 2 and final.bracket_id == "final"
    assert final.seats == [s.player for s in after_pods[:4]]  # seed 1 in seat 0


async def test_a_multiplayer_elimination_round_paired_again_seats_the_same_tables(
    events: Tournaments,
) -> None:
    people = [Person(user_id=300 + i, name=f"P{i}") for i in range(9)]
    tid = await create(events, "toss_your_cookies", format="multiplayer_elimination")
    for who in people:
        await events.join(tid, who)
    await events.start(tid, MOD)
    await decide_round(events, tid)  # nobody moved: the organiser sets round 1
    before = [t for t in (await events.view(tid)).tables if t.round == 2]
    assert [len(t.seats) for t in before] == [3, 3] and before[0].bracket_id is None
    await events.repair(tid, MOD)
    view = await events.view(tid)
    again = [t for t in view.tables if t.round == 2]
    assert view.event.status == "running" and view.event.round == 2
    assert [t.seats for t in again] == [t.seats for t in before]
    assert {t.match_id for t in again}.isdisjoint({t.match_id for t in before})
