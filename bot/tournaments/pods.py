"""Pod Swiss for 3–8 player games: tables filled top-down, then improved by swaps.

Tables: ⌈N/s⌉ of them (s the preferred size), sizes differing by at most one, larger on
top (17 → 4/4/3/3/3); the organiser may ask for ⌊N/s⌋ larger ones (5/4/4/4). If a size
falls outside the game's range, fewer and larger tables first, then more; byes only when
no split of the field fits. Players fill the tables in standings order, then two players
of tables up to 8 apart swap while that lowers the total cost: per table, over each pair,
``30·m² + (Δp/6)²`` with m the pair's earlier meetings and Δp their points gap.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.tournaments.results import Player

REACH = 8  # tables apart that may swap players
MEETING = 30  # cost of a pair's first repeat (m² grows it)
EPSILON = 1e-9  # costs are floats; a swap must gain more than rounding noise
KICKS = 40  # perturbations tried when swaps stall on a repeat


def pod_rounds(players: int, size: int) -> int:
    """⌈log_s N⌉ + 1."""
    rounds, reach = 0, 1
    while reach < players:
        rounds, reach = rounds + 1, reach * size
    return rounds + 1


def _split(players: int, tables: int) -> tuple[int, ...]:
    base, extra = divmod(players, tables)
    return tuple(base + 1 if index < extra else base for index in range(tables))


def table_sizes(
    players: int, preferred: int, minimum: int, maximum: int, *, larger: bool = False
) -> tuple[tuple[int, ...], int]:
    """(table sizes best table first, number of byes)."""
    for byes in range(players + 1):
        seated = players - byes
        if seated == 0:
            break
        first = max(1, seated // preferred if larger else -(-seated // preferred))
        # Fewer, larger tables if the minimum demands; then more, smaller ones.
        for tables in [*range(first, 0, -1), *range(first + 1, seated + 1)]:
            sizes = _split(seated, tables)
            if minimum <= sizes[-1] and sizes[0] <= maximum:
                return sizes, byes
    return (), players


@dataclass(frozen=True)
class PodPairing:
    tables: tuple[tuple[Player, ...], ...]
    byes: tuple[Player, ...]
    cost: float


def table_cost(
    table: Sequence[Player],
    points: Mapping[Player, Fraction],
    met: Mapping[frozenset[Player], int],
) -> float:
    total = 0.0
    for index, a in enumerate(table):
        for b in table[index + 1 :]:
            m = met.get(frozenset((a, b)), 0)
            total += MEETING * m * m + (float(points[a] - points[b]) / 6) ** 2
    return total


def chunk(order: Sequence[Player], sizes: Sequence[int]) -> list[list[Player]]:
    """Tables filled top-down in standings order: the pairing before any swap."""
    tables, start = [], 0
    for size in sizes:
        tables.append(list(order[start : start + size]))
        start += size
    return tables


class _Swaps:
    """Tables under improvement. ``cost[p][t]`` is what player p adds to table t's cost (p
    itself excluded), kept for the tables within reach of p's own: the only ones a swap
    asks about, so a candidate swap costs four look-ups."""

    def __init__(
        self,
        tables: list[list[Player]],
        points: Mapping[Player, Fraction],
        met: Mapping[frozenset[Player], int],
    ) -> None:
        self.tables = tables
        players = [p for table in tables for p in table]
        self.neighbours: dict[Player, dict[Player, int]] = {p: {} for p in players}
        for pair, times in met.items():
            a, b = tuple(pair)
            if a in self.neighbours and b in self.neighbours:
                self.neighbours[a][b] = self.neighbours[b][a] = times
        self.level = {p: float(points[p]) / 6 for p in players}
        count = len(tables)
        self.near = {t: range(max(0, t - REACH), min(count, t + REACH + 1)) for t in range(count)}
        self.rebuild()

    def pair_cost(self, a: Player, b: Player) -> float:
        m = self.neighbours[a].get(b, 0)
        return MEETING * m * m + (self.level[a] - self.level[b]) ** 2

    def rebuild(self) -> None:
        self.cost = {
            p: self.reach_cost(p, home) for home, table in enumerate(self.tables) for p in table
        }

    def reach_cost(self, player: Player, home: int) -> dict[int, float]:
        return {
            t: sum(self.pair_cost(player, q) for q in self.tables[t] if q != player)
            for t in self.near[home]
        }

    def total(self) -> float:
        return sum(
            self.pair_cost(a, b)
            for table in self.tables
            for index, a in enumerate(table)
            for b in table[index + 1 :]
        )

    def swap(self, a: int, i: int, b: int, j: int) -> None:
        x, y = self.tables[a][i], self.tables[b][j]
        for player, source, target in ((x, a, b), (y, b, a)):
            for t, sign in ((source, -1.0), (target, 1.0)):
                for u in self.near[t]:
                    for q in self.tables[u]:
                        if q not in (x, y):
                            self.cost[q][t] += sign * self.pair_cost(q, player)
        self.tables[a][i], self.tables[b][j] = y, x
        self.cost[x] = self.reach_cost(x, b)
        self.cost[y] = self.reach_cost(y, a)

    def descend(self) -> None:
        """Swap while a swap lowers the total cost (first improvement, in table order)."""
        tables, cost = self.tables, self.cost
        improved = True
        while improved:
            improved = False
            for a in range(len(tables)):
                for b in range(a + 1, min(len(tables), a + REACH + 1)):
                    for i in range(len(tables[a])):
                        for j in range(len(tables[b])):
                            x, y = tables[a][i], tables[b][j]
                            gain = (
                                cost[x][a]
                                + cost[y][b]
                                - cost[y][a]
                                - cost[x][b]
                                + 2 * self.pair_cost(x, y)
                            )
                            if gain > EPSILON:
                                self.swap(a, i, b, j)
                                improved = True

    def repeats(self) -> list[tuple[int, int]]:
        """(table, seat) of every player sitting with someone met before."""
        return [
            (t, i)
            for t, table in enumerate(self.tables)
            for i, p in enumerate(table)
            if any(self.neighbours[p].get(q) for q in table if q != p)
        ]


def pair_pods(
    order: Sequence[Player],
    points: Mapping[Player, Fraction],
    met: Mapping[frozenset[Player], int],
    had_bye: Collection[Player] = (),
    *,
    preferred: int,
    minimum: int,
    maximum: int,
    larger: bool = False,
) -> PodPairing:
    """Pair ``order`` (standings order, best first) into pods."""
    sizes, bye_count = table_sizes(len(order), preferred, minimum, maximum, larger=larger)
    # Byes go to the lowest standing players who have had none (then the lowest anyway).
    lowest_first = [p for p in reversed(order) if p not in had_bye]
    lowest_first += [p for p in reversed(order) if p in had_bye]
    byes = set(lowest_first[:bye_count])
    seated = [p for p in order if p not in byes]
    search = _Swaps(chunk(seated, sizes), points, met)
    search.descend()
    best, best_cost = [list(t) for t in search.tables], search.total()
    # Swaps alone can stall with a repeat that a longer chain of moves would remove: kick
    # a repeating player to a nearby table and descend again, keeping only a cheaper
    # result. The kicks are drawn from the order itself, so a pairing replays exactly.
    rng = random.Random(f"pods:{list(order)}")
    for _ in range(KICKS):
        stuck = search.repeats()
        if not stuck or len(search.tables) < 2:
            break
        a, i = rng.choice(stuck)
        b = rng.choice([t for t in search.near[a] if t != a])
        search.swap(a, i, b, rng.randrange(len(search.tables[b])))
        search.descend()
        total = search.total()
        if total < best_cost - EPSILON:
            best, best_cost = [list(t) for t in search.tables], total
        else:
            search.tables = [list(t) for t in best]
            search.rebuild()
    # Table 1 is the top table again, its players in standings order.
    rank = {player: index for index, player in enumerate(order)}
    ranked = sorted((sorted(t, key=rank.__getitem__) for t in best), key=lambda t: rank[t[0]])
    return PodPairing(
        tables=tuple(tuple(table) for table in ranked),
        byes=tuple(p for p in order if p in byes),
        cost=best_cost,
    )
