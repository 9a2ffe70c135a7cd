"""Tournament pairing and ratings at scale.

- two-player Swiss of 512 over 9 rounds: seconds per round of the windowed matching (max,
  median), against the full graph on the same standings (time and cost, same run);
- pod Swiss of 512 over 9 rounds: seconds per round (max, median), and the repeats (Σm²)
  left against the plain top-down fill, whose time is the baseline;
- 10,000 mixed matches (2–8 seats, ties, bots, quitters) rated in memory, against bare
  openskill calls on the same matches (one strict order each, no tie averaging);
- the same matches finished in a SQLite store and rated through it as the bot does (one
  transaction each), then ``ratings rebuild`` of them all, against the in-memory figure;
- the tournament pictures in each language (issue 38): a 64-player double elimination half
  played and 64 players' standings, drawn in English, Korean and the pseudo-locale (their
  words from the catalogs), against English in the same run. ``python -m bench.tournaments
  pictures`` prints only these.

Each pairing and the in-memory rating also print their CPU time (``process_time``): on a
machine shared with other work the wall clock mostly measures the others, the CPU time
what the code costs.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TypeVar, cast

from bot.ratings import MODEL, Rating, SeatResult, rate_match
from bot.service import MatchService
from bot.service.ratings import Ratings, rebuild
from bot.store import SQLiteStore
from bot.tournaments import elimination as elim
from bot.tournaments.pictures import bracket_picture, standings_picture
from bot.tournaments.pods import chunk, pair_pods, table_sizes
from bot.tournaments.results import TableResult, had_bye, meetings
from bot.tournaments.scoring import MATCH_POINTS, POD_SCORES, Scoring, total_points
from bot.tournaments.standings import pairing_order, swiss_standings
from bot.tournaments.swiss import pair_swiss
from games.core.protocol import Game, Outcome, Placement
from games.core.text import t
from games.core.translations import ENGLISH, PSEUDO

Points = dict[int, Fraction]
Met = Counter[frozenset[int]]


T = TypeVar("T")


class Clock:
    """Wall and CPU seconds of each call timed with it."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def time(self, work: Callable[[], T]) -> T:
        wall, cpu = time.perf_counter(), time.process_time()
        done = work()
        self.cpu.append(time.process_time() - cpu)
        self.wall.append(time.perf_counter() - wall)
        return done

    def figures(self) -> str:
        return (
            f"max {max(self.wall):.3f} s, median {statistics.median(self.wall):.3f} s "
            f"(CPU max {max(self.cpu):.3f} s, median {statistics.median(self.cpu):.3f} s)"
        )


@dataclass
class Rounds:
    seconds: Clock
    baseline: Clock
    note: str

    def line(self, label: str, baseline: str) -> str:
        return (
            f"{label}: {self.seconds.figures()} a round (target < 1 s); {baseline} "
            f"{self.baseline.figures()}; {self.note}"
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
    windowed, full = Clock(), Clock()
    differ = 0

    def pair(order: list[int], points: Points, met: Met, byes: set[int]) -> list[tuple[int, ...]]:
        nonlocal differ
        pairing = windowed.time(lambda: pair_swiss(order, points, met, byes))
        reference = full.time(lambda: pair_swiss(order, points, met, byes, window=None))
        differ += (pairing.cost, pairing.rematches) != (reference.cost, reference.rematches)
        return [*pairing.tables, *([(pairing.bye,)] if pairing.bye is not None else [])]

    _event(players, rounds, MATCH_POINTS, pair)
    return Rounds(windowed, full, f"rounds costing more than the full graph: {differ}")


def pods_benchmark(players: int, rounds: int) -> Rounds:
    searched, plain = Clock(), Clock()
    left = plain_left = 0

    def pair(order: list[int], points: Points, met: Met, byes: set[int]) -> list[tuple[int, ...]]:
        nonlocal left, plain_left
        pairing = searched.time(
            lambda: pair_pods(order, points, met, byes, preferred=4, minimum=3, maximum=4)
        )
        fill = plain.time(lambda: chunk(order, table_sizes(len(order), 4, 3, 4)[0]))

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


def ratings_benchmark(count: int) -> tuple[Clock, Clock]:
    """(seconds to rate ``count`` mixed matches in memory, seconds of bare openskill calls
    on the same matches), wall and CPU."""
    matches = _matches(count)
    rated, bare = Clock(), Clock()

    def rate_all() -> None:
        ratings: dict[int, Rating] = {}
        for number, seats in enumerate(matches):
            for change in rate_match(f"m{number}", seats, ratings):
                ratings[change.user_id] = change.after

    def bare_calls() -> None:
        found: dict[int, tuple[float, float]] = {}
        for seats in matches:
            humans = [seat for seat in seats if seat.user_id is not None]
            if len(humans) < 2:
                continue
            teams = [[MODEL.rating(*found.get(seat.user_id, (25.0, 25 / 3)))] for seat in humans]
            out = MODEL.rate(teams, ranks=[float(seat.place) for seat in humans])
            for seat, team in zip(humans, out, strict=True):
                found[seat.user_id] = (team[0].mu, team[0].sigma)  # type: ignore[index]

    rated.time(rate_all)
    bare.time(bare_calls)
    return rated, bare


class _Placed:
    """A stand-in game whose final state is its placements: the store benchmark measures
    rating and storage, not any game's engine."""

    def load_state(self, raw: str) -> list[int]:
        return cast(list[int], json.loads(raw))

    def outcome(self, places: list[int]) -> Outcome:
        return Outcome(
            placements=tuple(Placement(seat=s, place=p, score=0) for s, p in enumerate(places)),
            reason="bench",
        )


async def store_ratings_benchmark(count: int) -> tuple[float, float, bool]:
    """(seconds to rate ``count`` finished matches through the store one by one, seconds to
    rebuild them all, whether the rebuild equals what was stored)."""
    games = {"placed": cast(Game, _Placed())}
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore(Path(folder) / "bench.db")
        await store.connect()
        stamp = "2026-01-01T00:00:00+00:00"
        matches, seats = [], []
        for number, placed in enumerate(_matches(count)):
            match_id = f"{number:010x}"
            matches.append(
                (match_id, number, json.dumps([s.place for s in placed]), stamp, 1e9 + number)
            )
            seats += [
                (match_id, i, s.user_id, f"P{i}", 2 if s.gone else 0) for i, s in enumerate(placed)
            ]
        # Setting the table is not measured: one bulk transaction of finished matches.
        await store.db.execute("BEGIN")
        await store.db.executemany(
            "INSERT INTO matches (id, guild_id, channel_id, game, status, host_id, options, "
            "seed, version, state, created_at, updated_at, finished_at) "
            "VALUES (?, 1, ?, 'placed', 'finished', 1, '{}', 1, 1, ?, ?, ?, ?)",
            [(m, channel, state, at, at, end) for m, channel, state, at, end in matches],
        )
        await store.db.executemany(
            "INSERT INTO seats (match_id, seat, user_id, name, away) VALUES (?, ?, ?, ?, ?)", seats
        )
        await store.db.execute("COMMIT")
        ratings = Ratings(MatchService(store, games))
        records = [await store.get(m[0]) for m in matches]
        start = time.perf_counter()
        for record in records:
            assert record is not None
            await ratings.rate(record)
        rated = time.perf_counter() - start
        stored = (await store.all_ratings(), await store.all_rating_changes())
        start = time.perf_counter()
        done = await rebuild(store, games)
        rebuilt = time.perf_counter() - start
        same = (
            done.changed == 0
            and (
                await store.all_ratings(),
                await store.all_rating_changes(),
            )
            == stored
        )
        await store.close()
    return rated, rebuilt, same


PICTURE_LANGUAGES = (ENGLISH, "ko", PSEUDO)


def half_played_double(players: int) -> elim.Tree:
    """A double elimination of ``players`` with its first half of matches decided (the
    better seed wins): winners, losers, byes and sides still to come all drawn."""
    bracket = elim.double_elimination(range(1, players + 1))
    results: dict[str, TableResult] = {}
    for _ in range(len(bracket.matches) // 2):
        ready = elim.progress(bracket, results).ready
        if not ready:
            break
        match_id, (winner, loser) = ready[0]
        results[match_id] = TableResult.ranked(1, [winner], [loser])
    return elim.Tree(bracket, elim.progress(bracket, results), results)


def picture_figures(smoke: bool) -> list[str]:
    """CPU milliseconds to draw the bracket and the standings in each language (the best
    of interleaved rounds), and the ratio to English measured in the same run."""
    players = 16 if smoke else 64
    names = {p: f"Player {p}" for p in range(1, players + 1)}
    tree = half_played_double(players)
    results = [
        TableResult.ranked(number, [a], [a + 1])
        for number in range(1, 4)
        for a in range(1, players, 2)
    ]
    standings = swiss_standings(list(names), results, 7, 3)
    title, subtitle = (
        t("{game} tournament", game="Cookie Chomper"),
        t("round {n} being played", n=4),
    )
    drawings: dict[str, Callable[[str], bytes]] = {
        "bracket": lambda language: bracket_picture(tree, names, title, subtitle, language),
        "standings": lambda language: standings_picture(
            standings, names, title, subtitle, None, language
        ),
    }
    best: dict[tuple[str, str], float] = {}
    for _ in range(2 if smoke else 5):
        for language in PICTURE_LANGUAGES:
            for what, draw in drawings.items():
                cpu = time.process_time()
                draw(language)
                took = time.process_time() - cpu
                best[(what, language)] = min(best.get((what, language), took), took)
    lines = []
    for what in ("bracket", "standings"):
        english = best[(what, ENGLISH)]
        said = ", ".join(
            f"{language} {best[(what, language)] * 1000:.1f} ms "
            f"({best[(what, language)] / english:.2f}x)"
            for language in PICTURE_LANGUAGES
        )
        lines.append(f"tournament {what} picture, {players} players (CPU, best round): {said}")
    return lines


def report(smoke: bool) -> list[str]:
    players, rounds, matches = (64, 4, 1_000) if smoke else (512, 9, 10_000)
    swiss = swiss_benchmark(players, rounds)
    pods = pods_benchmark(players, rounds)
    rated, bare = ratings_benchmark(matches)
    via_store, rebuilt, same = asyncio.run(store_ratings_benchmark(matches))
    memory = rated.wall[0]
    return [
        swiss.line(f"swiss {players} players, {rounds} rounds, windowed", "full graph"),
        pods.line(f"pods {players} players, {rounds} rounds, swaps", "top-down fill"),
        f"ratings: {matches:,} mixed matches rated in memory in {memory:.2f} s "
        f"({matches / memory:,.0f}/s; CPU {rated.cpu[0]:.2f} s; target < 2 s); bare openskill, "
        f"no tie averaging: {bare.wall[0]:.2f} s (CPU {bare.cpu[0]:.2f} s)",
        f"ratings via the store: {matches:,} matches rated one transaction each in "
        f"{via_store:.2f} s ({matches / via_store:,.0f}/s); rebuilt in {rebuilt:.2f} s "
        f"({'equal to' if same else 'DIFFERENT from'} the stored table); in memory: "
        f"{memory:.2f} s",
        *picture_figures(smoke),
    ]


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["pictures"]:
        print("\n".join(picture_figures(smoke="--smoke" in sys.argv)))
    else:
        print("\n".join(report(smoke=False)))
