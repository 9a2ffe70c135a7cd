"""Pod Swiss for 3–8 player games: tables filled top-down, then improved by swaps.

Tables: ⌈N/s⌉ of them (s the preferred size), sizes differing by at most one, larger on
top (17 → 4/4/3/3/3); the organiser may ask for ⌊N/s⌋ larger ones (5/4/4/4). If a size
falls outside the game's range, fewer and larger tables first, then more; byes only when
no split of the field fits. Players fill the tables in standings order, then two players
of tables up to 8 apart swap while that lowers the total cost: per table, over each pair,
``30·m² + (Δp/6)²`` with m the pair's earlier meetings and Δp their points gap.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bot.tournaments.results import Player

REACH = 8  # tables apart that may swap players
MEETING = 30  # cost of a pair's first repeat (m² grows it)
EPSILON = 1e-9  # costs are floats; a swap must gain more than rounding noise


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
    tables = chunk(seated, sizes)

    neighbours: dict[Player, dict[Player, int]] = {p: {} for p in seated}
    for pair, times in met.items():
        a, b = tuple(pair)
        if a in neighbours and b in neighbours:
            neighbours[a][b] = times
            neighbours[b][a] = times
    level = {p: float(points[p]) / 6 for p in seated}

    def pair_cost(a: Player, b: Player) -> float:
        m = neighbours[a].get(b, 0)
        return MEETING * m * m + (level[a] - level[b]) ** 2

    # cost[p][t]: what p adds to table t's cost, p itself excluded; kept for the tables
    # within reach of p's own, the only ones a swap asks about.
    home = {p: index for index, table in enumerate(tables) for p in table}
    near = {
        t: range(max(0, t - REACH), min(len(tables), t + REACH + 1)) for t in range(len(tables))
    }
    cost = {
        p: {t: sum(pair_cost(p, q) for q in tables[t] if q != p) for t in near[home[p]]}
        for p in seated
    }

    def move(player: Player, source: int, target: int) -> None:
        """Account for ``player`` leaving table ``source`` for ``target``."""
        for t, sign in ((source, -1.0), (target, 1.0)):
            for u in near[t]:
                for q in tables[u]:
                    if q != player:
                        cost[q][t] += sign * pair_cost(q, player)

    improved = True
    while improved:
        improved = False
        for a in range(len(tables)):
            for b in range(a + 1, min(len(tables), a + REACH + 1)):
                for i in range(len(tables[a])):
                    for j in range(len(tables[b])):
                        x, y = tables[a][i], tables[b][j]
                        gain = (
                            cost[x][a] + cost[y][b] - cost[y][a] - cost[x][b] + 2 * pair_cost(x, y)
                        )
                        if gain <= EPSILON:
                            continue
                        move(x, a, b)
                        move(y, b, a)
                        tables[a][i], tables[b][j] = y, x
                        cost[x] = {
                            t: sum(pair_cost(x, q) for q in tables[t] if q != x) for t in near[b]
                        }
                        cost[y] = {
                            t: sum(pair_cost(y, q) for q in tables[t] if q != y) for t in near[a]
                        }
                        home[x], home[y] = b, a
                        improved = True
    total = sum(table_cost(table, points, met) for table in tables)
    return PodPairing(
        tables=tuple(tuple(table) for table in tables),
        byes=tuple(p for p in order if p in byes),
        cost=total,
    )
