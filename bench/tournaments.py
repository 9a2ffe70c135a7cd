"""Tournament pairing and ratings at scale.

- two-player Swiss of 512 over 9 rounds: seconds per round of the windowed matching (max,
  median), against the full graph on the same standings (time and cost, same run);
- pod Swiss of 512 over 9 rounds: seconds per round (max, median), and the repeats (Σm²)
  left against the plain top-down fill, whose time is the baseline;
- 10,000 mixed matches (2–8 seats, ties, bots, quitters) rated in memory, against bare
  openskill calls on the same matches (one strict order each, no tie averaging).
"""

from __future__ import annotations

import itertools
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.ratings import MODEL, Rating, SeatResult, rate_match
from bot.tournaments.pods import chunk, pair_pods, table_sizes
from bot.tournaments.results import TableResult, had_bye, meetings
from bot.tournaments.scoring import MATCH_POINTS, POD_SCORES, Scoring, total_points
from bot.tournaments.standings import pairing_order
from bot.tournaments.swiss import pair_swiss

Points = dict[int, Fraction]
Met = Counter[frozenset[int]]


@dataclass
class Rounds:
    seconds: list[float]
    baseline: list[float]
    note: str

    def line(self, label: str, baseline: str) -> str:
        return (
            f"{label}: max {max(self.seconds):.3f} s, median "
            f"{statistics.median(self.seconds):.3f} s a round (target < 1 s); {baseline} max "
            f"{max(self.baseline):.3f} s, median {statistics.median(self.baseline):.3f} s; "
            f"{self.note}"
        )


def _event(
    players: int,
    rounds: int,
    scoring: Scoring,
    pair: Callable[[list[int], Points, Met, set[int]], list[tuple[int, ...]]],
) -> None:
    rng = random.Random(players)
    everyone = list(range(1, players + 1))
    results: list[TableResult] = []
    for number in range(1, rounds + 1):
        order = pairing_order(everyone, results, scoring, 1, number)
        tables = pair(
            order, total_points(everyone, results, scoring), meetings(results), had_bye(results)
        )
        for table in tables:
            if len(table) == 1:
                results.append(TableResult.bye(number, table[0]))
                continue
            finish = list(table)
            rng.shuffle(finish)
            if rng.random() < 0.1:
                results.append(TableResult.ranked(number, finish[:2], *[[p] for p in finish[2:]]))
            else:
                results.append(TableResult.ranked(number, *[[p] for p in finish]))


def swiss_benchmark(players: int, rounds: int) -> Rounds:
    windowed: list[float] = []
    full: list[float] = []
    differ = 0

    def pair(order: list[int], points: Points, met: Met, byes: set[int]) -> list[tuple[int, ...]]:
        nonlocal differ
        start = time.perf_counter()
        pairing = pair_swiss(order, points, met, byes)
        windowed.append(time.perf_counter() - start)
        start = time.perf_counter()
        reference = pair_swiss(order, points, met, byes, window=None)
        full.append(time.perf_counter() - start)
        differ += (pairing.cost, pairing.rematches) != (reference.cost, reference.rematches)
        return [*pairing.tables, *([(pairing.bye,)] if pairing.bye is not None else [])]

    _event(players, rounds, MATCH_POINTS, pair)
    return Rounds(windowed, full, f"rounds costing more than the full graph: {differ}")


def pods_benchmark(players: int, rounds: int) -> Rounds:
    searched: list[float] = []
    plain: list[float] = []
    left = plain_left = 0

    def pair(order: list[int], points: Points, met: Met, byes: set[int]) -> list[tuple[int, ...]]:
        nonlocal left, plain_left
        start = time.perf_counter()
        pairing = pair_pods(order, points, met, byes, preferred=4, minimum=3, maximum=4)
        searched.append(time.perf_counter() - start)
        start = time.perf_counter()
        sizes, _ = table_sizes(len(order), 4, 3, 4)
        fill = chunk(order, sizes)
        plain.append(time.perf_counter() - start)

        def repeats(tables: Sequence[Sequence[int]]) -> int:
            return sum(
                met.get(frozenset(pair), 0) ** 2
                for table in tables
                for pair in itertools.combinations(table, 2)
            )

        left += repeats(pairing.tables)
        plain_left += repeats(fill)
        return [*pairing.tables, *[(p,) for p in pairing.byes]]

    _event(players, rounds, POD_SCORES, pair)
    return Rounds(searched, plain, f"Σm² over the event {left} (top-down fill: {plain_left})")


def _matches(count: int) -> list[list[SeatResult]]:
    rng = random.Random(7)
    users = list(range(1, 2_001))
    matches = []
    for _ in range(count):
        size = rng.choice([2, 2, 2, 3, 4, 4, 5, 6, 8])
        seated = rng.sample(users, size)
        places = (
            sorted(rng.randint(1, size) for _ in range(size))
            if rng.random() < 0.15
            else list(range(1, size + 1))
        )
        seats = []
        for user, place in zip(seated, places, strict=True):
            bot = rng.random() < 0.05
            seats.append(SeatResult(None if bot else user, place, gone=rng.random() < 0.03))
        matches.append(seats)
    return matches


def ratings_benchmark(count: int) -> tuple[float, float]:
    """(matches a second rated, bare openskill calls a second on the same matches)."""
    matches = _matches(count)
    ratings: dict[int, Rating] = {}
    start = time.perf_counter()
    for number, seats in enumerate(matches):
        for change in rate_match(f"m{number}", seats, ratings):
            ratings[change.user_id] = change.after
    rated = count / (time.perf_counter() - start)
    bare: dict[int, tuple[float, float]] = {}
    start = time.perf_counter()
    for seats in matches:
        humans = [seat for seat in seats if seat.user_id is not None]
        if len(humans) < 2:
            continue
        teams = [[MODEL.rating(*bare.get(seat.user_id, (25.0, 25 / 3)))] for seat in humans]
        out = MODEL.rate(teams, ranks=[float(seat.place) for seat in humans])
        for seat, team in zip(humans, out, strict=True):
            bare[seat.user_id] = (team[0].mu, team[0].sigma)  # type: ignore[index]
    baseline = count / (time.perf_counter() - start)
    return rated, baseline


def report(smoke: bool) -> list[str]:
    players, rounds, matches = (64, 4, 1_000) if smoke else (512, 9, 10_000)
    swiss = swiss_benchmark(players, rounds)
    pods = pods_benchmark(players, rounds)
    rated, bare = ratings_benchmark(matches)
    return [
        swiss.line(f"swiss {players} players, {rounds} rounds, windowed", "full graph"),
        pods.line(f"pods {players} players, {rounds} rounds, swaps", "top-down fill"),
        f"ratings: {matches:,} mixed matches rated in memory in {matches / rated:.2f} s "
        f"({rated:,.0f}/s, target < 2 s); bare openskill, no tie averaging: "
        f"{matches / bare:.2f} s ({bare:,.0f}/s)",
    ]


if __name__ == "__main__":
    print("\n".join(report(smoke=False)))
