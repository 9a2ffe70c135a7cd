"""Scoring, tiebreakers and standings (bot/tournaments: scoring, tiebreakers, standings)."""

from __future__ import annotations

from fractions import Fraction as F

from bot.tournaments import tiebreakers as tb
from bot.tournaments.lots import lot, seat_order
from bot.tournaments.results import TableResult, meetings
from bot.tournaments.scoring import MATCH_POINTS, PlaceScores, place_scores
from bot.tournaments.standings import (
    pairing_order,
    pod_standings,
    round_robin_standings,
    swiss_standings,
)

WIN, DRAW = "win", "draw"


def record(player: int, outcomes: list[str]) -> list[TableResult]:
    """A player's rounds against fresh opponents: win, loss, draw, bye or missed."""
    results = []
    for number, outcome in enumerate(outcomes, start=1):
        opponent = 1000 + number
        if outcome == "bye":
            results.append(TableResult.bye(number, player))
        elif outcome == "missed":
            results.append(TableResult.missed(number, player))
        elif outcome == WIN:
            results.append(TableResult.ranked(number, [player], [opponent]))
        elif outcome == DRAW:
            results.append(TableResult.ranked(number, [player, opponent]))
        else:
            results.append(TableResult.ranked(number, [opponent], [player]))
    return results


def match_win(player: int, results: list[TableResult]) -> F:
    return tb.point_percentages(tb.records_of(results), MATCH_POINTS)[player]


def test_mtr_appendix_c_match_win_percentages() -> None:
    # 5-2-1 over eight rounds: 16 points of 24.
    five_two_one = record(1, [WIN] * 5 + ["loss"] * 2 + [DRAW])
    assert match_win(1, five_two_one) == F(2, 3)
    assert f"{float(match_win(1, five_two_one)):.3f}" == "0.667"
    # 1-3-0 and withdrawn: 3 of 12 is 0.25, lifted to the 0.33 floor.
    assert match_win(1, record(1, [WIN] + ["loss"] * 3)) == F(33, 100)
    # 3-2-0 with a bye among the three wins: 9 of 15.
    assert match_win(1, record(1, [WIN, WIN, "bye", "loss", "loss"])) == F(3, 5)
    assert tb.percent(F(3, 5)) == "60.0%"
    assert tb.percent(F(83, 200)) == "41.5%"
    assert tb.tiebreaker_text("OMW%", F(2, 3)) == "66.7%"
    assert tb.tiebreaker_text("Firsts", F(3)) == "3"
    assert tb.tiebreaker_text("SB", F(5, 2)) == "2.5"


def test_opponents_match_win_ignores_byes_and_counts_missed_rounds() -> None:
    results = [
        TableResult.ranked(1, [1], [2]),
        TableResult.bye(2, 1),
        TableResult.ranked(2, [2], [3]),
        TableResult.missed(1, 3),
    ]
    records = tb.records_of(results)
    mw = tb.point_percentages(records, MATCH_POINTS)
    assert mw == {1: F(1), 2: F(1, 2), 3: F(33, 100)}  # 3: 0 of 2 rounds, floored
    omw = tb.opponents_mean(records, mw)
    assert omw[1] == F(1, 2)  # the bye adds no opponent
    assert omw[2] == (F(1) + F(33, 100)) / 2


def test_game_win_percentage_counts_a_bye_as_two_games_won() -> None:
    results = [
        TableResult.ranked(1, [1], [2], game_wins=(2, 1)),
        TableResult.ranked(2, [3], [1], game_wins=(2, 0)),
        TableResult.bye(3, 1),
    ]
    gw = tb.game_percentages(tb.records_of(results))
    # Player 1: 2 + 0 + 2 games won of 3 + 2 + 2 played: 12 of 21 game points.
    assert gw[1] == F(12, 21)
    assert gw[2] == F(1, 3)  # 1 game of 3: 3 of 9, just above the 0.33 floor
    assert gw[3] == F(1)


def test_place_scores_share_ties_and_average_three() -> None:
    assert place_scores(4) == (6, 4, 2, 0)
    assert place_scores(3) == (6, 3, 0)
    for size in range(2, 9):
        assert sum(place_scores(size)) / size == 3
    scoring = PlaceScores()
    table = TableResult.ranked(1, [1], [2, 3], [4])
    assert [scoring.points(table, p) for p in (1, 2, 3, 4)] == [6, 3, 3, 0]
    custom = PlaceScores(tables={4: (F(5), F(3), F(1), F(0))})
    assert [custom.points(table, p) for p in (1, 2, 3, 4)] == [5, 2, 2, 0]
    assert scoring.points(TableResult.bye(1, 9), 9) == 6


def test_head_to_head_orders_exactly_two_tied_players_who_met() -> None:
    # 1 and 2 share every number except their meeting, which 2 won; the lot is bypassed.
    results = [
        TableResult.ranked(1, [2], [1]),
        TableResult.ranked(2, [1], [3]),
        TableResult.ranked(2, [2], [4]),
        TableResult.ranked(1, [3], [4]),
    ]
    for seed in range(20):
        order = [s.player for s in swiss_standings([1, 2, 3, 4], results, seed, 2)]
        assert order.index(2) < order.index(1)


def test_swiss_standings_fall_to_the_seeded_lot() -> None:
    # Four players who never played: all equal, ordered by the lot alone.
    first = [s.player for s in swiss_standings([1, 2, 3, 4], [], 7, 1)]
    assert first == [s.player for s in swiss_standings([1, 2, 3, 4], [], 7, 1)]
    draw = lot([1, 2, 3, 4], 7, 1)
    assert first == sorted([1, 2, 3, 4], key=draw.__getitem__)
    assert {
        tuple(sorted([1, 2, 3, 4], key=lot([1, 2, 3, 4], 7, r).__getitem__)) for r in range(9)
    } != {tuple(first)}
    assert pairing_order([1, 2, 3, 4], [], MATCH_POINTS, 7, 1) == first
    assert seat_order((1, 2, 3), 7, 2, 1) == seat_order((1, 2, 3), 7, 2, 1)


def test_round_robin_head_to_head_before_sonneborn_berger() -> None:
    results = [
        TableResult.ranked(1, [1], [2]),
        TableResult.ranked(1, [3], [4]),
        TableResult.ranked(2, [2], [3]),
        TableResult.ranked(2, [1], [4]),
        TableResult.ranked(3, [3], [1]),
        TableResult.ranked(3, [4, 2]),  # a draw
    ]
    standings = round_robin_standings([1, 2, 3, 4], results, 1, 3)
    by_player = {s.player: s for s in standings}
    assert [by_player[p].points for p in (1, 2, 3, 4)] == [6, 4, 6, 1]
    # 3 beat 1: head to head puts 3 first among the two on 6 points.
    assert (by_player[1].tiebreaker("H2H"), by_player[3].tiebreaker("H2H")) == (0, 3)
    # SB: 1 beat 2 (4) and 4 (1); 3 beat 4 (1) and 1 (6).
    assert (by_player[1].tiebreaker("SB"), by_player[3].tiebreaker("SB")) == (5, 7)
    assert [s.player for s in standings] == [3, 1, 2, 4]


def test_round_robin_sonneborn_berger_breaks_an_even_head_to_head() -> None:
    results = [
        TableResult.ranked(1, [1, 3]),  # a draw
        TableResult.ranked(1, [2], [4]),
        TableResult.ranked(2, [1], [2]),
        TableResult.ranked(2, [3], [4]),
        TableResult.ranked(3, [4], [1]),
        TableResult.ranked(3, [2], [3]),
    ]
    for seed in range(10):
        standings = round_robin_standings([1, 2, 3, 4], results, seed, 3)
        by_player = {s.player: s for s in standings}
        assert [by_player[p].points for p in (1, 2, 3, 4)] == [4, 6, 4, 3]
        assert by_player[1].tiebreaker("H2H") == by_player[3].tiebreaker("H2H") == 1
        # 1: beat 2 (6) + half of 3 (4) = 8; 3: beat 4 (3) + half of 1 (4) = 5.
        assert (by_player[1].tiebreaker("SB"), by_player[3].tiebreaker("SB")) == (8, 5)
        assert [s.player for s in standings] == [2, 1, 3, 4]


def test_dropped_players_stay_listed() -> None:
    results = [TableResult.ranked(1, [1], [2])]
    standings = pod_standings([1, 2], results, 3, 1, dropped=[2])
    assert [(s.player, s.dropped) for s in standings] == [(1, False), (2, True)]
    assert meetings(results) == {frozenset((1, 2)): 1}
