"""Late entry: a player may join a running event until round ⌈R/2⌉, with a loss for each
round already played (a ``missed`` result: no points, no opponent, but a round played for
MW% and OPP%, so a late entrant's percentages are not inflated by the rounds they skipped).
"""

from __future__ import annotations

import math

from bot.tournaments.results import Player, TableResult


def late_entry_open(next_round: int, rounds: int) -> bool:
    """Whether a player may still join before ``next_round`` of an event of ``rounds``."""
    return next_round <= math.ceil(rounds / 2)


def late_entry(player: Player, next_round: int) -> list[TableResult]:
    """The missed rounds a late entrant starts with: one loss per round already played."""
    return [TableResult.missed(number, player) for number in range(1, next_round)]
