"""Seeded lots: the only randomness of an event, so pairings replay exactly.

Every draw takes a string seed built from the event seed and where it is used; Python's
``random.Random`` hashes a string seed with SHA-512, stable across runs and versions.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from bot.tournaments.results import Player


def lot(players: Sequence[Player], seed: int, round: int) -> dict[Player, int]:
    """Each player's draw for ``round``: ties left after every tiebreaker go by it."""
    drawn = sorted(players)
    random.Random(f"lot:{seed}:{round}").shuffle(drawn)
    return {player: index for index, player in enumerate(drawn)}


def rated_lot(
    players: Sequence[Player], ratings: Mapping[Player, int], seed: int, round: int
) -> dict[Player, int]:
    """A rating-seeded event's draw for ``round``: higher rating first, equal ratings by the
    lot. It stands where the lot does, so pairing and seeding code takes either unchanged.
    ``ratings`` holds every player's displayed rating (the service fills in the default)."""
    drawn = lot(players, seed, round)
    ordered = sorted(players, key=lambda player: (-ratings[player], drawn[player]))
    return {player: index for index, player in enumerate(ordered)}


def seat_order(players: Sequence[Player], seed: int, round: int, table: int) -> tuple[Player, ...]:
    """A Swiss or pod table's seeded shuffle: its seats in round 1, and the last tiebreak
    of ``seating`` after."""
    seats = list(players)
    random.Random(f"seats:{seed}:{round}:{table}").shuffle(seats)
    return tuple(seats)
