"""Ratings: openskill Plackett–Luce with the tie workaround (bot/ratings.py)."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from bot.ratings import (
    BOT_IDS,
    MAX_ORDERS,
    MODEL,
    Rating,
    SeatResult,
    _strict_orders,
    rate_bots,
    rate_match,
    rate_order,
    rated_places,
    win_chances,
)

TAU_SQUARED = (25 / 300) ** 2
BETA_SQUARED = (25 / 6) ** 2


def paper_update(priors: list[Rating]) -> list[tuple[float, float]]:
    """Weng & Lin (2011), Algorithm 4, Plackett–Luce for one-player teams in a strict
    order (index 0 first), written from the paper: the reference the library must match."""
    variances = [rating.sigma**2 + TAU_SQUARED for rating in priors]
    c = math.sqrt(sum(variance + BETA_SQUARED for variance in variances))
    strengths = [math.exp(rating.mu / c) for rating in priors]
    # C_q: the seats placed at or below q; its summed strength.
    tails = [sum(strengths[q:]) for q in range(len(priors))]
    updated = []
    for i, rating in enumerate(priors):
        omega = delta = 0.0
        for q in range(i + 1):
            share = strengths[i] / tails[q]
            omega += (1 if q == i else 0) - share
            delta += share * (1 - share)
        gamma = math.sqrt(variances[i]) / c
        mu = rating.mu + variances[i] / c * omega
        sigma = math.sqrt(variances[i] * max(1 - gamma * variances[i] / c**2 * delta, 0.0001))
        updated.append((mu, min(sigma, rating.sigma)))  # limit_sigma: σ never grows
    return updated


def seats_at(places: list[int]) -> list[SeatResult]:
    return [SeatResult(user_id=seat + 1, place=place) for seat, place in enumerate(places)]


def test_two_player_update_by_hand() -> None:
    # Equal priors, so each seat's share is 1/2: μ moves by σ²/(2c) either way, and
    # σ'² = σ²(1 − σ³/(4c³)), with σ² = (25/3)² + τ² and c = √(2(σ² + β²)).
    winner, loser = rate_match("m1", seats_at([1, 2]), {})
    assert winner.user_id == 1 and loser.user_id == 2
    assert winner.after.mu == pytest.approx(27.635389493140497, abs=1e-12)
    assert loser.after.mu == pytest.approx(22.364610506859503, abs=1e-12)
    assert winner.after.sigma == pytest.approx(8.065901413543681, abs=1e-12)
    assert loser.after.sigma == pytest.approx(8.065901413543681, abs=1e-12)
    assert (winner.after.display, loser.after.display) == (1583, 1456)
    assert winner.after.games == loser.after.games == 1


def test_four_player_update_matches_the_paper() -> None:
    priors = {
        1: Rating(30.0, 6.0, 7),
        2: Rating(25.0, 25 / 3),
        3: Rating(20.0, 4.0, 12),
        4: Rating(27.0, 7.5, 3),
    }
    # Seat 4 finished second, seat 2 last.
    changes = rate_match("m2", seats_at([1, 4, 3, 2]), priors)
    assert [change.user_id for change in changes] == [1, 4, 3, 2]
    expected = paper_update([priors[user] for user in (1, 4, 3, 2)])
    for change, (mu, sigma) in zip(changes, expected, strict=True):
        assert change.after.mu == pytest.approx(mu, abs=1e-12)
        assert change.after.sigma == pytest.approx(sigma, abs=1e-12)
        assert change.before == priors[change.user_id]
        assert change.after.games == priors[change.user_id].games + 1
    assert [change.after.display for change in changes] == [
        round(1500 + 24 * (mu - 3 * sigma)) for mu, sigma in expected
    ]


def test_a_tie_averages_every_strict_order() -> None:
    priors = {1: Rating(30.0, 6.0), 2: Rating(22.0, 8.0), 3: Rating(26.0, 5.0)}
    changes = {c.user_id: c for c in rate_match("m3", seats_at([1, 1, 3]), priors)}
    orders = [(1, 2, 3), (2, 1, 3)]
    updates = [
        dict(zip(order, paper_update([priors[u] for u in order]), strict=True)) for order in orders
    ]
    for user in (1, 2, 3):
        assert changes[user].after.mu == pytest.approx(
            sum(update[user][0] for update in updates) / 2, abs=1e-12
        )
        assert changes[user].after.sigma == pytest.approx(
            sum(update[user][1] for update in updates) / 2, abs=1e-12
        )
    assert changes[1].place == changes[2].place == 1 and changes[3].place == 3


def test_one_order_is_exactly_what_openskill_rate_gives() -> None:
    # rate_order runs openskill's update without rate()'s copy of the teams: it must land
    # on the very same floats, σ cap included (veterans with a small σ), for every size.
    rng = random.Random(11)
    for _ in range(400):
        priors = [
            Rating(rng.uniform(0, 50), rng.choice([rng.uniform(0.3, 2), rng.uniform(2, 25 / 3)]))
            for _ in range(rng.randint(2, 8))
        ]
        teams = [[MODEL.rating(mu=prior.mu, sigma=prior.sigma)] for prior in priors]
        rated = MODEL.rate(teams, ranks=[float(rank) for rank in range(1, len(priors) + 1)])
        assert rate_order(priors) == [(team[0].mu, team[0].sigma) for team in rated]


TIE_PATTERNS = [
    [1, 1],
    [1, 1, 3],
    [1, 2, 2],
    [1, 1, 1, 4],
    [1, 1, 3, 3],
    [1, 2, 2, 2, 2, 6],
    [1, 1, 1, 1, 1, 1, 1, 8],  # 5040 orders: drawn
    [1, 1, 3, 3, 3, 3, 3, 3],  # 1440 orders: drawn
    [1, 1, 1, 1, 1, 1, 1, 1],
    [1, 2, 3, 3, 3, 3, 3, 3],
]


@pytest.mark.parametrize("places", TIE_PATTERNS)
@pytest.mark.parametrize("prior", [Rating(), Rating(31.0, 3.5, 40)])
def test_equal_tied_seats_move_equally_and_stay_above_seats_they_beat(
    places: list[int], prior: Rating
) -> None:
    seats = seats_at(places)
    changes = {c.user_id: c for c in rate_match("m4", seats, dict.fromkeys(range(1, 9), prior))}
    for a, b in itertools.combinations(seats, 2):
        after_a, after_b = changes[a.user_id].after, changes[b.user_id].after
        if a.place == b.place:
            assert after_a == after_b
        else:
            better, worse = (after_a, after_b) if a.place < b.place else (after_b, after_a)
            assert better.mu > worse.mu
            assert better.display >= worse.display


def test_drawn_orders_are_seeded_by_the_match_id() -> None:
    groups = [[0, 1, 2, 3, 4, 5, 6], [7]]
    first = list(_strict_orders(groups, "abc"))
    assert first == list(_strict_orders(groups, "abc"))
    assert first != list(_strict_orders(groups, "abd"))
    assert len(first) == MAX_ORDERS // 7 * 7 and all(order[-1] == 7 for order in first)
    # Balanced: every seat of the group takes every position equally often.
    for seat, position in itertools.product(range(7), range(7)):
        assert sum(order[position] == seat for order in first) == MAX_ORDERS // 7

    rng = random.Random(5)
    priors = {user: Rating(rng.uniform(15, 35), rng.uniform(2, 8)) for user in range(1, 9)}
    places = [1, 1, 1, 1, 1, 1, 1, 8]
    again = rate_match("abc", seats_at(places), priors)
    assert again == rate_match("abc", seats_at(places), priors)
    assert again != rate_match("abd", seats_at(places), priors)


def test_exhaustive_orders_are_all_distinct_strict_orders() -> None:
    orders = list(_strict_orders([[0, 1, 2], [3], [4, 5]], "x"))
    assert len(orders) == len(set(orders)) == 12


def test_bots_are_removed_and_quitters_are_last_tied() -> None:
    seats = [
        SeatResult(user_id=None, place=1),
        SeatResult(user_id=10, place=2),
        SeatResult(user_id=11, place=3, gone=True),
        SeatResult(user_id=12, place=4),
        SeatResult(user_id=13, place=1, gone=True),
        SeatResult(user_id=14, place=4),
    ]
    assert rated_places(seats) == [(10, 1), (12, 2), (14, 2), (11, 4), (13, 4)]
    changes = rate_match("m5", seats, {})
    assert [(c.user_id, c.place) for c in changes] == rated_places(seats)
    assert changes[3].after == changes[4].after


def test_fewer_than_two_humans_is_not_rated() -> None:
    assert rate_match("m6", [SeatResult(1, 1), SeatResult(None, 2)], {}) == []


def test_display_and_provisional() -> None:
    assert Rating().display == 1500
    assert Rating(30.0, 5.0, 4).display == round(1500 + 24 * 15.0)
    assert Rating(games=4).provisional and not Rating(games=5).provisional
    veteran = Rating(25.0, 1.0, 100)
    for change in rate_match("m7", seats_at([2, 1]), {1: veteran, 2: veteran}):
        assert change.after.sigma <= veteran.sigma


def test_win_chances_are_whole_percentages_summing_to_a_hundred() -> None:
    assert win_chances([Rating(), Rating()]) == [50, 50]
    # predict_win gives 0.67001 to μ 30 σ 5 against a new player.
    assert win_chances([Rating(30, 5), Rating()]) == [67, 33]
    assert win_chances([Rating(), Rating(30, 5)]) == [33, 67]
    # Three equal: 33.3 each, the leftover point to the first seat.
    assert win_chances([Rating(), Rating(), Rating()]) == [34, 33, 33]
    # 51.49 / 33.53 / 14.98: floors 51/33/14 leave two points, to the largest remainders.
    assert win_chances([Rating(30, 5), Rating(), Rating(20, 4)]) == [51, 34, 15]
    rng = random.Random(3)
    for size in range(2, 9):
        field = [Rating(rng.uniform(10, 40), rng.uniform(1, 9)) for _ in range(size)]
        chances = win_chances(field)
        odds = MODEL.predict_win([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in field])
        assert sum(chances) == 100
        assert all(abs(c - 100 * p) < 1 for c, p in zip(chances, odds, strict=True))


def test_bots_are_rated_by_level_against_people_whose_ratings_they_do_not_move() -> None:
    ana, ben = Rating(mu=30.0, sigma=4.0, games=9), Rating(mu=20.0, sigma=5.0, games=9)
    seats = [
        SeatResult(user_id=1, place=2),
        SeatResult(user_id=None, place=1, level="hard"),
        SeatResult(user_id=2, place=4),
        SeatResult(user_id=None, place=3, level="easy"),
    ]
    ratings = {1: ana, 2: ben, BOT_IDS["hard"]: Rating(mu=28.0, sigma=3.0, games=40)}
    # People's ratings move among people only, as before levels: the bots are left out.
    assert rate_match("m", seats, ratings) == rate_match("m", [seats[0], seats[2]], ratings)
    hard, easy = rate_bots("m", seats, ratings)
    assert (hard.user_id, hard.place, hard.before.games) == (BOT_IDS["hard"], 1, 40)
    assert (easy.user_id, easy.place, easy.before) == (BOT_IDS["easy"], 3, Rating())
    assert hard.after.mu > hard.before.mu and hard.after.games == 41
    # Easy beat Ben (rated 20), lost to Ana: from a new player's 25 it moves, by a little.
    assert easy.after.games == 1 and easy.after.sigma < easy.before.sigma
    assert rate_bots("m", seats, ratings) == [hard, easy]  # the same numbers every time


def test_a_level_moves_by_its_seats_average_and_needs_a_person_who_played_it_out() -> None:
    seats = [
        SeatResult(user_id=None, place=1),
        SeatResult(user_id=7, place=2),
        SeatResult(user_id=None, place=3),
    ]
    [normal] = rate_bots("m", seats, {})
    # Each bot seat rated from the level's rating among everyone; the level takes the mean.
    one, _, three = rate_order([Rating()] * 3)
    assert normal.after.mu == pytest.approx((one[0] + three[0]) / 2)
    assert normal.after.sigma == pytest.approx((one[1] + three[1]) / 2)
    assert normal.place == 1
    gone = [seats[0], SeatResult(user_id=7, place=2, gone=True), seats[2]]
    assert rate_bots("m", gone, {}) == []  # the person left: no game against people
    assert rate_bots("m", [seats[0], seats[2]], {}) == []  # bots alone teach nothing
    assert rate_bots("m", [seats[1], SeatResult(user_id=8, place=1)], {}) == []  # no bot
