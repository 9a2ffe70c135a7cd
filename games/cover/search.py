"""Cover Your Assets' hints to the generic search (games/core/search.py).

Whole matches take hundreds of moves, so a playout to the end leaves a tenth of a second
room for one world or two: too few to tell candidates apart. A playout stops after three
moves a player instead, and its end is valued by where the bot's money stands among the
table's (the totals of rounds played plus the stacks, all face up): the share of opponents
it is ahead of, a tie counting half.
"""

from __future__ import annotations

from games.core.search import Search
from games.cover.cards import CoverCards
from games.cover.state import CoverState

# The playout's length, in moves for each player at the table. Measured against the
# heuristic (24 games each, docs/benchmarks.md): 3 moves a player won 74 % of the pairwise
# duels, 6 moves 67 % (half as many worlds in the time); valuing the lead in dollars as well
# as the rank blurred it (51 % and 66 %).
MOVES_A_PLAYER = 3


class AssetsSearch(Search[CoverState]):
    """Short playouts judged by the money on the table."""

    def stopped(self, world: CoverState, sim: CoverState, played: int, horizon: int | None) -> bool:
        limit = horizon if horizon is not None else MOVES_A_PLAYER * len(sim.players)
        return super().stopped(world, sim, played, limit)

    def estimate(self, sim: CoverState, seat: int) -> float:
        money = [self.money(sim, s) for s in range(len(sim.players))]
        others = [m for s, m in enumerate(money) if s != seat]
        ahead = sum(1.0 if money[seat] > m else 0.5 if money[seat] == m else 0.0 for m in others)
        return ahead / max(1, len(others))

    def money(self, sim: CoverState, seat: int) -> int:
        rules: CoverCards = self.game  # type: ignore[assignment]
        return sim.totals[seat] + rules.stack_value(sim.players[seat])


__all__ = ["AssetsSearch"]
