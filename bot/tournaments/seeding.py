"""Seed orders: the standard bracket order and the snake across tables."""

from __future__ import annotations

from collections.abc import Sequence

from bot.tournaments.results import Player


def bracket_positions(size: int) -> list[int]:
    """Seeds (1-based) in bracket order for a power-of-two ``size``: neighbours meet in the
    first round (1–16, 8–9, 5–12, 4–13 …), seeds 1 and 2 only in the final, the top four
    in four different quarters. Each seed s of the half-size bracket is joined by its
    complement 2k + 1 − s; on odd positions the complement goes first, which keeps the
    better of two neighbouring quarters' winners apart."""
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket holds a power of two")
    positions = [1]
    while len(positions) < size:
        total = 2 * len(positions) + 1
        grown: list[int] = []
        for index, seed in enumerate(positions):
            pair = [seed, total - seed]
            grown += pair[::-1] if index % 2 else pair
        positions = grown
    return positions


def bracket_size(players: int) -> int:
    """2^⌈log2 N⌉: the missing seeds are byes, which fall to the top seeds."""
    size = 1
    while size < players:
        size *= 2
    return size


def snake(order: Sequence[Player], sizes: Sequence[int]) -> list[list[Player]]:
    """Deal players in seed order across tables of ``sizes``, forward then back (1 2 3 3 2
    1 …), skipping full tables: every table gets a fair share of the top seeds. Within a
    table players stay in seed order, so seed 1 takes seat 0."""
    tables: list[list[Player]] = [[] for _ in sizes]
    lap = list(range(len(sizes)))
    queue = list(order)
    forward = True
    while queue:
        for index in lap if forward else reversed(lap):
            if queue and len(tables[index]) < sizes[index]:
                tables[index].append(queue.pop(0))
        forward = not forward
    return tables
