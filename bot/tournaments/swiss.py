"""Swiss pairing for two-player tables: a minimum-cost perfect matching (networkx).

Players come in standings order (points, then the lot). Pairing i with j costs
``n²·Δp² + |i − j|``: the points gap dominates, the standings gap breaks ties among equal
points. With an odd field a phantom node takes the bye at ``n²·(p − p_min + 1)² + (n − i)``,
only for players without one, so the lowest player on the fewest points gets it. Players who
met have no edge. Edges first reach the next 12 in standings order, doubled until a perfect
matching exists; only when the full graph has none do rematch edges come in, each costing
more than any rematch-free pairing, so the fewest are used.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import networkx as nx

from bot.tournaments.results import Player

WINDOW = 12
BYE = "bye"  # the phantom node; players are ints, so it cannot collide
# Floats hold every whole number below this exactly.
EXACT_FLOAT = 2**53


class _Graph(nx.Graph):
    """A graph whose ``graph[v]`` is the adjacency dict itself, not a fresh read-only view.

    ``max_weight_matching`` reads an edge's weight through ``graph[v][w]`` for every slack
    it computes, hundreds of thousands of times a round; the view it builds each time was
    a third of the pairing's time. The graph is private to one pairing and only read."""

    def __getitem__(self, node: object) -> dict[object, dict[str, object]]:  # type: ignore[override]
        return self._adj[node]  # type: ignore[no-any-return]


def swiss_rounds(players: int) -> int:
    """⌈log2 N⌉, at least 3, at most N − 1 (nobody can play more distinct opponents)."""
    return max(1, min(max(math.ceil(math.log2(players)), 3), players - 1))


@dataclass(frozen=True)
class SwissPairing:
    """Tables best first (the better-standing player first), the bye, how many tables are
    rematches (announced when > 0), the pairing's cost and the window that found it
    (None: the full graph)."""

    tables: tuple[tuple[Player, Player], ...]
    bye: Player | None
    rematches: int
    cost: int
    window: int | None


def _integral(points: Fraction | int) -> int:
    if Fraction(points).denominator != 1:
        raise ValueError("two-player Swiss points are whole numbers")
    return int(points)


def pair_swiss(
    order: Sequence[Player],
    points: Mapping[Player, Fraction | int],
    met: Mapping[frozenset[Player], int],
    had_bye: Collection[Player] = (),
    *,
    window: int | None = WINDOW,
) -> SwissPairing:
    """Pair ``order`` (standings order, best first). ``window=None`` searches the full
    graph at once (the benchmark's and the tests' reference)."""
    n = len(order)
    if n < 2:
        return SwissPairing((), order[0] if order else None, 0, 0, window)
    position = {player: index + 1 for index, player in enumerate(order)}
    score = {player: _integral(points[player]) for player in order}
    lowest = min(score.values())
    eligible = [p for p in order if p not in had_bye] or list(order)

    def pair_cost(a: Player, b: Player) -> int:
        return n * n * (score[a] - score[b]) ** 2 + abs(position[a] - position[b])

    def bye_cost(a: Player) -> int:
        return n * n * (score[a] - lowest + 1) ** 2 + (n - position[a])

    # Every cost is below ``top``; a rematch costs more than ``tables`` such edges together.
    top = n * n * (max(score.values()) - lowest + 1) ** 2 + n + 1
    rematch = top * (n // 2 + 1)

    def solve(reach: int, rematches: bool) -> dict[Player | str, Player | str] | None:
        graph = _Graph()
        costs: dict[frozenset[Player | str], int] = {}
        for index, a in enumerate(order):
            for b in order[index + 1 : index + 1 + reach]:
                times = met.get(frozenset((a, b)), 0)
                if times and not rematches:
                    continue
                costs[frozenset((a, b))] = pair_cost(a, b) + rematch * times
        if n % 2:
            for a in eligible:
                costs[frozenset((a, BYE))] = bye_cost(a)
        ceiling = max(costs.values(), default=0) + 1
        # Float weights holding whole numbers give the same matching as ints, as long as
        # every dual and slack (within a few n·ceiling) stays exact, but skip networkx's
        # optional re-check of the optimum, run for int weights only: a tenth of the time.
        kind = float if 8 * (n + 1) * ceiling < EXACT_FLOAT else int
        for edge, cost in costs.items():
            graph.add_edge(*sorted(edge, key=str), weight=kind(ceiling - cost))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) < n + n % 2:
            return None
        mate: dict[Player | str, Player | str] = {}
        for a, b in matching:
            mate[a], mate[b] = b, a
        return mate

    reach = window or n
    mate = None
    while True:
        mate = solve(reach, rematches=False)
        if mate is not None or reach >= n - 1:
            break
        reach *= 2
    if mate is None:
        mate = solve(n, rematches=True)
        assert mate is not None  # the complete graph always has a perfect matching
    tables, bye, rematches, cost = [], None, 0, 0
    for player in order:
        other = mate[player]
        if other == BYE:
            bye = player
            cost += bye_cost(player)
        elif position[player] < position[other]:  # type: ignore[index]
            assert isinstance(other, int)
            tables.append((player, other))
            cost += pair_cost(player, other)
            rematches += met.get(frozenset((player, other)), 0) > 0
    return SwissPairing(
        tables=tuple(tables),
        bye=bye,
        rematches=rematches,
        cost=cost,
        window=None if reach >= n - 1 else reach,
    )
