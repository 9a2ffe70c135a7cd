"""Rating-seeded events (bot/tournaments/lots.py, standings.py): the ratings stand where the
lot does, before it, so Swiss pairs by rating without any change to its algorithm."""

from __future__ import annotations

from bot.tournaments.elimination import single_elimination
from bot.tournaments.lots import lot, rated_lot
from bot.tournaments.results import TableResult
from bot.tournaments.scoring import MATCH_POINTS
from bot.tournaments.standings import pairing_order
from bot.tournaments.swiss import pair_swiss

PLAYERS = [1, 2, 3, 4, 5, 6]
SEED = 7
# 2, 4 and 6 share a rating: the lot orders them (round 1's lot: 5 4 6 1 2 3).
RATINGS = {1: 1620, 2: 1500, 3: 1700, 4: 1500, 5: 1400, 6: 1500}


def test_ratings_order_first_and_equal_ratings_keep_the_lots_order() -> None:
    assert list(lot(PLAYERS, SEED, 1)) == [5, 4, 6, 1, 2, 3]
    drawn = rated_lot(PLAYERS, RATINGS, SEED, 1)
    assert sorted(PLAYERS, key=drawn.__getitem__) == [3, 1, 4, 6, 2, 5]


def test_round_one_pairs_rating_neighbours() -> None:
    order = pairing_order(PLAYERS, [], MATCH_POINTS, SEED, 1, ratings=RATINGS)
    assert order == [3, 1, 4, 6, 2, 5]
    # Everyone on 0 points: only |i − j| counts, so neighbours in rating pair.
    first = pair_swiss(order, dict.fromkeys(PLAYERS, 0), {})
    assert first.tables == ((3, 1), (4, 6), (2, 5)) and first.bye is None
    # The same field by lot alone pairs otherwise.
    by_lot = pairing_order(PLAYERS, [], MATCH_POINTS, SEED, 1)
    assert pair_swiss(by_lot, dict.fromkeys(PLAYERS, 0), {}).tables == ((5, 4), (6, 1), (2, 3))


def test_points_come_before_ratings_and_ratings_order_each_score_group() -> None:
    results = [
        TableResult.ranked(1, [3], [1]),
        TableResult.ranked(1, [4], [6]),
        TableResult.ranked(1, [5], [2]),  # the lowest rated wins
    ]
    # 3 points: 3 (1700), 4 (1500), 5 (1400); none: 1 (1620), then 6 and 2 (both 1500)
    # by round 2's lot (4 3 6 2 1 5).
    order = pairing_order(PLAYERS, results, MATCH_POINTS, SEED, 2, ratings=RATINGS)
    assert order == [3, 4, 5, 1, 6, 2]
    assert pairing_order(PLAYERS, results, MATCH_POINTS, SEED, 2) == [4, 3, 5, 6, 2, 1]


def test_a_bracket_seeded_by_rating_meets_its_top_two_only_in_the_final() -> None:
    four = [1, 2, 3, 4]
    drawn = rated_lot(four, {1: 1500, 2: 1800, 3: 1400, 4: 1650}, SEED, 0)
    bracket = single_elimination(sorted(four, key=drawn.__getitem__))
    assert bracket.seeds == (2, 4, 1, 3)
    first_round = [
        {bracket.seeds[int(side.ref) - 1] for side in m.sides}
        for m in bracket.matches
        if all(side.kind == "seed" for side in m.sides)
    ]
    assert first_round == [{2, 3}, {4, 1}]
