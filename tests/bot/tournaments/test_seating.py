"""Seat balance (bot/tournaments/seating.py): seat 0 goes round at Swiss and pod tables,
ties by recency then the seeded shuffle."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

from bot.tournaments.lots import seat_order
from bot.tournaments.pods import pair_pods
from bot.tournaments.results import Player, TableResult, had_bye, meetings
from bot.tournaments.scoring import MATCH_POINTS, POD_SCORES, total_points
from bot.tournaments.seating import seat_history, seat_tables
from bot.tournaments.standings import pairing_order
from bot.tournaments.swiss import pair_swiss

Seated = list[tuple[int, tuple[Player, ...]]]


def first_seats(earlier: Seated) -> Counter[Player]:
    return Counter(seats[0] for _, seats in earlier)


def play_swiss(players: int, rounds: int, seed: int, *, balanced: bool = True) -> Seated:
    """A Swiss event whose results are drawn from ``seed``: the tables in seat order."""
    everyone = list(range(1, players + 1))
    rng = random.Random(seed)
    results: list[TableResult] = []
    earlier: Seated = []
    for number in range(1, rounds + 1):
        order = pairing_order(everyone, results, MATCH_POINTS, seed, number)
        points = total_points(everyone, results, MATCH_POINTS)
        pairing = pair_swiss(order, points, meetings(results), had_bye(results))
        if balanced:
            seated = seat_tables(pairing.tables, earlier, seed, number)
        else:
            seated = [seat_order(t, seed, number, i) for i, t in enumerate(pairing.tables, 1)]
        for seats in seated:
            # Before this table: the first seat went to whoever had sat first less.
            if balanced:
                firsts = first_seats(earlier)
                assert firsts[seats[0]] <= firsts[seats[1]]
            winner, loser = seats if rng.random() < 0.5 else seats[::-1]
            results.append(TableResult.ranked(number, [winner], [loser]))
        earlier += [(number, seats) for seats in seated]
    return earlier


def counts(earlier: Seated, players: int) -> list[int]:
    firsts = first_seats(earlier)
    return [firsts[p] for p in range(1, players + 1)]


def test_ten_rounds_of_eight_sit_first_five_times_each() -> None:
    # Forty tables, so five firsts each is level; the lot alone gave 2 to 8.
    assert counts(play_swiss(8, 10, seed=1), 8) == [5] * 8
    assert counts(play_swiss(8, 10, seed=1, balanced=False), 8) == [6, 8, 6, 2, 5, 5, 2, 6]
    # Where two who both sat first five times meet in the last round, one gets a sixth.
    assert counts(play_swiss(8, 10, seed=0), 8) == [5, 5, 5, 4, 6, 5, 5, 5]


def test_seeded_swiss_events_stay_within_two_and_replay() -> None:
    for seed in range(20):
        earlier = play_swiss(8, 10, seed)
        assert max(counts(earlier, 8)) - min(counts(earlier, 8)) <= 2
        assert earlier == play_swiss(8, 10, seed)  # the event seed replays every seat
        lot = play_swiss(8, 10, seed, balanced=False)
        assert max(counts(earlier, 8)) - min(counts(earlier, 8)) <= max(counts(lot, 8)) - min(
            counts(lot, 8)
        )


def test_round_one_is_the_seeded_shuffle() -> None:
    tables = [(1, 2), (3, 4), (5, 6, 7)]
    assert seat_tables(tables, [], 9, 1) == [
        seat_order(t, 9, 1, i) for i, t in enumerate(tables, start=1)
    ]


def test_fewer_firsts_then_less_recently_first_then_the_lot() -> None:
    # 1 sat first twice, 2 once: 2 goes first whatever the lot.
    earlier = [(1, (1, 5)), (2, (1, 6)), (3, (2, 7))]
    for seed in range(10):
        assert seat_tables([(1, 2)], earlier, seed, 4) == [(2, 1)]
    # 3 and 4 sat first once each; 4 in round 1, 3 in round 2: 4 (longer ago) goes first.
    earlier = [(1, (4, 5)), (2, (3, 6)), (3, (7, 3)), (3, (8, 4))]
    for seed in range(10):
        assert seat_tables([(3, 4)], earlier, seed, 4) == [(4, 3)]
    # Level on everything: the seeded shuffle decides, and both orders happen.
    orders = {seat_tables([(1, 2)], [(1, (1, 3)), (1, (2, 4))], seed, 2)[0] for seed in range(20)}
    assert orders == {(1, 2), (2, 1)}


def test_pod_seats_go_front_by_firsts_then_how_far_forward() -> None:
    # Round 1 (seats 0..3): 1 2 3 4. Round 2 (0..2): 5 3 1.
    earlier = [(1, (1, 2, 3, 4)), (2, (5, 3, 1))]
    history = seat_history(earlier)
    assert history.firsts == {1: 1, 5: 1}
    # 1: 1 + 0; 2: 2/3; 3: 1/3 + 1/2; 4: 0; 5: 1.
    assert history.forward[3] == Fraction(5, 6) and history.forward[1] == 1
    # 4 (0 forward), 2 (2/3), 3 (5/6), then the two who sat first: 1 longer ago than 5.
    for seed in range(10):
        assert seat_tables([(1, 2, 3, 4, 5)], earlier, seed, 3) == [(4, 2, 3, 1, 5)]


def play_pods(players: int, rounds: int, seed: int) -> Seated:
    everyone = list(range(1, players + 1))
    rng = random.Random(seed)
    results: list[TableResult] = []
    earlier: Seated = []
    for number in range(1, rounds + 1):
        order = pairing_order(everyone, results, POD_SCORES, seed, number)
        pairing = pair_pods(
            order,
            total_points(everyone, results, POD_SCORES),
            meetings(results),
            had_bye(results),
            preferred=4,
            minimum=3,
            maximum=4,
        )
        seated = seat_tables(pairing.tables, earlier, seed, number)
        for seats in seated:
            finish = list(seats)
            rng.shuffle(finish)
            results.append(TableResult.ranked(number, *[[p] for p in finish]))
        results += [TableResult.bye(number, p) for p in pairing.byes]
        earlier += [(number, seats) for seats in seated]
    return earlier


def positions(earlier: Seated, player: Player) -> list[int]:
    seen = Counter(seats.index(player) for _, seats in earlier if player in seats)
    return [seen[i] for i in range(4)]


def test_twelve_in_pods_sit_first_once_or_twice_each() -> None:
    # Six rounds of three tables: 18 firsts over 12 players.
    for seed in range(6):
        assert sorted(counts(play_pods(12, 6, seed), 12)) == [1] * 6 + [2] * 6
    earlier = play_pods(12, 6, seed=0)
    assert counts(earlier, 12) == [2, 1, 1, 2, 2, 1, 2, 1, 1, 1, 2, 2]
    # Seats 0..3 of each player: nobody sits in one seat more than four times of six.
    assert positions(earlier, 1) == [2, 0, 2, 2]
    assert all(max(positions(earlier, p)) <= 4 for p in range(1, 13))
