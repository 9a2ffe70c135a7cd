"""Two-player Swiss pairing (bot/tournaments/swiss.py): a hand-computed event and seeded
events checked against brute force and the full graph."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from fractions import Fraction as F

import pytest

from bot.tournaments.results import TableResult, had_bye, meetings
from bot.tournaments.scoring import MATCH_POINTS, total_points
from bot.tournaments.standings import pairing_order, swiss_standings
from bot.tournaments.swiss import pair_swiss, swiss_rounds


def test_rounds() -> None:
    assert [swiss_rounds(n) for n in (2, 3, 4, 8, 9, 16, 17, 64, 512)] == [
        1,
        2,
        3,
        3,
        4,
        4,
        5,
        6,
        9,
    ]


def test_hand_computed_eight_player_event() -> None:
    # n = 8, so a point of difference costs 64 and a place of difference 1.
    everyone = list(range(1, 9))
    results = []
    first = pair_swiss(everyone, dict.fromkeys(everyone, 0), {})
    # All on 0: only |i − j| counts, so neighbours pair.
    assert first.tables == ((1, 2), (3, 4), (5, 6), (7, 8)) and first.bye is None
    results += [
        TableResult.ranked(1, [1], [2]),
        TableResult.ranked(1, [3], [4]),
        TableResult.ranked(1, [5], [6]),
        TableResult.ranked(1, [7, 8]),  # a draw
    ]
    points = total_points(everyone, results, MATCH_POINTS)
    assert points == {1: 3, 2: 0, 3: 3, 4: 0, 5: 3, 6: 0, 7: 1, 8: 1}
    # Order 1 3 5 | 7 8 | 2 4 6. 7–8 met, so the 3-point group sends 5 down to 7 (Δp 2:
    # 256 + 1) and 8 pairs up with 2 (64 + 1): 1 + 257 + 65 + 1 = 324, against 326 for
    # 5–8 (258) and 7–2 (66).
    second = pair_swiss([1, 3, 5, 7, 8, 2, 4, 6], points, meetings(results))
    assert second.tables == ((1, 3), (5, 7), (8, 2), (4, 6))
    assert second.cost == 324 and second.rematches == 0
    results += [
        TableResult.ranked(2, [1], [3]),
        TableResult.ranked(2, [5], [7]),
        TableResult.ranked(2, [8], [2]),
        TableResult.ranked(2, [4], [6]),
    ]
    points = total_points(everyone, results, MATCH_POINTS)
    assert points == {1: 6, 2: 0, 3: 3, 4: 3, 5: 6, 6: 0, 7: 1, 8: 4}
    # Order 1 5 | 8 | 3 4 | 7 | 2 6. 3–4 met: 8–3 (65) and 4–7 (257) beat 8–4 (66) and
    # 3–7 (258).
    third = pair_swiss([1, 5, 8, 3, 4, 7, 2, 6], points, meetings(results))
    assert third.tables == ((1, 5), (8, 3), (4, 7), (2, 6))
    assert third.cost == 1 + 65 + 257 + 1
    results += [
        TableResult.ranked(3, [1], [5]),
        TableResult.ranked(3, [3], [8]),
        TableResult.ranked(3, [7], [4]),
        TableResult.ranked(3, [2], [6]),
    ]
    standings = swiss_standings(everyone, results, seed=1, round=3)
    # MW%: 1 = 1, 3 = 5 = 2/3, 7 = 8 = 4/9, 2 = 4 = 1/3, 6 = 0.33 (floor).
    # OMW% 3 = (1/3 + 1 + 4/9)/3 = 16/27 beats OMW% 5 = (0.33 + 4/9 + 1)/3 = 1597/2700.
    # 7 and 8 tie on OMW% 13/27; OOMW% 8 = 4497/8100 beats 7's 4194/8100.
    # 2 (OMW% 1597/2700) is ahead of 4 (1297/2700).
    assert [s.player for s in standings] == [1, 3, 5, 8, 7, 2, 4, 6]
    omw = {s.player: s.tiebreaker("OMW%") for s in standings}
    assert (omw[3], omw[5], omw[7], omw[8]) == (F(16, 27), F(1597, 2700), F(13, 27), F(13, 27))
    oomw = {s.player: s.tiebreaker("OOMW%") for s in standings}
    assert (oomw[8], oomw[7]) == (F(4497, 8100), F(4194, 8100))
    assert (omw[2], omw[4]) == (F(1597, 2700), F(1297, 2700))


def test_a_bye_goes_to_the_lowest_player_without_one() -> None:
    players = [1, 2, 3, 4, 5]
    points = {1: 6, 2: 3, 3: 3, 4: 0, 5: 0}
    pairing = pair_swiss(players, points, {}, had_bye={5})
    assert pairing.bye == 4
    assert sorted(p for table in pairing.tables for p in table) == [1, 2, 3, 5]


def test_rematches_only_when_no_pairing_avoids_them() -> None:
    # Four players who all met: every pairing is a rematch; the fewest (all) are used.
    met = Counter({frozenset(pair): 1 for pair in [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]})
    pairing = pair_swiss([1, 2, 3, 4], dict.fromkeys([1, 2, 3, 4], 0), met)
    assert pairing.rematches == 2 and len(pairing.tables) == 2
    # Only 1–2 and 3–4 open: taken although the points would rather have 1–3.
    met = Counter({frozenset(pair): 1 for pair in [(1, 3), (1, 4), (2, 3), (2, 4)]})
    pairing = pair_swiss([1, 3, 2, 4], {1: 3, 3: 3, 2: 0, 4: 0}, met)
    assert set(pairing.tables) == {(1, 2), (3, 4)} and pairing.rematches == 0
    # One rematch forced out of two tables: only one is used.
    met = Counter({frozenset(pair): 1 for pair in [(1, 2), (1, 3), (1, 4)]})
    pairing = pair_swiss([1, 2, 3, 4], dict.fromkeys([1, 2, 3, 4], 0), met)
    assert pairing.rematches == 1


def perfect_matchings(players: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for index, other in enumerate(rest):
        for matching in perfect_matchings(rest[:index] + rest[index + 1 :]):
            yield [(first, other), *matching]


def brute_force(
    order: list[int], points: dict[int, F], met: Counter[frozenset[int]], byes: set[int]
) -> int | None:
    """The cheapest rematch-free pairing's cost by enumeration, or None if there is none."""
    n = len(order)
    position = {p: i + 1 for i, p in enumerate(order)}
    lowest = min(points.values())
    best = None
    for bye in [p for p in order if p not in byes] if n % 2 else [None]:
        rest = [p for p in order if p != bye]
        for matching in perfect_matchings(rest):
            if any(met[frozenset(pair)] for pair in matching):
                continue
            cost = sum(
                n * n * int(points[a] - points[b]) ** 2 + abs(position[a] - position[b])
                for a, b in matching
            )
            if bye is not None:
                cost += n * n * int(points[bye] - lowest + 1) ** 2 + (n - position[bye])
            best = cost if best is None else min(best, cost)
    return best


def play_event(players: int, seed: int, full_graph_up_to: int) -> None:
    """A whole seeded event with random results (a tenth drawn), checked every round."""
    rng = random.Random(seed)
    everyone = list(range(1, players + 1))
    results: list[TableResult] = []
    byes: Counter[int] = Counter()
    for number in range(1, swiss_rounds(players) + 1):
        order = pairing_order(everyone, results, MATCH_POINTS, seed, number)
        points = total_points(everyone, results, MATCH_POINTS)
        met = meetings(results)
        pairing = pair_swiss(order, points, met, had_bye(results))
        seated = [p for table in pairing.tables for p in table]
        assert sorted(seated + ([pairing.bye] if pairing.bye else [])) == everyone
        if players <= 10:
            cheapest = brute_force(order, points, met, had_bye(results))
            if cheapest is not None:
                assert pairing.rematches == 0
                assert pairing.cost == cheapest
        assert pairing.rematches == sum(1 for table in pairing.tables if met[frozenset(table)])
        if players <= full_graph_up_to:
            full = pair_swiss(order, points, met, had_bye(results), window=None)
            assert (pairing.cost, pairing.rematches) == (full.cost, full.rematches)
        for a, b in pairing.tables:
            roll = rng.random()
            if roll < 0.1:
                results.append(TableResult.ranked(number, [a, b]))
            else:
                winner, loser = (a, b) if roll < 0.55 else (b, a)
                results.append(TableResult.ranked(number, [winner], [loser]))
        if pairing.bye is not None:
            byes[pairing.bye] += 1
            results.append(TableResult.bye(number, pairing.bye))
    assert all(count == 1 for count in byes.values())
    if players % 2:
        assert len(byes) == swiss_rounds(players)


def event_sizes() -> list[tuple[int, int]]:
    """500 seeded events, most of them small so the file stays fast: sizes 2–16 cycling,
    every 21st 17–64."""
    sizes = []
    for seed in range(500):
        players = 2 + seed % 15 if seed % 21 else 17 + (seed * 7) % 48
        sizes.append((players, seed))
    return sizes


@pytest.mark.parametrize("chunk", range(10))
def test_seeded_events(chunk: int) -> None:
    for players, seed in event_sizes()[chunk::10]:
        # Every seeded event is also paired on the full graph: the windowed matching must
        # cost the same (the issue asks it for N ≤ 128; 65–128 are sampled below, as the
        # full graph of those takes seconds an event).
        play_event(players, seed, full_graph_up_to=64)


@pytest.mark.parametrize(("players", "seed"), [(65, 1), (97, 3), (128, 2)])
def test_windowed_pairing_costs_what_the_full_graph_does(players: int, seed: int) -> None:
    play_event(players, seed, full_graph_up_to=128)
