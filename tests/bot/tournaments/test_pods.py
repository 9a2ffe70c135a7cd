"""Pod Swiss (bot/tournaments/pods.py): table sizes, a hand-computed 12-player event, and
seeded events."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction as F

import pytest

from bot.tournaments.pods import chunk, pair_pods, pod_rounds, table_cost, table_sizes
from bot.tournaments.results import Player, TableResult, had_bye, meetings
from bot.tournaments.scoring import POD_SCORES, total_points
from bot.tournaments.standings import pairing_order, pod_standings


def test_table_sizes() -> None:
    assert table_sizes(17, 4, 3, 4) == ((4, 4, 3, 3, 3), 0)
    assert table_sizes(17, 4, 3, 5, larger=True) == ((5, 4, 4, 4), 0)
    assert table_sizes(12, 4, 3, 4) == ((4, 4, 4), 0)
    assert table_sizes(11, 4, 3, 4) == ((4, 4, 3), 0)
    # 5 at a 3–4 player game: 3/2 is below the minimum, 5 above the maximum: a bye.
    assert table_sizes(5, 4, 3, 4) == ((4,), 1)
    # The minimum demands fewer, larger tables: 6 at a 4–6 game with 4 preferred.
    assert table_sizes(6, 4, 4, 6) == ((6,), 0)
    # Larger tables past the maximum: more tables instead.
    assert table_sizes(9, 4, 3, 4, larger=True) == ((3, 3, 3), 0)
    assert table_sizes(2, 4, 3, 4) == ((), 2)


def test_rounds() -> None:
    assert [pod_rounds(n, 4) for n in (4, 5, 12, 16, 17, 64, 65, 512)] == [2, 3, 3, 3, 4, 4, 5, 6]
    assert pod_rounds(27, 3) == 4


def test_hand_computed_twelve_player_event() -> None:
    everyone = list(range(1, 13))
    options = {"preferred": 4, "minimum": 3, "maximum": 4}
    first = pair_pods(everyone, dict.fromkeys(everyone, F(0)), {}, **options)
    assert first.tables == ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)) and first.cost == 0
    results = [TableResult.ranked(1, *[[p] for p in table]) for table in first.tables]
    points = total_points(everyone, results, POD_SCORES)
    assert [points[p] for p in everyone] == [6, 4, 2, 0] * 3
    # Three tables of four from three earlier tables: every table must hold one repeat
    # pair, so the top-down fill (one repeat per table, the least points spread: 10/9)
    # is already the cheapest and no swap helps.
    order = [1, 5, 9, 2, 6, 10, 3, 7, 11, 4, 8, 12]
    second = pair_pods(order, points, meetings(results), **options)
    assert second.tables == ((1, 5, 9, 2), (6, 10, 3, 7), (11, 4, 8, 12))
    assert second.cost == pytest.approx(3 * 30 + F(10, 9))
    results += [
        TableResult.ranked(2, [9], [1], [5], [2]),
        TableResult.ranked(2, [3], [7], [6], [10]),
        TableResult.ranked(2, [4, 8], [11], [12]),  # a shared first: 5 points each
    ]
    standings = pod_standings(everyone, results, seed=5, round=2)
    points = {s.player: s.points for s in standings}
    assert points == {1: 10, 2: 4, 3: 8, 4: 5, 5: 8, 6: 6, 7: 6, 8: 5, 9: 12, 10: 4, 11: 4, 12: 0}
    opp = {s.player: s.tiebreaker("OPP%") for s in standings}
    # PP% over two rounds: points / 12, at least 0.33 (12 has none).
    # 5 met 6, 7, 8, 1, 9, 2: (6 + 6 + 5 + 10 + 12 + 4)/12/6 = 43/72; 3 met 1, 2, 4, 6,
    # 10, 7: 35/72. 4 met 1, 2, 3, 11, 8, 12: (31/12 + 0.33)/6; 8: (29/12 + 0.33)/6.
    assert (opp[5], opp[3]) == (F(43, 72), F(35, 72))
    assert (opp[4], opp[8]) == ((F(31, 12) + F(33, 100)) / 6, (F(29, 12) + F(33, 100)) / 6)
    assert opp[6] == opp[7] == F(37, 72)
    firsts = {s.player: s.tiebreaker("Firsts") for s in standings}
    assert (firsts[9], firsts[4], firsts[8], firsts[6]) == (2, 1, 1, 0)
    order = [s.player for s in standings]
    assert order[:4] == [9, 1, 5, 3] and set(order[4:6]) == {6, 7}
    assert order[6:] == [4, 8, 2, 10, 11, 12]
    met = meetings(results)
    third = pair_pods(order, points, met, **options)
    # Checked by enumerating all 5,775 ways to seat twelve at three tables of four.
    cheapest = min(
        sum(table_cost(t, points, met) for t in tables) for tables in three_fours(everyone)
    )
    assert third.cost == pytest.approx(cheapest)
    assert sorted(p for t in third.tables for p in t) == everyone


def three_fours(players: list[Player]) -> list[tuple[tuple[Player, ...], ...]]:
    ways = []
    first, rest = players[0], players[1:]
    for mates in itertools.combinations(rest, 3):
        left = [p for p in rest if p not in mates]
        for others in itertools.combinations(left[1:], 3):
            last = tuple(p for p in left if p not in (left[0], *others))
            ways.append(((first, *mates), (left[0], *others), last))
    return ways


def test_byes_go_to_the_lowest_without_one() -> None:
    order = [1, 2, 3, 4, 5]
    pairing = pair_pods(
        order, dict.fromkeys(order, F(0)), {}, {5}, preferred=4, minimum=3, maximum=4
    )
    assert pairing.byes == (4,) and pairing.tables == ((1, 2, 3, 5),)


def repeats(tables: object, met: Counter[frozenset[Player]]) -> int:
    """Σ m² over the pairs seated together."""
    return sum(
        met[frozenset((a, b))] ** 2
        for table in tables  # type: ignore[attr-defined]
        for a, b in itertools.combinations(table, 2)
    )


def play_event(players: int, seed: int) -> None:
    rng = random.Random(seed)
    preferred = rng.choice([4, 4, 5])
    minimum, maximum = 3, rng.choice([preferred, 6, 8])
    everyone = list(range(1, players + 1))
    results: list[TableResult] = []
    for number in range(1, min(pod_rounds(players, preferred), 6) + 1):
        order = pairing_order(everyone, results, POD_SCORES, seed, number)
        points = total_points(everyone, results, POD_SCORES)
        met = meetings(results)
        pairing = pair_pods(
            order,
            points,
            met,
            had_bye(results),
            preferred=preferred,
            minimum=minimum,
            maximum=maximum,
        )
        seated = [p for table in pairing.tables for p in table]
        assert sorted(seated + list(pairing.byes)) == everyone
        assert all(minimum <= len(table) <= maximum for table in pairing.tables)
        sizes, _ = table_sizes(players, preferred, minimum, maximum)
        assert sorted(map(len, pairing.tables), reverse=True) == list(sizes)
        plain = chunk([p for p in order if p not in pairing.byes], sizes)
        assert repeats(pairing.tables, met) <= repeats(plain, met)
        # From 16 players, no repeat in the first three rounds; a table of s drawn from
        # fewer than s earlier tables must repeat (five at 4 tables), so not then.
        if players >= 16 and number <= 3 and len(sizes) >= max(sizes):
            assert repeats(pairing.tables, met) == 0
        for table in pairing.tables:
            finish = list(table)
            rng.shuffle(finish)
            groups = (
                [[finish[0], finish[1]], *[[p] for p in finish[2:]]]
                if rng.random() < 0.2
                else [[p] for p in finish]
            )
            results.append(TableResult.ranked(number, *groups))
        results += [TableResult.bye(number, p) for p in pairing.byes]
    byes = Counter(r.players[0] for r in results if r.kind == "bye")
    assert all(count == 1 for count in byes.values())


@pytest.mark.parametrize("chunk_index", range(4))
def test_seeded_pod_events(chunk_index: int) -> None:
    for seed in range(chunk_index, 200, 4):
        play_event(5 + (seed * 11) % 60, seed)
