"""Swiss + top cut: who goes on from the Swiss standings, and how they are seated.

Seed 1 takes seat 0 (the first move) in every cut table; Swiss tables share seat 0 out
instead (``seating``).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.tournaments.results import Player
from bot.tournaments.seeding import snake


def default_cut(players: int) -> int:
    """Top 8 from 17 players, top 4 from 9, no cut below."""
    if players >= 17:
        return 8
    if players >= 9:
        return 4
    return 0


def cut(order: Sequence[Player], size: int, excluded: Collection[Player] = ()) -> list[Player]:
    """The top ``size`` of the final Swiss standings, in seed order; dropped and bot
    entrants (``excluded``) are skipped and the next in line goes instead."""
    return [player for player in order if player not in excluded][:size]


def final_table(seeds: Sequence[Player]) -> tuple[Player, ...]:
    """A final table of the cut: seats in seed order, seed 1 in seat 0."""
    return tuple(seeds)


def semi_final_tables(seeds: Sequence[Player]) -> list[tuple[Player, ...]]:
    """Sixteen in four snaked semi-final tables (1 8 9 16 | 2 7 10 15 | 3 6 11 14 |
    4 5 12 13); each table's winner goes to the final table."""
    if len(seeds) != 16:
        raise ValueError("semi-final tables take the top 16")
    return [tuple(table) for table in snake(seeds, [4, 4, 4, 4])]
